import { moneyWorld } from '../helpers/world';
import { expectError } from '../helpers/money';

/**
 * The family web client's wallet screen (its `wallets` module): the calls it makes with the bodies its call sites send,
 * and the answer fields the screen reads (see /work/shared/family-client/calls.tsv).
 */
describe('family client: wallets', () => {
  const world = moneyWorld();

  it('POST /coins/validate — the transfer form checks the payee coin it was given: { serial }; reads owner.name', async () => {
    const [payer, payee] = [await world.user(), await world.user({ role: 'merchant', name: 'Corner Shop' })];
    await world.coin(payer, '10.00');
    const payeeCoin = await world.coin(payee);
    const answer = await world.server.request('POST', '/api/v1/coins/validate', { token: payer.token, body: { serial: payeeCoin.serial } });
    expect(answer.status).toBe(200);
    // The form shows owner.name as the recipient; nothing beyond it is answered (issue 43).
    expect(answer.body).toEqual({ status: 'ok', message: 'OK', serial: payeeCoin.serial, owner: { name: 'Corner Shop' } });
  });

  it('POST /coins/validate — an unknown serial, a closed coin and a technical coin are the same 404, and a malformed one a 400', async () => {
    const [payer, other] = [await world.user(), await world.user()];
    const closed = await world.coin(other);
    expect((await world.server.request('DELETE', `/api/v1/coins/${closed.serial}`, { token: other.token })).status).toBe(200);
    const technical = await world.server.request('POST', '/api/v1/coins/view', {
      token: world.admin,
      body: { filter: { types: ['system'] } },
    });
    expect(technical.body.records.length).toBeGreaterThan(0);
    for (const serial of ['9999999999', closed.serial, technical.body.records[0].serial]) {
      expectError(
        await world.server.request('POST', '/api/v1/coins/validate', { token: payer.token, body: { serial } }),
        404,
        'exception.coin.not_found',
      );
    }
    expectError(
      await world.server.request('POST', '/api/v1/coins/validate', { token: payer.token, body: { serial: 'abc' } }),
      400,
      undefined,
      'serial',
    );
  });

  it('POST /coins/serial — paying a contact: { login, currencyCode } answers the main coin serial the form sends to', async () => {
    const [payer, payee] = [await world.user(), await world.user()];
    const main = await world.coin(payee);
    await world.coin(payee); // a second coin of the currency: not the main one
    const answer = await world.server.request('POST', '/api/v1/coins/serial', {
      token: payer.token,
      body: { login: payee.login, currencyCode: world.currency.code },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.serial).toBe(main.serial);
  });

  it('POST /coins/serial — an unknown login, a staff login and a currency without a coin are the same 404', async () => {
    const payer = await world.user();
    const cashier = await world.user({ role: 'cashier' });
    const bodies = [
      { login: 'nobody@example.com', currencyCode: world.currency.code },
      { login: cashier.login, currencyCode: world.currency.code },
      { login: payer.login, currencyCode: 'ZZZ' },
    ];
    const answers = [];
    for (const body of bodies) {
      const answer = await world.server.request('POST', '/api/v1/coins/serial', { token: payer.token, body });
      expectError(answer, 404, 'exception.coin.not_found');
      answers.push(answer.body.message);
    }
    expect(new Set(answers.slice(0, 2)).size).toBe(1);
    expectError(
      await world.server.request('POST', '/api/v1/coins/serial', { token: payer.token, body: { login: payer.login } }),
      400,
      undefined,
      'currencyCode',
    );
  });

  it('DELETE /coins/{serial} — the wallet list deletes an empty coin; one with money is a 409 and stays open', async () => {
    const owner = await world.user();
    const empty = await world.coin(owner);
    const full = await world.coin(owner, '5.00');
    const deleted = await world.server.request('DELETE', `/api/v1/coins/${empty.serial}`, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.coin.closedAt).toEqual(expect.any(String));
    expectError(
      await world.server.request('DELETE', `/api/v1/coins/${full.serial}`, { token: owner.token }),
      409,
      'exception.coin.not_empty',
    );
    const still = await world.server.request('GET', `/api/v1/coins/${full.serial}`, { token: owner.token });
    expect(still.body.coin).toMatchObject({ closedAt: null, amount: '5.00' });
    // Another organization's coin is a 404, as for every coin route.
    const stranger = await world.user();
    expectError(
      await world.server.request('DELETE', `/api/v1/coins/${full.serial}`, { token: stranger.token }),
      404,
      'exception.coin.not_found',
    );
  });

  it('DELETE /coins/{serial} — retried with its Idempotency-Key takes effect once; the key on another coin is a 422', async () => {
    const owner = await world.user();
    const [first, second] = [await world.coin(owner), await world.coin(owner)];
    const headers = { 'Idempotency-Key': `delete-${first.serial}` };
    const once = await world.server.request('DELETE', `/api/v1/coins/${first.serial}`, { token: owner.token, headers });
    const again = await world.server.request('DELETE', `/api/v1/coins/${first.serial}`, { token: owner.token, headers });
    expect([once.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(once.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(await world.server.request('DELETE', `/api/v1/coins/${second.serial}`, { token: owner.token, headers }), 422);
    const open = await world.server.request('GET', `/api/v1/coins/${second.serial}`, { token: owner.token });
    expect(open.body.coin.closedAt).toBeNull();
  });
});
