import { Injectable } from '@nestjs/common';
import { Database, RowCount } from '../../platform/database/database';

export interface ExchangeRateRow {
  id: string;
  from_currency_id: string;
  to_currency_id: string;
  from_code: string;
  to_code: string;
  rate: string;
  valid_from: Date;
  created_at: Date;
}

/** The rate of a pair in force when read (none: undefined), and when the next one known takes effect (none: null). */
export interface RateInForceRow {
  row: ExchangeRateRow | undefined;
  until: Date | null;
}

export interface RateSearch {
  fromCode?: string;
  toCode?: string;
  current?: boolean;
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const SELECT = `SELECT r.id, r.from_currency_id, r.to_currency_id, fc.code AS from_code, tc.code AS to_code, r.rate::text AS rate,
       r.valid_from, r.created_at
  FROM exchange_rates r JOIN currencies fc ON fc.id = r.from_currency_id JOIN currencies tc ON tc.id = r.to_currency_id`;

/** A rate in force now: no later rate of its pair has taken effect. */
const IN_FORCE = `r.valid_from <= now() AND NOT EXISTS (
  SELECT 1 FROM exchange_rates n WHERE n.from_currency_id = r.from_currency_id AND n.to_currency_id = r.to_currency_id
     AND n.valid_from <= now() AND n.valid_from > r.valid_from)`;

/** exchange_rates; reads currencies by code (a read-only view of the currencies module's table). */
@Injectable()
export class ExchangeRatesRepository {
  constructor(private readonly db: Database) {}

  /** The ids of the currencies with these codes (unknown codes are missing from the map). */
  async currencyIds(codes: string[]): Promise<Map<string, string>> {
    const rows = await this.db.query<{ id: string; code: string }>('SELECT id, code FROM currencies WHERE code = ANY($1::text[])', [codes]);
    return new Map(rows.map((r) => [r.code, r.id]));
  }

  /** Inserts a rate; undefined when its pair already has one taking effect at that moment. */
  async insert(fromId: string, toId: string, rate: string, validFrom: string | null, createdBy: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO exchange_rates (from_currency_id, to_currency_id, rate, valid_from, created_by)
       VALUES ($1, $2, $3, COALESCE($4::timestamptz, now()), $5)
       ON CONFLICT (from_currency_id, to_currency_id, valid_from) DO NOTHING RETURNING id`,
      [fromId, toId, rate, validFrom, createdBy],
    );
    return row?.id;
  }

  async byId(id: string): Promise<ExchangeRateRow | undefined> {
    const [row] = await this.db.query<ExchangeRateRow>(`${SELECT} WHERE r.id = $1`, [id]);
    return row;
  }

  /** The rate of the ordered pair in force now: the latest valid_from not after now (one index probe). */
  async current(fromId: string, toId: string): Promise<ExchangeRateRow | undefined> {
    const [row] = await this.db.query<ExchangeRateRow>(
      `${SELECT} WHERE r.from_currency_id = $1 AND r.to_currency_id = $2 AND r.valid_from <= now() ORDER BY r.valid_from DESC LIMIT 1`,
      [fromId, toId],
    );
    return row;
  }

  /**
   * The rate of the ordered pair of currencies (codes) in force now, and the moment its successor known now takes effect
   * (a rate valid from a future time), in one statement: what a kept answer needs to know when it stops holding.
   */
  async inForceByCodes(fromCode: string, toCode: string): Promise<RateInForceRow> {
    const [found] = await this.db.query<{ row: ExchangeRateRow | null; until: Date | null }>(
      `SELECT (SELECT row_to_json(r) FROM (
                 SELECT r.id, r.from_currency_id, r.to_currency_id, fc.code AS from_code, tc.code AS to_code, r.rate::text AS rate,
                        r.valid_from, r.created_at
                   FROM exchange_rates r
                  WHERE r.from_currency_id = fc.id AND r.to_currency_id = tc.id AND r.valid_from <= now()
                  ORDER BY r.valid_from DESC LIMIT 1) r) AS row,
              (SELECT min(n.valid_from) FROM exchange_rates n
                WHERE n.from_currency_id = fc.id AND n.to_currency_id = tc.id AND n.valid_from > now()) AS until
         FROM currencies fc, currencies tc
        WHERE fc.code = $1 AND tc.code = $2`,
      [fromCode, toCode],
      { prepare: true },
    );
    const row = found?.row ?? undefined;
    // row_to_json answers timestamps as text.
    return {
      row: row && { ...row, valid_from: new Date(row.valid_from), created_at: new Date(row.created_at) },
      until: found?.until ?? null,
    };
  }

  async search(search: RateSearch): Promise<{ rows: ExchangeRateRow[]; count: RowCount }> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (search.fromCode) where.push(`fc.code = $${params.push(search.fromCode)}`);
    if (search.toCode) where.push(`tc.code = $${params.push(search.toCode)}`);
    if (search.current) where.push(IN_FORCE);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const from = `FROM exchange_rates r JOIN currencies fc ON fc.id = r.from_currency_id JOIN currencies tc ON tc.id = r.to_currency_id ${clause}`;
    const count = await this.db.countRows(from, params);
    const rows = await this.db.query<ExchangeRateRow>(
      `${SELECT} ${clause} ORDER BY r.valid_from ${search.direction}, r.id ${search.direction} LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { rows, count };
  }
}
