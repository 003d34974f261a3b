import { expectStatus, transfer } from './helpers/money';
import { moneyWorld } from './helpers/world';

/**
 * The outbox writes an event only when an enabled webhook of one of its organizations listens to it: a money
 * movement between organizations without webhooks costs no outbox statement. Registering, disabling or
 * re-enabling a webhook changes that from the next request on.
 */
describe('the outbox writes only what some webhook listens to', () => {
  const world = moneyWorld({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const events = async (): Promise<{ type: string; organization_ids: string[] }[]> =>
    (await world.raw.db.query(`SELECT type, organization_ids FROM outbox ORDER BY created_at`)).rows;

  it('skips events nobody listens to, and writes them as soon as a webhook is registered, until it is disabled', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '50.00');
    const before = (await events()).length;

    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '1.00'), 201);
    expect((await events()).length).toBe(before);

    const hook = await world.server.request('POST', '/api/v1/webhooks', {
      token: bob.token,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['operation.processed'], description: 'Bob' },
    });
    expectStatus(hook, 201);
    const moved = await transfer(world.server, alice.token, from.serial, to.serial, '2.00');
    expectStatus(moved, 201);
    const written = (await events()).slice(before);
    expect(written).toEqual([
      { type: 'operation.processed', organization_ids: expect.arrayContaining([alice.organizationId, bob.organizationId]) },
    ]);

    // Another event type of the same organizations is still not listened to.
    const reversed = await world.server.request('POST', `/api/v1/transactions/${moved.body.process.id}/reverse`, {
      token: world.admin,
      body: {},
    });
    expectStatus(reversed, 201);
    expect((await events()).slice(before).map((e) => e.type)).toEqual(['operation.processed']);

    const disabled = await world.server.request('PATCH', `/api/v1/webhooks/${hook.body.webhook.id}`, {
      token: bob.token,
      body: { enabled: false },
    });
    expectStatus(disabled, 200);
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '3.00'), 201);
    expect((await events()).slice(before)).toHaveLength(1);
  });
});
