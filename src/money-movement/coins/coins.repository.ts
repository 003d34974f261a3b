import { Injectable } from '@nestjs/common';
import { Database, RowCount } from '../../platform/database/database';
import { CURRENCY_JSON, CurrencyRow } from '../currencies/currency.mapper';

export interface CoinRow {
  serial: string;
  name: string;
  organization_id: string;
  balance: string;
  held: string;
  type: 'client' | 'system';
  main: boolean;
  active: boolean;
  closed_at: Date | null;
  created_at: Date;
  issuer_id: string;
  issuer_sn: string;
  issuer_active: boolean;
  currency: CurrencyRow;
}

export interface CoinSearch {
  serials?: string[];
  organizationIds?: string[];
  issuerIds?: string[];
  types?: string[];
  active?: boolean;
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const SELECT = `SELECT c.serial::text AS serial, c.name, c.organization_id, c.balance::text AS balance, c.held::text AS held, c.type, c.main,
       c.active, c.closed_at, c.created_at, i.id AS issuer_id, i.sn::text AS issuer_sn, i.active AS issuer_active,
       ${CURRENCY_JSON} AS currency
  FROM coins c JOIN issuers i ON i.id = c.issuer_id JOIN currencies cu ON cu.id = c.currency_id`;

/** Coins as records: who owns them, their names, main and closed states. Their balances belong to the ledger. */
@Injectable()
export class CoinsRepository {
  constructor(private readonly db: Database) {}

  async issuer(id: string): Promise<{ currency_id: string; usable: boolean } | undefined> {
    const [row] = await this.db.query<{ currency_id: string; usable: boolean }>(
      `SELECT i.currency_id, (i.active AND c.active) AS usable FROM issuers i JOIN currencies c ON c.id = i.currency_id WHERE i.id = $1`,
      [id],
    );
    return row;
  }

  /** Inserts a coin; the first of a currency becomes the organization's main one, a racing second one does not. */
  async insert(name: string, organizationId: string, issuerId: string, currencyId: string): Promise<string> {
    const [row] = await this.db.query<{ serial: string }>(
      `INSERT INTO coins (name, organization_id, issuer_id, currency_id, main)
       VALUES ($1, $2, $3, $4, NOT EXISTS (SELECT 1 FROM coins WHERE organization_id = $2 AND currency_id = $4 AND main))
       ON CONFLICT (organization_id, currency_id) WHERE main DO NOTHING RETURNING serial::text AS serial`,
      [name, organizationId, issuerId, currencyId],
    );
    if (row) return row.serial;
    const [fallback] = await this.db.query<{ serial: string }>(
      `INSERT INTO coins (name, organization_id, issuer_id, currency_id) VALUES ($1, $2, $3, $4) RETURNING serial::text AS serial`,
      [name, organizationId, issuerId, currencyId],
    );
    return fallback.serial;
  }

  async ofOrganization(organizationId: string): Promise<CoinRow[]> {
    return this.db.query<CoinRow>(`${SELECT} WHERE c.organization_id = $1 ORDER BY c.serial`, [organizationId]);
  }

  /** The coins of several organizations, in serial order. */
  async ofOrganizations(organizationIds: string[]): Promise<CoinRow[]> {
    return this.db.query<CoinRow>(`${SELECT} WHERE c.organization_id = ANY($1::uuid[]) ORDER BY c.serial`, [organizationIds]);
  }

  /** The organization's usable coin of an issuer: its main one of the currency if that is of the issuer, else the oldest. */
  async usableOf(organizationId: string, issuerId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ serial: string }>(
      `SELECT serial::text AS serial FROM coins WHERE organization_id = $1 AND issuer_id = $2 AND type = 'client' AND active AND closed_at IS NULL
        ORDER BY main DESC, serial LIMIT 1`,
      [organizationId, issuerId],
    );
    return row?.serial;
  }

  /** One of the organization's coins (optionally locked), or undefined. */
  /** Any organization's coin by serial, or undefined. */
  async bySerial(serial: string): Promise<CoinRow | undefined> {
    const [row] = await this.db.query<CoinRow>(`${SELECT} WHERE c.serial = $1`, [serial]);
    return row;
  }

  /** The main open, active client coin of a currency (by code) in one of `organizationIds`, the first by organization. */
  async mainOf(organizationIds: string[], currencyCode: string): Promise<CoinRow | undefined> {
    const [row] = await this.db.query<CoinRow>(
      `${SELECT} WHERE c.organization_id = ANY($1::uuid[]) AND cu.code = $2 AND c.main AND c.active AND c.closed_at IS NULL
         AND c.type = 'client' ORDER BY array_position($1::uuid[], c.organization_id) LIMIT 1`,
      [organizationIds, currencyCode],
    );
    return row;
  }

  /** The organization's coins among `serials` (another organization's are left out), in serial order. */
  async ownAmong(organizationId: string, serials: string[]): Promise<CoinRow[]> {
    return this.db.query<CoinRow>(`${SELECT} WHERE c.organization_id = $1 AND c.serial = ANY($2::bigint[]) ORDER BY c.serial`, [
      organizationId,
      serials,
    ]);
  }

  async own(organizationId: string, serial: string, lock = false): Promise<CoinRow | undefined> {
    const [row] = await this.db.query<CoinRow>(
      `${SELECT} WHERE c.serial = $1 AND c.organization_id = $2${lock ? ' FOR UPDATE OF c' : ''}`,
      [serial, organizationId],
    );
    return row;
  }

  async search(search: CoinSearch): Promise<{ rows: CoinRow[]; count: RowCount }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.serials?.length) where.push(`c.serial = ANY($${params.push(search.serials)}::bigint[])`);
    if (search.organizationIds?.length) where.push(`c.organization_id = ANY($${params.push(search.organizationIds)}::uuid[])`);
    if (search.issuerIds?.length) where.push(`c.issuer_id = ANY($${params.push(search.issuerIds)}::uuid[])`);
    if (search.types?.length) where.push(`c.type = ANY($${params.push(search.types)}::text[])`);
    if (search.active !== undefined) where.push(`c.active = $${params.push(search.active)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const count = await this.db.countRows(`FROM coins c ${clause}`, params);
    const rows = await this.db.query<CoinRow>(
      `${SELECT} ${clause} ORDER BY c.serial ${search.direction} LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { rows, count };
  }

  async update(serial: string, name: string, active: boolean): Promise<void> {
    await this.db.query('UPDATE coins SET name = $2, active = $3, updated_at = now() WHERE serial = $1', [serial, name, active]);
  }

  /** Locks every coin of the organization in a currency (serial order), so racing set-mains queue up. */
  async lockCurrency(organizationId: string, currencyId: string): Promise<void> {
    await this.db.query('SELECT serial FROM coins WHERE organization_id = $1 AND currency_id = $2 ORDER BY serial FOR UPDATE', [
      organizationId,
      currencyId,
    ]);
  }

  async setMain(organizationId: string, currencyId: string, serial: string): Promise<void> {
    await this.db.query(
      'UPDATE coins SET main = false, updated_at = now() WHERE organization_id = $1 AND currency_id = $2 AND main AND serial <> $3',
      [organizationId, currencyId, serial],
    );
    await this.db.query('UPDATE coins SET main = true, updated_at = now() WHERE serial = $1', [serial]);
  }

  async close(serial: string): Promise<void> {
    await this.db.query('UPDATE coins SET active = false, main = false, closed_at = now(), updated_at = now() WHERE serial = $1', [serial]);
  }

  async organizationExists(id: string): Promise<boolean> {
    const [{ found }] = await this.db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM organizations WHERE id = $1) AS found`, [id]);
    return found;
  }
}
