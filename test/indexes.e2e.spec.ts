import { harnessObservations } from './helpers/harness';

/**
 * Every index on the write path earns its keep: each index of `operations`, `ledger_entries` and `holds` (written by
 * every money movement) is in the plan of a real endpoint's statement, captured by test/harness/explain-harness.ts
 * on a grown database. An index no query needs fails here: drop it or name the query.
 */
describe('indexes on the write path', () => {
  let out: {
    indexes: string[];
    used: Record<string, string[]>;
    seqScans: Record<string, string[]>;
    genericSeqScans: Record<string, string[]>;
    genericPlanned: string[];
    statements: number;
  };

  beforeAll(async () => {
    out = await harnessObservations('explain-harness', 120_000);
  }, 150_000);

  it('are the eleven a transfer writes, plus the ones only holds and reversals write', () => {
    expect(out.indexes).toEqual([
      'holds_operation_idx',
      'holds_organization_idx',
      'holds_pkey',
      'ledger_entries_coin_idx',
      'ledger_entries_organization_idx',
      'ledger_entries_pkey',
      'operations_created_idx',
      'operations_from_coin_idx',
      'operations_kind_idx',
      'operations_pkey',
      'operations_reversal_of_idx',
      'operations_to_coin_idx',
    ]);
  });

  const needs: [string, RegExp][] = [
    ['operations_pkey', /GET \/transactions\/\{id\}/],
    ['operations_created_idx', /staff: POST \/transactions\/view, newest first/],
    ['operations_kind_idx', /filter\.types/],
    ['operations_kind_idx', /filter\.statuses/],
    ['operations_from_coin_idx', /filter\.coinSerials/],
    ['operations_to_coin_idx', /filter\.coinSerials/],
    ['ledger_entries_pkey', /GET \/transactions\/\{id\}/],
    ['ledger_entries_organization_idx', /member: POST \/transactions\/view/],
    ['holds_organization_idx', /member: POST \/transactions\/view/],
    ['holds_operation_idx', /a pending operation settled/],
  ];
  it.each(needs)('%s serves %s', (index, query) => {
    expect(out.used[index] ?? []).toEqual(expect.arrayContaining([expect.stringMatching(query)]));
  });

  it("finds an individual's incoming invoices (to its login, or paid by its coins) by index, not by reading every invoice", () => {
    const label = 'member: POST /invoices/view, direction INCOMING';
    expect(out.used['invoices_payer_contact_idx'] ?? []).toContain(label);
    expect(out.used['invoices_paid_by_coin_idx'] ?? []).toContain(label);
    expect(out.seqScans[label] ?? []).not.toContain('invoices');
  });

  it('leaves no index on the write path that no query reads, but for the keys that enforce a rule', () => {
    // holds_pkey and operations_reversal_of_idx (one reversal per operation) enforce uniqueness;
    // ledger_entries_coin_idx orders a coin's entries (the coin statement).
    const enforcing = ['holds_pkey', 'operations_reversal_of_idx', 'ledger_entries_coin_idx'];
    const unread = out.indexes.filter((i) => !out.used[i] && !enforcing.includes(i));
    expect(unread).toEqual([]);
  });

  it("plans the kernel's prepared statements (coin lock, posting) without reading a money table whole", () => {
    // The generic plan cannot know a posting moves two coins: a join to `coins` there became a hash join over a
    // sequential scan of every coin (two per transfer), the costliest part of a transfer on a small database.
    // A keyed group's look at its keys too: as a NOT EXISTS, a plan made on a small table hashed every key ever stored.
    const moneyTables = ['coins', 'operations', 'ledger_entries', 'holds', 'idempotency_keys'];
    const scanned = Object.entries(out.genericSeqScans).flatMap(([label, tables]) =>
      tables.filter((t) => moneyTables.includes(t)).map((t) => `${label}: ${t}`),
    );
    expect(out.statements).toBeGreaterThan(0);
    // The group's statements were among them: its coin lock (SKIP LOCKED) and its one posting for the whole group.
    const group = out.genericPlanned.filter((s) => s.startsWith('kernel: POST /transfers in a group'));
    expect(group).toEqual(expect.arrayContaining([expect.stringMatching(/: WITH locked AS/), expect.stringMatching(/: WITH op AS/)]));
    // And a group's last two over a shared coin: the lock, and the write of its balance.
    const shared = out.genericPlanned.filter((s) => s.startsWith('kernel: a group over a shared coin'));
    expect(shared).toEqual(
      expect.arrayContaining([expect.stringMatching(/: SELECT serial FROM coins/), expect.stringMatching(/: UPDATE coins c/)]),
    );
    expect(out.genericPlanned).toEqual(expect.arrayContaining([expect.stringMatching(/^kernel: the keys of a keyed group/)]));
    expect(scanned).toEqual([]);
  });
});
