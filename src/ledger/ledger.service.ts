import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { Money } from '../common/money';
import { query } from '../database/sql';
import { SYSTEM_ORGANIZATION_ID } from '../users/users.types';

/** Balances are NUMERIC(38,18): their absolute value stays below 10^20. */
const BALANCE_LIMIT = new Money('1e20');

/** Technical coins of the operator's `system` organization, one of each kind per issuer. */
export type SystemCoinKind = 'bank_settlement' | 'commission' | 'cash_desk' | 'exchange_reserve' | 'voucher_reserve';

export interface LockedCoin {
  serial: string;
  organization_id: string;
  issuer_id: string;
  currency_id: string;
  /** The currency's code and fraction, so callers can check amounts without another read. */
  code: string;
  fraction: string;
  type: 'client' | 'system';
  balance: string;
  held: string;
  active: boolean;
  closed_at: Date | null;
  usable: boolean;
}

/** An operation as written (and as OperationsReader shows it), with its ledger entries. */
export interface PostedOperation {
  id: string;
  type: string;
  status: string;
  request_identifier: string | null;
  request_status: string | null;
  created_at: Date;
  updated_at: Date;
  description: string | null;
  custom_information: string | null;
  amount: string;
  commission: string;
  code: string;
  fraction: string;
  from_coin: string | null;
  to_coin: string | null;
  from_organization_id: string | null;
  to_organization_id: string | null;
  reversal_of: string | null;
  entries: { id: string; coinSerial: string; amount: string; createdAt: string }[] | null;
}

export interface Posting {
  type: string;
  status?: string;
  currencyId: string;
  amount: Money;
  commission?: Money;
  fromCoin?: string | null;
  toCoin?: string | null;
  description?: string | null;
  customInformation?: string | null;
  requestIdentifier?: string | null;
  requestStatus?: string | null;
  createdBy?: string | null;
  reversalOf?: string | null;
  details?: Record<string, unknown>;
  /** Signed movements per coin; they must sum to zero. */
  entries: { coin: string; amount: Money }[];
}

/**
 * The only way money moves: one operation row, ledger entries that sum to zero, and the coins'
 * new balances, inside the caller's transaction. Coins are locked in serial order, so two
 * operations over the same coins never deadlock.
 */
@Injectable()
export class LedgerService {
  constructor(private readonly dataSource: DataSource) {}

  /** Locks the coins (ascending serial) with their issuer's and currency's state. */
  async lock(m: EntityManager, serials: string[]): Promise<Map<string, LockedCoin>> {
    const unique = [...new Set(serials)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const rows = await query<LockedCoin>(
      m,
      `SELECT c.serial::text AS serial, c.organization_id, c.issuer_id, c.currency_id, cu.code, cu.fraction::text AS fraction,
              c.type, c.balance::text AS balance,
              c.held::text AS held, c.active, c.closed_at, (c.active AND c.closed_at IS NULL AND i.active AND cu.active) AS usable
         FROM coins c JOIN issuers i ON i.id = c.issuer_id JOIN currencies cu ON cu.id = c.currency_id
        WHERE c.serial = ANY($1::bigint[]) ORDER BY c.serial FOR UPDATE OF c`,
      [unique],
    );
    return new Map(rows.map((r) => [r.serial, r]));
  }

  /** Finds or creates the system coin of a kind for an issuer. */
  async systemCoin(m: EntityManager, issuerId: string, kind: SystemCoinKind): Promise<string> {
    const existing = await query<{ serial: string }>(
      m,
      `SELECT serial::text AS serial FROM coins WHERE issuer_id = $1 AND system_kind = $2 AND type = 'system'`,
      [issuerId, kind],
    );
    if (existing[0]) return existing[0].serial;
    await query(
      m,
      `INSERT INTO coins (name, organization_id, issuer_id, currency_id, type, system_kind)
       SELECT $3, $4, i.id, i.currency_id, 'system', $2 FROM issuers i WHERE i.id = $1
       ON CONFLICT (issuer_id, system_kind) WHERE type = 'system' DO NOTHING`,
      [issuerId, kind, `System ${kind.replace('_', ' ')}`, SYSTEM_ORGANIZATION_ID],
    );
    const [row] = await query<{ serial: string }>(
      m,
      `SELECT serial::text AS serial FROM coins WHERE issuer_id = $1 AND system_kind = $2 AND type = 'system'`,
      [issuerId, kind],
    );
    return row.serial;
  }

  /**
   * Writes a balanced operation. The coins must already be locked by `lock` in this transaction;
   * client coins are checked for available funds (balance − held) before any write.
   */
  async post(m: EntityManager, posting: Posting, coins: Map<string, LockedCoin>): Promise<PostedOperation> {
    const total = posting.entries.reduce((sum, e) => sum.plus(e.amount), new Money(0));
    if (!total.isZero()) throw new Error(`Unbalanced posting ${posting.type}: entries sum to ${total.toString()}`);
    const deltas = new Map<string, Money>();
    for (const e of posting.entries) deltas.set(e.coin, (deltas.get(e.coin) ?? new Money(0)).plus(e.amount));
    for (const [serial, delta] of deltas) {
      const coin = coins.get(serial);
      if (!coin) throw new Error(`Coin ${serial} was not locked before posting`);
      if (coin.currency_id !== posting.currencyId) throw new Error(`Coin ${serial} is not in the operation's currency`);
      if (coin.type === 'client' && delta.isNegative() && new Money(coin.balance).minus(coin.held).plus(delta).isNegative()) {
        throw ApiError.conflict('exception.coin.insufficient_funds', `Coin ${serial} has insufficient available funds`);
      }
      // NUMERIC(38,18) holds 20 integer digits: a balance beyond that is a state conflict, not a malformed value.
      if (new Money(coin.balance).plus(delta).abs().gte(BALANCE_LIMIT)) {
        throw ApiError.conflict(
          'exception.coin.balance_limit',
          `The balance of coin ${serial} would exceed the largest amount a coin holds`,
        );
      }
    }
    const owner = (serial?: string | null) => (serial ? (coins.get(serial)?.organization_id ?? null) : null);
    const nonZero = posting.entries.filter((e) => !e.amount.isZero());
    const changed = [...deltas].filter(([, d]) => !d.isZero());
    // One statement: the operation, its entries and the new balances, answered with what a reader shows.
    const [row] = await query<Omit<PostedOperation, 'code' | 'fraction'>>(
      m,
      `WITH op AS (
         INSERT INTO operations (type, status, currency_id, amount, commission, from_coin, to_coin, from_organization_id, to_organization_id,
                                 description, custom_information, request_identifier, request_status, created_by, reversal_of, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         RETURNING id, type, status, request_identifier, request_status, created_at, updated_at, description, custom_information,
                   amount::text AS amount, commission::text AS commission, from_coin::text AS from_coin, to_coin::text AS to_coin,
                   from_organization_id, to_organization_id, reversal_of),
       entries AS (
         INSERT INTO ledger_entries (operation_id, coin_serial, currency_id, amount)
         SELECT op.id, e.serial, $3, e.amount FROM op, unnest($17::bigint[], $18::numeric[]) AS e(serial, amount)
         RETURNING id, coin_serial, amount, created_at),
       balances AS (
         UPDATE coins c SET balance = c.balance + v.delta, updated_at = now()
           FROM unnest($19::bigint[], $20::numeric[]) AS v(serial, delta) WHERE c.serial = v.serial
         RETURNING c.serial)
       SELECT op.*,
              (SELECT json_agg(json_build_object('id', e.id::text, 'coinSerial', e.coin_serial::text, 'amount', e.amount::text,
                                                 'createdAt', e.created_at) ORDER BY e.id) FROM entries e) AS entries,
              (SELECT count(*) FROM balances)::int AS balances_changed
         FROM op`,
      [
        posting.type,
        posting.status ?? 'completed',
        posting.currencyId,
        posting.amount.toFixed(),
        (posting.commission ?? new Money(0)).toFixed(),
        posting.fromCoin ?? null,
        posting.toCoin ?? null,
        owner(posting.fromCoin),
        owner(posting.toCoin),
        posting.description ?? null,
        posting.customInformation ?? null,
        posting.requestIdentifier ?? null,
        posting.requestStatus ?? null,
        posting.createdBy ?? null,
        posting.reversalOf ?? null,
        JSON.stringify(posting.details ?? {}),
        nonZero.map((e) => e.coin),
        nonZero.map((e) => e.amount.toFixed()),
        changed.map(([serial]) => serial),
        changed.map(([, delta]) => delta.toFixed()),
      ],
    );
    const currency = coins.get(posting.entries[0]?.coin ?? '') ?? [...coins.values()][0];
    const { balances_changed: _, ...operation } = row as typeof row & { balances_changed: number };
    return { ...operation, code: currency.code, fraction: currency.fraction };
  }

  /** Recomputes every balance from its entries and every operation's sum. */
  async check(): Promise<{ checkedCoins: number; checkedOperations: number; mismatches: Record<string, string>[] }> {
    return this.dataSource.transaction('REPEATABLE READ', async (m) => {
      const coinMismatches = await query<{ serial: string; balance: string; entries: string }>(
        m,
        `SELECT c.serial::text AS serial, c.balance::text AS balance, COALESCE(e.total, 0)::text AS entries
           FROM coins c LEFT JOIN (SELECT coin_serial, sum(amount) AS total FROM ledger_entries GROUP BY coin_serial) e ON e.coin_serial = c.serial
          WHERE c.balance <> COALESCE(e.total, 0) OR (c.type = 'client' AND c.balance < c.held)`,
      );
      const operationMismatches = await query<{ operation_id: string; currency_id: string; total: string }>(
        m,
        `SELECT operation_id, currency_id, sum(amount)::text AS total FROM ledger_entries GROUP BY operation_id, currency_id HAVING sum(amount) <> 0`,
      );
      const [{ coins }] = await query<{ coins: string }>(m, 'SELECT count(*)::text AS coins FROM coins');
      const [{ operations }] = await query<{ operations: string }>(m, 'SELECT count(*)::text AS operations FROM operations');
      return {
        checkedCoins: Number(coins),
        checkedOperations: Number(operations),
        mismatches: [
          ...coinMismatches.map((c) => ({ kind: 'coin_balance', coinSerial: c.serial, balance: c.balance, sumOfEntries: c.entries })),
          ...operationMismatches.map((o) => ({
            kind: 'operation_unbalanced',
            operationId: o.operation_id,
            currencyId: o.currency_id,
            sum: o.total,
          })),
        ],
      };
    });
  }
}
