import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface ReserveIssuerRow {
  id: string;
  code: string;
  fraction: string;
  usable: boolean;
}

/** Reads what exchanges need of issuers (a read-only view of the currencies module's tables); exchanges own no table. */
@Injectable()
export class ExchangeRepository {
  constructor(private readonly db: Database) {}

  async issuer(id: string): Promise<ReserveIssuerRow | undefined> {
    const [row] = await this.db.query<ReserveIssuerRow>(
      `SELECT i.id, cu.code, cu.fraction::text AS fraction, (i.active AND cu.active) AS usable
         FROM issuers i JOIN currencies cu ON cu.id = i.currency_id WHERE i.id = $1`,
      [id],
    );
    return row;
  }
}
