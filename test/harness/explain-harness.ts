import { Money } from '../../src/platform/common/money';
import { LOCK_FREE } from '../../src/platform/idempotency/idempotency.repository';
import { CurrenciesService } from '../../src/money-movement/currencies/currencies.service';
import { Database } from '../../src/platform/database/database';
import { UnitOfWork } from '../../src/platform/database/unit-of-work';
import { LedgerService } from '../../src/platform/ledger/ledger.service';
import { OperationSearch, OperationsRepository } from '../../src/platform/ledger/operations.repository';
import { InvoicesRepository } from '../../src/commerce/invoices/invoices.repository';
import { harnessApp, printObservations } from './harness';

/**
 * Which endpoint query each index on the write path (operations, ledger_entries, holds) serves. On a database
 * grown by SQL (tens of thousands of operations, a rare currency, a rare type and status, open holds), it runs the
 * real statements of the transaction search (`POST /transactions/view` as staff with each filter and as a member,
 * `GET /transactions/{id}`) and of the kernel (a transfer, a hold placed, then settled), captures each one as
 * `Database` sends it, and answers the indexes in its `EXPLAIN` (and, for the kernel's statements, the tables their generic
 * plans scan whole). Prints one JSON object for
 * test/indexes.e2e.spec.ts.
 */
/** Every object in an `EXPLAIN (FORMAT JSON)` answer: the plan nodes (and their parts), depth first. */
function planNodes(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(planNodes);
  if (!value || typeof value !== 'object') return [];
  return [value as Record<string, unknown>, ...Object.values(value).flatMap(planNodes)];
}

async function main(): Promise<unknown> {
  const { app, db, close } = await harnessApp();
  const database = app.get(Database);
  const captured: { label: string; sql: string; params: unknown[] }[] = [];
  let label: string | undefined;
  const query = database.query.bind(database);
  database.query = (async (sql: string, params: unknown[] = []) => {
    if (label) captured.push({ label, sql, params });
    return query(sql, params);
  }) as Database['query'];
  const run = async (name: string, work: () => Promise<unknown>) => {
    label = name;
    try {
      await work();
    } finally {
      label = undefined;
    }
  };
  const ledger = app.get(LedgerService);
  const uow = app.get(UnitOfWork);
  const operations = app.get(OperationsRepository, { strict: false });
  try {
    const currencies = app.get(CurrenciesService);
    await currencies.createCurrency({ code: 'MNY', name: 'Main' });
    await currencies.createCurrency({ code: 'RAR', name: 'Rare' });
    const main = await currencies.createIssuer({ currencyCode: 'MNY', name: 'Main issuer' });
    const rare = await currencies.createIssuer({ currencyCode: 'RAR', name: 'Rare issuer' });
    // 200 organizations with a coin each in the main currency; the first also holds a rare-currency coin.
    await db.query(`CREATE TEMP TABLE k AS
      WITH orgs AS (INSERT INTO organizations (type, name) SELECT 'individual', 'Org ' || g FROM generate_series(1, 200) g RETURNING id)
      SELECT row_number() OVER () - 1 AS idx, id AS org FROM orgs`);
    await db.query(`INSERT INTO coins (name, organization_id, issuer_id, currency_id, balance) SELECT 'W', org, $1, $2, 1000000 FROM k`, [
      main.id,
      main.currency.id,
    ]);
    // Four more coins each (1,000 in all, as in the money benchmark): a table the planner no longer reads whole for two rows.
    await db.query(
      `INSERT INTO coins (name, organization_id, issuer_id, currency_id) SELECT 'Spare', org, $1, $2 FROM k, generate_series(1, 4)`,
      [main.id, main.currency.id],
    );
    await db.query(`ALTER TABLE k ADD COLUMN serial bigint`);
    await db.query(`UPDATE k SET serial = c.serial FROM coins c WHERE c.organization_id = k.org AND c.issuer_id = $1 AND c.name = 'W'`, [
      main.id,
    ]);
    const [first] = (await db.query(`SELECT org, serial::text FROM k WHERE idx = 0`)).rows;
    const rareCoin = (
      await db.query(
        `INSERT INTO coins (name, organization_id, issuer_id, currency_id, balance) VALUES ('R', $1, $2, $3, 1000) RETURNING serial::text`,
        [first.org, rare.id, rare.currency.id],
      )
    ).rows[0].serial as string;
    // 40,000 transfers of the main currency over 30 days, 1 % of them declined; 40 rare-currency vouchers.
    await db.query(
      `WITH p AS (SELECT floor(random() * 200)::int AS a, floor(random() * 199)::int AS b, g,
                         now() - random() * interval '30 days' AS ts FROM generate_series(1, 40000) g),
            ops AS (
              INSERT INTO operations (type, status, currency_id, amount, from_coin, to_coin, from_organization_id, to_organization_id, created_at, updated_at)
              SELECT 'client_transaction_transfer', CASE WHEN p.g % 100 = 0 THEN 'declined' ELSE 'processed' END, $1, 1,
                     f.serial, t.serial, f.org, t.org, p.ts, p.ts
                FROM p JOIN k f ON f.idx = p.a JOIN k t ON t.idx = CASE WHEN p.b >= p.a THEN p.b + 1 ELSE p.b END
              RETURNING id, status, from_coin, to_coin, from_organization_id, to_organization_id, created_at)
       INSERT INTO ledger_entries (operation_id, leg, coin_serial, currency_id, organization_id, amount, created_at)
       SELECT id, 0, from_coin, $1, from_organization_id, -1, created_at FROM ops WHERE status = 'processed'
       UNION ALL SELECT id, 0, to_coin, $1, to_organization_id, 1, created_at FROM ops WHERE status = 'processed'`,
      [main.currency.id],
    );
    await db.query(
      `INSERT INTO operations (type, status, currency_id, amount, from_coin, from_organization_id)
       SELECT 'voucher_create', 'pending', $1, 1, $2, $3 FROM generate_series(1, 40)`,
      [rare.currency.id, rareCoin, first.org],
    );
    // 5,000 withdrawals that held money, 10 % of them still pending with their hold open.
    await db.query(
      `WITH p AS (SELECT floor(random() * 200)::int AS a, g, now() - random() * interval '30 days' AS ts FROM generate_series(1, 5000) g),
            ops AS (
              INSERT INTO operations (type, status, currency_id, amount, from_coin, from_organization_id, created_at, updated_at)
              SELECT 'bank_withdrawal', CASE WHEN p.g % 10 = 0 THEN 'pending' ELSE 'declined' END, $1, 1, f.serial, f.org, p.ts, p.ts
                FROM p JOIN k f ON f.idx = p.a
              RETURNING id, status, from_coin, from_organization_id, created_at)
       INSERT INTO holds (operation_id, coin_serial, organization_id, amount, status, created_at, closed_at, closed_by_operation_id)
       SELECT id, from_coin, from_organization_id, 1, CASE WHEN status = 'pending' THEN 'open' ELSE 'released' END, created_at,
              CASE WHEN status = 'pending' THEN NULL ELSE created_at END, CASE WHEN status = 'pending' THEN NULL ELSE id END
         FROM ops`,
      [main.currency.id],
    );
    await db.query(`UPDATE coins c SET held = h.n FROM (SELECT coin_serial, count(*) AS n FROM holds WHERE status = 'open' GROUP BY 1) h
                     WHERE c.serial = h.coin_serial`);
    await db.query('VACUUM (ANALYZE) operations, ledger_entries, holds, coins');
    const [some] = (
      await db.query(`SELECT id FROM operations WHERE from_organization_id = $1 AND status = 'processed' LIMIT 1`, [first.org])
    ).rows;

    const page = { sort: { key: 'createdAt', direction: 'DESC' }, offset: 0, limit: 20 } as const;
    const search = (s: Partial<OperationSearch>) => operations.search({ ...page, ...s });
    await run('staff: POST /transactions/view, newest first', () => search({}));
    await run('staff: POST /transactions/view, filter.types (a rare one)', () => search({ types: ['voucher_create'] }));
    await run('staff: POST /transactions/view, filter.statuses (a rare one)', () => search({ statuses: ['declined'] }));
    await run('staff: POST /transactions/view, filter.currencyCodes (a rare one)', () => search({ currencyCodes: ['RAR'] }));
    await run('staff: POST /transactions/view, filter.coinSerials', () => search({ coinSerials: [first.serial] }));
    await run('staff: POST /transactions/view, filter.orgIds', () => search({ orgIds: [first.org] }));
    await run('member: POST /transactions/view, newest first', () => search({ visibleTo: first.org }));
    await run('member: GET /transactions/{id}', () => operations.get(some.id, first.org));

    // 20,000 invoices of the 200 organizations to payers' logins, a tenth of them paid by a coin.
    const [creator] = (await db.query(`SELECT id FROM users LIMIT 1`)).rows;
    await db.query(
      `INSERT INTO invoices (organization_id, name, recipient_coin, issuer_id, amount, payer_contact, status, paid_by_coin, created_by)
       SELECT m.org, 'Invoice ' || g, m.serial, $1, 1, 'payer' || (g % 2000) || '@example.com',
              CASE WHEN g % 10 = 0 THEN 'paid' ELSE 'initiated' END, CASE WHEN g % 10 = 0 THEN p.serial END, $2
         FROM generate_series(1, 20000) g JOIN k m ON m.idx = g % 200 JOIN k p ON p.idx = (g / 200) % 200`,
      [main.id, creator.id],
    );
    await db.query('VACUUM (ANALYZE) invoices');
    const invoices = app.get(InvoicesRepository, { strict: false });
    await run('member: POST /invoices/view, direction INCOMING', () =>
      invoices.search({ payer: { login: 'payer7@example.com', organizationId: first.org } }, 0, 20),
    );

    const [payer, payee] = (await db.query(`SELECT serial::text FROM k ORDER BY idx LIMIT 2`)).rows.map((r) => r.serial as string);
    const move = (from: string, to: string, amount: string) => [{ from, to, amount: new Money(amount) }];
    await run('kernel: POST /transfers (coins locked, operation and entries posted)', () =>
      uow.run(() =>
        ledger.execute({
          type: 'client_transaction_transfer',
          coins: [payer, payee],
          plan: () => ({ legs: move(payer, payee, '1'), meta: { amount: new Money(1), fromCoin: payer, toCoin: payee } }),
        }),
      ),
    );
    // Grouped postings outside any transaction: the first is written by a group of its own, the two that arrive
    // meanwhile by the next (LedgerService.postGroup: the coins locked SKIP LOCKED, one writeTogether).
    await run('kernel: POST /transfers in a group (coins locked once, operations and entries posted together)', () =>
      Promise.all(
        ['1', '2', '3'].map((amount) =>
          ledger.execute({
            type: 'client_transaction_transfer',
            coins: [payer, payee],
            grouped: true,
            plan: () => ({ legs: move(payer, payee, amount), meta: { amount: new Money(amount), fromCoin: payer, toCoin: payee } }),
          }),
        ),
      ),
    );
    // A group over a shared coin (a system coin: here the issuer's commission coin) reads it unlocked, then locks and
    // writes it last (LedgerRepository.writeShared).
    const [{ issuer_id: issuerId }] = (await db.query(`SELECT issuer_id FROM coins WHERE serial = $1`, [payer])).rows;
    const commission = await ledger.systemCoin(issuerId, 'commission');
    await run('kernel: a group over a shared coin (locked and written last)', () =>
      Promise.all(
        ['1', '2'].map((amount) =>
          ledger.execute({
            type: 'client_transaction_transfer',
            coins: [payer, commission],
            grouped: true,
            plan: () => ({
              legs: move(payer, commission, amount),
              meta: { amount: new Money(amount), fromCoin: payer, toCoin: commission },
            }),
          }),
        ),
      ),
    );
    const pending = (await uow.run(() =>
      ledger.execute({
        type: 'bank_withdrawal',
        coins: [payer],
        plan: () => ({
          legs: [],
          holds: [{ place: { coin: payer, amount: new Money(5) } }],
          meta: { amount: new Money(5), fromCoin: payer },
        }),
      }),
    ))!;
    await run('kernel: a pending operation settled (its open holds found and captured)', () =>
      uow.run(() =>
        ledger.execute({
          type: 'bank_withdrawal',
          operationId: pending.id,
          coins: [payee],
          plan: (locked) => ({
            legs: move(payer, payee, '5'),
            holds: locked.holds.map((h) => ({ capture: h.id })),
            meta: { amount: new Money(5) },
          }),
        }),
      ),
    );

    const used: Record<string, string[]> = {};
    const seqScans: Record<string, string[]> = {};
    for (const statement of captured) {
      // The search's own planner estimates (EXPLAIN already) read no index.
      if (!/^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(statement.sql)) continue;
      const explained = await db.query(`EXPLAIN (FORMAT JSON) ${statement.sql}`, statement.params);
      const names = new Set(
        planNodes(explained.rows[0]['QUERY PLAN']).flatMap((n) => (typeof n['Index Name'] === 'string' ? [n['Index Name']] : [])),
      );
      for (const name of names) if (!(used[name] ??= []).includes(statement.label)) used[name].push(statement.label);
      for (const node of planNodes(explained.rows[0]['QUERY PLAN'])) {
        if (node['Node Type'] !== 'Seq Scan' || typeof node['Relation Name'] !== 'string') continue;
        const scanned = (seqScans[statement.label] ??= []);
        if (!scanned.includes(node['Relation Name'])) scanned.push(node['Relation Name']);
      }
    }
    // The kernel's statements run as generic prepared plans (LedgerRepository): which tables those plans read whole.
    const genericSeqScans: Record<string, string[]> = {};
    const genericPlanned: string[] = [];
    for (const statement of captured) {
      if (!statement.label.startsWith('kernel:') || !/^\s*(SELECT|WITH|UPDATE)\b/i.test(statement.sql)) continue;
      genericPlanned.push(`${statement.label}: ${statement.sql.trim().slice(0, 40).replace(/\s+/g, ' ')}`);
      const explained = await db.query(`EXPLAIN (FORMAT JSON, GENERIC_PLAN) ${statement.sql}`);
      for (const node of planNodes(explained.rows[0]['QUERY PLAN'])) {
        if (node['Node Type'] !== 'Seq Scan' || typeof node['Relation Name'] !== 'string') continue;
        const scanned = (genericSeqScans[statement.label] ??= []);
        if (!scanned.includes(node['Relation Name'])) scanned.push(node['Relation Name']);
      }
    }
    // A keyed group's look at its keys runs in the group's transaction after the coin lock, so as a generic plan too.
    for (const [label, sql] of [['kernel: the keys of a keyed group (IdempotencyRepository.lockFree)', LOCK_FREE]]) {
      genericPlanned.push(`${label}: ${sql.trim().slice(0, 40).replace(/\s+/g, ' ')}`);
      const explained = await db.query(`EXPLAIN (FORMAT JSON, GENERIC_PLAN) ${sql}`);
      for (const node of planNodes(explained.rows[0]['QUERY PLAN'])) {
        if (node['Node Type'] !== 'Seq Scan' || typeof node['Relation Name'] !== 'string') continue;
        const scanned = (genericSeqScans[label] ??= []);
        if (!scanned.includes(node['Relation Name'])) scanned.push(node['Relation Name']);
      }
    }
    const indexes = (
      await db.query(`SELECT indexname FROM pg_indexes WHERE tablename IN ('operations', 'ledger_entries', 'holds') ORDER BY indexname`)
    ).rows.map((r) => r.indexname as string);
    return { indexes, used, seqScans, genericSeqScans, genericPlanned, statements: captured.length };
  } finally {
    await close();
  }
}

printObservations(main);
