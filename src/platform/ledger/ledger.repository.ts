import { Injectable } from '@nestjs/common';
import { Money } from '../common/money';
import { arrayLiteral, Database } from '../database/database';
import { SYSTEM_ORGANIZATION_ID } from '../organizations/organization.types';
import type { LockedCoin, LockedHold, LockedOperation, OperationMeta, SystemCoinKind } from './ledger.types';
import { CoinJson, EntryJson, entriesJson, OPERATION_COLUMNS, OperationRow, PartyJson } from './operation.projection';
import type { OperationType } from './operation-types';
import type { PlanEffect } from './plan';

const COIN_COLUMNS = `c.serial::text AS serial, c.organization_id, c.issuer_id, c.currency_id, cu.code, cu.symbol, cu.fraction::text AS fraction,
       c.type, c.system_kind, c.main, c.name, i.sn::text AS issuer_sn, g.name AS organization_name,
       g.email AS organization_email, g.phone_number AS organization_phone,
       c.balance::text AS balance, c.held::text AS held, c.active, c.closed_at,
       (c.active AND c.closed_at IS NULL AND i.active AND cu.active) AS usable
  FROM coins c JOIN issuers i ON i.id = c.issuer_id JOIN currencies cu ON cu.id = c.currency_id JOIN organizations g ON g.id = c.organization_id`;

/** What the kernel writes: the operation (new, or the pending one being settled), from a checked plan. */
export interface Posting {
  type: OperationType;
  /** The locked coins, for the owners of the operation's from and to coins. */
  coins: ReadonlyMap<string, LockedCoin>;
  /** Settles this operation in place instead of inserting one. */
  operationId?: string;
  /** The number of the plan's first leg: after the legs the settled operation already has. */
  firstLeg: number;
  meta: OperationMeta;
  effect: PlanEffect;
  createdBy: string | null;
  /** The role `createdBy` acted as. */
  createdByRole: string | null;
  requestIdentifier: string | null;
  reversalOf: string | null;
}

/** An operation as a flow reads it before settling it: its coins, the payer coin's issuer, its details. */
export interface HeldOperation {
  id: string;
  status: string;
  from_coin: string | null;
  to_coin: string | null;
  issuer_id: string | null;
  details: Record<string, unknown>;
}

/**
 * What the posting statement answers when the kernel already holds the rest of the projection (see `answerable`): only
 * what the database made — the operation's id and times, and its entries as `id leg serial` in id order.
 */
interface PostedRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  /** `id leg serial` of each entry, space-separated, in id order (one string: cheaper to read than an array of arrays). */
  entries: string | null;
}

const POSTED_COLUMNS = `SELECT o.id, o.created_at, o.updated_at,
       (SELECT string_agg(concat_ws(' ', id, leg, coin_serial), ' ' ORDER BY id) FROM entries) AS entries
  FROM op o`;

/**
 * Whether the operation's projection can be completed from the posting and its locked coins: a new operation (a
 * settled one also answers its earlier entries), every coin it names locked, and its currency that of one of them.
 * Reading the coins and currencies again in the posting statement cost PostgreSQL a seventh of a transfer's work
 * (0.92 → 0.79 ms per transfer); its parties' organizations and its own columns, which the posting wrote, are not read
 * back either.
 */
function answerable(posting: Posting): boolean {
  const { coins, meta, effect } = posting;
  if (posting.operationId) return false;
  if ((meta.fromCoin && !coins.has(meta.fromCoin)) || (meta.toCoin && !coins.has(meta.toCoin))) return false;
  return [...coins.values()].some((c) => c.currency_id === effect.currencyId);
}

/**
 * Whether a posting can be written by `writeTogether`: a new operation completed from the locked coins (`answerable`),
 * that only moves money (no holds placed or ended) and reverses nothing.
 */
export function writableTogether(posting: Posting): boolean {
  const { effect } = posting;
  return answerable(posting) && !posting.reversalOf && !effect.placements.length && !effect.closures.length;
}

/** What the projection says of a locked coin: the same as `coinJson` reads. */
function lockedCoinJson(coin: LockedCoin): CoinJson {
  return {
    serial: coin.serial,
    name: coin.name,
    type: coin.type,
    systemKind: coin.system_kind,
    organizationId: coin.organization_id,
    organizationName: coin.organization_name,
    issuerId: coin.issuer_id,
    sn: coin.issuer_sn,
    code: coin.code,
    symbol: coin.symbol,
    fraction: coin.fraction,
  };
}

/** What the projection says of the owner of a locked coin: the same as `partyJson` reads. */
function lockedPartyJson(coin: LockedCoin): PartyJson {
  return {
    organizationId: coin.organization_id,
    fullName: coin.organization_name,
    email: coin.organization_email,
    phoneNumber: coin.organization_phone,
  };
}

/**
 * The projection of a posted operation (see `answerable`): the operation's columns as the posting wrote them (its
 * amounts as their exact text, which toOperationDto pads to the currency's decimals, as it rounds the columns' eighteen
 * when an operation is read), the row the database answered (its id, times and entries' ids), and the locked coins.
 */
function postedOperation(row: PostedRow, posting: Posting): OperationRow {
  const { coins, effect, meta } = posting;
  let currency!: LockedCoin;
  for (const coin of coins.values()) {
    if (coin.currency_id === effect.currencyId) {
      currency = coin;
      break;
    }
  }
  // Each coin's projection once, shared by the operation's sides and its entries (the mapper only reads them).
  const projected = new Map<string, CoinJson>();
  const jsonOf = (coin: LockedCoin): CoinJson => {
    let json = projected.get(coin.serial);
    if (!json) projected.set(coin.serial, (json = lockedCoinJson(coin)));
    return json;
  };
  const createdAt = row.created_at.toISOString();
  const entries: EntryJson[] = [];
  const fields = row.entries ? row.entries.split(' ') : [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [id, leg, serial] = [fields[i], Number(fields[i + 1]), fields[i + 2]];
    const entry = effect.entries.find((e) => e.leg === leg && e.coin.serial === serial)!;
    entries.push({ id, leg, amount: entry.amount.toFixed(), createdAt, coin: jsonOf(entry.coin) });
  }
  const from = meta.fromCoin ? coins.get(meta.fromCoin)! : null;
  const to = meta.toCoin ? coins.get(meta.toCoin)! : null;
  return {
    id: row.id,
    type: posting.type,
    status: effect.status,
    request_identifier: posting.requestIdentifier,
    request_status: meta.requestStatus ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    description: meta.description ?? null,
    custom_information: meta.customInformation ?? null,
    amount: meta.amount.toFixed(),
    commission: (meta.commission ?? ZERO).toFixed(),
    code: currency.code,
    symbol: currency.symbol,
    fraction: currency.fraction,
    reversal_of: posting.reversalOf,
    created_by: posting.createdBy,
    created_by_role: posting.createdByRole,
    from_coin: from && jsonOf(from),
    to_coin: to && jsonOf(to),
    sender: from && lockedPartyJson(from),
    recipient: to && lockedPartyJson(to),
    entries: entries.length ? entries : null,
  };
}

const ZERO = new Money(0);

/**
 * Coin serials, once each, in ascending order. Serials are canonical decimal text (SERIAL_PATTERN: no sign, no leading
 * zero), whose numeric order is the order of their lengths, then of their text: no BigInt per comparison. (The
 * statement's ORDER BY decides the order rows are locked in; this one only keeps the parameter the same for the same coins.)
 */
const bySerial = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
const serials = (values: string[]) => [...new Set(values)].sort(bySerial);

// The hot statements' texts, built once: each run then hands `pg` and the statement caches the same string.
// Coins are locked FOR NO KEY UPDATE, the lock an UPDATE of their balance takes itself: unlike FOR UPDATE it lets other
// transactions write rows that refer to the coin (an entry's or an operation's foreign key takes KEY SHARE on it). Two
// groups over one shared coin both write its entries before they lock it: with FOR UPDATE each would wait for the
// other's KEY SHARE (a deadlock, found by group-commit.e2e.spec.ts's voucher redemptions).
const GENERIC_PLANS = `CROSS JOIN (SELECT set_config('plan_cache_mode', 'force_generic_plan', true)) AS generic_plans`;
/** Every coin locked, the shared ones (system coins) after the others: the order every transaction locks coins in. */
const LOCK_COINS = `SELECT ${COIN_COLUMNS} ${GENERIC_PLANS}
        WHERE c.serial = ANY($1::bigint[]) ORDER BY c.type = 'system', c.serial FOR NO KEY UPDATE OF c`;
/** A group's coins: the others locked unless another transaction holds them (then left out), the shared ones only read. */
const LOCK_GROUP_COINS = `WITH locked AS (
    SELECT ${COIN_COLUMNS} ${GENERIC_PLANS}
     WHERE c.serial = ANY($1::bigint[]) AND c.type <> 'system' ORDER BY c.serial FOR NO KEY UPDATE OF c SKIP LOCKED)
  SELECT * FROM locked
  UNION ALL
  SELECT ${COIN_COLUMNS} WHERE c.serial = ANY($1::bigint[]) AND c.type = 'system'`;
const READ_COINS = `SELECT ${COIN_COLUMNS} WHERE c.serial = ANY($1::bigint[])`;
/** The shared coins a group changes, locked at its end in serial order (so two groups' final locks never deadlock). */
const LOCK_SHARED = `SELECT serial FROM coins WHERE serial = ANY($1::bigint[]) ORDER BY serial FOR NO KEY UPDATE`;
/**
 * Their new balances, on the rows as they are now (locked just before, by LOCK_SHARED): a coin with a floor
 * (`lowest`, the lowest its available funds went in the group, as a change from what they were) that would now go below
 * zero fails the statement (ledger_overdrawn: check_violation), and with it the group's transaction.
 */
const WRITE_SHARED = `UPDATE coins c
     SET balance = CASE WHEN v.lowest IS NULL OR c.balance - c.held + v.lowest >= 0 THEN c.balance + v.balance
                        ELSE ledger_overdrawn(c.serial) END,
         held = c.held + v.held, updated_at = now()
    FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[]) AS v(serial, balance, held, lowest)
   WHERE c.serial = v.serial AND c.serial = ANY($1::bigint[])`;

/**
 * A shared coin: a system coin (an issuer's exchange reserve, its commission coin…), which every posting of its kind
 * names. A group reads it without locking it and locks it only to write its balance, last (LedgerService.postGroup), so
 * groups over different client coins run at once even when they all pay into (or out of) the same reserve.
 */
export const isShared = (coin: Pick<LockedCoin, 'type'>): boolean => coin.type === 'system';

/** What a group does to a shared coin, written last (writeShared): its change, and its floor (null: none). */
export interface SharedChange {
  serial: string;
  balance: Money;
  held: Money;
  /** The lowest the coin's available funds went within the group, as a change from before it: they must stay ≥ 0 there. */
  lowest: Money | null;
}

/** The statement of `writeTogether`: a group's operations, entries and balances, from one array parameter per column. */
const WRITE_TOGETHER = `WITH op AS (
    INSERT INTO operations (id, type, status, currency_id, amount, commission, from_coin, to_coin, from_organization_id, to_organization_id,
                            description, custom_information, request_identifier, request_status, created_by, details, created_by_role)
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::numeric[], $6::numeric[], $7::bigint[], $8::bigint[],
                         $9::uuid[], $10::uuid[], $11::text[], $12::text[], $13::text[], $14::text[], $15::uuid[], $16::jsonb[], $26::text[])
    RETURNING id, created_at, updated_at),
  entries AS (
    INSERT INTO ledger_entries (operation_id, leg, coin_serial, currency_id, organization_id, amount, created_at)
    SELECT op.id, e.leg, e.serial, e.currency_id, e.organization_id, e.amount, op.created_at
      FROM unnest($17::int[], $18::smallint[], $19::bigint[], $20::uuid[], $21::uuid[], $22::numeric[])
           WITH ORDINALITY AS e(operation, leg, serial, currency_id, organization_id, amount, n)
      JOIN op ON op.id = ($1::uuid[])[e.operation]
     ORDER BY e.n
    RETURNING id, operation_id, leg, coin_serial),
  balances AS (
    UPDATE coins c SET balance = c.balance + v.balance, held = c.held + v.held, updated_at = now()
      FROM unnest($23::bigint[], $24::numeric[], $25::numeric[]) AS v(serial, balance, held)
     WHERE c.serial = v.serial AND c.serial = ANY($23::bigint[])
    RETURNING c.serial)
  SELECT o.id, o.created_at, o.updated_at,
         (SELECT string_agg(concat_ws(' ', e.id, e.leg, e.coin_serial), ' ' ORDER BY e.id) FROM entries e WHERE e.operation_id = o.id) AS entries
    FROM op o`;

/** The ledger's tables: operations, ledger_entries, holds, and the balances of coins. */
@Injectable()
export class LedgerRepository {
  constructor(private readonly db: Database) {}

  /**
   * Whether the operations a transaction wrote are there, read on the pool (not in any transaction): true when all are,
   * false when none is, undefined when there are none to look for. Some but not all cannot be: they commit together.
   */
  async committed(operationIds: readonly string[]): Promise<boolean | undefined> {
    if (!operationIds.length) return undefined;
    const [{ n }] = await this.db.queryPool<{ n: number }>('SELECT count(*)::int AS n FROM operations WHERE id = ANY($1::uuid[])', [
      operationIds,
    ]);
    if (n !== 0 && n !== operationIds.length)
      throw new Error(`${n} of the ${operationIds.length} operations of one transaction are written`);
    return n === operationIds.length;
  }

  /**
   * Locks the coins in ascending serial order, the shared ones (`isShared`) after the others, so two operations over
   * the same coins never deadlock (a group locks its shared coins last too: writeShared).
   *
   * It also sets `plan_cache_mode = force_generic_plan` for the rest of the transaction (set_config's
   * `is_local`): the posting that follows is a prepared statement whose planning costs more than its
   * execution, and PostgreSQL would otherwise keep planning it anew for its values (its generic estimates
   * of the unnested legs look dearer). Setting it here costs no round trip of its own.
   */
  async lockCoins(coins: string[]): Promise<Map<string, LockedCoin>> {
    const rows = await this.db.query<LockedCoin>(LOCK_COINS, [serials(coins)], { prepare: true });
    return new Map(rows.map((r) => [r.serial, r]));
  }

  /**
   * A group's coins: those another transaction holds are left out instead of waited for (the group's postings over such
   * a coin are posted on their own); the shared ones (`isShared`) are read as last committed, not locked (writeShared).
   */
  async lockGroupCoins(coins: string[]): Promise<Map<string, LockedCoin>> {
    const rows = await this.db.query<LockedCoin>(LOCK_GROUP_COINS, [serials(coins)], { prepare: true });
    return new Map(rows.map((r) => [r.serial, r]));
  }

  /**
   * Writes what a group does to its shared coins, as the last statements of its transaction and sent with its COMMIT
   * (the caller hands them to UnitOfWork.sendWithCommit): the coins locked in serial order, then their balances. A
   * coin's floor broken on its balance as it is now fails them, and the group with them.
   */
  writeShared(changes: SharedChange[]): Promise<unknown>[] {
    if (!changes.length) return [];
    const sorted = [...changes].sort((a, b) => bySerial(a.serial, b.serial));
    const coins = arrayLiteral(sorted.map((c) => c.serial));
    return [
      this.db.query(LOCK_SHARED, [coins], { prepare: true }),
      this.db.query(
        WRITE_SHARED,
        [
          coins,
          arrayLiteral(sorted.map((c) => c.balance.toFixed())),
          arrayLiteral(sorted.map((c) => c.held.toFixed())),
          arrayLiteral(sorted.map((c) => c.lowest?.toFixed() ?? null)),
        ],
        { prepare: true },
      ),
    ];
  }

  /** The same rows without locking them, for rules checked before a transaction (a calculation). */
  async readCoins(coins: string[]): Promise<Map<string, LockedCoin>> {
    const rows = await this.db.query<LockedCoin>(READ_COINS, [serials(coins)], { prepare: true });
    return new Map(rows.map((r) => [r.serial, r]));
  }

  async lockOperation(id: string): Promise<LockedOperation | undefined> {
    const [row] = await this.db.query<LockedOperation>(
      `SELECT id, type, status, currency_id, amount::text AS amount, commission::text AS commission, from_coin::text AS from_coin,
              to_coin::text AS to_coin, reversal_of, details
         FROM operations WHERE id = $1 FOR UPDATE`,
      [id],
      { prepare: true },
    );
    return row;
  }

  /** An operation's unchanging facts and its status, read without a lock (the kernel locks it when it settles it). */
  async readOperation(id: string): Promise<HeldOperation | undefined> {
    const [row] = await this.db.query<HeldOperation>(
      `SELECT o.id, o.status, o.from_coin::text AS from_coin, o.to_coin::text AS to_coin, c.issuer_id, o.details
         FROM operations o LEFT JOIN coins c ON c.serial = o.from_coin WHERE o.id = $1`,
      [id],
      { prepare: true },
    );
    return row;
  }

  async lockOpenHolds(operationId: string): Promise<LockedHold[]> {
    return this.db.query<LockedHold>(
      `SELECT id, operation_id, coin_serial::text AS coin_serial, amount::text AS amount
         FROM holds WHERE operation_id = $1 AND status = 'open' ORDER BY id FOR UPDATE`,
      [operationId],
      { prepare: true },
    );
  }

  /** The operation's legs, in order: from the debit entry's coin to the credit entry's. */
  async legsOf(operationId: string): Promise<{ from: string; to: string; amount: string }[]> {
    return this.db.query(
      `SELECT (array_agg(coin_serial::text) FILTER (WHERE amount < 0))[1] AS "from",
              (array_agg(coin_serial::text) FILTER (WHERE amount > 0))[1] AS "to", max(amount)::text AS amount
         FROM ledger_entries WHERE operation_id = $1 GROUP BY leg ORDER BY leg`,
      [operationId],
    );
  }

  /** How many legs an operation has. */
  async legCount(operationId: string): Promise<number> {
    const [{ n }] = await this.db.query<{ n: number }>('SELECT count(DISTINCT leg)::int AS n FROM ledger_entries WHERE operation_id = $1', [
      operationId,
    ]);
    return n;
  }

  /** Finds or creates the system coin of a kind for an issuer. */
  async systemCoin(issuerId: string, kind: SystemCoinKind): Promise<string> {
    const find = () =>
      this.db.query<{ serial: string }>(
        `SELECT serial::text AS serial FROM coins WHERE issuer_id = $1 AND system_kind = $2 AND type = 'system'`,
        [issuerId, kind],
      );
    const [existing] = await find();
    if (existing) return existing.serial;
    await this.db.query(
      `INSERT INTO coins (name, organization_id, issuer_id, currency_id, type, system_kind)
       SELECT $3, $4, i.id, i.currency_id, 'system', $2 FROM issuers i WHERE i.id = $1
       ON CONFLICT (issuer_id, system_kind) WHERE type = 'system' DO NOTHING`,
      [issuerId, kind, `System ${kind.replace('_', ' ')}`, SYSTEM_ORGANIZATION_ID],
    );
    const [created] = await find();
    return created.serial;
  }

  /**
   * Writes a checked plan in one statement: the operation (inserted, or the pending one updated),
   * its entries, the holds it places and ends, the coins' new balances and held amounts, and the
   * reversed original; answers the operation's projection.
   */
  async write(posting: Posting, { deferShared = false } = {}): Promise<OperationRow> {
    const { effect, meta } = posting;
    // In a group, the shared coins' balances are the group's to write, last (writeShared).
    const changes = deferShared ? effect.changes.filter((c) => !isShared(posting.coins.get(c.serial)!)) : effect.changes;
    const params: unknown[] = [];
    const p = (value: unknown) => `$${params.push(value)}`;
    const ctes: string[] = [];
    // The owner of a coin the operation names: known when the kernel locked it, else read (a payee named but not yet moved to).
    const coinOwner = (serial: string | null | undefined) => {
      if (!serial) return p(null);
      const locked = posting.coins.get(serial);
      return locked ? `${p(locked.organization_id)}::uuid` : `(SELECT organization_id FROM coins WHERE serial = ${p(serial)}::bigint)`;
    };

    if (posting.operationId) {
      ctes.push(`op AS (
        UPDATE operations SET status = ${p(effect.status)}, commission = COALESCE(${p(meta.commission?.toFixed() ?? null)}::numeric, commission),
               request_status = COALESCE(${p(meta.requestStatus ?? null)}, request_status),
               details = details || ${p(JSON.stringify(meta.details ?? {}))}::jsonb, updated_at = now()
         WHERE id = ${p(posting.operationId)} RETURNING *)`);
    } else {
      ctes.push(`op AS (
        INSERT INTO operations (type, status, currency_id, amount, commission, from_coin, to_coin, from_organization_id, to_organization_id,
                                description, custom_information, request_identifier, request_status, created_by, created_by_role,
                                reversal_of, details)
        VALUES (${[
          p(posting.type),
          p(effect.status),
          p(effect.currencyId),
          p(meta.amount.toFixed()),
          p((meta.commission ?? new Money(0)).toFixed()),
          p(meta.fromCoin ?? null),
          p(meta.toCoin ?? null),
          coinOwner(meta.fromCoin),
          coinOwner(meta.toCoin),
          p(meta.description ?? null),
          p(meta.customInformation ?? null),
          p(posting.requestIdentifier),
          p(meta.requestStatus ?? null),
          p(posting.createdBy),
          p(posting.createdByRole),
          p(posting.reversalOf),
          p(JSON.stringify(meta.details ?? {})),
        ].join(', ')})
        RETURNING *)`);
    }
    ctes.push(`entries AS (
        INSERT INTO ledger_entries (operation_id, leg, coin_serial, currency_id, organization_id, amount, created_at)
        SELECT op.id, e.leg + ${p(posting.firstLeg)}, e.serial, e.currency_id, e.organization_id, e.amount, op.created_at
          FROM op, unnest(${p(effect.entries.map((e) => e.leg))}::smallint[], ${p(effect.entries.map((e) => e.coin.serial))}::bigint[],
                          ${p(effect.entries.map((e) => e.coin.currency_id))}::uuid[], ${p(effect.entries.map((e) => e.coin.organization_id))}::uuid[],
                          ${p(effect.entries.map((e) => e.amount.toFixed()))}::numeric[])
               WITH ORDINALITY AS e(leg, serial, currency_id, organization_id, amount, n)
         ORDER BY e.n
        RETURNING id, leg, coin_serial, currency_id, amount, created_at)`);
    if (effect.placements.length) {
      ctes.push(`placed AS (
        INSERT INTO holds (operation_id, coin_serial, organization_id, amount, created_at)
        SELECT op.id, h.serial, h.organization_id, h.amount, op.created_at
          FROM op, unnest(${p(effect.placements.map((h) => h.coin.serial))}::bigint[], ${p(effect.placements.map((h) => h.coin.organization_id))}::uuid[],
                          ${p(effect.placements.map((h) => h.amount.toFixed()))}::numeric[]) AS h(serial, organization_id, amount)
        RETURNING id)`);
    }
    if (effect.closures.length) {
      ctes.push(`ended AS (
        UPDATE holds h SET status = x.status, closed_at = now(), closed_by_operation_id = (SELECT id FROM op)
          FROM unnest(${p(effect.closures.map((c) => c.holdId))}::uuid[], ${p(effect.closures.map((c) => c.status))}::text[]) AS x(id, status)
         WHERE h.id = x.id AND h.status = 'open'
        RETURNING h.id)`);
    }
    if (changes.length) {
      // `c.serial = ANY(…)` beside the join: the generic plan then finds the coins by their key, however small the table looks.
      const changed = p(changes.map((c) => c.serial));
      ctes.push(`balances AS (
        UPDATE coins c SET balance = c.balance + v.balance, held = c.held + v.held, updated_at = now()
          FROM unnest(${changed}::bigint[], ${p(changes.map((c) => c.balance.toFixed()))}::numeric[],
                      ${p(changes.map((c) => c.held.toFixed()))}::numeric[]) AS v(serial, balance, held)
         WHERE c.serial = v.serial AND c.serial = ANY(${changed}::bigint[])
        RETURNING c.serial)`);
    }
    if (posting.reversalOf) {
      ctes.push(`reversed AS (
        UPDATE operations SET status = 'reversed', updated_at = now() WHERE id = ${p(posting.reversalOf)} RETURNING id)`);
    }
    // Its text varies only with which parts a plan has (holds placed or ended, a settlement, a reversal).
    if (answerable(posting)) {
      const [row] = await this.db.query<PostedRow>(`WITH ${ctes.join(',\n')}\n${POSTED_COLUMNS}`, params, { prepare: true });
      return postedOperation(row, posting);
    }
    const columns = 'id, leg, coin_serial, currency_id, amount, created_at';
    const earlier = posting.operationId ? `SELECT ${columns} FROM ledger_entries WHERE operation_id = o.id UNION ALL ` : '';
    const [row] = await this.db.query<OperationRow>(
      `WITH ${ctes.join(',\n')}
       SELECT ${OPERATION_COLUMNS}, ${entriesJson(`(${earlier}SELECT ${columns} FROM entries)`)} AS entries
         FROM op o JOIN currencies cu ON cu.id = o.currency_id`,
      params,
      { prepare: true },
    );
    return row;
  }

  /**
   * Writes the postings of a group (see `writableTogether`) in one statement: their operations, their entries and
   * the coins' new balances — each coin once, by the sum of what the postings move on it; the shared coins' are the
   * group's to write last (writeShared). Each operation takes its id from `ids` (made by the caller, so rows naming the
   * operations can be sent before this statement's answer). Answers each operation's projection, in the postings' order.
   */
  async writeTogether(postings: Posting[], ids: readonly string[]): Promise<OperationRow[]> {
    for (const posting of postings) if (!writableTogether(posting)) throw new Error(`A ${posting.type} cannot be written in a group`);
    if (ids.length !== postings.length) throw new Error('writeTogether needs one id per posting');
    const owner = (posting: Posting, serial: string | null | undefined) => (serial ? posting.coins.get(serial)!.organization_id : null);
    const column = <V>(value: (posting: Posting) => V) => postings.map(value);
    // Each entry names its operation by its place in the first column (1-based): a number, not its uuid again.
    const entries = postings.flatMap((posting, i) => posting.effect.entries.map((entry) => ({ operation: i + 1, ...entry })));
    const changes = new Map<string, { balance: Money; held: Money }>();
    for (const posting of postings) {
      for (const change of posting.effect.changes) {
        if (isShared(posting.coins.get(change.serial)!)) continue;
        const sum = changes.get(change.serial);
        changes.set(change.serial, sum ? { balance: sum.balance.plus(change.balance), held: sum.held.plus(change.held) } : change);
      }
    }
    const changed = [...changes.keys()];
    const rows = await this.db.query<PostedRow>(
      WRITE_TOGETHER,
      // Columns of uuids, numbers, serials and the catalogues' words go as array literals (arrayLiteral); free text and
      // the details' JSON as arrays pg escapes (one JSON array unnested by PostgreSQL cost it more per exchange in an A/B).
      [
        arrayLiteral(ids),
        arrayLiteral(column((p) => p.type)),
        arrayLiteral(column((p) => p.effect.status)),
        arrayLiteral(column((p) => p.effect.currencyId)),
        arrayLiteral(column((p) => p.meta.amount.toFixed())),
        arrayLiteral(column((p) => (p.meta.commission ?? ZERO).toFixed())),
        arrayLiteral(column((p) => p.meta.fromCoin ?? null)),
        arrayLiteral(column((p) => p.meta.toCoin ?? null)),
        arrayLiteral(column((p) => owner(p, p.meta.fromCoin))),
        arrayLiteral(column((p) => owner(p, p.meta.toCoin))),
        column((p) => p.meta.description ?? null),
        column((p) => p.meta.customInformation ?? null),
        column((p) => p.requestIdentifier),
        column((p) => p.meta.requestStatus ?? null),
        arrayLiteral(column((p) => p.createdBy)),
        column((p) => JSON.stringify(p.meta.details ?? {})),
        arrayLiteral(entries.map((e) => e.operation)),
        arrayLiteral(entries.map((e) => e.leg)),
        arrayLiteral(entries.map((e) => e.coin.serial)),
        arrayLiteral(entries.map((e) => e.coin.currency_id)),
        arrayLiteral(entries.map((e) => e.coin.organization_id)),
        arrayLiteral(entries.map((e) => e.amount.toFixed())),
        arrayLiteral(changed),
        arrayLiteral(changed.map((serial) => changes.get(serial)!.balance.toFixed())),
        arrayLiteral(changed.map((serial) => changes.get(serial)!.held.toFixed())),
        arrayLiteral(column((p) => p.createdByRole)),
      ],
      { prepare: true },
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return postings.map((posting, i) => postedOperation(byId.get(ids[i])!, posting));
  }

  /** Recomputes every balance and held amount from entries and holds, and every operation's sum per currency. */
  async check(): Promise<{ checkedCoins: number; checkedOperations: number; mismatches: Record<string, string>[] }> {
    const coinMismatches = await this.db.query<{ serial: string; balance: string; entries: string; held: string; holds: string }>(
      `SELECT c.serial::text AS serial, c.balance::text AS balance, COALESCE(e.total, 0)::text AS entries,
              c.held::text AS held, COALESCE(h.total, 0)::text AS holds
         FROM coins c
         LEFT JOIN (SELECT coin_serial, sum(amount) AS total FROM ledger_entries GROUP BY coin_serial) e ON e.coin_serial = c.serial
         LEFT JOIN (SELECT coin_serial, sum(amount) AS total FROM holds WHERE status = 'open' GROUP BY coin_serial) h ON h.coin_serial = c.serial
        WHERE c.balance <> COALESCE(e.total, 0) OR c.held <> COALESCE(h.total, 0) OR (c.type = 'client' AND c.balance < c.held)`,
    );
    const operationMismatches = await this.db.query<{ operation_id: string; currency_id: string; total: string }>(
      `SELECT operation_id, currency_id, sum(amount)::text AS total FROM ledger_entries GROUP BY operation_id, currency_id HAVING sum(amount) <> 0`,
    );
    const [{ coins }] = await this.db.query<{ coins: string }>('SELECT count(*)::text AS coins FROM coins');
    const [{ operations }] = await this.db.query<{ operations: string }>('SELECT count(*)::text AS operations FROM operations');
    return {
      checkedCoins: Number(coins),
      checkedOperations: Number(operations),
      mismatches: [
        ...coinMismatches.map((c) => ({
          kind: 'coin_balance',
          coinSerial: c.serial,
          balance: c.balance,
          sumOfEntries: c.entries,
          held: c.held,
          sumOfOpenHolds: c.holds,
        })),
        ...operationMismatches.map((o) => ({
          kind: 'operation_unbalanced',
          operationId: o.operation_id,
          currencyId: o.currency_id,
          sum: o.total,
        })),
      ],
    };
  }

  /**
   * Keeps the database's CHECK on a column of `operations` allowing every value of the catalogue.
   * Values are only ever added (never dropped), so a node still running an older catalogue during
   * a rolling deploy cannot take away a type a newer node writes. NOT VALID: existing rows are
   * already within the old, smaller set.
   */
  async syncCheck(constraint: string, column: string, values: readonly string[]): Promise<void> {
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [constraint]);
    const [existing] = await this.db.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1 AND conrelid = 'operations'::regclass`,
      [constraint],
    );
    const allowed = new Set([...(existing?.def ?? '').matchAll(/'([^']+)'::text/g)].map((m) => m[1]));
    if (existing && values.every((v) => allowed.has(v))) return;
    for (const v of values) allowed.add(v);
    const list = [...allowed].map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');
    await this.db.query(`ALTER TABLE operations DROP CONSTRAINT IF EXISTS ${constraint}`);
    await this.db.query(`ALTER TABLE operations ADD CONSTRAINT ${constraint} CHECK (${column} IN (${list})) NOT VALID`);
  }
}
