import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface MediaFileRow {
  id: string;
  owner_id: string;
  name: string;
  media_type: string;
  size: number;
  md5: string;
  sha1: string;
  used: boolean;
  created_at: Date;
}

export interface ProfileDocumentRow {
  id: string;
  type: string;
  status: string;
  document_identifier: string | null;
  file_id: string | null;
  file_name: string | null;
  file_size: number | null;
  updated_at: Date;
}

/** A document as staff review it: with its user, organization and file in full. */
export interface StaffDocumentRow extends Omit<ProfileDocumentRow, 'file_name' | 'file_size'> {
  user_id: string;
  organization_id: string;
  created_at: Date;
  file: (Omit<MediaFileRow, 'created_at'> & { created_at: string }) | null;
}

export interface DocumentFilter {
  orgIds?: string[];
  userIds?: string[];
  statuses?: string[];
  types?: string[];
}

const FILE_COLUMNS = `f.id, f.owner_id, f.name, f.media_type, f.size, f.md5, f.sha1, f.created_at,
  EXISTS (SELECT 1 FROM profile_documents d WHERE d.file_id = f.id) AS used`;

/** Uploaded media files (their bytes here, or in MEDIA_FILES_DIR) and the profile documents that link them. */
@Injectable()
export class MediaFilesRepository {
  constructor(private readonly db: Database) {}

  async insertFile(file: {
    id: string;
    ownerId: string;
    name: string;
    mediaType: string;
    size: number;
    md5: string;
    sha1: string;
    content: Buffer | null;
  }): Promise<MediaFileRow> {
    const [row] = await this.db.query<MediaFileRow>(
      `WITH f AS (INSERT INTO media_files (id, owner_id, name, media_type, size, md5, sha1, content) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                  RETURNING *)
       SELECT f.id, f.owner_id, f.name, f.media_type, f.size, f.md5, f.sha1, f.created_at, false AS used FROM f`,
      [file.id, file.ownerId, file.name, file.mediaType, file.size, file.md5, file.sha1, file.content],
    );
    return row;
  }

  /** The file `id` when `ownerId` (or anyone, when null) owns it. */
  async file(id: string, ownerId: string | null): Promise<MediaFileRow | undefined> {
    const [row] = await this.db.query<MediaFileRow>(
      `SELECT ${FILE_COLUMNS} FROM media_files f WHERE f.id = $1 AND ($2::uuid IS NULL OR f.owner_id = $2)`,
      [id, ownerId],
    );
    return row;
  }

  /** The bytes kept in PostgreSQL (null when they are kept in MEDIA_FILES_DIR). */
  async content(id: string): Promise<Buffer | null> {
    const [row] = await this.db.query<{ content: Buffer | null }>(`SELECT content FROM media_files WHERE id = $1`, [id]);
    return row?.content ?? null;
  }

  async documents(userId: string): Promise<ProfileDocumentRow[]> {
    return this.db.query<ProfileDocumentRow>(
      `SELECT d.id, d.type, d.status, d.document_identifier, d.file_id, f.name AS file_name, f.size AS file_size, d.updated_at
         FROM profile_documents d LEFT JOIN media_files f ON f.id = d.file_id
        WHERE d.user_id = $1 ORDER BY d.created_at, d.id`,
      [userId],
    );
  }

  /** Sets the user's document of `type` (a file or a number), pending review again. */
  async upsertDocument(userId: string, type: string, value: { fileId: string } | { identifier: string }): Promise<void> {
    const fileId = 'fileId' in value ? value.fileId : null;
    const identifier = 'identifier' in value ? value.identifier : null;
    await this.db.query(
      `INSERT INTO profile_documents (user_id, type, file_id, document_identifier) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, type) DO UPDATE
         SET file_id = EXCLUDED.file_id, document_identifier = EXCLUDED.document_identifier, status = 'pending', updated_at = now()`,
      [userId, type, fileId, identifier],
    );
  }

  /** Documents matching `filter`, each of a user in (the first membership's) organization, in `order`. */
  async staffDocuments(
    filter: DocumentFilter,
    order: { key: 'created_at' | 'updated_at'; direction: 'ASC' | 'DESC' },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: StaffDocumentRow[] }> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter.orgIds?.length) where.push(`m.organization_id = ANY($${params.push(filter.orgIds)}::uuid[])`);
    if (filter.userIds?.length) where.push(`d.user_id = ANY($${params.push(filter.userIds)}::uuid[])`);
    if (filter.statuses?.length) where.push(`d.status = ANY($${params.push(filter.statuses)}::text[])`);
    if (filter.types?.length) where.push(`d.type = ANY($${params.push(filter.types)}::text[])`);
    const from = `FROM profile_documents d
      JOIN LATERAL (SELECT organization_id FROM memberships m WHERE m.user_id = d.user_id ORDER BY m.created_at, m.id LIMIT 1) m ON true
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
    const rows = await this.db.query<StaffDocumentRow>(
      `SELECT ${STAFF_DOCUMENT_COLUMNS} ${from} ORDER BY d.${order.key} ${order.direction}, d.id ${order.direction} LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: n, rows };
  }

  /** The document `id`, locked when asked. */
  async staffDocument(id: string, lock = false): Promise<StaffDocumentRow | undefined> {
    const [row] = await this.db.query<StaffDocumentRow>(
      `SELECT ${STAFF_DOCUMENT_COLUMNS} FROM profile_documents d
         JOIN LATERAL (SELECT organization_id FROM memberships m WHERE m.user_id = d.user_id ORDER BY m.created_at, m.id LIMIT 1) m ON true
        WHERE d.id = $1${lock ? ' FOR UPDATE OF d' : ''}`,
      [id],
    );
    return row;
  }

  async decideDocument(id: string, status: 'approved' | 'declined'): Promise<void> {
    await this.db.query(`UPDATE profile_documents SET status = $2, updated_at = now() WHERE id = $1`, [id, status]);
  }
}

const STAFF_DOCUMENT_COLUMNS = `d.id, d.user_id, m.organization_id, d.type, d.status, d.document_identifier, d.file_id, d.created_at, d.updated_at,
  (SELECT json_build_object('id', f.id, 'owner_id', f.owner_id, 'name', f.name, 'media_type', f.media_type, 'size', f.size,
                            'md5', f.md5, 'sha1', f.sha1, 'used', true, 'created_at', f.created_at)
     FROM media_files f WHERE f.id = d.file_id) AS file`;
