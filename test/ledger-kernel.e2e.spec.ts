import { harnessObservations } from './helpers/harness';

describe('the ledger kernel on a real database: holds and settlement in place', () => {
  let out: any;

  beforeAll(async () => {
    out = await harnessObservations('ledger-harness');
  });

  it('places a hold: the operation is pending, the amount held, visible to the holder, not spendable', () => {
    expect(out.pending).toEqual({
      status: 'pending',
      entries: 0,
      coin: { balance: '100.000000000000000000', held: '60.000000000000000000' },
    });
    expect(out.pendingVisibleToHolder).toBe(true);
    expect(out.debitBeyondAvailable).toBe('409 exception.coin.insufficient_funds');
  });

  it('settles the pending operation in place, capturing the hold with the debit', () => {
    expect(out.settled).toEqual({
      sameOperation: true,
      sameCreatedAt: true,
      status: 'processed',
      entries: ['60.00'],
      coin: { balance: '40.000000000000000000', held: '0.000000000000000000' },
      holds: [{ status: 'captured', by_itself: true }],
    });
  });

  it('releases a hold: declined, nothing moved, and a hold ends once', () => {
    expect(out.heldAgain).toEqual({ balance: '40.000000000000000000', held: '30.000000000000000000' });
    expect(out.declined).toEqual({
      status: 'declined',
      entries: 0,
      coin: { balance: '40.000000000000000000', held: '0.000000000000000000' },
    });
    expect(out.releasedTwice).toBe('bug: Hold x is not an open hold of the settled operation');
    expect(out.wrongType).toMatch(/^bug: Operation .* is a client_transaction_transfer, not a bank_topup$/);
  });

  it('keeps the catalogue in the database: an unknown operation type is refused by its CHECK', () => {
    expect(out.unknownType).toMatch(/operations_type_check/);
  });

  it('reverses a settled operation, and the ledger stays balanced, holds included', () => {
    expect(out.reversed).toEqual({ status: 'processed', coin: { balance: '100.000000000000000000', held: '0.000000000000000000' } });
    expect(out.check.mismatches).toEqual([]);
    // the top-up, the settled operation, the declined one and the reversal; the refused debit wrote nothing
    expect(out.check.checkedOperations).toBe(4);
  });

  it('runs a unit of work on pipelining connections: BEGIN sent with the first statement, a statement sent with the COMMIT', () => {
    // BEGIN ISOLATION LEVEL is not waited for, yet the first statement already runs in its transaction.
    expect(out.firstStatementIsolation).toBe('repeatable read');
    // A statement sent with the COMMIT commits with the rest of the work…
    expect(out.sentWithCommit).toEqual([1, 2]);
    // …or, failing, rolls the whole transaction back and is what `run` throws.
    expect(out.failedWithCommit).toMatch(/^bug: invalid input syntax for type integer: "three"/);
    expect(out.afterFailedWithCommit).toEqual([1, 2]);
    expect(out.sendWithCommitOutside).toBe('bug: sendWithCommit needs an open transaction');
    // The statement sent with the COMMIT ran before the one the work waited for (the connection keeps their order).
    expect(out.waitedAfterSendWithCommit).toBe(3);
    expect(out.thrownAfterSendWithCommit).toBe('bug: failed after sending');
    expect(out.afterThrownAfterSendWithCommit).toEqual([1, 2, 4]);
    // Its answer is the statement's rows, there once `run` has returned (a login's slot and user, read in one write).
    expect(out.answeredWithCommit).toEqual({ first: [{ n: 6 }], second: [{ n: 4 }], committed: [1, 2, 4, 6] });
  });
});
