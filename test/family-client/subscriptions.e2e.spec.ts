import type { Actor } from '../helpers/actors';
import { balanceOf, CoinBody, expectError, fund } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's subscriptions (its `wallets` module): a transfer template paid on a schedule. The calls it
 * makes with the bodies its create form sends (every field, the hidden ones empty), and the fields its subscription card
 * reads: name, type, subscriptionStatus, templateDto.amount, expirationConfig.expirationDate. The scheduler is driven with
 * `POST /scheduler/run { today }` (SCHEDULER_TEST_CLOCK) and never polls on its own here.
 */
describe('family client: subscriptions', () => {
  const world = moneyWorld({ env: { SCHEDULER_TEST_CLOCK: 'true', SCHEDULER_POLL_SECONDS: '0' } });

  /** A payer with `funds`, a payee, and a template paying 10.00 from the one to the other. */
  const aTemplate = async (funds = '100.00') => {
    const [payer, payee] = [await world.user(), await world.user({ name: 'Landlord' })];
    const [from, to] = await world.pair(payer, payee, funds);
    const created = await world.server.request('POST', '/api/v1/templates/transfer', {
      token: payer.token,
      body: {
        name: `Rent ${from.serial}`,
        paymentTool: { type: 'COIN', srcValue: from.serial, destValue: to.serial },
        amount: 10,
        description: '',
      },
    });
    expect(created.status).toBe(201);
    return { payer, payee, from, to, template: created.body.template };
  };

  /** The create form's body: every field, those of other expiration types as the form leaves them ('' and null). */
  const formBody = (templateId: string, fields: Record<string, unknown> = {}) => ({
    name: 'Monthly rent',
    templateId,
    expirationType: 'COUNT',
    endDate: '',
    amount: null,
    count: '3',
    // The date picker's value: a date-time at midnight.
    recurringStartDate: '2030-01-31T00:00:00.000Z',
    type: 'MONTHLY',
    frequency: '1',
    ...fields,
  });

  const create = (payer: Actor, body: unknown) => world.server.request('POST', '/api/v1/subscriptions', { token: payer.token, body });
  const list = async (payer: Actor) => {
    const answer = await world.server.request('GET', '/api/v1/subscriptions', { token: payer.token });
    expect(answer.status).toBe(200);
    return answer.body.subscriptions as any[];
  };
  const runUpTo = async (today: string) => {
    const answer = await world.server.request('POST', '/api/v1/scheduler/run', { token: world.admin, body: { today } });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const balances = (payer: Actor, from: CoinBody, payee: Actor, to: CoinBody) =>
    Promise.all([balanceOf(world.server, payer.token, from.serial), balanceOf(world.server, payee.token, to.serial)]).then((b) =>
      b.map(String),
    );

  it("POST /subscriptions — the create form's body; answers the subscription as the card reads it", async () => {
    const { payer, template } = await aTemplate();
    const created = await create(payer, formBody(template.id));
    expect(created.status).toBe(201);
    expect(created.body.subscription).toMatchObject({
      name: 'Monthly rent',
      type: 'MONTHLY',
      frequency: 1,
      recurringStartDate: '2030-01-31',
      subscriptionStatus: 'ACTIVE',
      nextDueDate: '2030-01-31',
      expirationConfig: { type: 'COUNT', count: 3, amount: null, expirationDate: null },
      templateDto: { id: template.id, type: 'TRANSFER', amount: '10.00', name: template.name },
      runs: 0,
      lastRun: null,
    });
    // With an end date (the DATE form) and with a total amount (the AMOUNT form), numbers as numbers.
    const dated = await create(
      payer,
      formBody(template.id, { expirationType: 'DATE', endDate: '2030-06-30T00:00:00.000Z', count: null, type: 'WEEKLY', frequency: 2 }),
    );
    expect(dated.status).toBe(201);
    expect(dated.body.subscription.expirationConfig).toMatchObject({ type: 'DATE', expirationDate: '2030-06-30', count: null });
    const capped = await create(payer, formBody(template.id, { expirationType: 'AMOUNT', amount: 25, count: null }));
    expect(capped.status).toBe(201);
    expect(capped.body.subscription.expirationConfig).toMatchObject({ type: 'AMOUNT', amount: '25.00' });
  });

  it('POST /subscriptions — what the form may leave wrong is a 400, and another user’s template a 404; nothing is created', async () => {
    const { payer, template } = await aTemplate();
    const wrong: Array<[Record<string, unknown>, string]> = [
      [{ type: null }, 'type'],
      [{ type: 'HOURLY' }, 'type'],
      [{ expirationType: null }, 'expirationType'],
      [{ frequency: null }, 'frequency'],
      [{ frequency: '0' }, 'frequency'],
      [{ frequency: 'often' }, 'frequency'],
      [{ count: null }, 'count'],
      [{ expirationType: 'DATE', endDate: '' }, 'endDate'],
      [{ expirationType: 'DATE', endDate: '2030-01-30' }, 'endDate'],
      [{ expirationType: 'AMOUNT', amount: null }, 'amount'],
      [{ expirationType: 'AMOUNT', amount: '1.001' }, 'amount'],
      [{ recurringStartDate: '' }, 'recurringStartDate'],
      [{ recurringStartDate: '2020-01-01' }, 'recurringStartDate'],
      [{ name: ' ' }, 'name'],
    ];
    for (const [fields, parameter] of wrong) {
      expectError(await create(payer, formBody(template.id, fields)), 400, undefined, parameter);
    }
    const stranger = await world.user();
    expectError(await create(stranger, formBody(template.id)), 404, 'exception.transfer_template.not_found');
    expect(await list(payer)).toEqual([]);
    expect(await list(stranger)).toEqual([]);
  });

  it("GET /subscriptions — the wallet screen's list reads subscriptions[] (name, type, subscriptionStatus, templateDto.amount, expirationConfig)", async () => {
    const { payer, template } = await aTemplate();
    const first = (await create(payer, formBody(template.id))).body.subscription;
    const second = (await create(payer, formBody(template.id, { name: 'Gym', expirationType: 'INFINITY', count: null, type: 'ANNUALLY' })))
      .body.subscription;
    const subscriptions = await list(payer);
    expect(subscriptions.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(subscriptions[1]).toMatchObject({
      name: 'Gym',
      type: 'ANNUALLY',
      subscriptionStatus: 'ACTIVE',
      templateDto: { amount: '10.00' },
      expirationConfig: { type: 'INFINITY', expirationDate: null },
    });
    // Nobody else sees them, not even a member of another organization with the same template name.
    expect(await list(await world.user())).toEqual([]);
  });

  it('the scheduler pays each due date once, records a refused payment and goes on, and ends after the count', async () => {
    const { payer, payee, from, to, template } = await aTemplate('15.00');
    await create(payer, formBody(template.id));
    // Not due before its start date.
    await runUpTo('2030-01-30');
    expect(await balances(payer, from, payee, to)).toEqual(['15.00', '0.00']);
    // 31 January: paid; running the same date again pays nothing more.
    expect((await runUpTo('2030-01-31')).runs.processed).toBeGreaterThanOrEqual(1);
    await runUpTo('2030-01-31');
    expect(await balances(payer, from, payee, to)).toEqual(['5.00', '10.00']);
    let [mine] = await list(payer);
    expect(mine).toMatchObject({
      runs: 1,
      paid: '10.00',
      nextDueDate: '2030-02-28',
      lastRun: { dueDate: '2030-01-31', status: 'processed' },
    });
    const paid = await world.server.request('GET', `/api/v1/transactions/${mine.lastRun.operationId}`, { token: payer.token });
    expect(paid.status).toBe(200);
    // 28 February (the month's last day): 5.00 left, refused; recorded, and the subscription goes on.
    await runUpTo('2030-03-01');
    [mine] = await list(payer);
    expect(mine).toMatchObject({
      subscriptionStatus: 'ACTIVE',
      runs: 2,
      paid: '10.00',
      nextDueDate: '2030-03-31',
      lastRun: { dueDate: '2030-02-28', status: 'failed', operationId: null, errorCode: 'exception.coin.insufficient_funds' },
    });
    // 31 March, with money again: the third and last due date.
    await fund(world.server, world.admin, from.serial, '5.00');
    await runUpTo('2030-12-31');
    expect(await balances(payer, from, payee, to)).toEqual(['0.00', '20.00']);
    [mine] = await list(payer);
    expect(mine).toMatchObject({
      subscriptionStatus: 'PROCESSED',
      runs: 3,
      paid: '20.00',
      nextDueDate: null,
      lastRun: { dueDate: '2030-03-31' },
    });
  });

  it('the scheduler stops before a payment would take the total beyond the amount, and after the end date', async () => {
    const { payer, payee, from, to, template } = await aTemplate('100.00');
    await create(
      payer,
      formBody(template.id, { expirationType: 'AMOUNT', amount: '25.00', count: null, type: 'DAILY', recurringStartDate: '2031-01-01' }),
    );
    await create(
      payer,
      formBody(template.id, {
        expirationType: 'DATE',
        endDate: '2031-01-15',
        count: null,
        type: 'WEEKLY',
        recurringStartDate: '2031-01-01',
      }),
    );
    await runUpTo('2031-02-28');
    // AMOUNT: 1 and 2 January (20.00; a third would make 30.00). DATE: 1, 8 and 15 January.
    expect(await balances(payer, from, payee, to)).toEqual(['50.00', '50.00']);
    const [capped, dated] = await list(payer);
    expect(capped).toMatchObject({ subscriptionStatus: 'PROCESSED', runs: 2, paid: '20.00' });
    expect(dated).toMatchObject({ subscriptionStatus: 'PROCESSED', runs: 3, paid: '30.00', lastRun: { dueDate: '2031-01-15' } });
  });

  it("PATCH /subscriptions/{id}/stop — the card's stop button; no payment while stopped; another user's is a 404", async () => {
    const { payer, payee, from, to, template } = await aTemplate();
    const id = (await create(payer, formBody(template.id, { recurringStartDate: '2032-01-01' }))).body.subscription.id;
    const stranger = await world.user();
    expectError(
      await world.server.request('PATCH', `/api/v1/subscriptions/${id}/stop`, { token: stranger.token }),
      404,
      'exception.subscription.not_found',
    );
    const stopped = await world.server.request('PATCH', `/api/v1/subscriptions/${id}/stop`, { token: payer.token });
    expect(stopped.status).toBe(200);
    expect(stopped.body.subscription.subscriptionStatus).toBe('STOPPED');
    expect((await list(payer))[0].subscriptionStatus).toBe('STOPPED');
    await runUpTo('2032-01-01');
    expect(await balances(payer, from, payee, to)).toEqual(['100.00', '0.00']);
  });

  it("PATCH /subscriptions/{id}/activate — the card's start button pays again; an ended one is a 409", async () => {
    const { payer, payee, from, to, template } = await aTemplate();
    const id = (await create(payer, formBody(template.id, { recurringStartDate: '2033-01-01', count: 1 }))).body.subscription.id;
    await world.server.request('PATCH', `/api/v1/subscriptions/${id}/stop`, { token: payer.token });
    const started = await world.server.request('PATCH', `/api/v1/subscriptions/${id}/activate`, { token: payer.token });
    expect(started.status).toBe(200);
    expect(started.body.subscription).toMatchObject({ subscriptionStatus: 'ACTIVE', nextDueDate: '2033-01-01' });
    await runUpTo('2033-01-01');
    expect(await balances(payer, from, payee, to)).toEqual(['90.00', '10.00']);
    expect((await list(payer))[0].subscriptionStatus).toBe('PROCESSED');
    expectError(
      await world.server.request('PATCH', `/api/v1/subscriptions/${id}/activate`, { token: payer.token }),
      409,
      'exception.subscription.finished',
    );
    expectError(
      await world.server.request('PATCH', `/api/v1/subscriptions/${id}/stop`, { token: payer.token }),
      409,
      'exception.subscription.finished',
    );
  });

  it("DELETE /subscriptions/{id} — the card's delete button; gone from the list, never paid; another user's is a 404", async () => {
    const { payer, payee, from, to, template } = await aTemplate();
    const id = (await create(payer, formBody(template.id, { recurringStartDate: '2034-01-01' }))).body.subscription.id;
    const stranger = await world.user();
    expectError(
      await world.server.request('DELETE', `/api/v1/subscriptions/${id}`, { token: stranger.token }),
      404,
      'exception.subscription.not_found',
    );
    const deleted = await world.server.request('DELETE', `/api/v1/subscriptions/${id}`, { token: payer.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.subscription.id).toBe(id);
    expect(await list(payer)).toEqual([]);
    await runUpTo('2034-12-31');
    expect(await balances(payer, from, payee, to)).toEqual(['100.00', '0.00']);
    expectError(
      await world.server.request('DELETE', `/api/v1/subscriptions/${id}`, { token: payer.token }),
      404,
      'exception.subscription.not_found',
    );
  });

  it('deleting the template deletes its subscriptions: nothing is paid from a template that is gone', async () => {
    const { payer, payee, from, to, template } = await aTemplate();
    await create(payer, formBody(template.id, { recurringStartDate: '2035-01-01' }));
    const deleted = await world.server.request('DELETE', `/api/v1/templates/transfer/${template.id}`, { token: payer.token });
    expect(deleted.status).toBe(200);
    expect(await list(payer)).toEqual([]);
    await runUpTo('2035-01-01');
    expect(await balances(payer, from, payee, to)).toEqual(['100.00', '0.00']);
  });

  it('POST /scheduler/run — staff only; a date that is not one is a 400', async () => {
    const { payer } = await aTemplate();
    expectError(await world.server.request('POST', '/api/v1/scheduler/run', { token: payer.token, body: {} }), 403);
    expectError(
      await world.server.request('POST', '/api/v1/scheduler/run', { token: world.admin, body: { today: '2030-02-30' } }),
      400,
      undefined,
      'today',
    );
    const now = await world.server.request('POST', '/api/v1/scheduler/run', { token: world.admin, body: {} });
    expect(now.status).toBe(200);
    expect(now.body.today).toBe(new Date().toISOString().slice(0, 10));
  });
});
