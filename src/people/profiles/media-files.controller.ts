import {
  ApiBody,
  ApiConsumes,
  ApiParam,
  ApiRequest,
  Body,
  Caller,
  Header,
  Principal,
  Query,
  Req,
  Route,
  Routes,
  StreamableFile,
  UuidParam,
} from '../../platform/http';
import { Readable } from 'node:stream';
import { applyDecorators, Inject } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse } from '@nestjs/swagger';
import { ApiError } from '../../platform/common/api-error';
import { MULTIPART_ROUTE, readUploadedFile } from '../../platform/common/upload';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import * as dto from './dto/media.dto';
import { ProfileDocumentPageDto, ProfileDocumentResponseDto, ProfileDocumentViewDto } from './dto/staff.dto';
import { MediaFilesService } from './media-files.service';
import type { ServedFile } from '../../platform/files/file-sources.service';

const OWNER = { access: ['PROFILE_OWNER'] } as const;
const DECIDE = {
  access: ['IDENTIFICATION_MANAGER'],
  status: 200,
  errors: ['exception.profile_document.not_found', 'exception.profile_document.decided'],
} as const;
const BINARY = { schema: { type: 'string', format: 'binary' } } as const;
/** The types of a scan. */
const SCAN = { 'image/jpeg': BINARY, 'image/png': BINARY, 'application/pdf': BINARY };

/**
 * A file served to a browser: an uploaded PDF opened from the API's origin runs nothing there and loads nothing; a link
 * carrying the caller's token in its path is never sent on as a referrer (and, as every API answer, never cached).
 */
function Served(content: Record<string, object>): MethodDecorator {
  return applyDecorators(
    Header('Content-Security-Policy', "default-src 'none'; sandbox"),
    Header('Referrer-Policy', 'no-referrer'),
    ApiParam({ name: 'name', schema: { type: 'string' } }),
    ApiOkResponse({ description: 'The file', content }),
  );
}

@Routes('media-files')
export class MediaFilesController {
  constructor(
    private readonly media: MediaFilesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Uploads a scan of a document: a JPEG, PNG or PDF (told by its content), in the form field `file`. Link it with POST /profile-documents. */
  @Route('POST', '', {
    ...OWNER,
    summary: 'Upload a media file',
    errors: [
      ['exception.media_file.too_large', 'over MEDIA_FILE_MAX_BYTES'],
      'exception.media_file.unsupported_type',
      ['exception.request.unsupported_media_type', 'not multipart/form-data'],
    ],
  })
  @RouteConfig(MULTIPART_ROUTE)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: dto.MediaFileUploadDto })
  async uploadMediaFile(@Req() request: ApiRequest, @Caller() caller: Principal): Promise<dto.MediaFileResponseDto> {
    const limit = this.config.mediaFileMaxBytes;
    const tooLarge = () => new ApiError('exception.media_file.too_large', `The file is larger than ${limit} bytes`);
    const upload = await readUploadedFile(request, 'file', limit, tooLarge);
    return { status: 'ok', message: 'File uploaded', file: await this.media.upload(caller, upload) };
  }

  /**
   * A file's bytes: the caller's upload (anyone's for staff with PROFILE_VIEWER) or a file made for them (a data export's CSV by fileId).
   * `name` is for the browser or, without an Authorization header, the caller's token (an image link).
   */
  @Route('GET', ':id/:name', { ...OWNER, summary: 'Download a media file', errors: ['exception.media_file.not_found'] })
  @Served({ ...SCAN, 'text/csv': { schema: { type: 'string' } } })
  async downloadMediaFile(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<StreamableFile> {
    return streamed(await this.media.download(caller, id));
  }
}

/** A served file as the answer's body, shown inline under its name. */
function streamed(file: ServedFile): StreamableFile {
  const disposition = `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`;
  return Buffer.isBuffer(file.content)
    ? new StreamableFile(file.content, { type: file.mediaType, length: file.content.length, disposition })
    : new StreamableFile(Readable.from(file.content), { type: file.mediaType, disposition });
}

@Routes('media-links', 'media-files')
export class MediaLinksController {
  constructor(private readonly media: MediaFilesService) {}

  /** A scan by the signed `file.url` the staff document view answers, valid 15 minutes: an `<img>` sends no Authorization header. */
  @Route('GET', ':id/:name', {
    summary: 'Download a media file by a signed link',
    access: 'public',
    errors: [['exception.media_file.not_found', 'no such file, or the link has expired or is not its own']],
  })
  @Served(SCAN)
  async downloadLinkedMediaFile(@UuidParam('id') id: string, @Query() query: dto.MediaLinkQueryDto): Promise<StreamableFile> {
    return streamed(await this.media.downloadLinked(id, query.expires, query.signature));
  }
}

const DOCUMENTS = { ...OWNER, status: 200 } as const;

@Routes('profile-documents')
export class ProfileDocumentsController {
  constructor(private readonly media: MediaFilesService) {}

  /** The caller's identity documents: each uploaded file linked to their profile, and a tax id given by its number. */
  @Route('GET', '', { ...DOCUMENTS, summary: "The caller's profile documents" })
  async getProfileDocuments(@Caller() caller: Principal): Promise<dto.ProfileDocumentsResponseDto> {
    return { status: 'ok', message: 'OK', documents: await this.media.documents(caller) };
  }

  /** Links an uploaded file of the caller as their document of `type`, pending review (it replaces one of that type). */
  @Route('POST', '', { ...DOCUMENTS, summary: 'Link an uploaded file as a profile document', errors: ['exception.media_file.not_found'] })
  async linkProfileDocument(
    @Body() body: dto.LinkProfileDocumentDto,
    @Caller() caller: Principal,
  ): Promise<dto.ProfileDocumentsResponseDto> {
    return { status: 'ok', message: 'Document linked', documents: await this.media.link(caller, body) };
  }

  /** Gives the caller's tax id by its number instead of a scan, pending review. */
  @Route('POST', 'identifier', { ...DOCUMENTS, summary: 'Give a profile document by its number' })
  async setProfileDocumentIdentifier(
    @Body() body: dto.ProfileDocumentIdentifierDto,
    @Caller() caller: Principal,
  ): Promise<dto.ProfileDocumentsResponseDto> {
    return { status: 'ok', message: 'Document saved', documents: await this.media.identifier(caller, body) };
  }

  /** Staff search identity documents: by organization (`orgIds`), user, status and type, each with its file in full. */
  @Route('POST', 'view', { summary: 'Search profile documents', access: ['PROFILE_VIEWER'], status: 200 })
  viewProfileDocuments(@Body() body: ProfileDocumentViewDto): Promise<ProfileDocumentPageDto> {
    return this.media.view(body);
  }

  /** Compliance approves a pending document (the family's decision, without a body). */
  @Route('POST', ':id/approve', { ...DECIDE, summary: 'Approve a profile document' })
  async approveProfileDocument(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<ProfileDocumentResponseDto> {
    return { status: 'ok', message: 'Document approved', document: await this.media.decide(caller, id, true) };
  }

  /** Compliance declines a pending document (without a body): the user links another. */
  @Route('POST', ':id/decline', { ...DECIDE, summary: 'Decline a profile document' })
  async declineProfileDocument(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<ProfileDocumentResponseDto> {
    return { status: 'ok', message: 'Document declined', document: await this.media.decide(caller, id, false) };
  }
}
