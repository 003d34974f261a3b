import { FileSourcesService, ServedFile } from '../../platform/files/file-sources.service';
import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { cleanFileName } from '../../platform/common/text';
import type { UploadedFile } from '../../platform/common/upload';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { auditChainKey } from '../../platform/config/audit-chain-key';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import type { LinkProfileDocumentDto, MediaFileDto, ProfileDocumentDto, ProfileDocumentIdentifierDto } from './dto/media.dto';
import type { ProfileDocumentRecordDto, ProfileDocumentViewDto } from './dto/staff.dto';
import { MediaFileRow, MediaFilesRepository, ProfileDocumentRow, StaffDocumentRow } from './media-files.repository';
import { MediaLinks } from './media-links';

/** The types taken, by the first bytes of the content: what a file declares about itself is not believed. */
const SIGNATURES: { type: string; magic: Buffer }[] = [
  { type: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { type: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1') },
];

const LABELS: Record<string, string> = {
  passport: 'Passport',
  tax_id: 'Tax ID',
  id_card: 'ID card',
  driving_license: 'Driving license',
  utility_bill: 'Utility bill',
  selfie: 'Selfie',
};

function urlOf(id: string, name: string): string {
  return `/api/v1/media-files/${id}/${encodeURIComponent(name)}`;
}

function toFile(row: MediaFileRow): MediaFileDto {
  return {
    id: row.id,
    ownerId: row.owner_id,
    mediaType: row.media_type,
    name: row.name,
    url: urlOf(row.id, row.name),
    size: row.size,
    md5: row.md5,
    sha1: row.sha1,
    used: row.used,
    createdAt: row.created_at.toISOString(),
  };
}

function toDocument(row: ProfileDocumentRow, ownerId: string): ProfileDocumentDto {
  return {
    id: row.id,
    type: row.type,
    label: LABELS[row.type] ?? row.type,
    status: row.status.toUpperCase(),
    ...(row.document_identifier ? { documentIdentifier: row.document_identifier } : {}),
    ...(row.file_id
      ? { file: { id: row.file_id, name: row.file_name!, ownerId, size: row.file_size!, url: urlOf(row.file_id, row.file_name!) } }
      : {}),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A document as staff review it: its scan's `url` is a signed link the review page can show as an image. */
function toStaffDocument(row: StaffDocumentRow, links: MediaLinks): ProfileDocumentRecordDto {
  return {
    id: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    type: row.type,
    label: LABELS[row.type] ?? row.type,
    status: row.status.toUpperCase(),
    ...(row.document_identifier ? { documentIdentifier: row.document_identifier } : {}),
    ...(row.file
      ? { file: { ...toFile({ ...row.file, created_at: new Date(row.file.created_at) }), url: links.url(row.file.id, row.file.name) } }
      : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Uploaded media files (identity documents' scans) and the documents they make on the uploader's profile. */
@Injectable()
export class MediaFilesService {
  constructor(
    private readonly files: MediaFilesRepository,
    private readonly uow: UnitOfWork,
    private readonly sources: FileSourcesService,
    private readonly actions: UserActionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.links = new MediaLinks(auditChainKey(config));
  }

  private readonly links: MediaLinks;

  /** Keeps a JPEG, PNG or PDF of the caller: its bytes in PostgreSQL, or in MEDIA_FILES_DIR when set. */
  async upload(principal: Principal, upload: UploadedFile): Promise<MediaFileDto> {
    if (!upload.content.length) throw ApiError.invalid('file', 'must not be empty');
    const mediaType = SIGNATURES.find((s) => upload.content.subarray(0, s.magic.length).equals(s.magic))?.type;
    if (!mediaType) throw new ApiError('exception.media_file.unsupported_type');
    const dir = this.config.mediaFilesDir;
    const id = randomUUID();
    return this.uow.run(async () => {
      const row = await this.files.insertFile({
        id,
        ownerId: principal.userId,
        // Without a path, controls, format characters (a bidi override flips how a reviewer reads it) or quotes.
        name: cleanFileName(upload.filename),
        mediaType,
        size: upload.content.length,
        md5: createHash('md5').update(upload.content).digest('hex'),
        sha1: createHash('sha1').update(upload.content).digest('hex'),
        content: dir ? null : upload.content,
      });
      // Written before the row commits: a failed write leaves no row pointing at nothing.
      if (dir) {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, id), upload.content, { flag: 'wx', mode: 0o600 });
      }
      return toFile(row);
    });
  }

  /**
   * The file and its bytes: an upload of its owner, or anyone's for staff with PROFILE_VIEWER; else a file another
   * module produced for the caller (a data export's CSV, through the kernel's file sources); else a 404.
   */
  async download(principal: Principal, id: string): Promise<ServedFile> {
    const row = await this.files.file(id, principal.permissions.has('PROFILE_VIEWER') ? null : principal.userId);
    if (!row) {
      const produced = await this.sources.find(principal, id);
      if (!produced) throw new ApiError('exception.media_file.not_found');
      return produced;
    }
    return this.serve(row);
  }

  /** A file by a signed link (GET /media-links): anyone holding an unexpired link; else a 404, as for no such file. */
  async downloadLinked(id: string, expires: string | undefined, signature: string | undefined): Promise<ServedFile> {
    const row = this.links.valid(id, expires, signature) ? await this.files.file(id, null) : undefined;
    if (!row) throw new ApiError('exception.media_file.not_found', 'No such file, or the link has expired');
    return this.serve(row);
  }

  private async serve(row: MediaFileRow): Promise<ServedFile> {
    const content = (await this.files.content(row.id)) ?? (await readFile(join(this.config.mediaFilesDir ?? '', row.id)).catch(() => null));
    if (!content) throw new ApiError('exception.media_file.not_found', 'The file’s content is missing from MEDIA_FILES_DIR');
    const file = toFile(row);
    return { name: file.name, mediaType: file.mediaType, content };
  }

  async documents(principal: Principal): Promise<ProfileDocumentDto[]> {
    return (await this.files.documents(principal.userId)).map((d) => toDocument(d, principal.userId));
  }

  /** Links one of the caller's files as their document of `type`, pending review; someone else's file is a 404. */
  async link(principal: Principal, dto: LinkProfileDocumentDto): Promise<ProfileDocumentDto[]> {
    await this.uow.run(async () => {
      if (!(await this.files.file(dto.fileId, principal.userId))) throw new ApiError('exception.media_file.not_found');
      await this.files.upsertDocument(principal.userId, dto.type, { fileId: dto.fileId });
    });
    return this.documents(principal);
  }

  /** The caller's tax id given by its number, pending review. */
  async identifier(principal: Principal, dto: ProfileDocumentIdentifierDto): Promise<ProfileDocumentDto[]> {
    await this.files.upsertDocument(principal.userId, dto.type, { identifier: dto.documentIdentifier.trim() });
    return this.documents(principal);
  }

  /** Identity documents for staff to review, with the family's filters; newest change first unless sorted otherwise. */
  async view(dto: ProfileDocumentViewDto): Promise<Page<ProfileDocumentRecordDto>> {
    const { offset, limit } = pageWindow(dto);
    const key = dto.sort?.createdAt !== undefined && dto.sort?.updatedAt === undefined ? 'createdAt' : 'updatedAt';
    const direction = (dto.sort?.[key] ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
    const filter = { ...dto.filter, statuses: dto.filter?.statuses?.map((s) => s.toLowerCase()) };
    const { total, rows } = await this.files.staffDocuments(
      filter,
      { key: key === 'createdAt' ? 'created_at' : 'updated_at', direction },
      offset,
      limit,
    );
    return pageOf(
      dto,
      total,
      rows.map((row) => toStaffDocument(row, this.links)),
    );
  }

  /** Compliance approves or declines a pending document; deciding one already decided is a 409. Recorded as a user action. */
  async decide(principal: Principal, id: string, approve: boolean): Promise<ProfileDocumentRecordDto> {
    return this.uow.run(async () => {
      const row = await this.files.staffDocument(id, true);
      if (!row) throw new ApiError('exception.profile_document.not_found');
      if (row.status !== 'pending') throw new ApiError('exception.profile_document.decided');
      await this.files.decideDocument(id, approve ? 'approved' : 'declined');
      await this.actions.record({
        userId: row.user_id,
        actorUserId: principal.userId,
        action: approve ? 'profile_document_approved' : 'profile_document_declined',
        details: {
          profileDocumentId: id,
          type: row.type,
          organizationId: row.organization_id,
          ...(row.file_id ? { fileId: row.file_id } : {}),
        },
      });
      return toStaffDocument((await this.files.staffDocument(id))!, this.links);
    });
  }
}
