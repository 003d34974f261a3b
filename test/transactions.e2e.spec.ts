import { aFundedPair, moneyWorld } from './helpers/world';
import { Actor, aUser } from './helpers/actors';
import {
  aCoin,
  aCurrency,
  anIssuer,
  CoinBody,
  coinOf,
  CurrencyBody,
  expectBalancedLedger,
  expectError,
  expectStatus,
  fund,
  IssuerBody,
  transfer,
  expectLegs,
} from './helpers/money';
import { startServer, TestServer } from './helpers/server';

const VIEW = '/api/v1/transactions/view';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Record {
  id: string;
  type: string;
  status: string;
  createdAt: string;
  customInformation: string | null;
  transactions: { id: string; coinSerial: string; amount: string; createdAt: string }[];
}

describe('transactions', () => {
  const world = moneyWorld();
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  let x: CurrencyBody;
  let y: CurrencyBody;
  let i1: IssuerBody;
  let i2: IssuerBody;
  let i3: IssuerBody;
  let a1: CoinBody;
  let a2: CoinBody;
  let a3: CoinBody;
  let b1: CoinBody;
  /** Alice's operations in creation order: [topUp a1, topUp a2, topUp a3, a1→b1, a2→b1, a3→b3, a1→a2, b1→a1]. */
  const ops: string[] = [];
  const created: string[] = [];
  let carolOps: string[];

  const search = async (token: string, body: object): Promise<{ totalRecords: number; totalPages: number; records: Record[] }> => {
    const response = await world.server.request('POST', VIEW, { token, body });
    expectStatus(response, 200);
    return response.body;
  };
  const ids = (records: Record[]) => records.map((r) => r.id);

  beforeAll(async () => {
    x = world.currency;
    y = await aCurrency(world.server, world.admin, { fraction: 1000 });
    i1 = await anIssuer(world.server, world.admin, x.code, 'I1');
    i2 = await anIssuer(world.server, world.admin, x.code, 'I2');
    i3 = await anIssuer(world.server, world.admin, y.code, 'I3');
    alice = await aUser(world.server, world.admin);
    bob = await aUser(world.server, world.admin, { role: 'merchant' });
    carol = await aUser(world.server, world.admin);
    a1 = await aCoin(world.server, alice.token, i1.id);
    a2 = await aCoin(world.server, alice.token, i2.id);
    a3 = await aCoin(world.server, alice.token, i3.id);
    b1 = await aCoin(world.server, bob.token, i1.id);
    const b3 = await aCoin(world.server, bob.token, i3.id);
    const c1 = await aCoin(world.server, carol.token, i1.id);
    const c2 = await aCoin(world.server, carol.token, i1.id);
    /** Keeps the operation made (its id and time), then lets the clock move on so that each is newer than the last. */
    const record = async (made: Promise<{ id: string; createdAt: string }>) => {
      const process = await made;
      ops.push(process.id);
      created.push(process.createdAt);
      await sleep(15);
    };
    const pay = async (token: string, from: string, to: string, amount: string, customInformation?: string) => {
      const response = await transfer(world.server, token, from, to, amount, customInformation ? { customInformation } : {});
      if (response.status !== 201) throw new Error(`transfer failed: ${response.text}`);
      return response.body.process;
    };
    await record(fund(world.server, world.admin, a1.serial, '100.00', 'top-1'));
    await record(fund(world.server, world.admin, a2.serial, '50.00'));
    await record(fund(world.server, world.admin, a3.serial, '30.000'));
    await record(pay(alice.token, a1.serial, b1.serial, '10.00', 'pay-1'));
    await record(pay(alice.token, a2.serial, b1.serial, '5.00'));
    await record(pay(alice.token, a3.serial, b3.serial, '1.500'));
    await record(pay(alice.token, a1.serial, a2.serial, '2.00'));
    carolOps = [(await fund(world.server, world.admin, c1.serial, '20.00')).id, (await pay(carol.token, c1.serial, c2.serial, '3.00')).id];
    await sleep(15);
    await record(pay(bob.token, b1.serial, a1.serial, '1.00', 'refund'));
  });

  it('shows a user only the operations touching their organization, newest first', async () => {
    const page = await search(alice.token, {});
    expect(page).toMatchObject({ status: 'ok', pageNumber: 0, pageSize: 20, totalRecords: 8, totalPages: 1 });
    expect(ids(page.records)).toEqual([...ops].reverse());
    for (const id of carolOps) expect(ids(page.records)).not.toContain(id);
    const bobs = await search(bob.token, {});
    expect(ids(bobs.records).sort()).toEqual([ops[3], ops[4], ops[5], ops[7]].sort());
    const carols = await search(carol.token, { filter: { ids: [ops[0], ...carolOps] } });
    expect(ids(carols.records).sort()).toEqual([...carolOps].sort());
  });

  it('carries customInformation and the legs: each a positive amount from one coin to another', async () => {
    const page = await search(alice.token, { sort: { createdAt: 'asc' } });
    const byId = new Map(page.records.map((r) => [r.id, r]));
    expect(byId.get(ops[0])!.customInformation).toBe('top-1');
    expect(byId.get(ops[3])!.customInformation).toBe('pay-1');
    expect(byId.get(ops[7])!.customInformation).toBe('refund');
    expect(byId.get(ops[4])!.customInformation).toBeNull();
    for (const record of page.records) {
      expect(record.transactions.length).toBeGreaterThanOrEqual(1);
      expectLegs(
        record,
        record.transactions.map((t: any) => [t.from.serial, t.to.serial, t.amount]),
      );
    }
    expect(byId.get(ops[5])!.transactions.map((t: any) => [t.from.serial, t.amount])).toEqual([[a3.serial, '1.500']]);
  });

  it('pages with pageNumber, pageSize, totalRecords and totalPages', async () => {
    const seen: string[] = [];
    for (const [pageNumber, size] of [
      [0, 3],
      [1, 3],
      [2, 2],
    ]) {
      const page = await search(alice.token, { pageNumber, pageSize: 3 });
      expect(page).toMatchObject({ pageNumber, pageSize: 3, totalRecords: 8, totalPages: 3 });
      expect(page.records).toHaveLength(size);
      seen.push(...ids(page.records));
    }
    expect(seen).toEqual([...ops].reverse());
    const beyond = await search(alice.token, { pageNumber: 3, pageSize: 3 });
    expect(beyond.records).toEqual([]);
  });

  it('filters by ids, types and statuses', async () => {
    expect(ids((await search(alice.token, { filter: { ids: [ops[3], carolOps[1]] } })).records)).toEqual([ops[3]]);
    expect(ids((await search(alice.token, { filter: { types: ['bank_topup'] } })).records).sort()).toEqual(ops.slice(0, 3).sort());
    expect((await search(alice.token, { filter: { types: ['client_transaction_transfer'] } })).totalRecords).toBe(5);
    expect((await search(alice.token, { filter: { types: ['coin_closure'] } })).totalRecords).toBe(0);
    expect((await search(alice.token, { filter: { statuses: ['processed'] } })).totalRecords).toBe(8);
    expect((await search(alice.token, { filter: { statuses: ['declined', 'pending'] } })).totalRecords).toBe(0);
  });

  it('filters by createdAtFrom (inclusive) and createdAtTo (exclusive)', async () => {
    expect(ids((await search(alice.token, { filter: { createdAtFrom: created[3] } })).records).sort()).toEqual(ops.slice(3).sort());
    expect(ids((await search(alice.token, { filter: { createdAtTo: created[3] } })).records).sort()).toEqual(ops.slice(0, 3).sort());
    const window = await search(alice.token, { filter: { createdAtFrom: created[3], createdAtTo: created[6] } });
    expect(ids(window.records).sort()).toEqual(ops.slice(3, 6).sort());
    const offset = created[3].replace('Z', '+00:00');
    expect((await search(alice.token, { filter: { createdAtFrom: offset } })).totalRecords).toBe(5);
    expect((await search(alice.token, { filter: { createdAtFrom: '2000-01-01', createdAtTo: '2000-01-02' } })).totalRecords).toBe(0);
  });

  it('filters by coinSerials, issuerIds and currencyCodes', async () => {
    expect(ids((await search(alice.token, { filter: { coinSerials: [a3.serial] } })).records).sort()).toEqual([ops[2], ops[5]].sort());
    expect(ids((await search(alice.token, { filter: { coinSerials: [b1.serial] } })).records).sort()).toEqual(
      [ops[3], ops[4], ops[7]].sort(),
    );
    expect(ids((await search(alice.token, { filter: { issuerIds: [i3.id] } })).records).sort()).toEqual([ops[2], ops[5]].sort());
    expect(ids((await search(alice.token, { filter: { issuerIds: [i2.id] } })).records).sort()).toEqual([ops[1], ops[4], ops[6]].sort());
    expect(ids((await search(alice.token, { filter: { currencyCodes: [y.code] } })).records).sort()).toEqual([ops[2], ops[5]].sort());
    expect((await search(alice.token, { filter: { currencyCodes: [x.code] } })).totalRecords).toBe(6);
    const combined = await search(alice.token, {
      filter: { currencyCodes: [x.code], types: ['client_transaction_transfer'], coinSerials: [a2.serial] },
    });
    expect(ids(combined.records).sort()).toEqual([ops[4], ops[6]].sort());
  });

  it('sorts by createdAt, type and status', async () => {
    expect(ids((await search(alice.token, { sort: { createdAt: 'asc' } })).records)).toEqual(ops);
    expect(ids((await search(alice.token, { sort: { createdAt: 'desc' } })).records)).toEqual([...ops].reverse());
    const byTypeAsc = (await search(alice.token, { sort: { type: 'asc' } })).records.map((r) => r.type);
    expect(byTypeAsc).toEqual([...Array(3).fill('bank_topup'), ...Array(5).fill('client_transaction_transfer')]);
    const byTypeDesc = (await search(alice.token, { sort: { type: 'desc' } })).records.map((r) => r.type);
    expect(byTypeDesc).toEqual([...Array(5).fill('client_transaction_transfer'), ...Array(3).fill('bank_topup')]);
    const byStatus = await search(alice.token, { sort: { status: 'asc' } });
    expect(byStatus.records.map((r) => r.status)).toEqual(Array(8).fill('processed'));
  });

  it.each([
    ['a month 13', { filter: { createdAtFrom: '2024-13-01' } }, 'filter.createdAtFrom'],
    ['a word', { filter: { createdAtFrom: 'yesterday' } }, 'filter.createdAtFrom'],
    ['30 February', { filter: { createdAtTo: '2024-02-30T00:00:00Z' } }, 'filter.createdAtTo'],
    ['no offset', { filter: { createdAtFrom: '2024-01-01T10:00:00' } }, 'filter.createdAtFrom'],
    ['a number', { filter: { createdAtFrom: 1700000000000 } }, 'filter.createdAtFrom'],
    [
      'an end equal to the start',
      { filter: { createdAtFrom: '2024-01-01T00:00:00Z', createdAtTo: '2024-01-01T00:00:00Z' } },
      'filter.createdAtTo',
    ],
    ['an end before the start', { filter: { createdAtFrom: '2024-02-01', createdAtTo: '2024-01-01' } }, 'filter.createdAtTo'],
    ['an unknown filter field', { filter: { amountFrom: '1' } }, 'filter.amountFrom'],
    ['an unknown top-level field', { where: {} }, 'where'],
    ['an unknown sort field', { sort: { amount: 'asc' } }, 'sort.amount'],
    ['an unknown sort direction', { sort: { createdAt: 'up' } }, 'sort.createdAt'],
    ['an unknown type', { filter: { types: ['bogus'] } }, 'filter.types'],
    ['an unknown status', { filter: { statuses: ['lost'] } }, 'filter.statuses'],
    ['malformed ids', { filter: { ids: ['nope'] } }, 'filter.ids'],
    ['malformed issuer ids', { filter: { issuerIds: ['nope'] } }, 'filter.issuerIds'],
    ['malformed coin serials', { filter: { coinSerials: ['x'] } }, 'filter.coinSerials'],
    ['a page size of 0', { pageSize: 0 }, 'pageSize'],
    ['a page size of 1001', { pageSize: 1001 }, 'pageSize'],
    ['a negative page', { pageNumber: -1 }, 'pageNumber'],
    ['a filter that is not an object', { filter: 'all' }, 'filter'],
  ])('answers %s with 400', async (_, body, parameter) => {
    expectError(await world.server.request('POST', VIEW, { token: alice.token, body }), 400, 'exception.validation', parameter);
  });

  it('reads one operation: own 200, another organization’s 404, malformed 400, unknown 404', async () => {
    const own = await world.server.request('GET', `/api/v1/transactions/${ops[3]}`, { token: alice.token });
    expectStatus(own, 200);
    expect(own.body.process).toMatchObject({
      id: ops[3],
      type: 'client_transaction_transfer',
      customInformation: 'pay-1',
      amount: '10.00',
    });
    expectLegs(own.body.process, [[a1.serial, b1.serial, '10.00']]);
    expectStatus(await world.server.request('GET', `/api/v1/transactions/${ops[3]}`, { token: bob.token }), 200);
    for (const id of carolOps) {
      expectError(
        await world.server.request('GET', `/api/v1/transactions/${id}`, { token: alice.token }),
        404,
        'exception.transaction.not_found',
      );
    }
    expectError(
      await world.server.request('GET', `/api/v1/transactions/${ops[0]}`, { token: bob.token }),
      404,
      'exception.transaction.not_found',
    );
    expectError(await world.server.request('GET', '/api/v1/transactions/not-a-uuid', { token: alice.token }), 400);
    expectError(
      await world.server.request('GET', '/api/v1/transactions/00000000-0000-4000-8000-00000000abcd', { token: alice.token }),
      404,
      'exception.transaction.not_found',
    );
  });

  it('lets staff with TRANSACTION_AUDITOR see every operation, and not a cashier', async () => {
    const auditors = [world.admin, (await aUser(world.server, world.admin, { role: 'compliance_specialist' })).token];
    for (const token of auditors) {
      const all = await search(token, { pageSize: 1000 });
      expect(all.totalRecords).toBe(10);
      expect(ids(all.records)).toEqual(expect.arrayContaining([...ops, ...carolOps]));
      expectStatus(await world.server.request('GET', `/api/v1/transactions/${carolOps[0]}`, { token }), 200);
      expect((await search(token, { filter: { coinSerials: [a1.serial] } })).totalRecords).toBe(4);
    }
    const cashier = await aUser(world.server, world.admin, { role: 'cashier' });
    expect((await search(cashier.token, { filter: { ids: ops } })).totalRecords).toBe(0);
    expectError(await world.server.request('GET', `/api/v1/transactions/${ops[0]}`, { token: cashier.token }), 404);
  });
});

describe('transactions over a large history', () => {
  let server: TestServer;
  let admin: string;
  let alice: Actor;
  let a1: CoinBody;
  let a2: CoinBody;
  let b1: CoinBody;
  const HISTORY = 1_500;

  beforeAll(async () => {
    server = await startServer();
    let issuer: IssuerBody;
    ({ admin, issuer, alice, from: a1, to: b1 } = await aFundedPair(server, '10000.00'));
    a2 = await aCoin(server, alice.token, issuer.id);
    // A long balanced history between Alice's and Bob's coins, written directly, an hour or more ago.
    await server.db.query(
      `WITH ops AS (
         INSERT INTO operations (type, status, currency_id, amount, from_coin, to_coin, from_organization_id, to_organization_id, created_at)
         SELECT 'client_transaction_transfer', 'processed', c.currency_id, 1, c.serial, b.serial, c.organization_id, b.organization_id,
                now() - interval '2 hours' + g * interval '1 second'
           FROM generate_series(1, $3::int) g, coins c, coins b WHERE c.serial = $1 AND b.serial = $2
         RETURNING id, currency_id, from_coin, to_coin, from_organization_id, to_organization_id, amount, created_at)
       INSERT INTO ledger_entries (operation_id, leg, coin_serial, currency_id, organization_id, amount, created_at)
       SELECT id, 0, from_coin, currency_id, from_organization_id, -amount, created_at FROM ops
       UNION ALL SELECT id, 0, to_coin, currency_id, to_organization_id, amount, created_at FROM ops`,
      [a1.serial, b1.serial, HISTORY],
    );
    await server.db.query('UPDATE coins SET balance = balance - $2 WHERE serial = $1', [a1.serial, HISTORY]);
    await server.db.query('UPDATE coins SET balance = balance + $2 WHERE serial = $1', [b1.serial, HISTORY]);
    await server.db.query('ANALYZE operations; ANALYZE ledger_entries');
  });
  afterAll(() => server.stop());

  it('answers the newest page and an estimated total past 1,000 matches', async () => {
    const page = await server.request('POST', VIEW, { token: alice.token, body: { pageSize: 20 } });
    expectStatus(page, 200);
    expect(page.body.totalRecordsEstimated).toBe(true);
    expect(page.body.totalRecords).toBeGreaterThan(1_000);
    const { rows } = await server.db.query(
      `SELECT id FROM operations WHERE from_organization_id = $1 OR to_organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
      [alice.organizationId],
    );
    expect(page.body.records.map((r: Record) => r.id)).toEqual(rows.map((r) => r.id));
    const filtered = await server.request('POST', VIEW, {
      token: alice.token,
      body: { filter: { types: ['client_transaction_transfer'] } },
    });
    expectStatus(filtered, 200);
    expect(filtered.body.totalRecordsEstimated).toBe(true);
    const audit = await server.request('POST', VIEW, { token: admin, body: {} });
    expect(audit.body.totalRecordsEstimated).toBe(true);
  });

  it('counts exactly below 1,000 matches, an operation inside the organization once', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < 3; i++) expectStatus(await transfer(server, alice.token, a1.serial, a2.serial, '1.00'), 201);
    const page = await server.request('POST', VIEW, { token: alice.token, body: { filter: { createdAtFrom: since } } });
    expectStatus(page, 200);
    expect(page.body.totalRecordsEstimated).toBeUndefined();
    // The top-up and the three transfers between Alice's own coins.
    expect(page.body.totalRecords).toBe(4);
    expect(page.body.records).toHaveLength(4);
    const older = await server.request('POST', VIEW, {
      token: alice.token,
      body: { pageNumber: 1, pageSize: 500, filter: { createdAtTo: since } },
    });
    expectStatus(older, 200);
    expect(older.body.records).toHaveLength(500);
    expect(older.body.records.every((r: Record) => r.createdAt < since)).toBe(true);
    await expectBalancedLedger(server, admin);
  });
});

describe('reversals', () => {
  let server: TestServer;
  let admin: string;
  let alice: Actor;
  let bob: Actor;
  let a1: CoinBody;
  let b1: CoinBody;

  beforeAll(async () => {
    server = await startServer();
    ({ admin, alice, bob, from: a1, to: b1 } = await aFundedPair(server, '100.00'));
  });
  afterAll(() => server.stop());

  const reverse = (id: string, token = admin, headers: { [name: string]: string } = {}) =>
    server.request('POST', `/api/v1/transactions/${id}/reverse`, { token, headers, body: { customInformation: 'chargeback 7' } });

  it('reverses a transfer once, restoring both balances, linked to the original', async () => {
    const sent = await transfer(server, alice.token, a1.serial, b1.serial, '30.00');
    expectStatus(sent, 201);
    const original = sent.body.process.id as string;
    const reversal = await reverse(original, admin, { 'idempotency-key': 'rev-1' });
    expectStatus(reversal, 201);
    expect(reversal.body.process).toMatchObject({
      type: 'reversal',
      status: 'processed',
      reversalOf: original,
      amount: '30.00',
      customInformation: 'chargeback 7',
      from: { serial: b1.serial },
      to: { serial: a1.serial },
    });
    expectLegs(reversal.body.process, [[b1.serial, a1.serial, '30.00']]);
    expect((await coinOf(server, alice.token, a1.serial)).amount).toBe('100.00');
    expect((await coinOf(server, bob.token, b1.serial)).amount).toBe('0.00');
    const replay = await reverse(original, admin, { 'idempotency-key': 'rev-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(await reverse(original), 409, 'exception.transaction.already_reversed');
    expectError(await reverse(reversal.body.process.id), 409, 'exception.transaction.is_reversal');
    const seen = await server.request('GET', `/api/v1/transactions/${original}`, { token: alice.token });
    expect(seen.body.process.status).toBe('reversed');
    await expectBalancedLedger(server, admin);
  });

  it('refuses when the payee no longer has the money, and for customers, unknown or malformed ids', async () => {
    const sent = await transfer(server, alice.token, a1.serial, b1.serial, '10.00');
    expectStatus(sent, 201);
    expectStatus(await transfer(server, bob.token, b1.serial, a1.serial, '10.00'), 201);
    expectError(await reverse(sent.body.process.id), 409, 'exception.coin.insufficient_funds');
    expectError(await reverse(sent.body.process.id, alice.token), 403, 'exception.access.permission_missing');
    expectError(await reverse('00000000-0000-4000-8000-00000000dead'), 404, 'exception.transaction.not_found');
    expectError(await reverse('nope'), 400, 'exception.validation');
    await expectBalancedLedger(server, admin);
  });

  it('lets one of two racing reversals through', async () => {
    const sent = await transfer(server, alice.token, a1.serial, b1.serial, '5.00');
    const results = await Promise.all([reverse(sent.body.process.id), reverse(sent.body.process.id), reverse(sent.body.process.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    await expectBalancedLedger(server, admin);
  });
});
