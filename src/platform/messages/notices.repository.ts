import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** Whether a user's `transactionNotification` asks for a notice: the predicate of the partial index users_transaction_notices_idx. */
const WANTS_TRANSACTION_NOTICES = `((u.security_settings -> 'transactionNotification' ->> 'email') = 'true'
    OR (u.security_settings -> 'transactionNotification' ->> 'phone') = 'true')`;

/** The channels a notification setting asks for (`transactionNotification`, `authorizationNotification`). */
export interface NoticeChannels {
  email?: boolean;
  phone?: boolean;
}

/** A user as their notices need them: where they can be reached, and their language. */
export interface NoticeReader {
  login: string;
  email?: string | null;
  email_verified?: boolean;
  phone_number?: string | null;
  phone_verified?: boolean;
  locale?: string | null;
}

/** A member of an organization who asked for transaction notices, with the channels asked. */
export interface ReaderRow extends NoticeReader {
  organization_id: string;
  channels: NoticeChannels | null;
}

/** Who asked for notices of money movements (users.security_settings, migration 1763804540000). */
@Injectable()
export class NoticesRepository {
  constructor(private readonly db: Database) {}

  /** The active members of `organizations` who asked for transaction notices. */
  readers(organizations: string[]): Promise<ReaderRow[]> {
    return this.db.query<ReaderRow>(
      `SELECT m.organization_id, u.login, u.email, u.email_verified, u.phone_number, u.phone_verified, u.locale,
              u.security_settings -> 'transactionNotification' AS channels
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = ANY($1::uuid[]) AND u.deactivated_at IS NULL AND ${WANTS_TRANSACTION_NOTICES}`,
      [organizations],
    );
  }

  /** Every organization with a member who asked for transaction notices (through the partial index of those users). */
  async listeningOrganizations(): Promise<string[]> {
    const rows = await this.db.query<{ organization_id: string }>(
      `SELECT DISTINCT m.organization_id FROM users u JOIN memberships m ON m.user_id = u.id WHERE ${WANTS_TRANSACTION_NOTICES}`,
    );
    return rows.map((r) => r.organization_id);
  }
}
