import { login } from './helpers/actors';
import { expectError, expectStatus } from './helpers/money';
import { moneyWorld } from './helpers/world';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

/** Issue 16: profiles and identification, reset-identification requests, the contact book, organizations, the action log. */
describe('people (issue 16)', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

  describe('profiles and identification', () => {
    it('shows a profile to the user and to staff, never to another customer; the user edits their own person data', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const compliance = await world.user({ role: 'compliance_specialist' });

      const own = await req('GET', `/profiles/${alice.id}`, alice.token);
      expectStatus(own, 200);
      expect(own.body.profile).toMatchObject({
        user: { id: alice.id, login: alice.login, status: 'active' },
        role: [{ code: 'individual' }],
        organization: { id: alice.organizationId, type: 'individual', identificationStatus: 'none' },
        profile: { type: 'individual', identificationStatus: 'none', person: { birthDate: null, address: null } },
      });
      expectStatus(await req('GET', `/profiles/${alice.id}`, compliance.token), 200);
      expectError(await req('GET', `/profiles/${alice.id}`, bob.token), 404, 'exception.profile.not_found');
      expectError(await req('GET', `/profiles/${UNKNOWN}`, compliance.token), 404, 'exception.profile.not_found');
      expectError(await req('GET', '/profiles/not-a-uuid', compliance.token), 400, 'exception.validation');

      const edited = await req('PATCH', '/profiles/my', alice.token, {
        firstName: 'Alice',
        lastName: 'Liddell',
        birthDate: '1990-04-01',
        address: '1 Rabbit Hole, Oxford',
      });
      expectStatus(edited, 200);
      expect(edited.body.profile.profile.person).toEqual({
        namePlain: { first: 'Alice', last: 'Liddell' },
        birthDate: '1990-04-01',
        address: '1 Rabbit Hole, Oxford',
      });
      const cleared = await req('PATCH', '/profiles/my', alice.token, { address: null });
      expect(cleared.body.profile.profile.person).toMatchObject({ birthDate: '1990-04-01', address: null });
      expectError(await req('PATCH', '/profiles/my', alice.token, { birthDate: '2999-01-01' }), 400, 'exception.validation', 'birthDate');
      expectError(await req('PATCH', '/profiles/my', alice.token, { birthDate: '01/04/1990' }), 400, 'exception.validation', 'birthDate');
      expectError(await req('PATCH', '/profiles/my', alice.token, { login: 'someone-else' }), 400, 'exception.validation');
    });

    it('lets compliance move an identification through its statuses with a reason, recorded as a user action', async () => {
      const alice = await world.user();
      const compliance = await world.user({ role: 'compliance_manager' });
      const set = (status: string, token = compliance.token) =>
        req('POST', `/profiles/${alice.id}/identification`, token, { status, reason: 'documents' });

      expectStatus(await set('pending'), 200);
      const approved = await set('approved');
      expectStatus(approved, 200);
      expect(approved.body.profile.profile.identificationStatus).toBe('approved');
      // The user's own next request already sees it (the token cache is dropped on the change).
      expect((await req('GET', '/profiles/my', alice.token)).body.organization.identificationStatus).toBe('approved');
      expectError(await set('approved'), 409, 'exception.identification.unchanged');
      expectError(await set('approved', alice.token), 403);
      expectError(
        await req('POST', `/profiles/${alice.id}/identification`, compliance.token, { status: 'verified', reason: 'x' }),
        400,
        'exception.validation',
        'status',
      );
      expectError(
        await req('POST', `/profiles/${alice.id}/identification`, compliance.token, { status: 'declined' }),
        400,
        'exception.validation',
        'reason',
      );
      expectError(
        await req('POST', `/profiles/${UNKNOWN}/identification`, compliance.token, { status: 'approved', reason: 'x' }),
        404,
        'exception.profile.not_found',
      );

      const actions = await req('POST', '/users/view/actions', compliance.token, {
        filter: { userIds: [alice.id], actions: ['identification_changed'] },
      });
      expectStatus(actions, 200);
      expect(actions.body.records.map((a: { details: { to: string } }) => a.details.to)).toEqual(['approved', 'pending']);
      expect(actions.body.records[0]).toMatchObject({ actorUserId: compliance.id, details: { from: 'pending', reason: 'documents' } });
    });
  });

  describe('reset-identification requests', () => {
    it('are asked for an approved identification, approved once (back to none) or declined, and only seen by their user and staff', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const compliance = await world.user({ role: 'compliance_manager' });
      const base = `/profiles/${alice.id}/reset-identification-requests`;

      expectError(
        await req('POST', base, alice.token, { reason: 'new passport' }),
        409,
        'exception.reset_identification_request.not_approved',
      );
      expectStatus(await req('POST', `/profiles/${alice.id}/identification`, compliance.token, { status: 'approved', reason: 'ok' }), 200);

      const asked = await req('POST', base, alice.token, { reason: 'new passport' });
      expectStatus(asked, 201);
      expect(asked.body).toMatchObject({
        identificationStatus: 'approved',
        request: {
          userId: alice.id,
          organizationId: alice.organizationId,
          status: 'pending',
          reason: 'new passport',
          createdBy: alice.id,
          decidedAt: null,
        },
      });
      const id = asked.body.request.id;
      expectError(await req('POST', base, alice.token, { reason: 'again' }), 409, 'exception.reset_identification_request.pending');
      expectError(await req('POST', base, bob.token, { reason: 'not mine' }), 404, 'exception.profile.not_found');
      expectError(await req('POST', base, alice.token, {}), 400, 'exception.validation', 'reason');

      const mine = await req('POST', `${base}/view`, alice.token, { pageNumber: 0, pageSize: 10 });
      expectStatus(mine, 200);
      expect(mine.body.records.map((r: { id: string }) => r.id)).toEqual([id]);
      expectStatus(await req('POST', `${base}/view`, compliance.token, { filter: { statuses: ['pending'] } }), 200);
      expectError(await req('POST', `${base}/view`, bob.token, {}), 404, 'exception.profile.not_found');

      // Section 7: a nonexistent request id → 404; a malformed one → 400; another user's → 404.
      expectError(
        await req('POST', `${base}/${UNKNOWN}/approve`, compliance.token),
        404,
        'exception.reset_identification_request.not_found',
      );
      expectError(
        await req('POST', `${base}/${UNKNOWN}/decline`, compliance.token, { reason: 'x' }),
        404,
        'exception.reset_identification_request.not_found',
      );
      expectError(await req('POST', `${base}/not-an-id/approve`, compliance.token), 400, 'exception.validation');
      expectError(await req('POST', `${base}/not-an-id/decline`, compliance.token, { reason: 'x' }), 400, 'exception.validation');
      expectError(
        await req('POST', `/profiles/${bob.id}/reset-identification-requests/${id}/approve`, compliance.token),
        404,
        'exception.reset_identification_request.not_found',
      );
      expectError(await req('POST', `${base}/${id}/approve`, alice.token), 403);

      const approved = await req('POST', `${base}/${id}/approve`, compliance.token);
      expectStatus(approved, 200);
      expect(approved.body).toMatchObject({ identificationStatus: 'none', request: { id, status: 'approved', decidedBy: compliance.id } });
      expectError(await req('POST', `${base}/${id}/approve`, compliance.token), 409, 'exception.reset_identification_request.decided');
      expectError(
        await req('POST', `${base}/${id}/decline`, compliance.token, { reason: 'late' }),
        409,
        'exception.reset_identification_request.decided',
      );
      expect((await req('GET', `/profiles/${alice.id}`, alice.token)).body.profile.profile.identificationStatus).toBe('none');

      // A declined request leaves the identification as it was.
      expectStatus(
        await req('POST', `/profiles/${alice.id}/identification`, compliance.token, { status: 'approved', reason: 'again' }),
        200,
      );
      const second = await req('POST', base, compliance.token, { reason: 'support asked' });
      expectStatus(second, 201);
      expect(second.body.request.createdBy).toBe(compliance.id);
      const declined = await req('POST', `${base}/${second.body.request.id}/decline`, compliance.token, {
        reason: 'documents still valid',
      });
      expectStatus(declined, 200);
      expect(declined.body).toMatchObject({
        identificationStatus: 'approved',
        request: { status: 'declined', decisionReason: 'documents still valid' },
      });
      expectError(
        await req('POST', `${base}/${second.body.request.id}/decline`, compliance.token, {}),
        400,
        'exception.validation',
        'reason',
      );
    });
  });

  describe('the contact book', () => {
    it('adds contacts one at a time or many at once (answering only the new ones), finds, changes and deletes them; nobody else sees them', async () => {
      const alice = await world.user();
      const mallory = await world.user();
      const one = await req('POST', '/contact-book/contact', alice.token, { name: 'Bob', phoneNumber: '+37060000001' });
      expectStatus(one, 201);
      expect(one.body.contact).toEqual({
        id: expect.any(String),
        name: 'Bob',
        phoneNumber: '+37060000001',
        email: null,
        coinSerial: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expectError(
        await req('POST', '/contact-book/contact', alice.token, { name: 'Bob again', phoneNumber: '+37060000001' }),
        409,
        'exception.contact.duplicate',
      );
      expectError(await req('POST', '/contact-book/contact', alice.token, { name: 'Nobody' }), 400, 'exception.validation', 'phoneNumber');
      // Nulls are no way to reach someone either (they reached the database's CHECK: a 500).
      expectError(
        await req('POST', '/contact-book/contact', alice.token, { name: 'Nobody', phoneNumber: null, email: null, coinSerial: null }),
        400,
        'exception.validation',
        'phoneNumber',
      );
      expectError(
        await req('POST', '/contact-book/contact', alice.token, { name: 'Bad', phoneNumber: 'call me' }),
        400,
        'exception.validation',
        'phoneNumber',
      );
      expectError(
        await req('POST', '/contact-book/contact', alice.token, { name: 'Bad', coinSerial: '999999999' }),
        400,
        'exception.validation',
        'coinSerial',
      );

      // Section 9: the list call answers only the contacts it created.
      const list = await req('POST', '/contact-book/contact/list', alice.token, {
        contacts: [
          { name: 'Bob (dup by phone)', phoneNumber: '+37060000001' },
          { name: 'Carol', email: 'carol@example.com' },
          { name: 'Carol (dup in the call)', email: 'CAROL@example.com' },
          { name: 'Dave', phoneNumber: '+37060000004', email: 'dave@example.com' },
        ],
      });
      expectStatus(list, 201);
      expect(list.body.records.map((c: { name: string }) => c.name)).toEqual(['Carol', 'Dave']);
      const again = await req('POST', '/contact-book/contact/list', alice.token, {
        contacts: [{ name: 'Dave', phoneNumber: '+37060000004' }],
      });
      expectStatus(again, 201);
      expect(again.body.records).toEqual([]);
      expectError(await req('POST', '/contact-book/contact/list', alice.token, { contacts: [] }), 400, 'exception.validation', 'contacts');

      const view = await req('POST', '/contact-book/view', alice.token, { pageNumber: 0, pageSize: 10 });
      expectStatus(view, 200);
      expect(view.body.records.map((c: { name: string }) => c.name)).toEqual(['Bob', 'Carol', 'Dave']);
      const found = await req('POST', '/contact-book/view', alice.token, { filter: { text: 'example' } });
      expect(found.body.records.map((c: { name: string }) => c.name)).toEqual(['Carol', 'Dave']);
      expect((await req('POST', '/contact-book/view', mallory.token, {})).body.records).toEqual([]);

      const id = one.body.contact.id;
      const changed = await req('PATCH', `/contact-book/contact/${id}`, alice.token, { name: 'Bobby', email: 'bob@example.com' });
      expectStatus(changed, 200);
      expect(changed.body.contact).toMatchObject({ name: 'Bobby', phoneNumber: '+37060000001', email: 'bob@example.com' });
      expectError(
        await req('PATCH', `/contact-book/contact/${id}`, alice.token, { email: 'carol@example.com' }),
        409,
        'exception.contact.duplicate',
      );
      expectError(
        await req('PATCH', `/contact-book/contact/${id}`, alice.token, { phoneNumber: null, email: null }),
        400,
        'exception.validation',
      );
      for (const [method, path, body] of [
        ['PATCH', `/contact-book/contact/${id}`, { name: 'Mine now' }],
        ['DELETE', `/contact-book/contact/${id}`, undefined],
        ['GET', `/contact-book/contact/${id}/coin?currency=${world.currency.code}`, undefined],
      ] as const) {
        expectError(await req(method, path, mallory.token, body), 404, 'exception.contact.not_found');
      }
      expectStatus(await req('DELETE', `/contact-book/contact/${id}`, alice.token), 200);
      expectError(await req('DELETE', `/contact-book/contact/${id}`, alice.token), 404, 'exception.contact.not_found');
    });

    it("resolves a contact to the registered user's main coin of a currency, for transfers by contact", async () => {
      const alice = await world.user();
      const created = await world.server.request('POST', '/api/v1/users', {
        token: world.admin,
        body: {
          login: `bob-${Date.now()}`,
          password: 'bob-password-1',
          name: 'Bob Builder',
          role: 'individual',
          phoneNumber: '+37069999999',
        },
      });
      expectStatus(created, 201);
      const bob = { token: await login(world.server, created.body.user.login, 'bob-password-1') };
      const coin = (await req('POST', '/coins', bob.token, { issuerId: world.issuer.id, name: 'Main' })).body.coin;
      const contact = (await req('POST', '/contact-book/contact', alice.token, { name: 'Bob', phoneNumber: '+37069999999' })).body.contact;
      const resolved = await req('GET', `/contact-book/contact/${contact.id}/coin?currency=${world.currency.code}`, alice.token);
      expectStatus(resolved, 200);
      expect(resolved.body.coinSerial).toBe(coin.serial);
      const stranger = (await req('POST', '/contact-book/contact', alice.token, { name: 'Stranger', email: 'nobody@example.com' })).body
        .contact;
      expectError(
        await req('GET', `/contact-book/contact/${stranger.id}/coin?currency=${world.currency.code}`, alice.token),
        404,
        'exception.contact.no_coin',
      );
      expectError(
        await req('GET', `/contact-book/contact/${contact.id}/coin?currency=eur`, alice.token),
        400,
        'exception.validation',
        'currency',
      );
    });
  });

  describe('organizations', () => {
    it('are seen by their members and by staff, with their coins; others get a 404', async () => {
      const alice = await world.user({ name: 'Alice Organization' });
      const bob = await world.user();
      const support = await world.user({ role: 'customer_support' });
      const coin = await world.coin(alice, '5.00');

      const own = await req('GET', `/organizations/${alice.organizationId}`, alice.token);
      expectStatus(own, 200);
      expect(own.body.organization).toMatchObject({ id: alice.organizationId, type: 'individual', identificationStatus: 'none' });
      expectStatus(await req('GET', `/organizations/${alice.organizationId}`, support.token), 200);
      expectError(await req('GET', `/organizations/${alice.organizationId}`, bob.token), 404, 'exception.organization.not_found');
      expectError(await req('GET', `/organizations/${UNKNOWN}`, support.token), 404, 'exception.organization.not_found');

      const search = await req('POST', '/organizations/view', support.token, {
        filter: { types: ['individual'], name: 'Alice Organization' },
      });
      expectStatus(search, 200);
      expect(search.body.records.map((o: { id: string }) => o.id)).toContain(alice.organizationId);
      const bobs = await req('POST', '/organizations/view', bob.token, {});
      expect(bobs.body.records.map((o: { id: string }) => o.id)).toEqual([bob.organizationId]);
      expectError(await req('POST', '/organizations/view', support.token, { filter: { types: ['bank'] } }), 400, 'exception.validation');

      const coins = await req('GET', `/organizations/${alice.organizationId}/coins`, alice.token);
      expectStatus(coins, 200);
      expect(coins.body.coins.map((c: { serial: string }) => c.serial)).toEqual([coin.serial]);
      expectStatus(await req('GET', `/organizations/${alice.organizationId}/coins`, support.token), 200);
      expectError(await req('GET', `/organizations/${alice.organizationId}/coins`, bob.token), 404, 'exception.organization.not_found');
    });
  });

  describe('the user action log', () => {
    it("lists an action's object marks with their state now, and reverses the money operation an action made, once", async () => {
      const alice = await world.user();
      const coin = await world.coin(alice);
      const asked = await req('POST', '/bank-top-ups/create-request', alice.token, {
        coinSerial: coin.serial,
        amount: '40.00',
        bankAccountNumber: 'LT121000011101001000',
        fullName: 'Alice',
      });
      expectStatus(asked, 201);
      const accepted = await req('POST', `/bank-top-ups/${asked.body.bankTopUp.id}/accept`, world.admin);
      expectStatus(accepted, 200);
      const operationId = accepted.body.process.id;

      const log = await req('POST', '/users/view/actions', world.admin, { filter: { actions: ['bank_top_up_accepted'] }, pageSize: 50 });
      const action = log.body.records.find((a: { details: { operationId?: string } }) => a.details.operationId === operationId);
      expect(action).toBeDefined();

      const marks = await req('GET', `/users/view/${action.id}/action-reverse`, world.admin);
      expectStatus(marks, 200);
      expect(marks.body).toMatchObject({ reversible: true, reversedBy: null, action: { id: action.id, action: 'bank_top_up_accepted' } });
      expect(marks.body.marks).toEqual(
        expect.arrayContaining([
          { objectType: 'operation', objectId: operationId, state: 'processed' },
          { objectType: 'bank_top_up_request', objectId: asked.body.bankTopUp.id, state: 'processed' },
        ]),
      );

      const reverse = (body: unknown) =>
        world.server.request('POST', `/api/v1/users/view/${action.id}/reverse`, {
          token: world.admin,
          body,
          headers: { 'idempotency-key': `reverse-${action.id}` },
        });
      const reversed = await reverse({ description: 'entered twice' });
      expectStatus(reversed, 201);
      // Retried with the same key: the same answer, replayed; with another body: a 422.
      const replayed = await reverse({ description: 'entered twice' });
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.process.id).toBe(reversed.body.process.id);
      expectError(await reverse({ description: 'something else' }), 422);
      expect(reversed.body).toMatchObject({ actionId: action.id, process: { type: 'reversal', reversalOf: operationId } });
      const after = await req('GET', `/users/view/${action.id}/action-reverse`, world.admin);
      expect(after.body).toMatchObject({ reversible: false, reversedBy: reversed.body.process.id });
      expect(after.body.marks).toEqual(expect.arrayContaining([{ objectType: 'operation', objectId: operationId, state: 'reversed' }]));
      expectError(await req('POST', `/users/view/${action.id}/reverse`, world.admin, {}), 409);

      const loginAction = (
        await req('POST', '/users/view/actions', world.admin, { filter: { userIds: [alice.id], actions: ['login_succeeded'] } })
      ).body.records[0];
      expectError(await req('POST', `/users/view/${loginAction.id}/reverse`, world.admin, {}), 409, 'exception.user_action.not_reversible');
      expectError(await req('GET', `/users/view/${UNKNOWN}/action-reverse`, world.admin), 404, 'exception.user_action.not_found');
      expectError(await req('POST', `/users/view/${UNKNOWN}/reverse`, world.admin, {}), 404, 'exception.user_action.not_found');
      expectError(await req('GET', `/users/view/${action.id}/action-reverse`, alice.token), 403);
      expectError(await req('POST', '/users/view/actions', alice.token, {}), 403);
      expectError(
        await req('POST', '/users/view/actions', world.admin, {
          filter: { createdAtFrom: '2026-02-01T00:00:00Z', createdAtTo: '2026-01-01T00:00:00Z' },
        }),
        400,
        'exception.validation',
      );
    });

    it('is a hash chain: audit-check finds it intact, and names the first row edited behind its back', async () => {
      const compliance = await world.user({ role: 'compliance_specialist' });
      // Actions recorded in parallel still chain one after another.
      const logins = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          world.server.request('POST', '/api/v1/authorization', {
            body: { login: `nobody-${i}@example.com`, password: 'wrong-password-1' },
          }),
        ),
      );
      expect(logins.every((l) => l.status === 401)).toBe(true);
      const intact = await req('GET', '/actuator/audit-check', compliance.token);
      expectStatus(intact, 200);
      expect(intact.body).toMatchObject({ intact: true, message: 'The action log is intact' });
      expect(intact.body.checkedActions).toBeGreaterThan(10);
      expect(intact.body.firstBroken).toBeUndefined();
      expectError(await req('GET', '/actuator/audit-check', (await world.user()).token), 403);

      const { rows } = await world.raw.db.query(
        `SELECT id, seq::text AS seq FROM user_actions WHERE action = 'login_succeeded' ORDER BY seq LIMIT 1 OFFSET 2`,
      );
      await world.raw.db.query(`UPDATE user_actions SET address = '203.0.113.66' WHERE id = $1`, [rows[0].id]);
      const edited = await req('GET', '/actuator/audit-check', compliance.token);
      expectStatus(edited, 200);
      expect(edited.body).toMatchObject({
        intact: false,
        message: 'The action log was altered',
        firstBroken: { id: rows[0].id, seq: rows[0].seq, reason: 'hash does not match the action' },
      });
    });
  });
});
