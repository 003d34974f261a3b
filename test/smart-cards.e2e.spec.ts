import { Actor } from './helpers/actors';
import { aFee, percent } from './helpers/commissions';
import { systemCoinOf } from './helpers/exchange';
import { balanceOf, CoinBody, expectBalancedLedger, expectError, expectLegs, expectStatus } from './helpers/money';
import type { ApiResponse } from './helpers/server';
import { moneyWorld } from './helpers/world';

const UNKNOWN = '00000000-0000-4000-8000-00000000beef';

describe('smart cards (issue 13)', () => {
  const world = moneyWorld();

  const issue = (actor: Actor, body: Record<string, unknown>): Promise<ApiResponse> =>
    world.server.request('POST', '/api/v1/smart-cards', { token: actor.token, body });
  const aCard = async (actor: Actor, coin: CoinBody, name = 'Daily card'): Promise<any> => {
    const response = await issue(actor, { coinSerial: coin.serial, name });
    expectStatus(response, 201);
    return response.body.card;
  };
  const pay = (actor: Actor, srcValue: string, destValue: string, amount: string, key?: string) =>
    world.server.request('POST', '/api/v1/transfers', {
      token: actor.token,
      body: { paymentTool: { type: 'SMART_CARD', srcValue, destValue }, amount },
      headers: key ? { 'idempotency-key': key } : {},
    });
  const setStatus = (actor: Actor, id: string, action: 'block' | 'unblock') =>
    world.server.request('POST', `/api/v1/smart-cards/${id}/${action}`, { token: actor.token });

  it('issues a card for one of the caller’s coins, answering only its masked number; lists and reads it', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice, '10.00');
    const card = await aCard(alice, coin);
    expect(card).toEqual({
      id: expect.any(String),
      name: 'Daily card',
      maskedNumber: expect.stringMatching(/^\*{4} \*{4} \*{4} \d{4}$/),
      coinSerial: coin.serial,
      currency: world.currency.code,
      symbol: null,
      status: 'active',
      provider: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      cardNumber: card.maskedNumber,
      active: true,
      expirationDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      expirationStatus: 'ACTIVE',
      organizationId: alice.organizationId,
      associatedCoinSerial: coin.serial,
      currencyCode: world.currency.code,
      paymentSystem: 'internal',
    });
    // Only the last four digits are kept.
    const { rows } = await world.server.db.query('SELECT * FROM smart_cards WHERE id = $1', [card.id]);
    expect(rows[0].last4).toBe(card.maskedNumber.slice(-4));
    expect(Object.values(rows[0]).some((v) => typeof v === 'string' && /^\d{16}$/.test(v))).toBe(false);
    const second = await aCard(alice, coin, 'Spare');
    const list = await world.server.request('GET', '/api/v1/smart-cards/my', { token: alice.token });
    expectStatus(list, 200);
    expect(list.body.records.map((c: any) => c.id)).toEqual([second.id, card.id]);
    const read = await world.server.request('GET', `/api/v1/smart-cards/my/${card.id}`, { token: alice.token });
    expectStatus(read, 200);
    expect(read.body.card).toEqual(card);
    // Another organization lists none of them.
    const bob = await world.user();
    expect((await world.server.request('GET', '/api/v1/smart-cards/my', { token: bob.token })).body.records).toEqual([]);
  });

  it('specification section 7: GET /smart-cards/my/{id} with an invalid id answers 404 — malformed, unknown or another organization’s', async () => {
    const alice = await world.user();
    const card = await aCard(alice, await world.coin(alice));
    const bob = await world.user();
    for (const id of ['abc', '123', 'not-a-uuid', UNKNOWN, card.id.toUpperCase().replace(/-/g, '')]) {
      expectError(
        await world.server.request('GET', `/api/v1/smart-cards/my/${id}`, { token: alice.token }),
        404,
        'exception.smart_card.not_found',
      );
    }
    expectError(
      await world.server.request('GET', `/api/v1/smart-cards/my/${card.id}`, { token: bob.token }),
      404,
      'exception.smart_card.not_found',
    );
    expectError(await setStatus(bob, card.id, 'block'), 404, 'exception.smart_card.not_found');
    expectError(await setStatus(bob, card.id, 'unblock'), 404, 'exception.smart_card.not_found');
    expectError(await setStatus(alice, 'nope', 'block'), 400, 'exception.validation', 'id');
    // Staff hold no cards.
    expectError(await world.server.request('GET', '/api/v1/smart-cards/my', { token: world.admin }), 403);
  });

  it('refuses to issue for a coin not the caller’s (404), a technical coin (400), a closed coin (409), a blank name (400)', async () => {
    const alice = await world.user();
    const coin = await world.coin(alice);
    const foreign = await world.coin(await world.user());
    expectError(await issue(alice, { coinSerial: foreign.serial, name: 'x' }), 404, 'exception.coin.not_found');
    expectError(await issue(alice, { coinSerial: '999999999999', name: 'x' }), 404, 'exception.coin.not_found');
    const settlement = (await systemCoinOf(world.server, world.issuer.id, 'bank_settlement'))!.serial;
    expectError(await issue(alice, { coinSerial: settlement, name: 'x' }), 400, 'exception.validation', 'coinSerial');
    expectError(await issue(alice, { coinSerial: coin.serial, name: '  ' }), 400, 'exception.validation', 'name');
    expectError(
      await issue(alice, { coinSerial: coin.serial, name: 'x', number: '4242424242424242' }),
      400,
      'exception.validation',
      'number',
    );
    const spare = await world.coin(alice);
    expectStatus(await world.server.request('POST', `/api/v1/close/coin/${spare.serial}`, { token: alice.token, body: {} }), 200);
    expectError(await issue(alice, { coinSerial: spare.serial, name: 'x' }), 409, 'exception.coin.closed');
  });

  it('pays a transfer with a card: its coin pays, the operation is a card_payment; a card may also receive', async () => {
    const alice = await world.user();
    const bob = await world.user({ role: 'merchant' });
    const [a, b] = await world.pair(alice, bob, '100.00');
    const card = await aCard(alice, a);
    const tool = { type: 'SMART_CARD', srcValue: card.id, destValue: b.serial };
    const calculated = await world.server.request('POST', '/api/v1/transfers/calculate', {
      token: alice.token,
      body: { paymentTool: tool, amount: '12.50' },
    });
    expectStatus(calculated, 200);
    expect(calculated.body).toMatchObject({
      transactionAmount: '12.50',
      senderAmountPush: '12.50',
      paymentToolDetails: { type: 'SMART_CARD', srcValue: card.id, destValue: b.serial },
    });
    const paid = await pay(alice, card.id, b.serial, '12.50', 'card-1');
    expectStatus(paid, 201);
    expect(paid.body.process).toMatchObject({ type: 'card_payment', status: 'processed', amount: '12.50' });
    expectLegs(paid.body.process, [[a.serial, b.serial, '12.50']]);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('87.50');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('12.50');
    // Bob's card as the payee: its coin receives.
    const bobCard = await aCard(bob, b);
    const toCard = await pay(alice, card.id, bobCard.id, '2.50');
    expectStatus(toCard, 201);
    expectLegs(toCard.body.process, [[a.serial, b.serial, '2.50']]);
    const filtered = await world.server.request('POST', '/api/v1/transactions/view', {
      token: alice.token,
      body: { filter: { types: ['card_payment'] } },
    });
    expect(filtered.body.records.map((r: any) => r.id).sort()).toEqual([paid.body.process.id, toCard.body.process.id].sort());
    expectError(await pay(alice, card.id, b.serial, '1.00', 'card-1'), 422, 'exception.idempotency.key_reused');
    // A coin-paid transfer between the same coins stays a client_transaction_transfer.
    const byCoin = await world.server.request('POST', '/api/v1/transfers', {
      token: alice.token,
      body: { paymentTool: { type: 'COIN', srcValue: a.serial, destValue: b.serial }, amount: '1.00' },
    });
    expect(byCoin.body.process.type).toBe('client_transaction_transfer');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('replays a keyed card payment with its stored answer after the card is blocked; a new key is refused', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [a, b] = await world.pair(alice, bob, '20.00');
    const card = await aCard(alice, a);
    const key = `card-replay-${card.id}`;
    const first = await pay(alice, card.id, b.serial, '2.00', key);
    expectStatus(first, 201);
    expectStatus(await setStatus(alice, card.id, 'block'), 200);
    // The retry's own reads now meet a blocked card: the key answered already, so it answers what it answered.
    const again = await pay(alice, card.id, b.serial, '2.00', key);
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expectError(await pay(alice, card.id, b.serial, '3.00', key), 422, 'exception.idempotency.key_reused');
    expectError(await pay(alice, card.id, b.serial, '2.00', `${key}-new`), 409, 'exception.smart_card.blocked');
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('18.00');
  });

  it('refuses a blocked card (409) on either side until it is unblocked', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [a, b] = await world.pair(alice, bob, '20.00');
    const card = await aCard(alice, a);
    const blocked = await setStatus(alice, card.id, 'block');
    expectStatus(blocked, 200);
    expect(blocked.body.card.status).toBe('blocked');
    expectStatus(await setStatus(alice, card.id, 'block'), 200);
    expectError(await pay(alice, card.id, b.serial, '1.00'), 409, 'exception.smart_card.blocked');
    const calc = await world.server.request('POST', '/api/v1/transfers/calculate', {
      token: alice.token,
      body: { paymentTool: { type: 'SMART_CARD', srcValue: card.id, destValue: b.serial }, amount: '1.00' },
    });
    expectError(calc, 409, 'exception.smart_card.blocked');
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('20.00');
    const unblocked = await setStatus(alice, card.id, 'unblock');
    expect(unblocked.body.card.status).toBe('active');
    expectStatus(await pay(alice, card.id, b.serial, '1.00'), 201);
    // A blocked card does not receive either.
    const bobCard = await aCard(bob, b);
    expectStatus(await setStatus(bob, bobCard.id, 'block'), 200);
    expectError(await pay(alice, card.id, bobCard.id, '1.00'), 409, 'exception.smart_card.blocked');
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('19.00');
  });

  it('answers 404 for another organization’s card as the payer (BOLA), or an unknown one; 400 for a malformed value', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [a, b] = await world.pair(alice, bob, '20.00');
    const bobCard = await aCard(bob, b);
    expectError(await pay(alice, bobCard.id, a.serial, '1.00'), 404, 'exception.payment_tool.not_found');
    expectError(await pay(alice, UNKNOWN, b.serial, '1.00'), 404, 'exception.payment_tool.not_found');
    expectError(await pay(alice, UNKNOWN.replace('beef', 'cafe'), UNKNOWN, '1.00'), 404, 'exception.payment_tool.not_found');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('0.00');
    const card = await aCard(alice, a);
    expectError(await pay(alice, a.serial, b.serial, '1.00'), 400, 'exception.validation', 'paymentTool.srcValue');
    expectError(await pay(alice, card.id, 'somewhere', '1.00'), 400, 'exception.validation', 'paymentTool.destValue');
    expectError(await pay(alice, card.id, a.serial, '1.00'), 400, 'exception.validation', 'paymentTool.destValue');
    expectError(await pay(alice, card.id, b.serial, '20.01'), 409, 'exception.coin.insufficient_funds');
    expectError(await pay(alice, card.id, '999999999999', '1.00'), 404, 'exception.coin.not_found');
  });

  it('prices a card payment as a transfer (flow client_transaction_transfer)', async () => {
    const alice = await world.user();
    await aFee(world.server, world.admin, { organizationId: alice.organizationId, issuerId: world.issuer.id, conditions: percent('1') });
    const [a, b] = await world.pair(alice, await world.user(), '200.00');
    const card = await aCard(alice, a);
    const paid = await pay(alice, card.id, b.serial, '100.00');
    expectStatus(paid, 201);
    expect(paid.body.process).toMatchObject({ type: 'card_payment', commission: '1.00' });
    expectLegs(paid.body.process, [
      [a.serial, b.serial, '100.00'],
      [a.serial, (await systemCoinOf(world.server, world.issuer.id, 'commission'))!.serial, '1.00'],
    ]);
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('99.00');
  });
});
