import { harnessObservations } from './helpers/harness';

/**
 * The in-process event bus (src/platform/outbox/domain-events.ts), driven with two modules' handlers on a real
 * database by test/harness/domain-events-harness.ts. The converted flow (a voucher spent by a merchant payment
 * closes itself on the kernel's `operation.processed`) is checked in commerce and payer-tools.
 */
describe('domain events: one module reacts to another’s event, in its transaction or after its commit', () => {
  let out: any;

  beforeAll(async () => {
    out = await harnessObservations('domain-events-harness');
  });

  it('runs in-transaction handlers in order inside the change, before the publisher goes on; after-commit ones after the commit, in order', () => {
    expect(out.ordered).toEqual({
      answer: 'answered',
      seen: [
        'invoicing in A transaction=true',
        'reporting in A',
        'the publisher goes on',
        'invoicing in B transaction=true',
        'reporting in B',
        'committed yet: false',
        // Outside the transaction, as jobs named after the handler; each event's handlers in order.
        'invoicing after invoice.paid A transaction=false job=Invoicing.later',
        'reporting after A for org-1',
        'invoicing after invoice.paid B transaction=false job=Invoicing.later',
        'reporting after B for org-1',
      ],
      committed: ['the change', 'invoicing A', 'reporting A', 'invoicing B', 'reporting B'],
      logged: [],
    });
  });

  it('aborts the change when an in-transaction handler throws: nothing committed, no later handler runs, none after commit', () => {
    expect(out.inTransactionThrows).toEqual({
      answer: 'threw: invoicing refuses',
      seen: ['invoicing in C transaction=true'],
      committed: [],
      logged: [],
    });
  });

  it('runs no after-commit handler when the change rolls back after publishing, and keeps none of the handlers’ writes', () => {
    expect(out.rolledBackAfterPublishing).toEqual({
      answer: 'threw: the publisher fails afterwards',
      seen: ['invoicing in D transaction=true', 'reporting in D'],
      committed: [],
      logged: [],
    });
  });

  it('logs an after-commit handler’s failure without touching the answer, the commit or the other handlers', () => {
    expect(out.afterCommitFails.answer).toBe('answered');
    expect(out.afterCommitFails.committed).toEqual(['invoicing E', 'reporting E']);
    expect(out.afterCommitFails.seen).toContain('reporting after E for org-1');
    expect(out.afterCommitFails.logged).toEqual([
      expect.stringMatching(/^Invoicing\.later failed on invoice\.paid: Error: the reaction failed/),
    ]);
  });

  it('gives in-transaction handlers a transaction of their own when none is open; an event without handlers is a no-op', () => {
    expect(out.noTransactionOpen.seen.slice(0, 2)).toEqual(['invoicing in F transaction=true', 'reporting in F']);
    expect(out.noTransactionOpen.committed).toEqual(['invoicing F', 'reporting F']);
    expect(out.otherTypes).toEqual({
      answer: { invoiceExpired: true, userOnHold: false },
      seen: ['invoicing after invoice.expired G transaction=false job=Invoicing.later'],
      committed: [],
      logged: [],
    });
  });

  it('lets a handler with nothing to do answer at once: no promise to wait for, and the handlers after one that has work wait for it', () => {
    expect(out.answersAtOnce).toEqual({
      answer: 'answered',
      seen: [
        'tally expired H transaction=true',
        'expired answered nothing to wait for',
        'tally in I',
        'reporting in I',
        'paid answered a promise',
        'the publisher goes on',
        'reporting after I for org-1',
      ],
      committed: ['the change', 'reporting I'],
      logged: [],
    });
    // A handler that throws at once aborts the change as one that rejects does.
    expect(out.answersAtOnceThrows).toEqual({
      answer: 'threw: tally refuses',
      seen: ['tally expired J transaction=true'],
      committed: [],
      logged: [],
    });
    // With no transaction open, the handlers still run in one of their own (dispatch then answers its promise).
    expect(out.answersAtOnceWithoutTransaction.seen).toEqual(['tally expired K transaction=true']);
  });

  it('refuses to start with a handler on a provider that is not a singleton', () => {
    expect(out.requestScoped).toBe('PerRequest.later handles domain events: its provider must be a singleton');
  });
});
