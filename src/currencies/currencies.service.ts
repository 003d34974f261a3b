import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { Page, pageOf } from '../common/validators';
import { query } from '../database/sql';
import { UnitOfWork } from '../database/unit-of-work';
import { CreateCurrencyDto, CurrencyDto, CurrencyViewDto, UpdateCurrencyDto } from './dto/currency.dto';
import { CreateIssuerDto, IssuerDto, UpdateIssuerDto } from './dto/issuer.dto';

export interface CurrencyRow {
  id: string;
  code: string;
  digital_code: string | null;
  symbol: string | null;
  name: string;
  description: string | null;
  fraction: string;
  active: boolean;
}

interface IssuerRow {
  id: string;
  sn: string;
  name: string;
  description: string | null;
  active: boolean;
  currency_id: string;
}

const CURRENCY_COLUMNS = 'id, code, digital_code, symbol, name, description, fraction::text AS fraction, active';

function fractionText(value: number | string | undefined): string | undefined {
  return typeof value === 'number' ? BigInt(value).toString() : value;
}

export function toCurrency(row: CurrencyRow): CurrencyDto {
  return {
    id: row.id,
    code: row.code,
    digitalCode: row.digital_code,
    symbol: row.symbol,
    name: row.name,
    description: row.description,
    // A power of ten up to 10^18 is exact as a JSON number.
    fraction: Number(row.fraction),
    active: row.active,
  };
}

/** Currencies and the issuers that issue them. */
@Injectable()
export class CurrenciesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
  ) {}

  async createCurrency(dto: CreateCurrencyDto): Promise<CurrencyDto> {
    return this.uow.run(async (m) => {
      await this.assertUnique(m, dto.code, dto.digitalCode);
      const [row] = await query<CurrencyRow>(
        m,
        `INSERT INTO currencies (code, digital_code, symbol, name, description, fraction, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${CURRENCY_COLUMNS}`,
        [
          dto.code,
          dto.digitalCode ?? null,
          dto.symbol ?? null,
          dto.name,
          dto.description ?? null,
          fractionText(dto.fraction) ?? '100',
          dto.active ?? true,
        ],
      );
      return toCurrency(row);
    });
  }

  async listCurrencies(): Promise<CurrencyDto[]> {
    return (await query<CurrencyRow>(this.dataSource, `SELECT ${CURRENCY_COLUMNS} FROM currencies ORDER BY code`)).map(toCurrency);
  }

  async viewCurrencies(dto: CurrencyViewDto): Promise<Page<CurrencyDto>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const f = dto.filter ?? {};
    if (f.codes?.length) where.push(`code = ANY($${params.push(f.codes)}::text[])`);
    if (f.active !== undefined) where.push(`active = $${params.push(f.active)}`);
    if (f.name) where.push(`name ILIKE $${params.push(`%${f.name.replace(/[\\%_]/g, (c) => '\\' + c)}%`)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const sortField = dto.sort?.name ? 'name' : 'code';
    const direction = (dto.sort?.name ?? dto.sort?.code ?? 'asc') === 'desc' ? 'DESC' : 'ASC';
    const pageSize = dto.pageSize ?? 20;
    const [{ n }] = await query<{ n: string }>(this.dataSource, `SELECT count(*)::text AS n FROM currencies ${clause}`, params);
    const rows = await query<CurrencyRow>(
      this.dataSource,
      `SELECT ${CURRENCY_COLUMNS} FROM currencies ${clause} ORDER BY ${sortField} ${direction}, id LIMIT ${pageSize} OFFSET ${(dto.pageNumber ?? 0) * pageSize}`,
      params,
    );
    return pageOf(dto, Number(n), rows.map(toCurrency));
  }

  async updateCurrency(id: string, dto: UpdateCurrencyDto): Promise<CurrencyDto> {
    return this.uow.run(async (m) => {
      const [current] = await query<CurrencyRow>(m, `SELECT ${CURRENCY_COLUMNS} FROM currencies WHERE id = $1 FOR UPDATE`, [id]);
      if (!current) throw ApiError.notFound('exception.currency.not_found', 'No such currency');
      const fraction = fractionText(dto.fraction);
      if (fraction !== undefined && fraction !== current.fraction) {
        const [{ used }] = await query<{ used: boolean }>(m, 'SELECT EXISTS (SELECT 1 FROM coins WHERE currency_id = $1) AS used', [id]);
        if (used) throw ApiError.conflict('exception.currency.fraction_locked', 'The fraction cannot change once coins hold this currency');
      }
      if (dto.digitalCode && dto.digitalCode !== current.digital_code) await this.assertUnique(m, undefined, dto.digitalCode);
      const [row] = await query<CurrencyRow>(
        m,
        `UPDATE currencies SET digital_code = $2, symbol = $3, name = $4, description = $5, fraction = $6, active = $7, updated_at = now()
          WHERE id = $1 RETURNING ${CURRENCY_COLUMNS}`,
        [
          id,
          dto.digitalCode !== undefined ? dto.digitalCode : current.digital_code,
          dto.symbol !== undefined ? dto.symbol : current.symbol,
          dto.name ?? current.name,
          dto.description !== undefined ? dto.description : current.description,
          fraction ?? current.fraction,
          dto.active ?? current.active,
        ],
      );
      return toCurrency(row);
    });
  }

  async createIssuer(dto: CreateIssuerDto): Promise<IssuerDto> {
    const id = await this.uow.run(async (m) => {
      const [currency] = await query<{ id: string }>(m, 'SELECT id FROM currencies WHERE code = $1', [dto.currencyCode]);
      if (!currency) throw ApiError.notFound('exception.currency.not_found', `No currency with code ${dto.currencyCode}`);
      const [row] = await query<{ id: string }>(
        m,
        `INSERT INTO issuers (currency_id, name, description, active) VALUES ($1, $2, $3, $4) RETURNING id`,
        [currency.id, dto.name, dto.description ?? null, dto.active ?? true],
      );
      return row.id;
    });
    return this.issuer(id);
  }

  async listIssuers(): Promise<IssuerDto[]> {
    return this.issuers('ORDER BY i.sn');
  }

  async issuer(id: string, m?: EntityManager): Promise<IssuerDto> {
    const [issuer] = await this.issuers('WHERE i.id = $1', [id], m);
    if (!issuer) throw ApiError.notFound('exception.issuer.not_found', 'No such issuer');
    return issuer;
  }

  async updateIssuer(id: string, dto: UpdateIssuerDto): Promise<IssuerDto> {
    return this.uow.run(async (m) => {
      const [current] = await query<IssuerRow>(m, 'SELECT * FROM issuers WHERE id = $1 FOR UPDATE', [id]);
      if (!current) throw ApiError.notFound('exception.issuer.not_found', 'No such issuer');
      await query(m, `UPDATE issuers SET name = $2, description = $3, active = $4, updated_at = now() WHERE id = $1`, [
        id,
        dto.name ?? current.name,
        dto.description !== undefined ? dto.description : current.description,
        dto.active ?? current.active,
      ]);
      return this.issuer(id, m);
    });
  }

  private async issuers(clause: string, params: unknown[] = [], m?: EntityManager): Promise<IssuerDto[]> {
    const rows = await query<IssuerRow & { currency: CurrencyRow }>(
      m ?? this.dataSource,
      `SELECT i.id, i.sn::text AS sn, i.name, i.description, i.active, i.currency_id,
              json_build_object('id', c.id, 'code', c.code, 'digital_code', c.digital_code, 'symbol', c.symbol, 'name', c.name,
                                'description', c.description, 'fraction', c.fraction::text, 'active', c.active) AS currency
         FROM issuers i JOIN currencies c ON c.id = i.currency_id ${clause}`,
      params,
    );
    return rows.map((r) => ({
      id: r.id,
      sn: Number(r.sn),
      name: r.name,
      description: r.description,
      active: r.active,
      currency: toCurrency(r.currency),
    }));
  }

  private async assertUnique(m: EntityManager, code?: string, digitalCode?: string): Promise<void> {
    const clash = await query<{ code: string; digital_code: string | null }>(
      m,
      'SELECT code, digital_code FROM currencies WHERE code = $1 OR digital_code = $2',
      [code ?? null, digitalCode ?? null],
    );
    if (clash.some((c) => c.code === code)) throw ApiError.conflict('exception.currency.code_taken', `Currency ${code} already exists`);
    if (clash.length) throw ApiError.conflict('exception.currency.digital_code_taken', `Digital code ${digitalCode} is already used`);
  }
}
