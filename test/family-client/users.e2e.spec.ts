import { randomBytes } from 'node:crypto';
import { Actor, login, STAFF_ROLES_IN_ORDER } from '../helpers/actors';
import { expectError, expectStatus } from '../helpers/money';
import { ADMIN_LOGIN, ADMIN_PASSWORD } from '../helpers/server';
import { moneyWorld } from '../helpers/world';

/**
 * Issue 32: the family web client's staff screens for users — the users list and its create form, the identification
 * and KYC queues, and the user page's header actions (unban, delete, activate/deactivate). Each test replays a call
 * with the body its call site sends and checks the fields its screen reads; every staff action is in the action log.
 */
describe('family client: users (issue 32)', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
  const suffix = () => randomBytes(3).toString('hex');
  const wrongLogin = (loginName: string) =>
    world.server.request('POST', '/api/v1/authorization', { body: { login: loginName, password: 'not-the-password-1' } });
  /** Three wrong passwords: the user is On Hold. */
  const hold = async (user: Actor) => {
    for (let i = 0; i < 3; i++) await wrongLogin(user.login);
  };
  const actionsOf = async (userId: string, action: string) =>
    (
      await world.server.db.query(`SELECT actor_user_id, details FROM user_actions WHERE user_id = $1 AND action = $2 ORDER BY seq`, [
        userId,
        action,
      ])
    ).rows;
  /** The suite's administrator: the user whose token world.admin is. */
  const adminId = async (): Promise<string> =>
    (await req('POST', '/users/view', world.admin, { filter: { login: ADMIN_LOGIN } })).body.records.find(
      (r: any) => r.login === ADMIN_LOGIN.toLowerCase(),
    ).id;

  /** What the users, identification and KYC tables read of a record. */
  const expectTableFields = (record: Record<string, any>) => {
    expect(record).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      createdAt: expect.any(String),
      active: expect.any(Boolean),
      banned: expect.any(Boolean),
      contact: { emailVerified: expect.any(Boolean), phoneVerified: expect.any(Boolean) },
    });
    expect(record.members[0].organization).toMatchObject({
      id: expect.any(String),
      type: expect.any(String),
      identificationStatus: expect.any(String),
      organizationStatus: expect.any(String),
    });
  };

  it('POST /users/view — the users screen: its tab (roles), the search box (text) and the ban filter (banned)', async () => {
    const tag = suffix();
    const zelda = await world.user({ login: `zelda-${tag}@example.com`, name: `Zelda Quill${tag}` });
    const other = await world.user({ login: `omar-${tag}@example.com`, name: `Omar Quill${tag}` });
    const shop = await world.user({ role: 'merchant', login: `shop-${tag}@example.com`, name: `Quill${tag} Shop` });
    await hold(other);

    // The individuals tab, searching by part of the name, not banned.
    const page = await req('POST', '/users/view', world.admin, {
      filter: { text: `zelda quill${tag}`, banned: false, roles: ['individual'] },
      pageNumber: 0,
    });
    expectStatus(page, 200);
    expect(page.body.records.map((r: any) => r.id)).toEqual([zelda.id]);
    expectTableFields(page.body.records[0]);
    expect(page.body.records[0]).toMatchObject({ active: true, banned: false, contact: { email: `zelda-${tag}@example.com` } });
    // Each membership names the contract its organization follows, with the contract's name; a hold has no expiry.
    const { contract_info } = page.body.records[0].members[0];
    const contract = await req('GET', `/contracts/${contract_info.id}`, world.admin);
    expectStatus(contract, 200);
    expect(contract_info).toEqual({ id: contract.body.contract.id, personType: expect.any(String), name: contract.body.contract.name });
    expect(page.body.records[0].banExpiryDate).toBeNull();

    // The same search over every individual named so, then the banned ones only.
    const named = await req('POST', '/users/view', world.admin, { filter: { text: `QUILL${tag}`, roles: ['individual'] }, pageNumber: 0 });
    expect(named.body.records.map((r: any) => r.id).sort()).toEqual([zelda.id, other.id].sort());
    const banned = await req('POST', '/users/view', world.admin, { filter: { text: `quill${tag}`, banned: true, roles: ['individual'] } });
    expect(banned.body.records.map((r: any) => r.id)).toEqual([other.id]);
    expect(banned.body.records[0]).toMatchObject({ banned: true, active: true, banExpiryDate: null });

    // The corporate tab, and the system actors' tab (every staff role), with the text matching the login.
    const corporate = await req('POST', '/users/view', world.admin, { filter: { text: `shop-${tag}`, roles: ['merchant'] } });
    expect(corporate.body.records.map((r: any) => r.id)).toEqual([shop.id]);
    const system = await req('POST', '/users/view', world.admin, { filter: { roles: STAFF_ROLES_IN_ORDER }, pageNumber: 0 });
    expectStatus(system, 200);
    expect(system.body.records.length).toBeGreaterThan(0);
    expect(system.body.records.every((r: any) => STAFF_ROLES_IN_ORDER.includes(r.members[0].role))).toBe(true);

    // Bad input: a clear 400 naming the field.
    expectError(
      await req('POST', '/users/view', world.admin, { filter: { banned: 'sometimes' } }),
      400,
      'exception.validation',
      'filter.banned',
    );
  });

  it('POST /users/view — the KYC screen: identificationStatus as one value, the tab’s role, sort createdAt; its badge reads organizationStatus', async () => {
    const tag = suffix();
    const first = await world.user({ login: `kyc-a-${tag}`, name: `Kyc ${tag} A` });
    const second = await world.user({ login: `kyc-b-${tag}`, name: `Kyc ${tag} B` });
    const none = await req('POST', '/users/view', world.admin, {
      filter: { text: `kyc ${tag}`, identificationStatus: 'none', roles: ['individual'] },
      sort: { createdAt: 'desc' },
      pageNumber: 0,
    });
    expectStatus(none, 200);
    expect(none.body.totalRecords).toBe(2);
    expect(none.body.records.map((r: any) => r.id)).toEqual([second.id, first.id]);
    for (const record of none.body.records) {
      expectTableFields(record);
      expect(record.members[0].organization).toMatchObject({ identificationStatus: 'none', organizationStatus: 'none' });
    }
    // The screen's default filter: pending.
    const pending = await req('POST', '/users/view', world.admin, {
      filter: { text: `kyc ${tag}`, identificationStatus: 'pending', roles: ['individual'] },
      sort: { createdAt: 'desc' },
    });
    expect(pending.body.totalRecords).toBe(0);
    expectError(
      await req('POST', '/users/view', world.admin, { filter: { identificationStatus: 'maybe' } }),
      400,
      'exception.validation',
      'filter.identificationStatus',
    );
    expectError(await req('POST', '/users/view', world.admin, { sort: { registration: 'desc' } }), 400, 'exception.validation');
  });

  it('POST /users/view — the identification screen: text, email, phone and roles; it reads members[0].organization.identificationStatus', async () => {
    const tag = suffix();
    const phone = `+3706${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    const created = await req('POST', '/users', world.admin, {
      login: `ida-${tag}@example.com`,
      role: 'individual',
      name: `Ida ${tag}`,
      password: `pw-${randomBytes(6).toString('hex')}`,
      phoneNumber: phone,
    });
    expectStatus(created, 201);
    const id = created.body.user.id;
    for (const filter of [
      { email: `ida-${tag}@EXAMPLE.com` },
      { phone: phone.slice(4) },
      { text: phone.slice(2) },
      { text: `ida ${tag}`, roles: ['individual'] },
    ]) {
      const page = await req('POST', '/users/view', world.admin, { filter, pageNumber: 0 });
      expectStatus(page, 200);
      expect(page.body.records.map((r: any) => r.id)).toEqual([id]);
      expectTableFields(page.body.records[0]);
      expect(page.body.records[0]).toMatchObject({ contact: { email: `ida-${tag}@example.com`, phoneNumber: phone } });
      expect(page.body.records[0].members[0].organization).toMatchObject({ type: 'individual', identificationStatus: 'none' });
    }
    const merchantsOnly = await req('POST', '/users/view', world.admin, {
      filter: { email: `ida-${tag}@example.com`, roles: ['merchant'] },
    });
    expect(merchantsOnly.body.totalRecords).toBe(0);

    // The screen's first load, before any filter is set: the client sends `filter: null`.
    const unfiltered = await req('POST', '/users/view', world.admin, { filter: null, pageNumber: 0 });
    expectStatus(unfiltered, 200);
    expect(unfiltered.body.totalRecords).toBeGreaterThan(1);
    expectTableFields(unfiltered.body.records[0]);
  });

  it('POST /users/view — the user page reads one user by ids (active, banned, createdAt)', async () => {
    const bea = await world.user();
    const page = await req('POST', '/users/view', world.admin, { filter: { ids: [bea.id] } });
    expectStatus(page, 200);
    expect(page.body.records).toHaveLength(1);
    expectTableFields(page.body.records[0]);
    expect(page.body.records[0]).toMatchObject({ id: bea.id, active: true, banned: false, deactivatedAt: null });
  });

  it('POST /users — the users screen’s form: login and role, a merchant with legalType; recorded in the action log', async () => {
    const tag = suffix();
    const individual = await req('POST', '/users', world.admin, { login: `new-${tag}@example.com`, role: 'individual' });
    expectStatus(individual, 201);
    expect(individual.body).toMatchObject({
      status: 'ok',
      user: { id: expect.any(String), active: true },
      temporaryPassword: expect.any(String),
    });
    const merchant = await req('POST', '/users', world.admin, {
      login: `+3706${tag.replace(/[a-f]/g, '1')}1`,
      role: 'merchant',
      legalType: 'individual',
    });
    expectStatus(merchant, 201);
    expect(merchant.body.user.members[0]).toMatchObject({ role: 'merchant', organization: { type: 'merchant' } });
    // The table reloads and finds them.
    const listed = await req('POST', '/users/view', world.admin, { filter: { text: `new-${tag}`, roles: ['individual'] } });
    expect(listed.body.records.map((r: any) => r.id)).toEqual([individual.body.user.id]);
    const [created] = await actionsOf(individual.body.user.id, 'user_created');
    expect(created.actor_user_id).toEqual(expect.any(String));

    // A legal form applies to merchants only; an unknown one is refused; nothing is created either way.
    expectError(
      await req('POST', '/users', world.admin, { login: `corp-${tag}@example.com`, role: 'individual', legalType: 'corporation' }),
      400,
      'exception.validation',
      'legalType',
    );
    expectError(
      await req('POST', '/users', world.admin, { login: `corp-${tag}@example.com`, role: 'merchant', legalType: 'cooperative' }),
      400,
    );
    const none = await req('POST', '/users/view', world.admin, { filter: { text: `corp-${tag}` } });
    expect(none.body.totalRecords).toBe(0);
  });

  it('PATCH /users/{id} — the user page deactivates and activates a user as it toggles them ({active})', async () => {
    const cleo = await world.user();
    const deactivated = await req('PATCH', `/users/${cleo.id}`, world.admin, { active: false });
    expectStatus(deactivated, 200);
    expect(deactivated.body).toMatchObject({
      status: 'ok',
      action: 'USER_DEACTIVATED',
      user: { id: cleo.id, active: false, deactivatedAt: expect.any(String) },
    });

    // Their sessions ended, and they cannot log in (the right password is told it is deactivated, a wrong one is not).
    expectError(await req('GET', '/profiles/my', cleo.token), 401);
    expectError(
      await world.server.request('POST', '/api/v1/authorization', { body: { login: cleo.login, password: cleo.password } }),
      403,
      'exception.authorization.user_deactivated',
    );
    expectError(await wrongLogin(cleo.login), 401, 'exception.authorization.invalid_credentials');

    // The user page reloads it: inactive; the deactivated are found by `active: false`.
    const page = await req('POST', '/users/view', world.admin, { filter: { ids: [cleo.id] } });
    expect(page.body.records[0]).toMatchObject({ active: false, banned: false });
    const inactive = await req('POST', '/users/view', world.admin, { filter: { ids: [cleo.id], active: false } });
    expect(inactive.body.totalRecords).toBe(1);

    // The same state again changes nothing and records nothing.
    const again = await req('PATCH', `/users/${cleo.id}`, world.admin, { active: false });
    expectStatus(again, 200);
    expect(again.body.action).toBe('UNCHANGED');

    const activated = await req('PATCH', `/users/${cleo.id}`, world.admin, { active: true });
    expectStatus(activated, 200);
    expect(activated.body).toMatchObject({ action: 'USER_ACTIVATED', user: { active: true, deactivatedAt: null } });
    expect(await login(world.server, cleo.login, cleo.password)).toEqual(expect.any(String));

    // Both acts are in the action log, by the administrator.
    const off = await actionsOf(cleo.id, 'user_deactivated');
    const on = await actionsOf(cleo.id, 'user_activated');
    expect(off).toHaveLength(1);
    expect(on).toHaveLength(1);
    expect(off[0].actor_user_id).toEqual(on[0].actor_user_id);
    expect(off[0].details).toMatchObject({ endedSessions: 1, actorRole: 'administrator' });
  });

  it('PATCH /users/{id} — bad input is a clear 4xx and changes nothing', async () => {
    const dan = await world.user();
    expectError(await req('PATCH', `/users/${dan.id}`, world.admin, { active: 'no' }), 400, 'exception.validation', 'active');
    expectError(await req('PATCH', `/users/${dan.id}`, world.admin, {}), 400, 'exception.validation', 'active');
    expectError(await req('PATCH', `/users/${dan.id}`, world.admin, { active: false, name: 'x' }), 400, 'exception.validation');
    expectError(
      await req('PATCH', '/users/00000000-0000-4000-8000-00000000abcd', world.admin, { active: false }),
      404,
      'exception.user.not_found',
    );
    expectError(await req('PATCH', '/users/not-an-id', world.admin, { active: false }), 400);
    // A customer may not; a member of staff may not deactivate themself.
    expectError(await req('PATCH', `/users/${dan.id}`, dan.token, { active: false }), 403, 'exception.access.permission_missing');
    const me = await adminId();
    expectError(await req('PATCH', `/users/${me}`, world.admin, { active: false }), 409, 'exception.user.self_deactivation');
    expect(await login(world.server, ADMIN_LOGIN, ADMIN_PASSWORD)).toEqual(expect.any(String));
    expect((await req('POST', '/users/view', world.admin, { filter: { ids: [dan.id] } })).body.records[0].active).toBe(true);
    expect(await actionsOf(dan.id, 'user_deactivated')).toHaveLength(0);
  });

  it('DELETE /users/{id} — the user page’s delete deactivates: the user, their money and history stay', async () => {
    const eve = await world.user();
    const coin = await world.coin(eve, '25.00');
    const deleted = await req('DELETE', `/users/${eve.id}`, world.admin);
    expectStatus(deleted, 200);
    expect(deleted.body).toMatchObject({
      status: 'ok',
      action: 'USER_DEACTIVATED',
      message: expect.stringContaining('never erased'),
      user: { id: eve.id, active: false },
    });
    // The page reloads the user: still there, inactive; the coin keeps its money; the creation stays on the record.
    const page = await req('POST', '/users/view', world.admin, { filter: { ids: [eve.id] } });
    expect(page.body.records).toHaveLength(1);
    expect(page.body.records[0]).toMatchObject({ id: eve.id, active: false });
    const { rows } = await world.server.db.query(`SELECT balance::text AS balance FROM coins WHERE serial = $1`, [coin.serial]);
    expect(Number(rows[0].balance)).toBe(25);
    expect(await actionsOf(eve.id, 'user_created')).toHaveLength(1);
    const [recorded] = await actionsOf(eve.id, 'user_deactivated');
    expect(recorded.details).toMatchObject({ deleteRequested: true, actorRole: 'administrator' });
    expectError(
      await world.server.request('POST', '/api/v1/authorization', { body: { login: eve.login, password: eve.password } }),
      403,
      'exception.authorization.user_deactivated',
    );

    // Deleting again changes nothing; activating undoes it.
    const again = await req('DELETE', `/users/${eve.id}`, world.admin);
    expectStatus(again, 200);
    expect(again.body.action).toBe('UNCHANGED');
    expect(await actionsOf(eve.id, 'user_deactivated')).toHaveLength(1);
    expectStatus(await req('PATCH', `/users/${eve.id}`, world.admin, { active: true }), 200);
    expect(await login(world.server, eve.login, eve.password)).toEqual(expect.any(String));

    // Unknown, not allowed, or oneself: nothing happens.
    expectError(await req('DELETE', '/users/00000000-0000-4000-8000-00000000abcd', world.admin), 404, 'exception.user.not_found');
    const customer = await world.user();
    expectError(await req('DELETE', `/users/${eve.id}`, customer.token), 403, 'exception.access.permission_missing');
    expectError(await req('DELETE', `/users/${await adminId()}`, world.admin), 409, 'exception.user.self_deactivation');
  });

  it('POST /users/{id}/unban — the user page releases a user On Hold (no body), answering the temporary password', async () => {
    const finn = await world.user();
    await hold(finn);
    const before = await req('POST', '/users/view', world.admin, { filter: { ids: [finn.id] } });
    expect(before.body.records[0]).toMatchObject({ banned: true, active: true });

    const unbanned = await req('POST', `/users/${finn.id}/unban`, world.admin);
    expectStatus(unbanned, 200);
    expect(unbanned.body).toMatchObject({ status: 'ok', temporaryPassword: expect.any(String), expiresAt: expect.any(String) });
    const after = await req('POST', '/users/view', world.admin, { filter: { ids: [finn.id] } });
    expect(after.body.records[0]).toMatchObject({ banned: false, active: true });
    // Released, with a fresh temporary password: a second unban is a 409; a customer may not; an unknown user is a 404.
    expectError(await req('POST', `/users/${finn.id}/unban`, world.admin), 409, 'exception.user.not_on_hold');
    const other = await world.user();
    expectError(await req('POST', `/users/${finn.id}/unban`, other.token), 403, 'exception.access.permission_missing');
    expectError(await req('POST', '/users/00000000-0000-4000-8000-00000000abcd/unban', world.admin), 404, 'exception.user.not_found');
    // The specification's release: the user logs in with the temporary password and must choose a new one.
    const temporary = await world.server.request('POST', '/api/v1/authorization', {
      body: { login: finn.login, password: unbanned.body.temporaryPassword },
    });
    expectStatus(temporary, 200);
    const [released] = await actionsOf(finn.id, 'user_released');
    expect(released).toMatchObject({ actor_user_id: await adminId(), details: { wasOnHold: true } });
    expect(await actionsOf(finn.id, 'user_released')).toHaveLength(1);
  });
});
