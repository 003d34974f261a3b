import { expectError, expectStatus } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 32: the family web client's "actions of users" screen — the action log as a table with its filters, and the
 * details modal of one action. Each test replays the call with the body its call site sends and checks what it reads.
 */
describe('family client: actions of users (issue 32)', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
  /** The screen's load: its filters, its one sort, the table's page. */
  const load = (filter: Record<string, unknown>, sort: Record<string, string> = { dateCreated: 'desc' }) =>
    req('POST', '/users/view/actions', world.admin, { filter, pageNumber: 0, sort });

  it('POST /users/view/actions — the screen’s load: sort dateCreated, its filters; the table reads performedAt, userId, requestInfo, actionId, comment', async () => {
    const gus = await world.user();
    // Two more actions about Gus: a failed login, and an administrator deactivating him.
    await world.server.request('POST', '/api/v1/authorization', { body: { login: gus.login, password: 'not-the-password-1' } });
    expectStatus(await req('PATCH', `/users/${gus.id}`, world.admin, { active: false }), 200);

    const page = await load({ userIds: [gus.id] });
    expectStatus(page, 200);
    const records = page.body.records;
    expect(records.map((r: any) => r.action)).toEqual(['user_deactivated', 'login_failed', 'login_succeeded', 'user_created']);
    for (const record of records) {
      expect(record).toMatchObject({
        actionId: record.id,
        userId: gus.id,
        performedAt: record.createdAt,
        comment: expect.any(String),
        requestInfo: { host: expect.any(String), ip: expect.any(String), userIp: expect.any(String), userAgent: null },
      });
      expect(record.requestInfo.host).toBe(record.address);
    }
    expect(records[0].comment).toBe('User deactivated');
    expect(records[1].comment).toBe('Login failed');
    expect(new Date(records[0].performedAt).getTime()).toBeGreaterThanOrEqual(new Date(records[3].performedAt).getTime());

    // The other order, and each of the screen's filters.
    const oldest = await load({ userIds: [gus.id] }, { dateCreated: 'asc' });
    expect(oldest.body.records.map((r: any) => r.id)).toEqual([...records].reverse().map((r: any) => r.id));
    const byId = await load({ actionIds: [records[1].actionId] });
    expect(byId.body.records.map((r: any) => r.action)).toEqual(['login_failed']);
    const address = records[0].requestInfo.userIp;
    expect((await load({ userIds: [gus.id], userIps: [address] })).body.totalRecords).toBe(4);
    expect((await load({ userIds: [gus.id], hosts: [address] })).body.totalRecords).toBe(4);
    expect((await load({ userIds: [gus.id], userIps: ['203.0.113.9'] })).body.totalRecords).toBe(0);
    expect((await load({ userIds: [gus.id], hosts: '203.0.113.9' })).body.totalRecords).toBe(0);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    expect((await load({ userIds: [gus.id], performedAtFrom: hourAgo, performedAtTo: inAnHour })).body.totalRecords).toBe(4);
    expect((await load({ userIds: [gus.id], performedAtFrom: inAnHour })).body.totalRecords).toBe(0);
    expect((await load({ userIds: [gus.id], performedAtTo: hourAgo })).body.totalRecords).toBe(0);

    // The client's load with no filter at all (the table's first page).
    const first = await req('POST', '/users/view/actions', world.admin, { filter: {}, pageNumber: 0, sort: { dateCreated: 'desc' } });
    expectStatus(first, 200);
    expect(first.body.records.length).toBeGreaterThan(0);
  });

  it('POST /users/view/actions — bad input is a clear 400 naming the field', async () => {
    expectError(await load({}, { registeredAt: 'desc' }), 400, 'exception.validation');
    expectError(await load({}, { dateCreated: 'newest' }), 400, 'exception.validation', 'sort.dateCreated');
    expectError(await load({ actionIds: ['not-an-id'] }), 400, 'exception.validation', 'filter.actionIds');
    expectError(await load({ performedAtFrom: 'yesterday' }), 400, 'exception.validation', 'filter.performedAtFrom');
    expectError(
      await load({ performedAtFrom: new Date().toISOString(), performedAtTo: new Date(Date.now() - 60_000).toISOString() }),
      400,
      'exception.validation',
      'filter.performedAtTo',
    );
    expectError(await load({ userIps: [{ ip: '1.2.3.4' }] }), 400, 'exception.validation', 'filter.userIps');
  });

  it('GET /users/view/{id}/action-reverse — the details modal reads records[].objectsOfAction[0] (entityId, role, type, actionType, entityName)', async () => {
    const hana = await world.user();
    expectStatus(await req('DELETE', `/users/${hana.id}`, world.admin), 200);
    const [action] = (
      await req('POST', '/users/view/actions', world.admin, { filter: { userIds: [hana.id], actions: ['user_deactivated'] } })
    ).body.records;

    const details = await req('GET', `/users/view/${action.actionId}/action-reverse`, world.admin);
    expectStatus(details, 200);
    expect(details.body.records).toEqual([
      {
        actionId: action.actionId,
        objectsOfAction: [
          {
            entityId: hana.id,
            entityName: 'User',
            type: 'user',
            actionType: 'user_deactivated',
            role: 'administrator',
            state: 'deactivated',
          },
        ],
      },
    ]);
    // What the answer gave before stays next to it.
    expect(details.body).toMatchObject({
      action: { id: action.actionId, action: 'user_deactivated' },
      marks: [{ objectType: 'user', objectId: hana.id, state: 'deactivated' }],
      reversible: false,
    });

    // An action that touched nothing named: one record, no objects (the modal shows empty values).
    await world.server.request('POST', '/api/v1/authorization', { body: { login: 'nobody-at-all', password: 'not-the-password-1' } });
    const [unknown] = (
      await req('POST', '/users/view/actions', world.admin, { filter: { actions: ['login_failed'] } })
    ).body.records.filter((r: any) => r.login === 'nobody-at-all');
    const empty = await req('GET', `/users/view/${unknown.actionId}/action-reverse`, world.admin);
    expectStatus(empty, 200);
    expect(empty.body.records).toEqual([{ actionId: unknown.actionId, objectsOfAction: [] }]);

    expectError(
      await req('GET', '/users/view/00000000-0000-4000-8000-00000000abcd/action-reverse', world.admin),
      404,
      'exception.user_action.not_found',
    );
    const customer = await world.user();
    expectError(
      await req('GET', `/users/view/${action.actionId}/action-reverse`, customer.token),
      403,
      'exception.access.permission_missing',
    );
  });
});
