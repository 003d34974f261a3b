import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export type ContactKind = 'email' | 'phone';

@Injectable()
export class RegistrationRepository {
  constructor(private readonly db: Database) {}

  /** The contact a code was sent to is verified. */
  async markVerified(userId: string, kind: ContactKind): Promise<void> {
    await this.db.query(
      `UPDATE users SET ${kind === 'email' ? 'email_verified' : 'phone_verified'} = true, updated_at = now() WHERE id = $1`,
      [userId],
    );
  }

  /**
   * Sets the user's contact of this kind, verified, and the login with it when `login`; false when the login is
   * another user's.
   */
  async setContact(userId: string, kind: ContactKind, value: string, login: boolean): Promise<boolean> {
    const [column, verified] = kind === 'email' ? ['email', 'email_verified'] : ['phone_number', 'phone_verified'];
    const rows = await this.db.query<{ id: string }>(
      `UPDATE users SET ${column} = $2, ${verified} = true, login = CASE WHEN $3 THEN $2 ELSE login END, updated_at = now()
        WHERE id = $1 AND NOT ($3 AND EXISTS (SELECT 1 FROM users o WHERE o.login = $2 AND o.id <> $1)) RETURNING id`,
      [userId, value, login],
    );
    return rows.length === 1;
  }

  /**
   * Puts back a login and the contact of `kind` as they were before a change (a restore); false when the login is
   * another user's now.
   */
  async restoreLogin(userId: string, login: string, kind: ContactKind, value: string | null, verified: boolean): Promise<boolean> {
    const [column, flag] = kind === 'email' ? ['email', 'email_verified'] : ['phone_number', 'phone_verified'];
    const rows = await this.db.query<{ id: string }>(
      `UPDATE users SET login = $2, ${column} = $3, ${flag} = $4, updated_at = now()
        WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM users o WHERE o.login = $2 AND o.id <> $1) RETURNING id`,
      [userId, login, value, verified],
    );
    return rows.length === 1;
  }
}
