import type { Money } from '../common/money';
import type { OperationStatus, OperationType } from './operation-types';

/** Technical coins of the operator's `system` organization, one of each kind per issuer. */
export type SystemCoinKind = 'bank_settlement' | 'commission' | 'cash_desk' | 'exchange_reserve' | 'voucher_reserve' | 'gate_settlement';

/** A coin as the kernel locked it (`SELECT … FOR UPDATE`), with its issuer's and currency's state. */
export interface LockedCoin {
  serial: string;
  organization_id: string;
  issuer_id: string;
  currency_id: string;
  /** The currency's code and fraction, so rules can check amounts without another read. */
  code: string;
  symbol: string | null;
  fraction: string;
  type: 'client' | 'system';
  /** A system coin's kind; null for a client coin. */
  system_kind: SystemCoinKind | null;
  /** Its organization's main coin of the currency (at most one: coins_one_main_idx). */
  main: boolean;
  /** The coin's name, its issuer's serial number and its organization's name: what answers show of it. */
  name: string;
  issuer_sn: string;
  organization_name: string;
  /** Its organization's contact, as an operation's parties show it (`partyJson`). */
  organization_email: string | null;
  organization_phone: string | null;
  balance: string;
  held: string;
  active: boolean;
  closed_at: Date | null;
  /** Active, not closed, and its issuer and currency active. */
  usable: boolean;
}

/** An amount reserved on a coin by a pending operation. */
export interface LockedHold {
  id: string;
  operation_id: string;
  coin_serial: string;
  amount: string;
}

/** A pending operation being settled in place. */
export interface LockedOperation {
  id: string;
  type: OperationType;
  status: OperationStatus;
  currency_id: string;
  amount: string;
  /** The fee the operation recorded (a pending one: the fee quoted when it was held). */
  commission: string;
  from_coin: string | null;
  to_coin: string | null;
  reversal_of: string | null;
  details: Record<string, unknown>;
}

/** What the kernel hands a plan: the locked rows. */
export interface Locked {
  coins: ReadonlyMap<string, LockedCoin>;
  /** The operation being settled (ExecuteRequest.operationId), with its open holds. */
  operation?: LockedOperation;
  holds: readonly LockedHold[];
}

/** One amount moving from one coin to another of the same currency; written as a debit and a credit entry. */
export interface Leg {
  from: string;
  to: string;
  /** Positive; a leg of zero (a fee that came to nothing) is left out. */
  amount: Money;
}

/**
 * Holds: `place` reserves an amount of a coin's available funds; `capture` ends a hold whose
 * amount the same plan debits (so the debit is not refused for the funds the hold reserved);
 * `release` ends a hold and gives its amount back to the available funds.
 */
export type HoldInstruction = { place: { coin: string; amount: Money } } | { capture: string } | { release: string };

/** What an operation says about itself; amounts and coins for display, the legs say what moves. */
export interface OperationMeta {
  /** The headline amount (what the payer asked to move). */
  amount: Money;
  /** Defaults to the currency of the first leg's (or hold's) coin. */
  currencyId?: string;
  commission?: Money;
  fromCoin?: string | null;
  toCoin?: string | null;
  description?: string | null;
  customInformation?: string | null;
  requestStatus?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Writes a flow's own rows (its record, its status change) for operations the kernel has just written, in their
 * transaction: a group of postings hands it all its rows at once, so it writes them in one statement. Defined in the
 * flow's repository (the only place with its SQL). A failure fails the transaction, so a group is then posted one by
 * one (each request on its own, with its own error).
 */
export interface RecordWriter<R> {
  write(rows: { row: R; operationId: string }[]): Promise<void>;
}

/** One row of a flow's own, to be written with its operation (see `recordOf`). */
export interface FlowRecord {
  readonly writer: RecordWriter<unknown>;
  readonly row: unknown;
}

/** A row for `writer`, to return in a plan's `records`. */
export function recordOf<R>(writer: RecordWriter<R>, row: R): FlowRecord {
  return { writer: writer as RecordWriter<unknown>, row };
}

/**
 * What a money flow wants to happen, returned by its rules over the locked rows. Each leg moves an
 * amount within one currency, so the plan balances per currency (an exchange is two legs in two
 * currencies); the kernel checks funds, limits and holds, then writes it all in one statement.
 */
export interface Plan {
  legs: Leg[];
  holds?: HoldInstruction[];
  /** Default: `pending` when the plan places holds, else `processed`. */
  status?: OperationStatus;
  meta: OperationMeta;
  /**
   * The flow's own rows, written after the operation in its transaction (its id given to each): a flow whose plan only
   * reads can so be `grouped` and still write its record.
   */
  records?: FlowRecord[];
  /**
   * System coins this plan draws on that must keep their available funds (balance less held) at zero or more, as a
   * client coin always must (an exchange's reserve): the kernel refuses the plan otherwise, and a group checks it again
   * on the coin as it is when the group writes it (a group reads its shared coins without locking them).
   */
  funded?: string[];
}

export interface ExecuteRequest {
  type: OperationType;
  /** Coins to lock (in serial order) and hand to the plan; coins of the settled operation's holds are added. */
  coins: string[];
  /** Settle this pending operation in place: its row and open holds are locked and handed to the plan. */
  operationId?: string;
  /** The flow's rules over the locked rows: a plan, or null when nothing is to be written. */
  plan: (locked: Locked) => Plan | null | Promise<Plan | null>;
  /**
   * This posting is its caller's whole unit of work and its plan only reads: when no transaction is open, it may
   * be written in one transaction with concurrent grouped postings (group commit, LedgerService.execute). Not with
   * `operationId`.
   */
  grouped?: boolean;
  /**
   * The operation whose money this posting returns whole to where it came from (a voucher's refund, its purchase): that
   * operation stays as it was, but what moved is undone, as by a reversal — the kernel tells its `onUndone` listeners
   * (the limits give back what it counted) in this posting's transaction.
   */
  undoes?: string;
}
