import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { containing } from '../../platform/database/search-sql';
import { CURRENCY_JSON, CurrencyRow } from './currency.mapper';

export interface IssuerRow {
  id: string;
  sn: string;
  name: string;
  description: string | null;
  active: boolean;
  currency_id: string;
  currency: CurrencyRow;
}

export interface CurrencySearch {
  codes?: string[];
  active?: boolean;
  name?: string;
  sort: 'code' | 'name';
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const CURRENCY_COLUMNS = 'id, code, digital_code, symbol, name, description, fraction::text AS fraction, active';
const SELECT_ISSUER = `SELECT i.id, i.sn::text AS sn, i.name, i.description, i.active, i.currency_id, ${CURRENCY_JSON} AS currency
  FROM issuers i JOIN currencies cu ON cu.id = i.currency_id`;

/** currencies and issuers. */
@Injectable()
export class CurrenciesRepository {
  constructor(private readonly db: Database) {}

  async insertCurrency(values: Omit<CurrencyRow, 'id'>): Promise<CurrencyRow> {
    const [row] = await this.db.query<CurrencyRow>(
      `INSERT INTO currencies (code, digital_code, symbol, name, description, fraction, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${CURRENCY_COLUMNS}`,
      [values.code, values.digital_code, values.symbol, values.name, values.description, values.fraction, values.active],
    );
    return row;
  }

  async updateCurrency(row: CurrencyRow): Promise<CurrencyRow> {
    const [updated] = await this.db.query<CurrencyRow>(
      `UPDATE currencies SET digital_code = $2, symbol = $3, name = $4, description = $5, fraction = $6, active = $7, updated_at = now()
        WHERE id = $1 RETURNING ${CURRENCY_COLUMNS}`,
      [row.id, row.digital_code, row.symbol, row.name, row.description, row.fraction, row.active],
    );
    return updated;
  }

  async lockCurrency(id: string): Promise<CurrencyRow | undefined> {
    const [row] = await this.db.query<CurrencyRow>(`SELECT ${CURRENCY_COLUMNS} FROM currencies WHERE id = $1 FOR UPDATE`, [id]);
    return row;
  }

  async currencyIdByCode(code: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>('SELECT id FROM currencies WHERE code = $1', [code]);
    return row?.id;
  }

  /** Currencies whose code or digital code is one of these. */
  async clashes(code?: string, digitalCode?: string): Promise<{ code: string; digital_code: string | null }[]> {
    return this.db.query('SELECT code, digital_code FROM currencies WHERE code = $1 OR digital_code = $2', [
      code ?? null,
      digitalCode ?? null,
    ]);
  }

  async isCurrencyUsed(id: string): Promise<boolean> {
    const [{ used }] = await this.db.query<{ used: boolean }>('SELECT EXISTS (SELECT 1 FROM coins WHERE currency_id = $1) AS used', [id]);
    return used;
  }

  async listCurrencies(): Promise<CurrencyRow[]> {
    return this.db.query<CurrencyRow>(`SELECT ${CURRENCY_COLUMNS} FROM currencies ORDER BY code`);
  }

  async searchCurrencies(search: CurrencySearch): Promise<{ total: number; rows: CurrencyRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.codes?.length) where.push(`code = ANY($${params.push(search.codes)}::text[])`);
    if (search.active !== undefined) where.push(`active = $${params.push(search.active)}`);
    if (search.name) where.push(`name ILIKE $${params.push(containing(search.name))}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ n }] = await this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM currencies ${clause}`, params);
    const rows = await this.db.query<CurrencyRow>(
      `SELECT ${CURRENCY_COLUMNS} FROM currencies ${clause} ORDER BY ${search.sort} ${search.direction}, id LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { total: Number(n), rows };
  }

  /**
   * Inserts an issuer with the serial number given (undefined when another issuer has it), else with the sequence's next
   * free one: a number chosen by hand may lie ahead of the sequence, which then passes over it.
   */
  async insertIssuer(
    currencyId: string,
    name: string,
    description: string | null,
    active: boolean,
    sn: string | undefined,
  ): Promise<string | undefined> {
    for (;;) {
      const [row] = await this.db.query<{ id: string }>(
        `INSERT INTO issuers (currency_id, name, description, active, sn) VALUES ($1, $2, $3, $4, COALESCE($5::bigint, nextval('issuer_sn_seq')))
         ON CONFLICT (sn) DO NOTHING RETURNING id`,
        [currencyId, name, description, active, sn ?? null],
      );
      if (row || sn !== undefined) return row?.id;
    }
  }

  async lockIssuer(id: string): Promise<Omit<IssuerRow, 'currency'> | undefined> {
    const [row] = await this.db.query<Omit<IssuerRow, 'currency'>>(
      'SELECT id, sn::text AS sn, name, description, active, currency_id FROM issuers WHERE id = $1 FOR UPDATE',
      [id],
    );
    return row;
  }

  async updateIssuer(id: string, name: string, description: string | null, active: boolean): Promise<void> {
    await this.db.query(`UPDATE issuers SET name = $2, description = $3, active = $4, updated_at = now() WHERE id = $1`, [
      id,
      name,
      description,
      active,
    ]);
  }

  async issuers(id?: string): Promise<IssuerRow[]> {
    return id === undefined
      ? this.db.query<IssuerRow>(`${SELECT_ISSUER} ORDER BY i.sn`)
      : this.db.query<IssuerRow>(`${SELECT_ISSUER} WHERE i.id = $1`, [id]);
  }
}
