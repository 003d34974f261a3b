import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Actor, adminToken, aUser } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, coinOf, expectStatus, fund, transfer } from './helpers/money';
import { ApiResponse, createDatabase, startExpectingFailure, startServer, TestServer } from './helpers/server';
import { moneyWorld } from './helpers/world';

/** The operator's support organization, where staff other than cashiers are members. */
const SUPPORT = '00000000-0000-4000-8000-000000000001';
const FIXTURE = join(process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist'), 'test', 'fixtures', 'unidempotent-money', 'main.js');
const bankDetails = { iban: 'DE89 3704 0044 0532 0130 00', bic: 'cobadeffxxx', accountHolder: 'Alice Liddell', bankName: 'Commerzbank' };
const document = { documentType: 'passport', documentNumber: 'LT1234567' };

/** An X-Request-Id of the test's own, so the action a request records can be told by it. */
function requestId(name: string): string {
  return `${name}-${randomBytes(4).toString('hex')}`;
}

interface Action {
  id: string;
  seq: string;
  userId: string | null;
  actorUserId: string | null;
  action: string;
  details: Record<string, unknown>;
}

describe('money safety (issue 29, 3): every money movement made by staff is on the record', () => {
  const world = moneyWorld();
  let accountant: Actor;
  let cfo: Actor;
  let alice: Actor;

  beforeAll(async () => {
    accountant = await world.user({ role: 'accountant' });
    cfo = await world.user({ role: 'cfo' });
    alice = await world.user();
  });

  const post = (token: string, path: string, id: string, body?: unknown, key?: string) =>
    world.server.request('POST', `/api/v1${path}`, {
      token,
      body,
      headers: { 'x-request-id': id, ...(key ? { 'idempotency-key': key } : {}) },
    });

  /** The actions of a kind `POST /users/view/actions` shows for a user. */
  const actionsOf = async (user: Actor, action: string): Promise<Action[]> => {
    const page = await world.server.request('POST', '/api/v1/users/view/actions', {
      token: world.admin,
      body: { filter: { userIds: [user.id], actions: [action] }, pageSize: 100 },
    });
    expectStatus(page, 200);
    return page.body.records;
  };

  /** The kernel's `money_moved` of an operation by `by`: exactly one, with who, as what, what and which request. */
  const expectMoved = async (
    by: Actor,
    organizationId: string,
    answer: ApiResponse,
    operation: { id: string; type: string; status: string; amount: string },
    extra: Record<string, unknown> = {},
  ): Promise<Action> => {
    const found = (await actionsOf(by, 'money_moved')).filter((a) => a.details.operationId === operation.id);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ userId: by.id, actorUserId: null, action: 'money_moved' });
    expect(found[0].details).toEqual({
      operationId: operation.id,
      operationType: operation.type,
      operationStatus: operation.status,
      amount: operation.amount,
      currency: world.currency.code,
      actorRole: by.role,
      actorOrganizationId: organizationId,
      requestId: answer.headers.get('x-request-id'),
      idempotencyKey: null,
      ...extra,
    });
    return found[0];
  };

  /** Who GET /transactions/{id} says made the operation. */
  const createdBy = async (operationId: string) => {
    const read = await world.server.request('GET', `/api/v1/transactions/${operationId}`, { token: world.admin });
    expectStatus(read, 200);
    return read.body.process.createdBy;
  };

  it('a direct bank top-up: money_moved with actor, role, organization, operation, amount and request id, and createdBy', async () => {
    const coin = await world.coin(alice);
    const id = requestId('top-up');
    const topUp = await post(accountant.token, '/bank-top-ups', id, { coinSerial: coin.serial, amount: '25.50' }, `key-${id}`);
    expectStatus(topUp, 201);
    expect(topUp.headers.get('x-request-id')).toBe(id);
    const operation = topUp.body.process;
    await expectMoved(accountant, SUPPORT, topUp, { ...operation, amount: '25.50' }, { idempotencyKey: `key-${id}` });
    expect(operation.createdBy).toEqual({ id: accountant.id, role: 'accountant' });
    expect(await createdBy(operation.id)).toEqual({ id: accountant.id, role: 'accountant' });
    // The customer sees who made it too, in the search as in the one operation.
    const seen = await world.server.request('POST', '/api/v1/transactions/view', {
      token: alice.token,
      body: { filter: { ids: [operation.id] } },
    });
    expect(seen.body.records[0].createdBy).toEqual({ id: accountant.id, role: 'accountant' });
    // A replay moves nothing again, and records nothing again.
    const replayed = await post(
      accountant.token,
      '/bank-top-ups',
      requestId('replay'),
      { coinSerial: coin.serial, amount: '25.50' },
      `key-${id}`,
    );
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    await expectMoved(accountant, SUPPORT, topUp, { ...operation, amount: '25.50' }, { idempotencyKey: `key-${id}` });
  });

  it('a direct bank withdrawal', async () => {
    const coin = await world.coin(alice, '40.00');
    const paid = await post(accountant.token, '/bank-withdrawals', requestId('payout'), {
      coinSerial: coin.serial,
      amount: '15.00',
      bankDetails,
    });
    expectStatus(paid, 201);
    await expectMoved(accountant, SUPPORT, paid, { ...paid.body.process, amount: '15.00' });
    expect(await createdBy(paid.body.process.id)).toEqual({ id: accountant.id, role: 'accountant' });
  });

  it('a reversal (POST /transactions/{id}/reverse), which the log can name', async () => {
    const coin = await world.coin(alice);
    const original = (await post(accountant.token, '/bank-top-ups', requestId('top-up'), { coinSerial: coin.serial, amount: '9.99' })).body
      .process;
    const reversed = await post(cfo.token, `/transactions/${original.id}/reverse`, requestId('reverse'), { description: 'entered twice' });
    expectStatus(reversed, 201);
    const reversal = reversed.body.process;
    const action = await expectMoved(cfo, SUPPORT, reversed, { ...reversal, amount: '9.99' }, { reversalOf: original.id });
    expect(await createdBy(reversal.id)).toEqual({ id: cfo.id, role: 'cfo' });
    // The action's object is the operation: its marks show it.
    const marks = await world.server.request('GET', `/api/v1/users/view/${action.id}/action-reverse`, { token: world.admin });
    expect(marks.body.marks).toEqual([{ objectType: 'operation', objectId: reversal.id, state: 'processed' }]);
  });

  it('a bank top-up request accepted (money_moved and the decision) and one declined (the decision, with its amount)', async () => {
    const coin = await world.coin(alice);
    const ask = async (amount: string) =>
      (
        await world.server.request('POST', '/api/v1/bank-top-ups/create-request', {
          token: alice.token,
          body: { coinSerial: coin.serial, amount },
        })
      ).body.bankTopUp.id as string;
    const first = await ask('30.00');
    const accepted = await post(accountant.token, `/bank-top-ups/${first}/accept`, requestId('accept-top-up'));
    expectStatus(accepted, 200);
    await expectMoved(accountant, SUPPORT, accepted, { ...accepted.body.process, amount: '30.00' });
    expect(await createdBy(accepted.body.process.id)).toEqual({ id: accountant.id, role: 'accountant' });
    const decision = (await actionsOf(accountant, 'bank_top_up_accepted')).find((a) => a.details.bankTopUpRequestId === first)!;
    expect(decision.details).toEqual({
      bankTopUpRequestId: first,
      operationId: accepted.body.process.id,
      amount: '30.00',
      currency: world.currency.code,
      actorRole: 'accountant',
      actorOrganizationId: SUPPORT,
      requestId: accepted.headers.get('x-request-id'),
    });

    const second = await ask('31.00');
    const declined = await post(accountant.token, `/bank-top-ups/${second}/decline`, requestId('decline-top-up'), {
      reason: 'No such payment',
    });
    expectStatus(declined, 200);
    const refusal = (await actionsOf(accountant, 'bank_top_up_declined')).find((a) => a.details.bankTopUpRequestId === second)!;
    expect(refusal.details).toEqual({
      bankTopUpRequestId: second,
      reason: 'No such payment',
      amount: '31.00',
      currency: world.currency.code,
      actorRole: 'accountant',
      actorOrganizationId: SUPPORT,
      requestId: declined.headers.get('x-request-id'),
    });
  });

  it('a bank withdrawal request accepted and one declined: each settlement is money_moved by the staff member', async () => {
    const coin = await world.coin(alice, '100.00');
    const ask = async (amount: string) => {
      const asked = await world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
        token: alice.token,
        body: { coinSerial: coin.serial, amount, bankDetails },
      });
      expectStatus(asked, 201);
      return asked.body;
    };
    const first = await ask('20.00');
    const accepted = await post(accountant.token, `/bank-withdrawals/${first.bankWithdrawal.id}/accept`, requestId('accept-payout'));
    expectStatus(accepted, 200);
    await expectMoved(accountant, SUPPORT, accepted, { ...accepted.body.process, status: 'processed', amount: '20.00' });
    const second = await ask('21.00');
    const declined = await post(accountant.token, `/bank-withdrawals/${second.bankWithdrawal.id}/decline`, requestId('decline-payout'), {
      reason: 'Account closed',
    });
    expectStatus(declined, 200);
    await expectMoved(accountant, SUPPORT, declined, { ...declined.body.process, status: 'declined', amount: '21.00' });
    // The operation is the customer's request, settled in place: it was created by them; the decision is on the record.
    expect(await createdBy(first.process.id)).toEqual({ id: alice.id, role: 'individual' });
    const decisions = await actionsOf(accountant, 'bank_withdrawal_declined');
    expect(decisions.find((a) => a.details.bankWithdrawalId === second.bankWithdrawal.id)!.details).toMatchObject({
      operationId: second.process.id,
      actorRole: 'accountant',
      actorOrganizationId: SUPPORT,
      requestId: declined.headers.get('x-request-id'),
    });
  });

  it('a cash desk cash_in, entered by a cashier (a member of the desk) and completed by the back office', async () => {
    const desk = (
      await world.server.request('POST', '/api/v1/cash-desks', {
        token: world.admin,
        body: { name: 'Audit desk', issuerIds: [world.issuer.id] },
      })
    ).body.cashDesk;
    const cashier = await world.user({ role: 'cashier', organizationId: desk.id });
    await post(accountant.token, '/bank-top-ups', requestId('desk-cash'), { coinSerial: desk.coins[0].serial, amount: '500.00' });
    const coin = await world.coin(alice);
    const entered = await post(cashier.token, '/cash-desk-operations', requestId('cash-in'), {
      type: 'cash_in',
      coinSerial: coin.serial,
      amount: '50.00',
      fullName: 'Alice Liddell',
      document,
    });
    expectStatus(entered, 201);
    await expectMoved(cashier, desk.id, entered, { ...entered.body.process, status: 'pending', amount: '50.00' });
    const completed = await post(
      accountant.token,
      `/cash-desk-operations/${entered.body.cashDeskOperation.id}/complete`,
      requestId('complete'),
    );
    expectStatus(completed, 200);
    await expectMoved(accountant, SUPPORT, completed, { ...completed.body.process, status: 'processed', amount: '50.00' });
    expect(await createdBy(entered.body.process.id)).toEqual({ id: cashier.id, role: 'cashier' });
    expect((await coinOf(world.server, alice.token, coin.serial)).amount).toBe('50.00');
  });

  it('a reserve funding', async () => {
    const funded = await post(cfo.token, '/exchange/reserves/fund', requestId('reserve'), { issuerId: world.issuer.id, amount: '12.34' });
    expectStatus(funded, 201);
    await expectMoved(cfo, SUPPORT, funded, { ...funded.body.process, amount: '12.34' });
    expect(await createdBy(funded.body.process.id)).toEqual({ id: cfo.id, role: 'cfo' });
  });

  it("records nothing for a customer's own money (a grouped transfer), whose operation still says who made it", async () => {
    const bob = await world.user();
    const [a, b] = await world.pair(alice, bob, '10.00');
    const sent = await transfer(world.server, alice.token, a.serial, b.serial, '4.00');
    expectStatus(sent, 201);
    expect(sent.body.process.createdBy).toEqual({ id: alice.id, role: 'individual' });
    expect(await actionsOf(alice, 'money_moved')).toEqual([]);
  });
});

describe('money safety (issue 29, 4): the action chain resists someone who can write to the database', () => {
  const KEY = `test-key-${randomBytes(16).toString('hex')}`;
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startServer(env);
    servers.push(server);
    return server;
  };
  const stop = async (server: TestServer) => {
    servers.splice(servers.indexOf(server), 1);
    await server.stop();
  };
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  const check = async (server: TestServer, token: string) => {
    const answer = await server.request('GET', '/api/v1/actuator/audit-check', { token });
    expectStatus(answer, 200);
    return answer.body;
  };
  const lastRow = async (server: TestServer) =>
    (await server.db.query(`SELECT seq::text AS seq, hash FROM user_actions ORDER BY seq DESC LIMIT 1`)).rows[0] as {
      seq: string;
      hash: string;
    };

  it('reports the head, and finds a row edited with the chain recomputed as plain SHA-256 (all the database allows)', async () => {
    const server = await start({ AUDIT_CHAIN_KEY: KEY });
    const admin = await adminToken(server);
    const alice = await aUser(server, admin);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        server.request('POST', '/api/v1/authorization', { body: { login: `nobody-${i}@example.com`, password: 'wrong-password-1' } }),
      ),
    );
    const intact = await check(server, admin);
    const head = await lastRow(server);
    expect(intact).toMatchObject({ intact: true, keyedFrom: '1', head: { seq: head.seq, hash: head.hash } });
    expect(intact.head.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(intact.checkedActions).toBe(Number(head.seq));

    // An attacker with write access edits an action and recomputes every hash from it on, with the function the
    // database itself holds: the chain links up again, but no hash is the keyed one.
    const { rows } = await server.db.query(`SELECT seq FROM user_actions WHERE user_id = $1 AND action = 'login_succeeded' LIMIT 1`, [
      alice.id,
    ]);
    const edited = rows[0].seq as string;
    await server.db.query(`UPDATE user_actions SET address = '203.0.113.66' WHERE seq = $1`, [edited]);
    await server.db.query(`
      DO $$
      DECLARE r record; last text;
      BEGIN
        SELECT hash INTO last FROM user_actions WHERE seq = ${Number(edited)} - 1;
        FOR r IN SELECT * FROM user_actions WHERE seq >= ${Number(edited)} ORDER BY seq LOOP
          UPDATE user_actions SET prev_hash = coalesce(last, ''),
                 hash = user_action_hash(coalesce(last, ''), r.id, r.user_id, r.actor_user_id, r.action, r.login, r.address, r.details, r.created_at)
           WHERE id = r.id RETURNING hash INTO last;
        END LOOP;
      END $$`);
    const broken = await check(server, admin);
    expect(broken).toMatchObject({
      intact: false,
      message: 'The action log was altered',
      firstBroken: { seq: edited, reason: 'hash does not match the action' },
    });
    // The head kept elsewhere no longer matches the one answered now.
    expect(broken.head.seq).toBe(intact.head.seq);
    expect(broken.head.hash).not.toBe(intact.head.hash);
  });

  /** Starts the service expecting it to refuse: its exit and last log line, or the failure of a test whose service started. */
  const refusal = async (env: Record<string, string>): Promise<{ code: string; msg: string }> => {
    let started: TestServer | undefined;
    const failure = await startServer(env).then(
      (server) => {
        started = server;
        servers.push(server);
        return undefined;
      },
      (error: Error) => error,
    );
    expect(started && 'the service started').toBeUndefined();
    const [, code, output] = /^The service exited \((\w+)\):\n([\s\S]*)$/.exec(failure!.message) ?? [];
    const lines = output.trim().split('\n');
    return { code, msg: (JSON.parse(lines[lines.length - 1]) as { msg: string }).msg };
  };
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'finapi-audit-key-'));
    dataDirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start a second instance without AUDIT_CHAIN_KEY on the database of another (each keeps its own key in its DATA_DIR), naming the setting (issue 43)', async () => {
    const databaseUrl = await createDatabase();
    const firstDir = dataDir();
    const first = await start({ DATABASE_URL: databaseUrl, DATA_DIR: firstDir });
    const admin = await adminToken(first);
    const second = dataDir();
    expect(await refusal({ DATABASE_URL: databaseUrl, DATA_DIR: second })).toEqual({
      code: '78',
      msg:
        `Invalid configuration: AUDIT_CHAIN_KEY is unset, and the key generated in ${join(second, 'audit-chain.key')} is not the one ` +
        'this database was written with (its action log, Idempotency-Key fingerprints and card numbers are keyed with another): ' +
        "give every instance on one database the same AUDIT_CHAIN_KEY (the first instance's DATA_DIR/audit-chain.key holds this database's key)",
    });
    // The first instance never noticed: its log and keyed answers go on.
    expect((await check(first, admin)).intact).toBe(true);
    // With the first instance's key, the second starts, and shares its log.
    const key = readFileSync(join(firstDir, 'audit-chain.key'), 'utf8').trim();
    const joined = await start({ DATABASE_URL: databaseUrl, DATA_DIR: second, AUDIT_CHAIN_KEY: key });
    expect(await check(joined, await adminToken(joined))).toMatchObject({ intact: true });
  });

  it('starts two instances with the same AUDIT_CHAIN_KEY, and a keyed retry that reaches the other one is answered again, not a 422', async () => {
    const databaseUrl = await createDatabase();
    const one = await start({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir(), AUDIT_CHAIN_KEY: KEY });
    const two = await start({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir(), AUDIT_CHAIN_KEY: KEY });
    const admin = await adminToken(one);
    const issuer = await anIssuer(one, admin, (await aCurrency(one, admin)).code);
    const [alice, bob] = [await aUser(one, admin), await aUser(one, admin)];
    const from = await aCoin(one, alice.token, issuer.id);
    const to = await aCoin(one, bob.token, issuer.id);
    await fund(one, admin, from.serial, '10.00');
    const key = requestId('retry');
    const sent = await transfer(one, alice.token, from.serial, to.serial, '1.00', { key });
    expectStatus(sent, 201);
    const retried = await transfer(two, alice.token, from.serial, to.serial, '1.00', { key });
    expectStatus(retried, 201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.process.id).toBe(sent.body.process.id);
    expect(await check(two, await adminToken(two))).toMatchObject({ intact: true });
  });

  it('refuses another key on a database written before the check value existed (an upgrade): its newest keyed action tells; the right key records it', async () => {
    const databaseUrl = await createDatabase();
    const first = await start({ DATABASE_URL: databaseUrl, AUDIT_CHAIN_KEY: KEY });
    await adminToken(first);
    await stop(first);
    // As a database of 1.0.0 is: its chain keyed, no check value.
    const db = new Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await db.query(`DELETE FROM service_key_check`);
      const newest = (await db.query(`SELECT seq::text AS seq FROM user_actions ORDER BY seq DESC LIMIT 1`)).rows[0].seq as string;
      expect(await refusal({ DATABASE_URL: databaseUrl, AUDIT_CHAIN_KEY: `other-key-${randomBytes(16).toString('hex')}` })).toEqual({
        code: '78',
        msg:
          `Invalid configuration: AUDIT_CHAIN_KEY is not the key this database was written with (its newest action, ${newest}, does not ` +
          'verify under it; its action log, Idempotency-Key fingerprints and card numbers are keyed with another): ' +
          'give every instance on one database the same AUDIT_CHAIN_KEY',
      });
      expect((await db.query(`SELECT count(*)::int AS n FROM service_key_check`)).rows[0].n).toBe(0);
      const again = await start({ DATABASE_URL: databaseUrl, AUDIT_CHAIN_KEY: KEY });
      expect(await again.waitForLog('Recorded the check value of the service key')).toBeDefined();
      expect((await db.query(`SELECT count(*)::int AS n FROM service_key_check`)).rows[0].n).toBe(1);
      expect(await check(again, await adminToken(again))).toMatchObject({ intact: true });
    } finally {
      await db.end();
    }
  });

  it('requires AUDIT_CHAIN_KEY in production; otherwise generates it once in DATA_DIR (mode 0600) and keeps using it', async () => {
    const refused = await startExpectingFailure({
      NODE_ENV: 'production',
      DATABASE_URL: await createDatabase(),
      ADMIN_PASSWORD: 'admin-password-1',
    });
    expect(refused.code).toBe(78);
    expect(JSON.parse(refused.output.trim()).msg).toBe(
      'Invalid configuration: AUDIT_CHAIN_KEY must be set when NODE_ENV is production (32 to 256 characters, e.g. openssl rand -hex 32)',
    );
    const short = await startExpectingFailure({
      AUDIT_CHAIN_KEY: 'too-short',
      DATABASE_URL: await createDatabase(),
      ADMIN_PASSWORD: 'admin-password-1',
    });
    expect(JSON.parse(short.output.trim()).msg).toBe(
      'Invalid configuration: AUDIT_CHAIN_KEY must be 32 to 256 printable characters without spaces',
    );

    const dataDir = mkdtempSync(join(tmpdir(), 'finapi-audit-key-'));
    try {
      const databaseUrl = await createDatabase();
      const first = await start({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
      const file = join(dataDir, 'audit-chain.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, 'utf8').trim();
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(await first.waitForLog(`generated the action log's key in ${file}`)).toBeDefined();
      await adminToken(first);
      await stop(first);
      // The next start reads the same key: the chain it extends still checks from its first action.
      const again = await start({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
      expect(readFileSync(file, 'utf8').trim()).toBe(key);
      expect(await check(again, await adminToken(again))).toMatchObject({ intact: true, checkedActions: 3 });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Four starts of the service (two refused, two whole): a minute each on a loaded machine.
  }, 240_000);
});

describe('the kernel rule (issue 29): a route that posts without @Idempotent() fails in the tests', () => {
  let server: TestServer;
  afterAll(() => server?.stop());

  it('refuses the posting of a deliberately wrong module (test/fixtures/unidempotent-money) and takes the same one done right', async () => {
    server = await startServer({}, { main: FIXTURE, allowFaults: true });
    const admin = await adminToken(server);
    const currency = await aCurrency(server, admin);
    const issuer = await anIssuer(server, admin, currency.code);
    const alice = await aUser(server, admin);
    const coin = await aCoin(server, alice.token, issuer.id);
    // Sent around the recording helper: the fixture's route is not the service's, and its 500 is the point.
    const call = (path: string) =>
      fetch(`${server.url}/api/v1/fixture/coins/${coin.serial}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${admin}` } });

    const wrong = await call('top-up-without-idempotent');
    expect(wrong.status).toBe(500);
    expect((await coinOf(server, alice.token, coin.serial)).amount).toBe('0.00');
    expect(await server.waitForLog('The ledger refuses to post a bank_topup outside an @Idempotent() request or a job')).toBeDefined();

    const right = await call('top-up');
    expect(right.status).toBe(201);
    expect((await coinOf(server, alice.token, coin.serial)).amount).toBe('1.00');
  });
});
