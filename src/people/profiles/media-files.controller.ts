import { Readable } from 'node:stream';
import { Body, Controller, Get, Header, HttpCode, Inject, Post, Query, Req, StreamableFile } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { Public, RequirePermissions } from '../../platform/access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { MULTIPART_ROUTE, readUploadedFile } from '../../platform/common/upload';
import { UuidParam } from '../../platform/common/validators';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import {
  LinkProfileDocumentDto,
  MediaFileResponseDto,
  MediaLinkQueryDto,
  MediaFileUploadDto,
  ProfileDocumentIdentifierDto,
  ProfileDocumentsResponseDto,
} from './dto/media.dto';
import { ProfileDocumentPageDto, ProfileDocumentResponseDto, ProfileDocumentViewDto } from './dto/staff.dto';
import { MediaFilesService } from './media-files.service';
import type { ServedFile } from '../../platform/files/file-sources.service';

const DOCUMENT_ID = { name: 'id', schema: { type: 'string', format: 'uuid' } } as const;
const NO_DOCUMENT = { description: 'exception.profile_document.not_found', type: ErrorResponseDto };
const DECIDED = { description: 'exception.profile_document.decided: already approved or declined', type: ErrorResponseDto };
const NO_FILE = { description: 'exception.media_file.not_found: no such file, or not one the caller may see', type: ErrorResponseDto };

@ApiTags('media-files')
@Controller('media-files')
export class MediaFilesController {
  constructor(
    private readonly media: MediaFilesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Uploads a scan of a document: a JPEG, PNG or PDF (told by its content), in the form field `file`. Link it with POST /profile-documents. */
  @Post()
  @RouteConfig(MULTIPART_ROUTE)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: 'Upload a media file', operationId: 'uploadMediaFile' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: MediaFileUploadDto })
  @ApiCreatedResponse({ type: MediaFileResponseDto })
  @ApiPayloadTooLargeResponse({ description: 'exception.media_file.too_large: over MEDIA_FILE_MAX_BYTES', type: ErrorResponseDto })
  @ApiUnsupportedMediaTypeResponse({
    description:
      'exception.media_file.unsupported_type: not a JPEG, PNG or PDF; exception.request.unsupported_media_type: not multipart/form-data',
    type: ErrorResponseDto,
  })
  async upload(@Req() request: ApiRequest, @CurrentPrincipal() principal: Principal): Promise<MediaFileResponseDto> {
    const limit = this.config.mediaFileMaxBytes;
    const upload = await readUploadedFile(
      request,
      'file',
      limit,
      () => new ApiError('exception.media_file.too_large', `The file is larger than ${limit} bytes`),
    );
    return { status: 'ok', message: 'File uploaded', file: await this.media.upload(principal, upload) };
  }

  /**
   * A file's bytes, with its type: the uploader's own, or anyone's for staff with PROFILE_VIEWER, or a file another
   * module produced for the caller (a data export's CSV by its fileId). `name` is for the browser — or, without an
   * Authorization header, the caller's token: the family's clients link scans as `/media-files/{id}/{token}` (an
   * image sends no header). The request log writes that segment redacted.
   */
  @Get(':id/:name')
  // An uploaded PDF opened from the API's origin runs nothing there and loads nothing.
  @Header('Content-Security-Policy', "default-src 'none'; sandbox")
  // The family's file links carry the caller's token in the path: never sent on as a referrer (and, as every API
  // answer, never cached: Cache-Control no-store).
  @Header('Referrer-Policy', 'no-referrer')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiParam({ name: 'name', schema: { type: 'string' } })
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: 'Download a media file', operationId: 'downloadMediaFile' })
  @ApiOkResponse({
    description: 'The file',
    content: {
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      // A file another module produced for the caller: a data export's CSV.
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiNotFoundResponse(NO_FILE)
  async download(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<StreamableFile> {
    return streamed(await this.media.download(principal, id));
  }
}

/** A served file as the answer's body, shown inline under its name. */
function streamed(file: ServedFile): StreamableFile {
  const disposition = `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`;
  return Buffer.isBuffer(file.content)
    ? new StreamableFile(file.content, { type: file.mediaType, length: file.content.length, disposition })
    : new StreamableFile(Readable.from(file.content), { type: file.mediaType, disposition });
}

@ApiTags('media-files')
@Controller('media-links')
export class MediaLinksController {
  constructor(private readonly media: MediaFilesService) {}

  /**
   * A document's scan by the signed link the staff document view answers as its `file.url` (valid 15 minutes), for
   * review pages that show it as an image: an `<img>` sends no Authorization header. An expired or altered link is a
   * 404, as for no such file.
   */
  @Get(':id/:name')
  @Public()
  @Header('Content-Security-Policy', "default-src 'none'; sandbox")
  @Header('Referrer-Policy', 'no-referrer')
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiParam({ name: 'name', schema: { type: 'string' } })
  @ApiOperation({ summary: 'Download a media file by a signed link', operationId: 'downloadLinkedMediaFile' })
  @ApiOkResponse({
    description: 'The file',
    content: {
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiNotFoundResponse({
    description: 'exception.media_file.not_found: no such file, or the link has expired or is not its own',
    type: ErrorResponseDto,
  })
  async download(@UuidParam('id') id: string, @Query() query: MediaLinkQueryDto): Promise<StreamableFile> {
    return streamed(await this.media.downloadLinked(id, query.expires, query.signature));
  }
}

@ApiTags('profile-documents')
@Controller('profile-documents')
export class ProfileDocumentsController {
  constructor(private readonly media: MediaFilesService) {}

  /** The caller's identity documents: each uploaded file linked to their profile, and a tax id given by its number. */
  @Get()
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: "The caller's profile documents", operationId: 'getProfileDocuments' })
  @ApiOkResponse({ type: ProfileDocumentsResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<ProfileDocumentsResponseDto> {
    return { status: 'ok', message: 'OK', documents: await this.media.documents(principal) };
  }

  /** Links an uploaded file of the caller as their document of `type`, pending review (it replaces one of that type). */
  @Post()
  @HttpCode(200)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: 'Link an uploaded file as a profile document', operationId: 'linkProfileDocument' })
  @ApiOkResponse({ type: ProfileDocumentsResponseDto })
  @ApiNotFoundResponse(NO_FILE)
  async link(@Body() dto: LinkProfileDocumentDto, @CurrentPrincipal() principal: Principal): Promise<ProfileDocumentsResponseDto> {
    return { status: 'ok', message: 'Document linked', documents: await this.media.link(principal, dto) };
  }

  /** Gives the caller's tax id by its number instead of a scan, pending review. */
  @Post('identifier')
  @HttpCode(200)
  @RequirePermissions('PROFILE_OWNER')
  @ApiOperation({ summary: 'Give a profile document by its number', operationId: 'setProfileDocumentIdentifier' })
  @ApiOkResponse({ type: ProfileDocumentsResponseDto })
  async identifier(
    @Body() dto: ProfileDocumentIdentifierDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ProfileDocumentsResponseDto> {
    return { status: 'ok', message: 'Document saved', documents: await this.media.identifier(principal, dto) };
  }

  /** Staff search identity documents: by organization (`orgIds`), user, status and type, each with its file in full. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('PROFILE_VIEWER')
  @ApiOperation({ summary: 'Search profile documents', operationId: 'viewProfileDocuments' })
  @ApiOkResponse({ type: ProfileDocumentPageDto })
  view(@Body() dto: ProfileDocumentViewDto): Promise<ProfileDocumentPageDto> {
    return this.media.view(dto);
  }

  /** Compliance approves a pending document (the family's decision, without a body). */
  @Post(':id/approve')
  @HttpCode(200)
  @ApiParam(DOCUMENT_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: 'Approve a profile document', operationId: 'approveProfileDocument' })
  @ApiOkResponse({ type: ProfileDocumentResponseDto })
  @ApiNotFoundResponse(NO_DOCUMENT)
  @ApiConflictResponse(DECIDED)
  async approve(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ProfileDocumentResponseDto> {
    return { status: 'ok', message: 'Document approved', document: await this.media.decide(principal, id, true) };
  }

  /** Compliance declines a pending document (without a body): the user links another. */
  @Post(':id/decline')
  @HttpCode(200)
  @ApiParam(DOCUMENT_ID)
  @RequirePermissions('IDENTIFICATION_MANAGER')
  @ApiOperation({ summary: 'Decline a profile document', operationId: 'declineProfileDocument' })
  @ApiOkResponse({ type: ProfileDocumentResponseDto })
  @ApiNotFoundResponse(NO_DOCUMENT)
  @ApiConflictResponse(DECIDED)
  async decline(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ProfileDocumentResponseDto> {
    return { status: 'ok', message: 'Document declined', document: await this.media.decide(principal, id, false) };
  }
}
