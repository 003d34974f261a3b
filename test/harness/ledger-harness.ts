import { Money } from '../../src/platform/common/money';
import { CurrenciesService } from '../../src/money-movement/currencies/currencies.service';
import { Database } from '../../src/platform/database/database';
import { UnitOfWork } from '../../src/platform/database/unit-of-work';
import { LedgerService } from '../../src/platform/ledger/ledger.service';
import { OperationsService } from '../../src/platform/ledger/operations.service';
import type { Principal } from '../../src/platform/access/principal';
import { attempt, harnessApp, printObservations } from './harness';

/**
 * Drives the ledger kernel directly against a real PostgreSQL (DATABASE_URL), for what no route
 * exercises yet: holds placed, captured and released, and a pending operation settled in place.
 * Prints one JSON object of observations; test/ledger-kernel.e2e.spec.ts asserts on it.
 */
async function main(): Promise<Record<string, unknown>> {
  const { app, db, close } = await harnessApp();
  const ledger = app.get(LedgerService);
  const operations = app.get(OperationsService);
  const uow = app.get(UnitOfWork);
  const out: Record<string, unknown> = {};
  const coin = async (serial: string) =>
    (await db.query('SELECT balance::text AS balance, held::text AS held FROM coins WHERE serial = $1', [serial])).rows[0];
  try {
    const currencies = app.get(CurrenciesService);
    await currencies.createCurrency({ code: 'HRN', name: 'Harness' });
    const issuer = await currencies.createIssuer({ currencyCode: 'HRN', name: 'Harness issuer' });
    const org = (await db.query(`INSERT INTO organizations (type, name) VALUES ('individual', 'Holder') RETURNING id`)).rows[0].id;
    const serial = (
      await db.query(`INSERT INTO coins (name, organization_id, issuer_id, currency_id) VALUES ('W', $1, $2, $3) RETURNING serial::text`, [
        org,
        issuer.id,
        issuer.currency.id,
      ])
    ).rows[0].serial as string;
    const settlement = await ledger.systemCoin(issuer.id, 'bank_settlement');
    const move = (from: string, to: string, amount: string) => [{ from, to, amount: new Money(amount) }];
    await uow.run(() =>
      ledger.execute({
        type: 'bank_topup',
        coins: [serial, settlement],
        plan: () => ({ legs: move(settlement, serial, '100'), meta: { amount: new Money(100) } }),
      }),
    );

    // A pending operation holds 60 of the coin's 100.
    const pending = (await uow.run(() =>
      ledger.execute({
        type: 'client_transaction_transfer',
        coins: [serial],
        plan: () => ({
          legs: [],
          holds: [{ place: { coin: serial, amount: new Money(60) } }],
          meta: { amount: new Money(60), fromCoin: serial },
        }),
      }),
    ))!;
    out.pending = { status: pending.status, entries: pending.transactions.length, coin: await coin(serial) };
    const member = { organizationId: org, permissions: new Set() } as unknown as Principal;
    out.pendingVisibleToHolder = (await operations.getVisible(pending.id, member)).id === pending.id;
    out.debitBeyondAvailable = await attempt(() =>
      uow.run(() =>
        ledger.execute({
          type: 'client_transaction_transfer',
          coins: [serial, settlement],
          plan: () => ({ legs: move(serial, settlement, '40.01'), meta: { amount: new Money('40.01') } }),
        }),
      ),
    );

    // It is settled in place: the hold is captured by the debit of the whole held amount.
    const settled = (await uow.run(() =>
      ledger.execute({
        type: 'client_transaction_transfer',
        operationId: pending.id,
        coins: [settlement],
        plan: (locked) => ({
          legs: move(serial, settlement, locked.holds[0].amount),
          holds: locked.holds.map((h) => ({ capture: h.id })),
          meta: { amount: new Money(60) },
        }),
      }),
    ))!;
    out.settled = {
      sameOperation: settled.id === pending.id,
      sameCreatedAt: settled.createdAt === pending.createdAt,
      status: settled.status,
      entries: settled.transactions.map((t) => t.amount.text),
      coin: await coin(serial),
      holds: (
        await db.query('SELECT status, closed_by_operation_id = operation_id AS by_itself FROM holds WHERE operation_id = $1', [pending.id])
      ).rows,
    };

    // Another hold is released: the operation is declined and nothing moved.
    const second = (await uow.run(() =>
      ledger.execute({
        type: 'client_transaction_transfer',
        coins: [serial],
        plan: () => ({ legs: [], holds: [{ place: { coin: serial, amount: new Money(30) } }], meta: { amount: new Money(30) } }),
      }),
    ))!;
    out.heldAgain = await coin(serial);
    const declined = (await uow.run(() =>
      ledger.execute({
        type: 'client_transaction_transfer',
        operationId: second.id,
        coins: [],
        plan: (locked) => ({
          legs: [],
          holds: locked.holds.map((h) => ({ release: h.id })),
          status: 'declined',
          meta: { amount: new Money(30) },
        }),
      }),
    ))!;
    out.declined = { status: declined.status, entries: declined.transactions.length, coin: await coin(serial) };
    out.releasedTwice = await attempt(() =>
      uow.run(() =>
        ledger.execute({
          type: 'client_transaction_transfer',
          operationId: second.id,
          coins: [],
          plan: () => ({ legs: [], holds: [{ release: 'x' }], meta: { amount: new Money(30) } }),
        }),
      ),
    );
    out.wrongType = await attempt(() =>
      uow.run(() => ledger.execute({ type: 'bank_topup', operationId: second.id, coins: [], plan: () => null })),
    );
    out.unknownType = await attempt(() => db.query(`UPDATE operations SET type = 'no_such_type' WHERE id = $1`, [second.id]));

    // The settled operation can be reversed like any completed one.
    const reversal = await uow.run(() => ledger.reverse(pending.id, {}));
    out.reversed = { status: reversal.status, coin: await coin(serial) };
    out.check = await ledger.check();

    // The unit of work on pipelining connections: BEGIN travels with the first statement (its isolation already in
    // force); a statement sent with the COMMIT commits with it, or fails the whole transaction.
    const database = app.get(Database);
    await db.query('CREATE TABLE uow_probe (n int NOT NULL)');
    const probe = async () => (await db.query('SELECT n FROM uow_probe ORDER BY n')).rows.map((r: { n: number }) => r.n);
    out.firstStatementIsolation = await uow.run(
      async () => (await database.query<{ i: string }>(`SELECT current_setting('transaction_isolation') AS i`))[0].i,
      { isolation: 'REPEATABLE READ' },
    );
    await uow.run(async () => {
      await database.query('INSERT INTO uow_probe VALUES (1)');
      uow.sendWithCommit(() => database.query('INSERT INTO uow_probe VALUES (2)'));
    });
    out.sentWithCommit = await probe();
    out.failedWithCommit = await attempt(() =>
      uow.run(async () => {
        await database.query('INSERT INTO uow_probe VALUES (3)');
        uow.sendWithCommit(() => database.query(`INSERT INTO uow_probe VALUES ('three')`));
      }),
    );
    out.afterFailedWithCommit = await probe();
    out.sendWithCommitOutside = await attempt(async () => uow.sendWithCommit(() => Promise.resolve()));
    // The socket is corked from a statement sent with the COMMIT until the COMMIT leaves. Work that waits for another
    // statement after it all the same (against sendWithCommit's rule) is not held forever: the cork ends with the turn.
    out.waitedAfterSendWithCommit = await uow.run(async () => {
      uow.sendWithCommit(() => database.query('INSERT INTO uow_probe VALUES (4)'));
      return (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM uow_probe'))[0].n;
    });
    // Work that fails after sending a statement with the COMMIT: its ROLLBACK leaves (the cork does not hold it back).
    out.thrownAfterSendWithCommit = await attempt(() =>
      uow.run(async () => {
        uow.sendWithCommit(() => database.query('INSERT INTO uow_probe VALUES (5)'));
        throw new Error('failed after sending');
      }),
    );
    out.afterThrownAfterSendWithCommit = await probe();
    // A statement sent with the COMMIT answers its own rows, read once `run` has returned: BEGIN, two statements and the
    // COMMIT leave in one write, and the rows were committed by the time they are read.
    const sent = await uow.run(async () => ({
      first: uow.sendWithCommit(() => database.query<{ n: number }>('INSERT INTO uow_probe VALUES (6) RETURNING n')),
      second: uow.sendWithCommit(() => database.query<{ n: number }>('SELECT count(*)::int AS n FROM uow_probe')),
    }));
    out.answeredWithCommit = { first: await sent.first, second: await sent.second, committed: await probe() };
  } finally {
    await close();
  }
  return out;
}

printObservations(main);
