import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface CashOutCodeRow {
  id: string;
  coin_serial: string;
  amount: string;
  code_hash: string;
  expires_at: Date;
  created_at: Date;
}

/** A code is live while it is unused, unburnt and unexpired. */
const LIVE = `used_at IS NULL AND burnt_at IS NULL AND expires_at > now()`;

/** cash_out_codes: a customer's one-time consent to a cash-out of an exact amount from one coin, kept as a hash. */
@Injectable()
export class CashOutCodesRepository {
  constructor(private readonly db: Database) {}

  async insert(code: {
    id: string;
    coinSerial: string;
    amount: string;
    codeHash: string;
    ttlSeconds: number;
    createdBy: string;
  }): Promise<CashOutCodeRow> {
    const [row] = await this.db.query<CashOutCodeRow>(
      `INSERT INTO cash_out_codes (id, coin_serial, organization_id, currency_id, amount, code_hash, expires_at, created_by)
       SELECT $1, c.serial, c.organization_id, c.currency_id, $3, $4, now() + make_interval(secs => $5), $6 FROM coins c WHERE c.serial = $2
       RETURNING id, coin_serial::text AS coin_serial, amount::text AS amount, code_hash, expires_at, created_at`,
      [code.id, code.coinSerial, code.amount, code.codeHash, code.ttlSeconds, code.createdBy],
    );
    return row;
  }

  /** The coin's live codes, locked: presentations of codes for one coin wait here, one after another. */
  live(coinSerial: string): Promise<CashOutCodeRow[]> {
    return this.db.query<CashOutCodeRow>(
      `SELECT id, coin_serial::text AS coin_serial, amount::text AS amount, code_hash, expires_at, created_at
         FROM cash_out_codes WHERE coin_serial = $1 AND ${LIVE} ORDER BY created_at FOR UPDATE`,
      [coinSerial],
    );
  }

  async use(id: string): Promise<void> {
    await this.db.query(`UPDATE cash_out_codes SET used_at = now() WHERE id = $1`, [id]);
  }

  /** Counts a wrong presentation against every live code of the coin; those reaching `maxAttempts` are burnt. */
  async countFailure(coinSerial: string, maxAttempts: number): Promise<void> {
    await this.db.query(
      `UPDATE cash_out_codes SET failed_attempts = failed_attempts + 1,
              burnt_at = CASE WHEN failed_attempts + 1 >= $2 THEN now() END
        WHERE coin_serial = $1 AND ${LIVE}`,
      [coinSerial, maxAttempts],
    );
  }
}
