import { aUser, adminToken } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, expectError, expectStatus, fund, transfer } from './helpers/money';
import { createDatabase, startServer, TestServer, within } from './helpers/server';
import { Receiver } from './helpers/webhook-receiver';
import { aFundedPair, moneyWorld } from './helpers/world';

const ALL_OPERATION_EVENTS = [
  'operation.processed',
  'operation.declined',
  'operation.reversed',
  'bank_withdrawal.decided',
  'bank_top_up.decided',
];
const FAST = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_TIMEOUT_MS: '1000',
};

describe('webhooks (issue 17): a transactional outbox, signed deliveries, retries', () => {
  const world = moneyWorld({ env: FAST });
  const receivers: Receiver[] = [];
  afterAll(() => Promise.all(receivers.map((r) => r.stop())));

  /** A receiver on 127.0.0.1 and a webhook of `token`'s organization pointing at it. */
  const hook = async (token: string, events: string[]) => {
    const receiver = new Receiver();
    receivers.push(receiver);
    const url = await receiver.start();
    const created = await world.server.request('POST', '/api/v1/webhooks', { token, body: { url, events, description: 'test' } });
    expectStatus(created, 201);
    receiver.secret = created.body.webhook.secret;
    return { receiver, webhook: created.body.webhook, url };
  };

  it('registers, shows (never the secret again), changes, rotates and removes an endpoint; another organization’s is a 404', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const created = await world.server.request('POST', '/api/v1/webhooks', {
      token: alice.token,
      body: { url: 'https://merchant.example.com/hooks', events: ['operation.processed'], description: 'Shop' },
    });
    expectStatus(created, 201);
    expect(created.body.webhook).toEqual({
      id: expect.any(String),
      organizationId: alice.organizationId,
      url: 'https://merchant.example.com/hooks',
      events: ['operation.processed'],
      description: 'Shop',
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.webhook.id;
    const got = await world.server.request('GET', `/api/v1/webhooks/${id}`, { token: alice.token });
    expectStatus(got, 200);
    expect(got.body.webhook.secret).toBeUndefined();
    expect(got.body.webhook).toMatchObject({ id, url: 'https://merchant.example.com/hooks' });

    const changed = await world.server.request('PATCH', `/api/v1/webhooks/${id}`, {
      token: alice.token,
      body: { events: ['operation.processed', 'operation.reversed'], enabled: false },
    });
    expectStatus(changed, 200);
    expect(changed.body.webhook).toMatchObject({
      events: ['operation.processed', 'operation.reversed'],
      enabled: false,
      description: 'Shop',
    });
    expectError(
      await world.server.request('PATCH', `/api/v1/webhooks/${id}`, { token: alice.token, body: {} }),
      400,
      'exception.validation',
    );
    expectError(
      await world.server.request('PATCH', `/api/v1/webhooks/${id}`, {
        token: alice.token,
        body: { url: 'not a url' },
      }),
      422,
      'exception.webhook.url_refused',
    );
    for (const field of ['url', 'events', 'enabled']) {
      expectError(
        await world.server.request('PATCH', `/api/v1/webhooks/${id}`, { token: alice.token, body: { [field]: null } }),
        400,
        'exception.validation',
      );
    }
    for (const body of [
      { url: 'https://x.example.com', events: ['no.such_event'] },
      { url: 'https://x.example.com', events: [] },
      { events: ['operation.processed'] },
      { url: 'not a url', events: ['operation.processed'] },
    ]) {
      expectError(
        await world.server.request('POST', '/api/v1/webhooks', { token: alice.token, body }),
        body.url === 'not a url' ? 422 : 400,
      );
    }
    const rotated = await world.server.request('POST', `/api/v1/webhooks/${id}/rotate-secret`, { token: alice.token });
    expectStatus(rotated, 200);
    expect(rotated.body.webhook.secret).toMatch(/^whsec_/);
    expect(rotated.body.webhook.secret).not.toBe(created.body.webhook.secret);
    const list = await world.server.request('POST', '/api/v1/webhooks/view', { token: alice.token, body: {} });
    expectStatus(list, 200);
    expect(list.body).toMatchObject({ totalRecords: 1, records: [{ id }] });
    expect(list.body.records[0].secret).toBeUndefined();

    // Bob sees, changes, rotates and removes nothing of Alice's.
    expectError(await world.server.request('GET', `/api/v1/webhooks/${id}`, { token: bob.token }), 404, 'exception.webhook.not_found');
    expectError(
      await world.server.request('PATCH', `/api/v1/webhooks/${id}`, { token: bob.token, body: { enabled: true } }),
      404,
      'exception.webhook.not_found',
    );
    expectError(
      await world.server.request('POST', `/api/v1/webhooks/${id}/rotate-secret`, { token: bob.token }),
      404,
      'exception.webhook.not_found',
    );
    expectError(
      await world.server.request('POST', `/api/v1/webhooks/${id}/deliveries/view`, { token: bob.token, body: {} }),
      404,
      'exception.webhook.not_found',
    );
    expectError(await world.server.request('DELETE', `/api/v1/webhooks/${id}`, { token: bob.token }), 404, 'exception.webhook.not_found');
    expect((await world.server.request('POST', '/api/v1/webhooks/view', { token: bob.token, body: {} })).body.totalRecords).toBe(0);

    // user.on_hold is for the operator's staff only.
    expectError(
      await world.server.request('POST', '/api/v1/webhooks', {
        token: alice.token,
        body: { url: 'https://x.example.com', events: ['user.on_hold'] },
      }),
      403,
      'exception.webhook.event_forbidden',
    );
    const removed = await world.server.request('DELETE', `/api/v1/webhooks/${id}`, { token: alice.token });
    expectStatus(removed, 200);
    expect(removed.body).toEqual({ status: 'ok', message: 'Webhook removed', id });
    expectError(await world.server.request('DELETE', `/api/v1/webhooks/${id}`, { token: alice.token }), 404, 'exception.webhook.not_found');
  });

  it('a transfer, a reversal and a declined withdrawal each produce exactly their events, signed, to the organizations involved only', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const carol = await world.user();
    const [from, to] = await world.pair(alice, bob, '100.00');
    const a = await hook(alice.token, ALL_OPERATION_EVENTS);
    const b = await hook(bob.token, ALL_OPERATION_EVENTS);
    const c = await hook(carol.token, ALL_OPERATION_EVENTS);

    const sent = await transfer(world.server, alice.token, from.serial, to.serial, '10.00');
    expectStatus(sent, 201);
    const operationId = sent.body.process.id;
    await a.receiver.waitFor(1);
    await b.receiver.waitFor(1);
    for (const r of [a.receiver, b.receiver]) {
      expect(r.received.map((x) => x.event.type)).toEqual(['operation.processed']);
      expect(r.received[0].event).toMatchObject({
        id: r.received[0].id,
        type: 'operation.processed',
        data: { id: operationId, status: 'processed', amount: 10 },
      });
      expect(r.received[0].body).toContain('"amount":10.00');
    }

    const reversed = await world.server.request('POST', `/api/v1/transactions/${operationId}/reverse`, { token: world.admin, body: {} });
    expectStatus(reversed, 201);
    await a.receiver.waitFor(2);
    await b.receiver.waitFor(2);
    for (const r of [a.receiver, b.receiver]) {
      expect(r.received.map((x) => x.event.type)).toEqual(['operation.processed', 'operation.reversed']);
      expect(r.received[1].event.data).toMatchObject({ operationId, reversal: { id: reversed.body.process.id, reversalOf: operationId } });
    }

    const requested = await world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
      token: alice.token,
      body: { coinSerial: from.serial, amount: '5.00', bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Alice' } },
    });
    expectStatus(requested, 201);
    const declined = await world.server.request('POST', `/api/v1/bank-withdrawals/${requested.body.bankWithdrawal.id}/decline`, {
      token: world.admin,
      body: { reason: 'Account closed' },
    });
    expectStatus(declined, 200);
    await a.receiver.waitFor(4);
    expect(a.receiver.received.map((x) => x.event.type).sort()).toEqual(
      ['operation.processed', 'operation.reversed', 'operation.declined', 'bank_withdrawal.decided'].sort(),
    );
    expect(a.receiver.ofType('bank_withdrawal.decided')[0].event.data).toMatchObject({
      id: requested.body.bankWithdrawal.id,
      status: 'declined',
    });
    expect(a.receiver.ofType('operation.declined')[0].event.data).toMatchObject({ id: requested.body.process.id, status: 'declined' });
    // Bob was not part of the withdrawal; Carol of nothing.
    expect(b.receiver.received).toHaveLength(2);
    expect(c.receiver.received).toHaveLength(0);
    for (const r of [...a.receiver.received, ...b.receiver.received]) expect(r.verified).toBe(true);
    expect(new Set(a.receiver.received.map((r) => r.id)).size).toBe(4);

    // The deliveries as the organization sees them.
    const deliveries = await world.server.request('POST', `/api/v1/webhooks/${a.webhook.id}/deliveries/view`, {
      token: alice.token,
      body: { status: 'delivered' },
    });
    expectStatus(deliveries, 200);
    expect(deliveries.body.totalRecords).toBe(4);
    expect(deliveries.body.records[0]).toMatchObject({
      webhookId: a.webhook.id,
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
  });

  it('retries a receiver answering 500 twice then 200 with the same webhook-id; a redelivery sends it again; a rolled-back change sends nothing', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '20.00');
    const a = await hook(alice.token, ['operation.processed']);
    a.receiver.answers.push(500, 500, 200);
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '1.00'), 201);
    await a.receiver.waitFor(3);
    expect(a.receiver.received).toHaveLength(3);
    expect(new Set(a.receiver.received.map((r) => r.id)).size).toBe(1);
    expect(a.receiver.received.every((r) => r.verified)).toBe(true);
    // Exponential backoff: the second wait is longer than the first.
    const [t1, t2, t3] = a.receiver.received.map((r) => r.at);
    expect(t3 - t2).toBeGreaterThan(t2 - t1);

    const page = await world.server.request('POST', `/api/v1/webhooks/${a.webhook.id}/deliveries/view`, { token: alice.token, body: {} });
    const delivery = page.body.records[0];
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
      eventType: 'operation.processed',
    });

    expectError(
      await world.server.request('POST', `/api/v1/webhooks/deliveries/${delivery.id}/redeliver`, { token: bob.token }),
      404,
      'exception.webhook.delivery_not_found',
    );
    const again = await world.server.request('POST', `/api/v1/webhooks/deliveries/${delivery.id}/redeliver`, { token: alice.token });
    expectStatus(again, 200);
    expect(again.body.delivery).toMatchObject({ id: delivery.id, status: 'pending', attempts: 0 });
    await a.receiver.waitFor(4);
    expect(a.receiver.received).toHaveLength(4);
    expect(a.receiver.received[3].id).toBe(a.receiver.received[0].id);

    // A transfer refused (insufficient funds) rolls back: no event.
    expectError(await transfer(world.server, alice.token, from.serial, to.serial, '1000.00'), 409);
    await a.receiver.waitFor(5, 1000);
    expect(a.receiver.received).toHaveLength(4);
  });

  it('tells the operator’s staff when a user is put On Hold', async () => {
    const s = await hook(world.admin, ['user.on_hold']);
    const dave = await world.user();
    for (let i = 0; i < 3; i++) {
      await world.server.request('POST', '/api/v1/authorization', { body: { login: dave.login, password: 'wrong-password-1' } });
    }
    await s.receiver.waitFor(1);
    expect(s.receiver.received.map((r) => r.event)).toEqual([
      {
        id: expect.any(String),
        type: 'user.on_hold',
        createdAt: expect.any(String),
        data: { userId: dave.id, login: dave.login, failedAttempts: 3 },
      },
    ]);
    expect(s.receiver.received[0].verified).toBe(true);
  });

  it('tells the operator’s staff when an administrator is put On Hold too, once (issue 29)', async () => {
    const s = await hook(world.admin, ['user.on_hold']);
    const erin = await world.user({ role: 'administrator' });
    for (let i = 0; i < 5; i++) {
      await world.server.request('POST', '/api/v1/authorization', { body: { login: erin.login, password: `wrong-password-${i}` } });
    }
    // Attempts while On Hold (the right password too) hold no one again.
    await world.server.request('POST', '/api/v1/authorization', { body: { login: erin.login, password: erin.password } });
    await s.receiver.waitFor(1);
    expect(s.receiver.received.map((r) => r.event)).toEqual([
      {
        id: expect.any(String),
        type: 'user.on_hold',
        createdAt: expect.any(String),
        data: { userId: erin.id, login: erin.login, failedAttempts: 3 },
      },
    ]);
    expect(s.receiver.received[0].verified).toBe(true);
  });

  it('keeps an organization to 20 webhooks (WEBHOOKS_PER_ORGANIZATION), also when created at once, and one event to 20 deliveries of it', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '10.00');
    const receiver = new Receiver();
    receivers.push(receiver);
    const url = await receiver.start();
    const create = () =>
      world.server.request('POST', '/api/v1/webhooks', { token: alice.token, body: { url, events: ['operation.processed'] } });
    for (let i = 0; i < 19; i++) expectStatus(await create(), 201);
    // Five at once for the last place: exactly one gets it.
    const racing = await Promise.all(Array.from({ length: 5 }, create));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const refused of racing.filter((r) => r.status === 409)) expectError(refused, 409, 'exception.webhook.limit_reached');
    expect((await world.server.request('POST', '/api/v1/webhooks/view', { token: alice.token, body: {} })).body.totalRecords).toBe(20);
    // Bob's organization has its own 20.
    expectStatus(
      await world.server.request('POST', '/api/v1/webhooks', { token: bob.token, body: { url, events: ['operation.processed'] } }),
      201,
    );

    // Rows written straight into the database past the limit: still 20 deliveries of Alice's per event, Bob's one.
    await world.raw.db.query(
      `INSERT INTO webhooks (organization_id, url, events, secret) SELECT organization_id, url, events, secret FROM webhooks
        WHERE organization_id = $1 LIMIT 7`,
      [alice.organizationId],
    );
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '1.00'), 201);
    const { rows } = await world.raw.db.query(
      `SELECT w.organization_id, count(*)::int AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE w.organization_id = ANY($1::uuid[]) GROUP BY w.organization_id`,
      [[alice.organizationId, bob.organizationId]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.organization_id, r.n]))).toEqual({ [alice.organizationId]: 20, [bob.organizationId]: 1 });
    await receiver.waitFor(21);
    expect(receiver.received).toHaveLength(21);
    // Past the limit, a removal alone makes no room.
    const first = (await world.server.request('POST', '/api/v1/webhooks/view', { token: alice.token, body: {} })).body.records[0];
    expectStatus(await world.server.request('DELETE', `/api/v1/webhooks/${first.id}`, { token: alice.token }), 200);
    expectError(await create(), 409, 'exception.webhook.limit_reached');
  });
});

describe('webhook delivery across crashes and instances (issue 17)', () => {
  const receivers: Receiver[] = [];
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all(receivers.map((r) => r.stop()));
  });

  /** A fresh database with a funded coin of Alice and a coin of Bob, and Alice's webhook at a new receiver. */
  const setUp = async (server: TestServer) => {
    const { alice, from, to } = await aFundedPair(server, '1000.00');
    const receiver = new Receiver();
    receivers.push(receiver);
    const url = await receiver.start();
    const created = await server.request('POST', '/api/v1/webhooks', {
      token: alice.token,
      body: { url, events: ['operation.processed'] },
    });
    expectStatus(created, 201);
    receiver.secret = created.body.webhook.secret;
    return { alice, from, to, receiver };
  };

  it('delivers after a SIGKILL between the commit and the delivery, once the service is back', async () => {
    const databaseUrl = await createDatabase();
    const first = await startServer({ ...FAST, DATABASE_URL: databaseUrl });
    servers.push(first);
    const { alice, from, to, receiver } = await setUp(first);
    receiver.answers.push('hang');
    const sent = await transfer(first, alice.token, from.serial, to.serial, '3.00');
    expectStatus(sent, 201);
    await receiver.waitFor(1, 10_000, 0);
    await first.kill();
    expect(receiver.received).toHaveLength(1);

    const second = await startServer({ ...FAST, DATABASE_URL: databaseUrl });
    servers.push(second);
    await receiver.waitFor(2, 15_000, 300);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].id).toBe(receiver.received[0].id);
    expect(receiver.received[1].event.data.id).toBe(sent.body.process.id);
    expect(receiver.received[1].verified).toBe(true);
    const { rows } = await second.db.query(`SELECT status, attempts FROM webhook_deliveries`);
    expect(rows).toEqual([{ status: 'delivered', attempts: 2 }]);
  });

  it('never delivers one event twice when two instances share the database', async () => {
    const databaseUrl = await createDatabase();
    const env = { ...FAST, DATABASE_URL: databaseUrl, WEBHOOK_POLL_MS: '50' };
    const one = await startServer(env);
    const two = await startServer(env);
    servers.push(one, two);
    const { alice, from, to, receiver } = await setUp(one);
    receiver.delayMs = 100;
    const sends = Array.from({ length: 30 }, (_, i) => transfer(i % 2 ? one : two, alice.token, from.serial, to.serial, '1.00'));
    for (const sent of await Promise.all(sends)) expectStatus(sent, 201);
    await receiver.waitFor(30, 20_000, 1000);
    const ids = receiver.received.map((r) => r.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });

  it('refuses URLs in private, loopback and link-local ranges, and plain http, without the flags', async () => {
    const server = await startServer();
    servers.push(server);
    const admin = await adminToken(server);
    const alice = await aUser(server, admin);
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://127.0.0.1:8443/',
      'https://localhost/',
      'https://[::1]/',
      'http://example.com/hook',
    ]) {
      const refused = await server.request('POST', '/api/v1/webhooks', {
        token: alice.token,
        body: { url, events: ['operation.processed'] },
      });
      expectError(refused, 422, 'exception.webhook.url_refused');
    }
    const ok = await server.request('POST', '/api/v1/webhooks', {
      token: alice.token,
      body: { url: 'https://93.184.215.14/hook', events: ['operation.processed'] },
    });
    expectStatus(ok, 201);
  });

  it('judges IPv6 addresses leading to an IPv4 host (mapped, NAT64, 6to4) by that address and refuses every special-purpose range (issue 43), at registration and at delivery', async () => {
    const server = await startServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_POLL_MS: '100' });
    servers.push(server);
    const admin = await adminToken(server);
    const alice = await aUser(server, admin);
    const register = (url: string) =>
      server.request('POST', '/api/v1/webhooks', { token: alice.token, body: { url, events: ['operation.processed'] } });
    for (const url of [
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[64:ff9b::a00:1]/hook',
      'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
      'https://[2002:c0a8:0101::1]/hook',
      // Issue 43, item 10: the rest of IANA's special-purpose ranges.
      'https://[fec0::1]/',
      'https://[::ffff:0:127.0.0.1]/',
      'https://[::ffff:0:808:808]/',
      'https://[::8.8.8.8]/',
      'https://[64:ff9b:1::808:808]/',
      'https://[100::1]/',
      'https://[2001::1]/',
      'https://[2001:2::1]/',
      'https://[2001:db8::1]/',
      'https://[3fff::1]/',
      'https://[5f00::1]/',
      'https://[ff02::1]/',
      'https://[4000::1]/',
      'https://192.0.2.1/',
      'https://198.51.100.7/',
      'https://203.0.113.5/',
      'https://192.88.99.1/',
      'https://240.0.0.1/',
      'https://255.255.255.255/',
    ]) {
      expectError(await register(url), 422, 'exception.webhook.url_refused');
    }
    expect((await register('https://[::ffff:0:127.0.0.1]/')).body.message).toBe(
      'The webhook URL is refused: the host resolves to ::ffff:0:7f00:1 (127.0.0.1), in ::ffff:0:0:0/96 (IPv4-translated), not a public address',
    );
    expect((await register('https://[fec0::1]/')).body.message).toBe(
      'The webhook URL is refused: the host resolves to fec0::1, in fec0::/10 (site-local, deprecated), not a public address',
    );
    const publicOne = await register('https://[64:ff9b::808:808]/hook');
    expectStatus(publicOne, 201);
    // Removed again: this test sends nothing to the Internet.
    expectStatus(await server.request('DELETE', `/api/v1/webhooks/${publicOne.body.webhook.id}`, { token: alice.token }), 200);

    // A row that got past the check (written before it, or straight into the database) is refused at each attempt.
    const currency = await aCurrency(server, admin);
    const issuer = await anIssuer(server, admin, currency.code);
    const bob = await aUser(server, admin);
    const from = await aCoin(server, alice.token, issuer.id);
    const to = await aCoin(server, bob.token, issuer.id);
    await fund(server, admin, from.serial, '10.00');
    for (const url of ['http://[64:ff9b::7f00:1]:9/hook', 'http://[fec0::1]:9/hook', 'http://[::ffff:0:7f00:1]:9/hook']) {
      await server.db.query(`INSERT INTO webhooks (organization_id, url, events, secret) VALUES ($1, $2, $3, 'whsec_x')`, [
        alice.organizationId,
        url,
        ['operation.processed'],
      ]);
    }
    expectStatus(await transfer(server, alice.token, from.serial, to.serial, '1.00'), 201);
    const attempted = async () =>
      (
        await server.db.query(
          `SELECT w.url, d.last_error FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
            WHERE w.url LIKE 'http://[%' AND (d.last_error IS NOT NULL OR d.last_status_code IS NOT NULL)`,
        )
      ).rows.sort((a, b) => (a.url < b.url ? -1 : 1)) as { url: string; last_error: string }[];
    expect(await within(60_000, async () => (await attempted()).length === 3)).toBeLessThan(Infinity);
    expect(await attempted()).toEqual([
      {
        url: 'http://[64:ff9b::7f00:1]:9/hook',
        last_error: 'refused: the host resolves to 64:ff9b::7f00:1 (127.0.0.1), in 127.0.0.0/8 (loopback), not a public address',
      },
      {
        url: 'http://[::ffff:0:7f00:1]:9/hook',
        last_error: 'refused: the host resolves to ::ffff:0:7f00:1 (127.0.0.1), in ::ffff:0:0:0/96 (IPv4-translated), not a public address',
      },
      {
        url: 'http://[fec0::1]:9/hook',
        last_error: 'refused: the host resolves to fec0::1, in fec0::/10 (site-local, deprecated), not a public address',
      },
    ]);
  });
});
