import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { ApiDateTime, ApiEnum, ApiUuid } from '../../../platform/common/dto-fields';

export const MEDIA_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

/** An uploaded file as the family reads it; its bytes are at `url` (the owner, and staff with PROFILE_VIEWER). */
export class MediaFileDto {
  @ApiUuid()
  id: string;
  /** The user who uploaded it. */
  @ApiUuid()
  ownerId: string;
  /** The type read from the file's content (not the one the upload declared). */
  @ApiEnum(MEDIA_TYPES)
  mediaType: string;
  /** The file's name as uploaded, cleaned of paths and control characters. */
  name: string;
  /** Where to download it: `GET /media-files/{id}/{name}`, under /api/v1. */
  url: string;
  /** Size in bytes. */
  size: number;
  md5: string;
  sha1: string;
  /** Whether the file is linked to a profile document. */
  used: boolean;
  @ApiDateTime()
  createdAt: string;
}

export class MediaFileResponseDto {
  status: 'ok';
  message: string;
  file: MediaFileDto;
}

/** The form of `POST /media-files`: one file. */
export class MediaFileUploadDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'A JPEG, PNG or PDF file, at most MEDIA_FILE_MAX_BYTES (5 MB by default)' })
  file: unknown;
}

export const DOCUMENT_TYPES = ['passport', 'tax_id', 'id_card', 'driving_license', 'utility_bill', 'selfie'] as const;
/** As the family spells them. */
export const DOCUMENT_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;

export class ProfileDocumentFileDto {
  @ApiUuid()
  id: string;
  name: string;
  @ApiUuid()
  ownerId: string;
  size: number;
  url: string;
}

/** An identity document linked to the caller's profile: an uploaded file, or (a tax id) just its number. */
export class ProfileDocumentDto {
  @ApiUuid()
  id: string;
  @ApiEnum(DOCUMENT_TYPES)
  type: string;
  /** A readable name of the type. */
  label: string;
  /** Staff review it: PENDING until APPROVED or DECLINED. */
  @ApiEnum(DOCUMENT_STATUSES)
  status: string;
  @ApiPropertyOptional()
  documentIdentifier?: string;
  @ApiPropertyOptional({ type: ProfileDocumentFileDto })
  file?: ProfileDocumentFileDto;
  @ApiDateTime()
  updatedAt: string;
}

export class ProfileDocumentsResponseDto {
  status: 'ok';
  message: string;
  documents: ProfileDocumentDto[];
}

/** Links an uploaded file of the caller to their profile as a document of `type` (replacing the one of that type). */
export class LinkProfileDocumentDto {
  @IsUUID()
  @ApiUuid()
  fileId: string;

  @IsIn(DOCUMENT_TYPES)
  @ApiEnum(DOCUMENT_TYPES)
  type: string;
}

/** A document given by its number instead of a file; only a tax id. */
export class ProfileDocumentIdentifierDto {
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 ./-]*$/, { message: 'documentIdentifier must be letters, digits, spaces, dots, slashes and dashes' })
  documentIdentifier: string;

  @IsIn(['tax_id'])
  @ApiEnum(['tax_id'])
  type: string;
}

/** The query of a signed link to a file (GET /media-links/{id}/{name}), as the staff document view answers it. */
export class MediaLinkQueryDto {
  /** When the link stops working, in seconds since 1970 (UTC). */
  @ApiProperty({ example: '1795730000', pattern: '^\\d{1,12}$' })
  @IsString()
  @Matches(/^\d{1,12}$/, { message: 'must be a time in seconds' })
  expires: string;

  /** The link's signature (base64url). */
  @ApiProperty({ example: 'c2lnbmF0dXJl', maxLength: 64 })
  @IsString()
  @MaxLength(64)
  signature: string;
}
