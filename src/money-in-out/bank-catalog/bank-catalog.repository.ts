import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { containing } from '../../platform/database/search-sql';

export interface BankRow {
  id: string;
  name: string;
  bic: string;
  swift_code: string | null;
  address: string | null;
  city: string | null;
  zip_code: string | null;
  country: string;
  phone_number: string | null;
  website: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface BankValues {
  name: string;
  bic: string;
  swiftCode: string | null;
  address: string | null;
  city: string | null;
  zipCode: string | null;
  country: string;
  phoneNumber: string | null;
  website: string | null;
}

const COLUMNS = 'id, name, bic, swift_code, address, city, zip_code, country, phone_number, website, created_at, updated_at';
const FIELDS: (keyof BankValues)[] = ['name', 'bic', 'swiftCode', 'address', 'city', 'zipCode', 'country', 'phoneNumber', 'website'];

/** bank_catalog: the banks clients pick for top-ups and withdrawals, keyed by BIC. */
@Injectable()
export class BankCatalogRepository {
  constructor(private readonly db: Database) {}

  async insert(values: BankValues): Promise<BankRow | undefined> {
    const [row] = await this.db.query<BankRow>(
      `INSERT INTO bank_catalog (name, bic, swift_code, address, city, zip_code, country, phone_number, website)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (bic) DO NOTHING RETURNING ${COLUMNS}`,
      FIELDS.map((f) => values[f]),
    );
    return row;
  }

  /** Adds or updates (by BIC) every bank in one statement; answers how many were added. */
  async upsert(banks: BankValues[]): Promise<{ created: number; updated: number }> {
    const [row] = await this.db.query<{ created: number; updated: number }>(
      `WITH v AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                    AS v(name, bic, swift_code, address, city, zip_code, country, phone_number, website)),
       written AS (
         INSERT INTO bank_catalog (name, bic, swift_code, address, city, zip_code, country, phone_number, website)
         SELECT * FROM v
         ON CONFLICT (bic) DO UPDATE SET name = EXCLUDED.name, swift_code = EXCLUDED.swift_code, address = EXCLUDED.address,
                city = EXCLUDED.city, zip_code = EXCLUDED.zip_code, country = EXCLUDED.country, phone_number = EXCLUDED.phone_number,
                website = EXCLUDED.website, updated_at = now()
         RETURNING (xmax = 0) AS created)
       SELECT count(*) FILTER (WHERE created)::int AS created, count(*) FILTER (WHERE NOT created)::int AS updated FROM written`,
      FIELDS.map((f) => banks.map((b) => b[f])),
    );
    return row;
  }

  async get(id: string): Promise<BankRow | undefined> {
    const [row] = await this.db.query<BankRow>(`SELECT ${COLUMNS} FROM bank_catalog WHERE id = $1`, [id]);
    return row;
  }

  async search(search: { country?: string; text?: string; offset: number; limit: number }): Promise<{ total: number; rows: BankRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.country) where.push(`country = $${params.push(search.country)}`);
    if (search.text) {
      const p = params.push(containing(search.text));
      where.push(`(name ILIKE $${p} OR bic ILIKE $${p})`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bank_catalog ${clause}`, params);
    const rows = await this.db.query<BankRow>(
      `SELECT ${COLUMNS} FROM bank_catalog ${clause} ORDER BY name, id LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { total: n, rows };
  }
}
