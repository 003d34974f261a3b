import { moneyWorld } from './helpers/world';
import { randomBytes } from 'node:crypto';
import { aCoin, balanceOf, CoinBody, expectBalancedLedger, expectError, expectStatus, fund, transfer } from './helpers/money';

const key = () => `key-${randomBytes(8).toString('hex')}`;

describe('Idempotency-Key on money-moving requests', () => {
  const world = moneyWorld();
  const alice = world.suiteUser();
  const bob = world.suiteUser();

  const pair = (amount = '100.00'): Promise<[CoinBody, CoinBody]> => world.pair(alice, bob, amount);
  const operationsWith = async (requestIdentifier: string) =>
    (await world.server.db.query('SELECT count(*)::int AS n FROM operations WHERE request_identifier = $1', [requestIdentifier])).rows[0].n;

  it('runs the same key 10 times in a row once, replaying status and body with Idempotent-Replayed', async () => {
    const [a, b] = await pair();
    const k = key();
    const first = await transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k, customInformation: 'once' });
    expectStatus(first, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body.process.requestIdentifier).toBe(k);
    for (let i = 0; i < 9; i++) {
      const again = await transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k, customInformation: 'once' });
      expectStatus(again, 201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    }
    expect(await operationsWith(k)).toBe(1);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('90.00');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('10.00');
  });

  // The interceptor hands Nest the answer's JSON text (IdempotencyInterceptor's jsonText): on the wire it is JSON as
  // Fastify's serializer wrote it, with its content type, its exact decimals, and the same bytes when replayed.
  it('answers a money route with JSON on the wire, keyed, replayed and unkeyed alike', async () => {
    const [a, b] = await pair();
    const k = key();
    const keyed = await transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k });
    const replayed = await transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k });
    const unkeyed = await transfer(world.server, alice.token, a.serial, b.serial, '5.50');
    for (const answer of [keyed, replayed, unkeyed]) {
      expectStatus(answer, 201);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(answer.text)));
      expect(typeof (JSON.parse(answer.text) as { process?: unknown }).process).toBe('object');
    }
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(keyed.text);
    expect(keyed.text).toContain('"amount":10.00,');
    expect(unkeyed.text).toContain('"amount":5.50,');
    const calculated = await world.server.request('POST', '/api/v1/transfers/calculate', {
      token: alice.token,
      body: { paymentTool: { type: 'COIN', srcValue: a.serial, destValue: b.serial }, amount: '1.00' },
    });
    // A route without the interceptor: Fastify's serializer writes it, with the same content type.
    expectStatus(calculated, 200);
    expect(calculated.headers.get('content-type')).toBe(keyed.headers.get('content-type'));
  });

  it('runs the same key sent 10 times in parallel once; the others replay or answer 409 in_flight', async () => {
    const [a, b] = await pair();
    const k = key();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k })),
    );
    const created = responses.filter((r) => r.status === 201);
    const inFlight = responses.filter((r) => r.status === 409);
    expect(created.length + inFlight.length).toBe(10);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of inFlight) expectError(r, 409, 'exception.idempotency.in_flight');
    const originals = created.filter((r) => r.headers.get('idempotent-replayed') !== 'true');
    expect(originals).toHaveLength(1);
    for (const r of created) expect(r.body).toEqual(originals[0].body);
    expect(await operationsWith(k)).toBe(1);
    const later = await transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k });
    expectStatus(later, 201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body).toEqual(originals[0].body);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('90.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('answers the same key with another body with 422, and changes nothing', async () => {
    const [a, b] = await pair();
    const k = key();
    expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k }), 201);
    expectError(
      await transfer(world.server, alice.token, a.serial, b.serial, '11.00', { key: k }),
      422,
      'exception.idempotency.key_reused',
    );
    expectError(
      await transfer(world.server, alice.token, a.serial, b.serial, '10.00', { key: k, description: 'changed' }),
      422,
      'exception.idempotency.key_reused',
    );
    // the same key on another money-moving route is another request too
    expectError(
      await world.server.request('POST', `/api/v1/close/coin/${a.serial}`, {
        token: alice.token,
        headers: { 'idempotency-key': k },
        body: { transferToCoinSerial: b.serial },
      }),
      422,
      'exception.idempotency.key_reused',
    );
    expect(await operationsWith(k)).toBe(1);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('90.00');
  });

  it('treats the same body with its keys in another order as the same request', async () => {
    const [a, b] = await pair();
    const k = key();
    const body1 = `{"amount":"5.00","paymentTool":{"type":"COIN","srcValue":"${a.serial}","destValue":"${b.serial}"}}`;
    const body2 = `{"paymentTool":{"destValue":"${b.serial}","srcValue":"${a.serial}","type":"COIN"},"amount":"5.00"}`;
    const headers = { 'idempotency-key': k, 'content-type': 'application/json' };
    const one = await world.server.request('POST', '/api/v1/transfers', { token: alice.token, headers, rawBody: body1 });
    expectStatus(one, 201);
    const two = await world.server.request('POST', '/api/v1/transfers', { token: alice.token, headers, rawBody: body2 });
    expectStatus(two, 201);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    expect(two.body).toEqual(one.body);
    expect(await operationsWith(k)).toBe(1);
  });

  it('keeps keys per user: another user with the same key makes their own operation', async () => {
    const [a, b] = await pair();
    const bobCoin = await aCoin(world.server, bob.token, world.issuer.id);
    await fund(world.server, world.admin, bobCoin.serial, '10.00');
    const k = key();
    const mine = await transfer(world.server, alice.token, a.serial, b.serial, '1.00', { key: k });
    const theirs = await transfer(world.server, bob.token, bobCoin.serial, a.serial, '2.00', { key: k });
    expectStatus(mine, 201);
    expectStatus(theirs, 201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.process.id).not.toBe(mine.body.process.id);
    expect(await operationsWith(k)).toBe(2);
  });

  it('stores nothing for a failed request, so the same key can be retried', async () => {
    const [a, b] = await pair('5.00');
    const k = key();
    expectError(
      await transfer(world.server, alice.token, a.serial, b.serial, '8.00', { key: k }),
      409,
      'exception.coin.insufficient_funds',
    );
    await fund(world.server, world.admin, a.serial, '5.00');
    const retry = await transfer(world.server, alice.token, a.serial, b.serial, '8.00', { key: k });
    expectStatus(retry, 201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await operationsWith(k)).toBe(1);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('2.00');
  });

  it('replays bank top-ups and coin closures too', async () => {
    const coin = await aCoin(world.server, alice.token, world.issuer.id);
    const target = await aCoin(world.server, alice.token, world.issuer.id);
    const k = key();
    const topUp = () =>
      world.server.request('POST', '/api/v1/bank-top-ups', {
        token: world.admin,
        headers: { 'idempotency-key': k },
        body: { coinSerial: coin.serial, amount: '7.00', customInformation: 'ref' },
      });
    const results = await Promise.all([topUp(), topUp(), topUp()]);
    for (const r of results) expect([201, 409]).toContain(r.status);
    const again = await topUp();
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.process.customInformation).toBe('ref');
    expect(await operationsWith(k)).toBe(1);
    expect(await balanceOf(world.server, alice.token, coin.serial)).toBe('7.00');

    const closeKey = key();
    const close = () =>
      world.server.request('POST', `/api/v1/close/coin/${coin.serial}`, {
        token: alice.token,
        headers: { 'idempotency-key': closeKey },
        body: { transferToCoinSerial: target.serial },
      });
    const closed = await close();
    expectStatus(closed, 200);
    const replay = await close();
    expectStatus(replay, 200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(closed.body);
    expect(await balanceOf(world.server, alice.token, target.serial)).toBe('7.00');
  });

  it('answers a key reused with another body with 422 on every money-moving route, and changes nothing', async () => {
    const [a, b] = await pair();
    const again = (method: string, path: string, token: string, k: string, body: object) =>
      world.server.request(method, path, { token, headers: { 'idempotency-key': k }, body });
    // a bank top-up
    const topUpKey = key();
    expectStatus(await again('POST', '/api/v1/bank-top-ups', world.admin, topUpKey, { coinSerial: a.serial, amount: '1.00' }), 201);
    expectError(
      await again('POST', '/api/v1/bank-top-ups', world.admin, topUpKey, { coinSerial: a.serial, amount: '2.00' }),
      422,
      'exception.idempotency.key_reused',
    );
    // a reversal
    const sent = await transfer(world.server, alice.token, a.serial, b.serial, '1.00');
    const reverseKey = key();
    const path = `/api/v1/transactions/${sent.body.process.id}/reverse`;
    expectStatus(await again('POST', path, world.admin, reverseKey, { description: 'first' }), 201);
    expectError(await again('POST', path, world.admin, reverseKey, { description: 'second' }), 422, 'exception.idempotency.key_reused');
    // closing with PUT
    const empty = await world.coin(alice);
    const closeKey = key();
    expectStatus(await again('PUT', `/api/v1/close/coin/${empty.serial}`, alice.token, closeKey, {}), 200);
    expectError(
      await again('PUT', `/api/v1/close/coin/${empty.serial}`, alice.token, closeKey, { transferToCoinSerial: a.serial }),
      422,
      'exception.idempotency.key_reused',
    );
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('101.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('rejects an invalid key with 400: too long, empty, or not printable', async () => {
    const [a, b] = await pair();
    expectError(
      await transfer(world.server, alice.token, a.serial, b.serial, '1.00', { key: 'k'.repeat(300) }),
      400,
      'exception.validation',
    );
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '1.00', { key: '' }), 400, 'exception.validation');
    expectError(await transfer(world.server, alice.token, a.serial, b.serial, '1.00', { key: 'tab\there' }), 400, 'exception.validation');
    expectStatus(await transfer(world.server, alice.token, a.serial, b.serial, '1.00', { key: 'k'.repeat(255) }), 201);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('99.00');
  });
});
