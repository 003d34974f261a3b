import { expectError, expectStatus, transfer } from './helpers/money';
import { moneyWorld } from './helpers/world';

describe('the dashboard endpoint (issue 17)', () => {
  const world = moneyWorld();

  it('answers volumes per day and currency, open holds, failed logins and webhook failures for every day of the range', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '40.00');
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '2.25'), 201);
    await world.server.request('POST', '/api/v1/bank-withdrawals/create-request', {
      token: alice.token,
      body: { coinSerial: from.serial, amount: '1.00', bankDetails: { iban: 'DE89370400440532013000', accountHolder: 'Alice' } },
    });
    await world.server.request('POST', '/api/v1/authorization', { body: { login: bob.login, password: 'wrong-password-1' } });

    const answer = await world.server.request('GET', '/api/v1/dashboard?days=7', { token: world.admin });
    expectStatus(answer, 200);
    const today = new Date().toISOString().slice(0, 10);
    expect(answer.body.to).toBe(today);
    expect(answer.body.failedLogins).toHaveLength(7);
    expect(answer.body.webhookFailures).toEqual(expect.arrayContaining([{ date: today, count: 0 }]));
    expect(answer.body.failedLogins.at(-1)).toEqual({ date: today, count: 1 });
    expect(answer.body.volumes).toEqual([{ date: today, currency: world.currency.code, operations: 2, amount: '42.25' }]);
    expect(answer.body.openHolds).toEqual([{ currency: world.currency.code, holds: 1, amount: '1.00' }]);
    expect(answer.text).toContain('"amount":42.25');
  });

  it('is for administrators; bad ranges are 400s', async () => {
    const alice = await world.user();
    expectError(await world.server.request('GET', '/api/v1/dashboard', { token: alice.token }), 403, 'exception.access.permission_missing');
    expectError(await world.server.request('GET', '/api/v1/dashboard'), 401);
    expectError(await world.server.request('GET', '/api/v1/dashboard?days=0', { token: world.admin }), 400, 'exception.validation', 'days');
    expectError(
      await world.server.request('GET', '/api/v1/dashboard?days=abc', { token: world.admin }),
      400,
      'exception.validation',
      'days',
    );
    expectStatus(await world.server.request('GET', '/api/v1/dashboard', { token: world.admin }), 200);
  });
});
