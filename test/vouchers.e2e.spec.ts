import { createHash } from 'node:crypto';
import { Actor } from './helpers/actors';
import { percent, usageOf } from './helpers/commissions';
import { systemCoinOf } from './helpers/exchange';
import { whileKeyInFlight } from './helpers/in-flight';
import {
  aCoin,
  aCurrency,
  anIssuer,
  balanceOf,
  CoinBody,
  Dec,
  expectBalancedLedger,
  expectError,
  expectLegs,
  expectStatus,
} from './helpers/money';
import type { ApiResponse, TestServer } from './helpers/server';
import { moneyWorld } from './helpers/world';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function buy(server: TestServer, token: string, body: Record<string, unknown>, key?: string): Promise<ApiResponse> {
  return server.request('POST', '/api/v1/vouchers', { token, body, headers: key ? { 'idempotency-key': key } : {} });
}

function redeem(server: TestServer, token: string, code: string, coinSerial: string, key?: string): Promise<ApiResponse> {
  return server.request('POST', '/api/v1/vouchers/redeem', {
    token,
    body: { code, coinSerial },
    headers: key ? { 'idempotency-key': key } : {},
  });
}

describe('prepaid vouchers (issue 13)', () => {
  const world = moneyWorld({ env: { VOUCHER_EXPIRY_SWEEP_SECONDS: '0' } });

  const reserve = async () => (await systemCoinOf(world.server, world.issuer.id, 'voucher_reserve'))!;
  /** A creator with a funded coin, and a voucher of `amount` bought from it. */
  const bought = async (amount = '25.00', extra: Record<string, unknown> = {}) => {
    const creator = await world.user();
    const coin = await world.coin(creator, '100.00');
    const response = await buy(world.server, creator.token, { coinSerial: coin.serial, amount, ...extra });
    expectStatus(response, 201);
    return { creator, coin, voucher: response.body.voucher, code: response.body.code as string, response };
  };

  it('moves the amount to the voucher reserve, answers a one-time code (kept only as its SHA-256) and prepaidName (section 2.3)', async () => {
    const creator = await world.user();
    const coin = await world.coin(creator, '100.00');
    const named = await buy(world.server, creator.token, { coinSerial: coin.serial, amount: '25.00', prepaidName: 'Birthday gift' }, 'v-1');
    expectStatus(named, 201);
    const { voucher, code, process } = named.body;
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    expect(voucher).toEqual({
      id: expect.any(String),
      serial: expect.stringMatching(/^[1-9][0-9]{15}$/),
      name: 'Birthday gift',
      issuer: { id: world.issuer.id, sn: expect.any(Number), currency: world.currency.code, symbol: null },
      activatedAt: null,
      prepaidName: 'Birthday gift',
      amount: '25.00',
      currency: world.currency.code,
      symbol: null,
      status: 'pending',
      coinSerial: coin.serial,
      expiresAt: null,
      redeemedAt: null,
      operationId: process.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(process).toMatchObject({ type: 'voucher_create', status: 'processed', amount: '25.00', commission: '0.00' });
    expectLegs(process, [[coin.serial, (await reserve()).serial, '25.00']]);
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('75.00');

    // Without a name: the documented default, the amount and the currency.
    const unnamed = await buy(world.server, creator.token, { coinSerial: coin.serial, amount: 5 });
    expect(unnamed.body.voucher.prepaidName).toBe(`Voucher 5.00 ${world.currency.code}`);

    // Only the hash is stored: not in the vouchers table, not in the stored idempotent answer.
    const { rows } = await world.server.db.query('SELECT code_hash FROM vouchers WHERE id = $1', [voucher.id]);
    expect(rows[0].code_hash).toBe(createHash('sha256').update(code).digest('hex'));
    const dump = await world.server.db.query(
      `SELECT count(*)::int AS n FROM idempotency_keys WHERE response_body::text LIKE '%' || $1 || '%'`,
      [code],
    );
    expect(dump.rows[0].n).toBe(0);
    // A replay answers the same voucher and operation, but no code: the service no longer knows it.
    const replay = await buy(
      world.server,
      creator.token,
      { coinSerial: coin.serial, amount: '25.00', prepaidName: 'Birthday gift' },
      'v-1',
    );
    expectStatus(replay, 201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ ...named.body, code: null });
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('70.00');
    expectError(
      await buy(world.server, creator.token, { coinSerial: coin.serial, amount: '1.00' }, 'v-1'),
      422,
      'exception.idempotency.key_reused',
    );
  });

  it('refuses what a payer cannot pay: another’s coin (404), more than it holds (409), bad amounts, names and dates (400)', async () => {
    const creator = await world.user();
    const coin = await world.coin(creator, '10.00');
    const other = await world.coin(await world.user(), '10.00');
    const send = (body: Record<string, unknown>) => buy(world.server, creator.token, { coinSerial: coin.serial, amount: '1.00', ...body });
    expectError(await send({ coinSerial: other.serial }), 404, 'exception.coin.not_found');
    expectError(await send({ amount: '10.01' }), 409, 'exception.coin.insufficient_funds');
    expectError(await send({ amount: '0' }), 400, 'exception.validation', 'amount');
    expectError(await send({ amount: '1.001' }), 400, 'exception.validation', 'amount');
    expectError(await send({ prepaidName: '' }), 400, 'exception.validation', 'prepaidName');
    expectError(await send({ prepaidName: 'x'.repeat(101) }), 400, 'exception.validation', 'prepaidName');
    expectError(await send({ expiresAt: '2020-01-01T00:00:00Z' }), 400, 'exception.validation', 'expiresAt');
    expectError(await send({ expiresAt: 'tomorrow' }), 400, 'exception.validation', 'expiresAt');
    expectError(await send({ status: 'processed' }), 400, 'exception.validation', 'status');
    const settlement = (await systemCoinOf(world.server, world.issuer.id, 'bank_settlement'))!.serial;
    expectError(await send({ coinSerial: settlement }), 400, 'exception.validation', 'coinSerial');
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('10.00');
  });

  it('credits the bearer’s coin of the same currency once; a second redemption is a 409', async () => {
    const { creator, voucher, code } = await bought('25.00');
    const bearer = await world.user({ role: 'merchant' });
    const target = await world.coin(bearer);
    const reserveBefore = (await reserve()).balance;
    const response = await redeem(world.server, bearer.token, code.toUpperCase(), target.serial, 'r-1');
    expectStatus(response, 201);
    expect(response.body.voucher).toEqual({
      id: voucher.id,
      prepaidName: voucher.prepaidName,
      amount: '25.00',
      currency: world.currency.code,
      symbol: null,
      status: 'processed',
      redeemedAt: expect.any(String),
    });
    expect(response.body.process).toMatchObject({ type: 'voucher_redeem', amount: '25.00', commission: '0.00' });
    expectLegs(response.body.process, [[(await reserve()).serial, target.serial, '25.00']]);
    expect(await balanceOf(world.server, bearer.token, target.serial)).toBe('25.00');
    expect(new Dec(reserveBefore).minus((await reserve()).balance).toFixed(2)).toBe('25.00');
    // The replay of the same request is the same answer; another request is refused.
    const replay = await redeem(world.server, bearer.token, code.toUpperCase(), target.serial, 'r-1');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(await redeem(world.server, bearer.token, code, target.serial), 409, 'exception.voucher.redeemed');
    expect(await balanceOf(world.server, bearer.token, target.serial)).toBe('25.00');
    // The creator sees it processed.
    const view = await world.server.request('POST', '/api/v1/vouchers/view', {
      token: creator.token,
      body: { filter: { ids: [voucher.id] } },
    });
    expect(view.body.records[0]).toMatchObject({ status: 'processed', redeemedAt: expect.any(String) });
    await expectBalancedLedger(world.server, world.admin);
  });

  it('refuses an unknown code (404), a coin not the bearer’s (404), another currency (400), a malformed code (400)', async () => {
    const { code } = await bought('3.00');
    const bearer = await world.user();
    const own = await world.coin(bearer);
    const foreign = await world.coin(await world.user());
    const C = await aCurrency(world.server, world.admin);
    const otherCurrency = await aCoin(world.server, bearer.token, (await anIssuer(world.server, world.admin, C.code)).id);
    expectError(await redeem(world.server, bearer.token, 'f'.repeat(32), own.serial), 404, 'exception.voucher.not_found');
    expectError(await redeem(world.server, bearer.token, code, foreign.serial), 404, 'exception.coin.not_found');
    expectError(await redeem(world.server, bearer.token, code, otherCurrency.serial), 400, 'exception.validation', 'coinSerial');
    expectError(await redeem(world.server, bearer.token, 'not-a-code', own.serial), 400, 'exception.validation', 'code');
    expectError(await redeem(world.server, bearer.token, code, 'abc'), 400, 'exception.validation', 'coinSerial');
    const redeemed = await redeem(world.server, bearer.token, code, own.serial, 'r-2');
    expectStatus(redeemed, 201);
    expectError(await redeem(world.server, bearer.token, 'e'.repeat(32), own.serial, 'r-2'), 422, 'exception.idempotency.key_reused');
    // Staff hold no coin to redeem into.
    expectError(await redeem(world.server, world.admin, code, own.serial), 403);
  });

  it('credits once when ten bearers redeem one code in parallel: one wins, the others get 409', async () => {
    const { code, voucher } = await bought('40.00');
    const bearers: { actor: Actor; coin: CoinBody }[] = [];
    for (let i = 0; i < 10; i++) {
      const actor = await world.user();
      bearers.push({ actor, coin: await world.coin(actor) });
    }
    const answers = await Promise.all(bearers.map((b, i) => redeem(world.server, b.actor.token, code, b.coin.serial, `race-${i}`)));
    const won = answers.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 201)) expectError(r, 409, 'exception.voucher.redeemed');
    const balances = await Promise.all(bearers.map((b) => balanceOf(world.server, b.actor.token, b.coin.serial)));
    expect(balances.filter((b) => b === '40.00')).toHaveLength(1);
    expect(balances.filter((b) => b === '0.00')).toHaveLength(9);
    const { rows } = await world.server.db.query(
      `SELECT count(*)::int AS n FROM operations WHERE type = 'voucher_redeem' AND details->'voucher'->>'id' = $1`,
      [voucher.id],
    );
    expect(rows[0].n).toBe(1);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('lets a block and a redemption of one voucher race: exactly one of them acts, the money goes one way only', async () => {
    const bearer = await world.user();
    const target = await world.coin(bearer);
    let redeemedTotal = new Dec(0);
    for (let round = 0; round < 5; round++) {
      const { creator, coin, voucher, code } = await bought('10.00');
      const [blocked, redeemed] = await Promise.all([
        world.server.request('POST', `/api/v1/vouchers/${voucher.id}/block`, { token: creator.token }),
        redeem(world.server, bearer.token, code, target.serial),
      ]);
      expect([blocked.status, redeemed.status].filter((s) => s < 300)).toHaveLength(1);
      if (blocked.status === 200) {
        expectError(redeemed, 409, 'exception.voucher.blocked');
        expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('100.00');
      } else {
        expectError(blocked, 409, 'exception.voucher.redeemed');
        expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('90.00');
        redeemedTotal = redeemedTotal.plus(10);
      }
    }
    expect(await balanceOf(world.server, bearer.token, target.serial)).toBe(redeemedTotal.toFixed(2));
    await expectBalancedLedger(world.server, world.admin);
  });

  it('blocks a pending voucher: the money returns to the creator’s coin; blocked is final; another organization gets 404', async () => {
    const { creator, coin, voucher, code } = await bought('30.00');
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('70.00');
    const stranger = await world.user();
    const block = (token: string, id: string, key?: string) =>
      world.server.request('POST', `/api/v1/vouchers/${id}/block`, { token, headers: key ? { 'idempotency-key': key } : {} });
    expectError(await block(stranger.token, voucher.id), 404, 'exception.voucher.not_found');
    expectError(await block(creator.token, '00000000-0000-4000-8000-00000000beef'), 404, 'exception.voucher.not_found');
    expectError(await block(creator.token, 'nope'), 400, 'exception.validation', 'id');
    const blocked = await block(creator.token, voucher.id, 'b-1');
    expectStatus(blocked, 200);
    expect(blocked.body.voucher).toMatchObject({ id: voucher.id, status: 'blocked' });
    expect(blocked.body.process).toMatchObject({ type: 'voucher_refund', amount: '30.00' });
    expectLegs(blocked.body.process, [[(await reserve()).serial, coin.serial, '30.00']]);
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('100.00');
    expectError(await block(creator.token, voucher.id), 409, 'exception.voucher.blocked');
    const bearer = await world.user();
    expectError(await redeem(world.server, bearer.token, code, (await world.coin(bearer)).serial), 409, 'exception.voucher.blocked');
    // The same key for another voucher's path is another request: 422.
    const second = await bought('1.00');
    expectError(await block(creator.token, second.voucher.id, 'b-1'), 422, 'exception.idempotency.key_reused');
    // A redeemed voucher cannot be blocked.
    const bearerCoin = await world.coin(bearer);
    expectStatus(await redeem(world.server, bearer.token, second.code, bearerCoin.serial), 201);
    expectError(await block(second.creator.token, second.voucher.id), 409, 'exception.voucher.redeemed');
    // Vouchers are seen only by their creator's organization.
    const theirs = await world.server.request('POST', '/api/v1/vouchers/view', {
      token: stranger.token,
      body: { filter: { ids: [voucher.id] } },
    });
    expect(theirs.body).toMatchObject({ totalRecords: 0, records: [] });
    await expectBalancedLedger(world.server, world.admin);
  });

  it('a reversed purchase voids its pending voucher (its money went back once); a voucher redeemed, blocked or spent cannot have its operations reversed (409)', async () => {
    const reverse = (id: string) => world.server.request('POST', `/api/v1/transactions/${id}/reverse`, { token: world.admin, body: {} });
    const block = (token: string, id: string) => world.server.request('POST', `/api/v1/vouchers/${id}/block`, { token });
    // Reversed while pending: the money returns by the reversal, and the voucher is blocked with it, so neither a block
    // nor a redemption pays it again (it did twice: the reversal, then the block's refund).
    const { creator, coin, voucher, code, response } = await bought('40.00');
    const reserveBefore = (await reserve()).balance;
    const reversed = await reverse(response.body.process.id);
    expectStatus(reversed, 201);
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('100.00');
    const seen = await world.server.request('POST', '/api/v1/vouchers/view', {
      token: creator.token,
      body: { filter: { ids: [voucher.id] } },
    });
    expect(seen.body.records[0]).toMatchObject({ id: voucher.id, status: 'blocked' });
    expectError(await block(creator.token, voucher.id), 409, 'exception.voucher.blocked');
    const bearer = await world.user();
    const bearerCoin = await world.coin(bearer);
    expectError(await redeem(world.server, bearer.token, code, bearerCoin.serial), 409, 'exception.voucher.blocked');
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('100.00');
    expect(await balanceOf(world.server, bearer.token, bearerCoin.serial)).toBe('0.00');
    // The reserve gave back what the purchase paid it, once.
    expect(new Dec(reserveBefore).minus((await reserve()).balance).toFixed(2)).toBe('40.00');
    // Redeemed: neither the purchase (the reserve would pay it twice) nor the redemption (the voucher stays spent) is reversed.
    const spent = await bought('5.00');
    const redeemed = await redeem(world.server, bearer.token, spent.code, bearerCoin.serial);
    expectStatus(redeemed, 201);
    expectError(await reverse(spent.response.body.process.id), 409, 'exception.transaction.not_reversible');
    expectError(await reverse(redeemed.body.process.id), 409, 'exception.transaction.not_reversible');
    // Blocked: nor the purchase (its money came back already) or the refund.
    const returned = await bought('6.00');
    const blocked = await block(returned.creator.token, returned.voucher.id);
    expectStatus(blocked, 200);
    expectError(await reverse(returned.response.body.process.id), 409, 'exception.transaction.not_reversible');
    expectError(await reverse(blocked.body.process.id), 409, 'exception.transaction.not_reversible');
    expect(await balanceOf(world.server, returned.creator.token, returned.coin.serial)).toBe('100.00');
    expect(await balanceOf(world.server, bearer.token, bearerCoin.serial)).toBe('5.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('returns a blocked voucher’s money to the creator’s main coin when its own coin was closed; with no open coin, 409', async () => {
    const creator = await world.user();
    const main = await world.coin(creator, '50.00');
    const spare = await world.coin(creator, '20.00');
    const voucher = (await buy(world.server, creator.token, { coinSerial: spare.serial, amount: '10.00' })).body.voucher;
    const close = (serial: string, body: Record<string, unknown>) =>
      world.server.request('POST', `/api/v1/close/coin/${serial}`, { token: creator.token, body });
    expectStatus(await close(spare.serial, { transferToCoinSerial: main.serial }), 200);
    expect(await balanceOf(world.server, creator.token, main.serial)).toBe('60.00');
    const blocked = await world.server.request('POST', `/api/v1/vouchers/${voucher.id}/block`, { token: creator.token });
    expectStatus(blocked, 200);
    expectLegs(blocked.body.process, [[(await reserve()).serial, main.serial, '10.00']]);
    expect(await balanceOf(world.server, creator.token, main.serial)).toBe('70.00');

    // The only coin of the currency spent all it held on the voucher, then closed: nothing can receive the money back.
    const other = await world.user();
    const only = await world.coin(other, '5.00');
    const last = await buy(world.server, other.token, { coinSerial: only.serial, amount: '5.00' });
    expectStatus(await world.server.request('POST', `/api/v1/close/coin/${only.serial}`, { token: other.token, body: {} }), 200);
    expectError(
      await world.server.request('POST', `/api/v1/vouchers/${last.body.voucher.id}/block`, { token: other.token }),
      409,
      'exception.coin.closed',
    );
    // It stays pending: its bearer may still redeem it.
    const bearer = await world.user();
    const target = await world.coin(bearer);
    expectStatus(await redeem(world.server, bearer.token, last.body.code, target.serial), 201);
    expect(await balanceOf(world.server, bearer.token, target.serial)).toBe('5.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('lists the creator’s vouchers newest first, filtered by status and coin', async () => {
    const creator = await world.user();
    const coin = await world.coin(creator, '50.00');
    const ids: string[] = [];
    for (const amount of ['1.00', '2.00', '3.00'])
      ids.push((await buy(world.server, creator.token, { coinSerial: coin.serial, amount })).body.voucher.id);
    await world.server.request('POST', `/api/v1/vouchers/${ids[1]}/block`, { token: creator.token });
    const all = await world.server.request('POST', '/api/v1/vouchers/view', { token: creator.token, body: {} });
    expectStatus(all, 200);
    expect(all.body.records.map((v: any) => v.id)).toEqual([...ids].reverse());
    const pending = await world.server.request('POST', '/api/v1/vouchers/view', {
      token: creator.token,
      body: { filter: { statuses: ['pending'], coinSerials: [coin.serial] }, sort: { createdAt: 'asc' } },
    });
    expect(pending.body.records.map((v: any) => v.id)).toEqual([ids[0], ids[2]]);
    expectError(
      await world.server.request('POST', '/api/v1/vouchers/view', { token: creator.token, body: { filter: { statuses: ['gone'] } } }),
      400,
      'exception.validation',
    );
  });

  it('refuses a voucher past its expiry (409) and returns its money with POST /vouchers/expire-due (staff)', async () => {
    const { creator, coin, voucher, code } = await bought('20.00', { expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect(voucher.expiresAt).not.toBeNull();
    await sleep(1700);
    const bearer = await world.user();
    expectError(await redeem(world.server, bearer.token, code, (await world.coin(bearer)).serial), 409, 'exception.voucher.expired');
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('80.00');
    const expire = (body: Record<string, unknown>, key?: string) =>
      world.server.request('POST', '/api/v1/vouchers/expire-due', {
        token: world.admin,
        body,
        headers: key ? { 'idempotency-key': key } : {},
      });
    const swept = await expire({}, 'sweep-1');
    expectStatus(swept, 200);
    expect(swept.body.expired).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('100.00');
    const view = await world.server.request('POST', '/api/v1/vouchers/view', {
      token: creator.token,
      body: { filter: { ids: [voucher.id] } },
    });
    expect(view.body.records[0].status).toBe('expired');
    const { rows } = await world.server.db.query(
      `SELECT o.type, o.amount::text AS amount FROM vouchers v JOIN operations o ON o.id = v.closing_operation_id WHERE v.id = $1`,
      [voucher.id],
    );
    expect(rows[0]).toEqual({ type: 'voucher_refund', amount: '20.000000000000000000' });
    // Nothing is due any more; an expired voucher is final.
    expect((await expire({ limit: 10 })).body.expired).toBe(0);
    expectError(await redeem(world.server, bearer.token, code, (await world.coin(bearer)).serial), 409, 'exception.voucher.expired');
    expectError(
      await world.server.request('POST', `/api/v1/vouchers/${voucher.id}/block`, { token: creator.token }),
      409,
      'exception.voucher.expired',
    );
    expectError(await expire({ limit: 5 }, 'sweep-1'), 422, 'exception.idempotency.key_reused');
    expectError(await expire({ limit: 0 }), 400, 'exception.validation', 'limit');
    const staff = await world.user({ role: 'accountant' });
    const inFlight = await whileKeyInFlight(world.server, staff.id, 'sweep-2', () =>
      world.server.request('POST', '/api/v1/vouchers/expire-due', {
        token: staff.token,
        body: {},
        headers: { 'idempotency-key': 'sweep-2' },
      }),
    );
    expectError(inFlight, 409, 'exception.idempotency.in_flight');
    expectError(await world.server.request('POST', '/api/v1/vouchers/expire-due', { token: creator.token, body: {} }), 403);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('charges the voucher flow’s fee at purchase only: the sender pays on top, or the voucher is worth the amount less the fee', async () => {
    const { user: creator, coin } = await world.customer('100.00', { flow: 'voucher', fee: percent('2') });
    const response = await buy(world.server, creator.token, { coinSerial: coin.serial, amount: '50.00' });
    expectStatus(response, 201);
    const collector = (await systemCoinOf(world.server, world.issuer.id, 'commission'))!;
    expectLegs(response.body.process, [
      [coin.serial, (await reserve()).serial, '50.00'],
      [coin.serial, collector.serial, '1.00'],
    ]);
    expect(response.body.voucher.amount).toBe('50.00');
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('49.00');
    // Redeeming is free: the bearer receives the voucher's amount.
    const { user: bearer, coin: target } = await world.customer('0', { flow: 'voucher', fee: percent('2') });
    expectStatus(await redeem(world.server, bearer.token, response.body.code, target.serial), 201);
    expect(await balanceOf(world.server, bearer.token, target.serial)).toBe('50.00');

    const { user: other, coin: otherCoin } = await world.customer('100.00', { flow: 'voucher', fee: percent('2'), payer: 'recipient' });
    const net = await buy(world.server, other.token, { coinSerial: otherCoin.serial, amount: '50.00' });
    expect(net.body.voucher.amount).toBe('49.00');
    expect(net.body.process).toMatchObject({ amount: '50.00', commission: '1.00' });
    expect(await balanceOf(world.server, other.token, otherCoin.serial)).toBe('50.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('answers 409 in_flight while the same Idempotency-Key runs, on every voucher route that moves money', async () => {
    const { creator, coin, voucher, code } = await bought('2.00');
    const bearer = await world.user();
    const target = await world.coin(bearer);
    const inFlight = (actor: Actor, method: string, path: string, body?: unknown) =>
      whileKeyInFlight(world.server, actor.id, 'busy', () =>
        world.server.request(method, path, { token: actor.token, body, headers: { 'idempotency-key': 'busy' } }),
      );
    expectError(
      await inFlight(creator, 'POST', '/api/v1/vouchers', { coinSerial: coin.serial, amount: '1.00' }),
      409,
      'exception.idempotency.in_flight',
    );
    expectError(
      await inFlight(bearer, 'POST', '/api/v1/vouchers/redeem', { code, coinSerial: target.serial }),
      409,
      'exception.idempotency.in_flight',
    );
    expectError(await inFlight(creator, 'POST', `/api/v1/vouchers/${voucher.id}/block`), 409, 'exception.idempotency.in_flight');
  });

  it('issue 43: a voucher that expires or is blocked returns its money, and gives back what its purchase counted against the voucher limits', async () => {
    const { user: creator, coin } = await world.customer('200.00', { flow: 'voucher', limits: [['amount', 'per_life', '50.00']] });
    const purchase = async (amount: string) => {
      const bought = await buy(world.server, creator.token, {
        coinSerial: coin.serial,
        amount,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expectStatus(bought, 201);
      return bought.body.voucher;
    };
    const expiring = await purchase('30.00');
    expectError(await buy(world.server, creator.token, { coinSerial: coin.serial, amount: '20.01' }), 409, 'exception.limit.exceeded');
    // Its expiry is due (the sweep looks at expires_at); the staff route returns its money.
    await world.server.db.query(`UPDATE vouchers SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.id]);
    const swept = await world.server.request('POST', '/api/v1/vouchers/expire-due', { token: world.admin, body: {} });
    expectStatus(swept, 200);
    expect(swept.body.expired).toBeGreaterThanOrEqual(1);
    const blocked = await purchase('50.00');
    expectStatus(await world.server.request('POST', `/api/v1/vouchers/${blocked.id}/block`, { token: creator.token }), 200);
    const kept = await purchase('50.00');
    expectError(await buy(world.server, creator.token, { coinSerial: coin.serial, amount: '0.01' }), 409, 'exception.limit.exceeded');
    expect((await usageOf(world.server.db, creator.organizationId)).map(({ amount, count }) => [amount, count])).toEqual([['50', 1]]);
    expect(kept.status).toBe('pending');
    expect(await balanceOf(world.server, creator.token, coin.serial)).toBe('150.00');
    await expectBalancedLedger(world.server, world.admin);
  });
});

describe('the voucher expiry sweep of each instance (VOUCHER_EXPIRY_SWEEP_SECONDS)', () => {
  const world = moneyWorld({ env: { VOUCHER_EXPIRY_SWEEP_SECONDS: '1' } });

  it('returns the money of an expired voucher to its creator without being asked', async () => {
    const { server } = world;
    const creator = await world.user();
    const coin = await world.coin(creator, '10.00');
    const response = await buy(server, creator.token, {
      coinSerial: coin.serial,
      amount: '4.00',
      expiresAt: new Date(Date.now() + 1000).toISOString(),
    });
    expectStatus(response, 201);
    expect(await balanceOf(server, creator.token, coin.serial)).toBe('6.00');
    let status = 'pending';
    for (let i = 0; i < 50 && status === 'pending'; i++) {
      await sleep(200);
      const view = await server.request('POST', '/api/v1/vouchers/view', {
        token: creator.token,
        body: { filter: { ids: [response.body.voucher.id] } },
      });
      status = view.body.records[0].status;
    }
    expect(status).toBe('expired');
    expect(await balanceOf(server, creator.token, coin.serial)).toBe('10.00');
    await expectBalancedLedger(server, world.admin);
  });
});
