import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { formatAmount, Money, scaleOf } from '../common/money';
import { IdempotencyContext, IdempotencyService } from '../common/idempotency';
import { toCurrency, CurrencyRow } from '../currencies/currencies.service';
import { countRows, query } from '../database/sql';
import { Page, pageOf } from '../common/validators';
import { UnitOfWork } from '../database/unit-of-work';
import { LedgerService, PostedOperation } from '../ledger/ledger.service';
import { OperationDto } from '../transactions/dto/transaction.dto';
import { OperationsReader } from '../transactions/operations.reader';
import { CloseCoinDto, CoinDto, CoinViewDto, CreateCoinDto } from './dto/coin.dto';

interface CoinRow {
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

const SELECT = `SELECT c.serial::text AS serial, c.name, c.organization_id, c.balance::text AS balance, c.held::text AS held, c.type, c.main,
       c.active, c.closed_at, c.created_at, i.id AS issuer_id, i.sn::text AS issuer_sn, i.active AS issuer_active,
       json_build_object('id', cu.id, 'code', cu.code, 'digital_code', cu.digital_code, 'symbol', cu.symbol, 'name', cu.name,
                         'description', cu.description, 'fraction', cu.fraction::text, 'active', cu.active) AS currency
  FROM coins c JOIN issuers i ON i.id = c.issuer_id JOIN currencies cu ON cu.id = c.currency_id`;

export interface CloseCoinResult {
  status: 'ok';
  message: string;
  coin: CoinDto;
  process: OperationDto | null;
}

/** Coins (wallets) of the caller's organization. Another organization's coin is a 404. */
@Injectable()
export class CoinsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly operations: OperationsReader,
  ) {}

  async create(principal: Principal, dto: CreateCoinDto): Promise<CoinDto> {
    const serial = await this.uow.run(async (m) => {
      const [issuer] = await query<{ currency_id: string; usable: boolean }>(
        m,
        `SELECT i.currency_id, (i.active AND c.active) AS usable FROM issuers i JOIN currencies c ON c.id = i.currency_id WHERE i.id = $1`,
        [dto.issuerId],
      );
      if (!issuer) throw ApiError.notFound('exception.issuer.not_found', 'No such issuer');
      if (!issuer.usable) throw ApiError.conflict('exception.issuer.inactive', 'The issuer or its currency is inactive');
      // The first coin of a currency becomes the organization's main one; a racing second one does not.
      const [row] = await query<{ serial: string }>(
        m,
        `INSERT INTO coins (name, organization_id, issuer_id, currency_id, main)
         VALUES ($1, $2, $3, $4, NOT EXISTS (SELECT 1 FROM coins WHERE organization_id = $2 AND currency_id = $4 AND main))
         ON CONFLICT (organization_id, currency_id) WHERE main DO NOTHING RETURNING serial::text AS serial`,
        [dto.name, principal.organizationId, dto.issuerId, issuer.currency_id],
      );
      if (row) return row.serial;
      const [fallback] = await query<{ serial: string }>(
        m,
        `INSERT INTO coins (name, organization_id, issuer_id, currency_id) VALUES ($1, $2, $3, $4) RETURNING serial::text AS serial`,
        [dto.name, principal.organizationId, dto.issuerId, issuer.currency_id],
      );
      return fallback.serial;
    });
    return this.get(principal, serial);
  }

  async list(principal: Principal): Promise<CoinDto[]> {
    const rows = await query<CoinRow>(this.dataSource, `${SELECT} WHERE c.organization_id = $1 ORDER BY c.serial`, [
      principal.organizationId,
    ]);
    return rows.map(toCoin);
  }

  /** Staff search over every coin, technical ones included. */
  async view(dto: CoinViewDto): Promise<Page<CoinDto & { organizationId: string }>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const f = dto.filter ?? {};
    if (f.serials?.length) where.push(`c.serial = ANY($${params.push(f.serials)}::bigint[])`);
    if (f.organizationIds?.length) where.push(`c.organization_id = ANY($${params.push(f.organizationIds)}::uuid[])`);
    if (f.issuerIds?.length) where.push(`c.issuer_id = ANY($${params.push(f.issuerIds)}::uuid[])`);
    if (f.types?.length) where.push(`c.type = ANY($${params.push(f.types)}::text[])`);
    if (f.active !== undefined) where.push(`c.active = $${params.push(f.active)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const direction = (dto.sort?.serial ?? 'asc') === 'desc' ? 'DESC' : 'ASC';
    const pageSize = dto.pageSize ?? 20;
    const count = await countRows(this.dataSource, `FROM coins c ${clause}`, params);
    const rows = await query<CoinRow>(
      this.dataSource,
      `${SELECT} ${clause} ORDER BY c.serial ${direction} LIMIT ${pageSize} OFFSET ${(dto.pageNumber ?? 0) * pageSize}`,
      params,
    );
    return pageOf(
      dto,
      count.total,
      rows.map((r) => ({ ...toCoin(r), organizationId: r.organization_id })),
      count.exact,
    );
  }

  async get(principal: Principal, serial: string, m?: EntityManager): Promise<CoinDto> {
    return toCoin(await this.own(principal, serial, m));
  }

  /** Renaming never changes whether the coin is active (the specification's section 9 fix). */
  async rename(principal: Principal, serial: string, name: string): Promise<CoinDto> {
    return this.uow.run(async (m) => {
      const coin = await this.own(principal, serial, m, true);
      if (coin.closed_at) throw ApiError.conflict('exception.coin.closed', 'The coin is closed');
      await query(m, 'UPDATE coins SET name = $2, updated_at = now() WHERE serial = $1', [serial, name]);
      return this.get(principal, serial, m);
    });
  }

  /** Makes the coin the main one of its currency for the organization; the previous main one stops being it. */
  async setMain(principal: Principal, serial: string): Promise<CoinDto> {
    return this.uow.run(async (m) => {
      const { currency } = await this.own(principal, serial, m);
      // Lock every coin of the organization in this currency (serial order), so racing set-mains queue up
      // instead of both clearing the old main coin and colliding on the one-main-coin index.
      await query(m, 'SELECT serial FROM coins WHERE organization_id = $1 AND currency_id = $2 ORDER BY serial FOR UPDATE', [
        principal.organizationId,
        currency.id,
      ]);
      const coin = await this.own(principal, serial, m);
      if (coin.closed_at || !coin.active)
        throw ApiError.conflict('exception.coin.inactive', 'A closed or inactive coin cannot be the main one');
      await query(
        m,
        'UPDATE coins SET main = false, updated_at = now() WHERE organization_id = $1 AND currency_id = $2 AND main AND serial <> $3',
        [principal.organizationId, coin.currency.id, serial],
      );
      await query(m, 'UPDATE coins SET main = true, updated_at = now() WHERE serial = $1', [serial]);
      return this.get(principal, serial, m);
    });
  }

  /** Closes a coin, moving what is left to `transferToCoinSerial`. A closed coin takes part in nothing more. */
  async close(principal: Principal, serial: string, dto: CloseCoinDto, idem: IdempotencyContext): Promise<CloseCoinResult> {
    return this.idempotency.run(
      principal.userId,
      idem,
      200,
      async (m) => {
        await this.own(principal, serial, m); // 404 unless it is the caller's
        const target = dto.transferToCoinSerial;
        if (target === serial) throw ApiError.invalid('transferToCoinSerial', 'must be another coin');
        const locked = await this.ledger.lock(m, target ? [serial, target] : [serial]);
        const self = locked.get(serial)!;
        if (self.closed_at) throw ApiError.conflict('exception.coin.closed', 'The coin is already closed');
        if (!new Money(self.held).isZero())
          throw ApiError.conflict('exception.coin.pending_requests', 'The coin has amounts held by pending requests');
        const balance = new Money(self.balance);
        let posted: PostedOperation | undefined;
        if (!balance.isZero()) {
          if (!target)
            throw ApiError.conflict('exception.coin.not_empty', 'The coin is not empty: give transferToCoinSerial to receive its balance');
          const to = locked.get(target);
          if (!to || (to.type === 'system' && to.organization_id !== principal.organizationId)) {
            throw ApiError.notFound('exception.coin.not_found', `No coin ${target}`);
          }
          if (to.type !== 'client') throw ApiError.invalid('transferToCoinSerial', 'must not be a technical coin');
          if (to.currency_id !== self.currency_id) throw ApiError.invalid('transferToCoinSerial', 'must be a coin of the same currency');
          if (!to.usable) throw ApiError.conflict('exception.coin.inactive', `Coin ${target} is closed or inactive`);
          posted = await this.ledger.post(
            m,
            {
              type: 'coin_closure',
              currencyId: self.currency_id,
              amount: balance,
              fromCoin: serial,
              toCoin: target,
              description: `Closure of coin ${serial}`,
              requestIdentifier: idem.key ?? null,
              createdBy: principal.userId,
              entries: [
                { coin: serial, amount: balance.negated() },
                { coin: target, amount: balance },
              ],
            },
            locked,
          );
        }
        await query(m, 'UPDATE coins SET active = false, main = false, closed_at = now(), updated_at = now() WHERE serial = $1', [serial]);
        return {
          status: 'ok',
          message: 'Coin closed',
          coin: await this.get(principal, serial, m),
          process: posted ? this.operations.describe(posted) : null,
        };
      },
      (r) => r.process?.id,
    );
  }

  private async own(principal: Principal, serial: string, m?: EntityManager, lock = false): Promise<CoinRow> {
    const [row] = await query<CoinRow>(
      m ?? this.dataSource,
      `${SELECT} WHERE c.serial = $1 AND c.organization_id = $2${lock ? ' FOR UPDATE OF c' : ''}`,
      [serial, principal.organizationId],
    );
    if (!row) throw ApiError.notFound('exception.coin.not_found', `No coin ${serial}`);
    return row;
  }
}

export function toCoin(row: CoinRow): CoinDto {
  const scale = scaleOf(row.currency.fraction);
  const balance = new Money(row.balance);
  return {
    serial: row.serial,
    name: row.name,
    amount: formatAmount(balance, scale),
    availableAmount: formatAmount(balance.minus(row.held), scale),
    heldAmount: formatAmount(row.held, scale),
    issuer: { id: row.issuer_id, sn: Number(row.issuer_sn), currency: toCurrency(row.currency) },
    type: row.type,
    main: row.main,
    active: row.active,
    closedAt: row.closed_at ? row.closed_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}
