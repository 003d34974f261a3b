import { ApiError } from '../common/api-error';
import { Money } from '../common/money';
import type { Locked, LockedCoin, Plan } from './ledger.types';
import type { OperationStatus } from './operation-types';

/** Balances are NUMERIC(38,18): their absolute value stays below 10^20. */
export const BALANCE_LIMIT = new Money('1e20');

const ZERO = new Money(0);
/** Zero as the database writes a NUMERIC column (`0`, `0.000000000000000000`): most coins hold nothing. */
const ZERO_TEXT = /^0(?:\.0+)?$/;

/** Together with a balance below 10^18, a move below this cannot reach BALANCE_LIMIT. */
const MOVE_BOUND = new Money('1e19');

/** Decimal text as the database and `toFixed()` write it: no exponent, no sign but a minus. */
const PLAIN_TEXT = /^-?\d+(?:\.\d+)?$/;

/** The digits before the point of a decimal's text as the database writes it (`-123.45` → 3); any other text: Infinity. */
function integerDigits(text: string): number {
  if (!PLAIN_TEXT.test(text)) return Infinity;
  const point = text.indexOf('.');
  return (point < 0 ? text.length : point) - (text.startsWith('-') ? 1 : 0);
}

/** A coin's amount as the database wrote it: zero without reading it. */
function moneyOf(text: string): Money {
  return ZERO_TEXT.test(text) ? ZERO : new Money(text);
}

export interface HoldPlacement {
  coin: LockedCoin;
  amount: Money;
}

/** What a checked plan does to each coin, and to holds. */
export interface PlanEffect {
  status: OperationStatus;
  currencyId: string;
  /** Two entries (debit, credit) for each non-zero leg, in plan order, with their coins and leg number. */
  entries: { coin: LockedCoin; amount: Money; leg: number }[];
  /** Per coin: the change of its balance and of its held amount (only coins that change). */
  changes: { serial: string; balance: Money; held: Money }[];
  placements: HoldPlacement[];
  closures: { holdId: string; status: 'captured' | 'released' }[];
}

/** A rule broken by the code that built the plan: a bug, answered as a 500 and logged. */
export class PlanError extends Error {}

/**
 * Checks a plan against the locked rows and computes its effect. Pure: no I/O, so every rule of
 * the kernel is unit-tested (plan.spec.ts).
 *
 * - every coin a leg or hold touches was locked;
 * - a leg moves a positive amount between two coins of one currency (so the plan balances per currency);
 * - a closed client coin takes part in nothing;
 * - a client coin (or a coin the plan says is `funded`) whose available funds (balance − held) go down must not end below zero —
 *   capturing a hold frees what it reserved, so a debit of held funds always passes;
 * - no balance reaches 10^20;
 * - a hold is captured or released once, and only if it is open and was locked.
 */
export function applyPlan(locked: Locked, plan: Plan): PlanEffect {
  const coinOf = (serial: string): LockedCoin => {
    const coin = locked.coins.get(serial);
    if (!coin) throw new PlanError(`Coin ${serial} was not locked before posting`);
    return coin;
  };
  // A Decimal operation costs about 0.3–1 µs and a balance's text about 1 µs to read: the first amount of a coin is kept as
  // it is rather than added to zero, a zero held amount is not read, and what is read is read once.
  const balance = new Map<string, Money>();
  const held = new Map<string, Money>();
  const add = (map: Map<string, Money>, serial: string, amount: Money) => {
    const before = map.get(serial);
    map.set(serial, before ? before.plus(amount) : amount);
  };

  const entries: PlanEffect['entries'] = [];
  for (const leg of plan.legs) {
    const from = coinOf(leg.from);
    const to = coinOf(leg.to);
    if (leg.amount.isNegative()) throw new PlanError(`A leg moves a positive amount, got ${leg.amount.toString()}`);
    if (leg.amount.isZero()) continue;
    if (from.serial === to.serial) throw new PlanError(`A leg moves between two coins, got ${from.serial} twice`);
    if (from.currency_id !== to.currency_id) {
      throw new PlanError(`A leg stays in one currency: coins ${from.serial} and ${to.serial} hold different ones`);
    }
    const debit = leg.amount.negated();
    add(balance, from.serial, debit);
    add(balance, to.serial, leg.amount);
    const n = entries.length / 2;
    entries.push({ coin: from, amount: debit, leg: n }, { coin: to, amount: leg.amount, leg: n });
  }

  const placements: HoldPlacement[] = [];
  const closures: PlanEffect['closures'] = [];
  const openHolds = new Map(locked.holds.map((h) => [h.id, h]));
  for (const instruction of plan.holds ?? []) {
    if ('place' in instruction) {
      const coin = coinOf(instruction.place.coin);
      if (!instruction.place.amount.gt(0)) {
        throw new PlanError(`A hold must reserve a positive amount, got ${instruction.place.amount.toString()}`);
      }
      add(held, coin.serial, instruction.place.amount);
      placements.push({ coin, amount: instruction.place.amount });
      continue;
    }
    const holdId = 'capture' in instruction ? instruction.capture : instruction.release;
    const hold = openHolds.get(holdId);
    if (!hold) throw new PlanError(`Hold ${holdId} is not an open hold of the settled operation`);
    openHolds.delete(holdId);
    coinOf(hold.coin_serial);
    add(held, hold.coin_serial, new Money(hold.amount).negated());
    if ('capture' in instruction) {
      const debit = balance.get(hold.coin_serial);
      if (!debit?.isNegative()) throw new PlanError(`Capturing hold ${holdId} needs a leg that debits coin ${hold.coin_serial}`);
      closures.push({ holdId, status: 'captured' });
    } else {
      closures.push({ holdId, status: 'released' });
    }
  }

  const changes: PlanEffect['changes'] = [];
  const change = (serial: string, db: Money, dh: Money) => {
    if (db.isZero() && dh.isZero()) return;
    const coin = coinOf(serial);
    if (coin.type === 'client' && coin.closed_at) throw new ApiError('exception.coin.closed', `Coin ${serial} is closed`);
    const heldBefore = moneyOf(coin.held);
    const newHeld = dh.isZero() ? heldBefore : heldBefore.plus(dh);
    if (newHeld.isNegative()) throw new PlanError(`Coin ${serial} would hold a negative amount`);
    const down = dh.isZero() ? db.isNegative() : db.minus(dh).isNegative();
    const guarded = down && (coin.type === 'client' || plan.funded?.includes(serial));
    // A balance below 10^18 that moves by less than 10^19 stays below the limit: unless its funds are checked, its text
    // is not read (a payee's, most often).
    if (!guarded && integerDigits(coin.balance) <= 18 && db.abs().lt(MOVE_BOUND)) {
      changes.push({ serial, balance: db, held: dh });
      return;
    }
    const newBalance = new Money(coin.balance).plus(db);
    if (guarded && newBalance.minus(newHeld).isNegative()) {
      throw new ApiError('exception.coin.insufficient_funds', `Coin ${serial} has insufficient available funds`);
    }
    // NUMERIC(38,18) holds 20 integer digits: a balance beyond that is a state conflict, not a malformed value.
    if (newBalance.abs().gte(BALANCE_LIMIT)) {
      throw new ApiError('exception.coin.balance_limit', `The balance of coin ${serial} would exceed the largest amount a coin holds`);
    }
    changes.push({ serial, balance: db, held: dh });
  };
  for (const [serial, db] of balance) change(serial, db, held.get(serial) ?? ZERO);
  for (const [serial, dh] of held) if (!balance.has(serial)) change(serial, ZERO, dh);

  const first = plan.legs[0]?.from ?? placements[0]?.coin.serial ?? locked.holds[0]?.coin_serial;
  const currencyId = plan.meta.currencyId ?? locked.operation?.currency_id ?? (first ? coinOf(first).currency_id : undefined);
  if (!currencyId) throw new PlanError('A plan needs a leg, a hold or a currency');
  const status: OperationStatus = plan.status ?? (placements.length ? 'pending' : 'processed');
  return { status, currencyId, entries, changes, placements, closures };
}
