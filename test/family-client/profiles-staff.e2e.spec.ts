import { randomBytes } from 'node:crypto';
import { Actor } from '../helpers/actors';
import { expectError, expectStatus } from '../helpers/money';
import { multipart } from '../helpers/upload';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's staff screens of a user's details (`user-profile`: profile and business, login and security,
 * KYC; `identification`): each call with the body its call site sends, and the answer fields its screens read.
 */
describe('family client: a user’s details, staff side', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
  const staff = (role: string) => world.user({ role });
  /** The actions recorded about `userId`, oldest first. */
  const actionsOf = async (userId: string, action: string) =>
    (
      await world.raw.db.query(`SELECT actor_user_id, details FROM user_actions WHERE user_id = $1 AND action = $2 ORDER BY seq`, [
        userId,
        action,
      ])
    ).rows as { actor_user_id: string | null; details: Record<string, unknown> }[];

  const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
  let admin: Actor;
  let support: Actor;
  let compliance: Actor;
  let accountant: Actor;
  beforeAll(async () => {
    admin = await staff('administrator');
    support = await staff('customer_support');
    compliance = await staff('compliance_manager');
    accountant = await staff('accountant');
  });

  // The profile form after the client drops empty values and copies namePlain into nameIntl (staff send no e-mail,
  // phone or birth date: the form has only the names and a description).
  const personForm = {
    person: {
      namePlain: { first: 'Grace', last: 'Hopper', middle: 'Brewster' },
      nameIntl: { first: 'Grace', last: 'Hopper', middle: 'Brewster' },
      description: 'Verified by phone call',
    },
  };
  const addressForm = { address: { country: 'GB', zipCode: 'EC1A1', city: 'London', street: 'King Street', houseNumber: '12B' } };
  // The business form's whole model: the administrator's empty fields dropped by the client.
  const businessForm = {
    companyName: 'Hopper Compilers',
    type: 'service_providers',
    vat: 'GB123456789',
    administrator: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+447700900456' },
  };
  const securityForm = {
    security: {
      twoFactorsAuthEnabled: false,
      transactionNotification: { phone: true, email: false },
      authorizationNotification: { phone: false, email: true },
    },
  };

  it('GET /profiles/{id} — the user-profile screen reads profile.type, status, role[0].code, person, address, business.legal, security', async () => {
    const shop = await world.user({ role: 'merchant', name: 'Corner Shop' });
    const read = await req('GET', `/profiles/${shop.id}`, support.token);
    expectStatus(read, 200);
    const { profile } = read.body;
    expect(profile).toMatchObject({
      type: 'merchant',
      status: 'none',
      role: [{ code: 'merchant' }],
      person: { namePlain: { first: 'Corner', last: 'Shop' }, dateOfBirth: null },
      address: {},
      business: { companyName: expect.any(String), legal: expect.any(String) },
      security: { twoFactorsAuthEnabled: false, transactionNotification: { phone: false, email: false } },
    });
    // The same profile fields as the user's own GET /profiles/my: one shape.
    const my = await req('GET', '/profiles/my', shop.token);
    for (const key of ['type', 'status', 'person', 'address', 'business', 'security']) expect(profile[key]).toEqual(my.body.profile[key]);
  });

  it('PATCH /profiles/{id}/person — the profile form’s body; answers the profile, recorded as profile_changed by the staff member', async () => {
    const alice = await world.user();
    const edited = await req('PATCH', `/profiles/${alice.id}/person`, support.token, personForm);
    expectStatus(edited, 200);
    expect(edited.body.profile.person).toEqual({
      namePlain: { first: 'Grace', last: 'Hopper', middle: 'Brewster' },
      nameIntl: { first: 'Grace', last: 'Hopper', middle: 'Brewster' },
      dateOfBirth: null,
      description: 'Verified by phone call',
    });
    expect((await req('GET', '/profiles/my', alice.token)).body.profile.person).toEqual(edited.body.profile.person);
    expect(await actionsOf(alice.id, 'profile_changed')).toEqual([
      { actor_user_id: support.id, details: expect.objectContaining({ fields: ['description', 'nameIntl', 'namePlain'] }) },
    ]);
    // Bad input: a 400 naming the field, nothing changed.
    expectError(
      await req('PATCH', `/profiles/${alice.id}/person`, support.token, { person: { namePlain: { first: '', last: 'X' } } }),
      400,
      'exception.validation',
    );
    expectError(
      await req('PATCH', `/profiles/${alice.id}/person`, support.token, { person: { dateOfBirth: '2999-01-01' } }),
      400,
      'exception.validation',
      'person.dateOfBirth',
    );
    expect((await req('GET', `/profiles/${alice.id}`, support.token)).body.profile.person).toEqual(edited.body.profile.person);
    expect(await actionsOf(alice.id, 'profile_changed')).toHaveLength(1);
  });

  it('PATCH /profiles/{id}/address — the address form’s body; GET /profiles/{id} reads it back by parts', async () => {
    const alice = await world.user();
    const edited = await req('PATCH', `/profiles/${alice.id}/address`, admin.token, addressForm);
    expectStatus(edited, 200);
    expect(edited.body.profile.address).toEqual(addressForm.address);
    expect((await req('GET', `/profiles/${alice.id}`, compliance.token)).body.profile.address).toEqual(addressForm.address);
    // The form sends the whole address: a part it leaves out is cleared.
    const fewer = await req('PATCH', `/profiles/${alice.id}/address`, admin.token, { address: { country: 'LT', city: 'Vilnius' } });
    expect(fewer.body.profile.address).toEqual({ country: 'LT', city: 'Vilnius' });
    expect(await actionsOf(alice.id, 'profile_changed')).toEqual([
      { actor_user_id: admin.id, details: expect.objectContaining({ fields: ['address'] }) },
      { actor_user_id: admin.id, details: expect.objectContaining({ fields: ['address'] }) },
    ]);
    expectError(
      await req('PATCH', `/profiles/${alice.id}/address`, admin.token, { address: { country: 'Lithuania' } }),
      400,
      'exception.validation',
      'address.country',
    );
    expectError(await req('PATCH', `/profiles/${alice.id}/address`, admin.token, { address: 'Vilnius' }), 400, 'exception.validation');
    expect((await req('GET', `/profiles/${alice.id}`, admin.token)).body.profile.address).toEqual({ country: 'LT', city: 'Vilnius' });
  });

  it('PATCH /profiles/{id}/business — the business form’s body; the business block reads companyName, type, vat, administrator, legal', async () => {
    const shop = await world.user({ role: 'merchant' });
    const edited = await req('PATCH', `/profiles/${shop.id}/business`, support.token, businessForm);
    expectStatus(edited, 200);
    expect(edited.body.profile.business).toEqual({ ...businessForm, legal: expect.any(String) });
    // The merchant sees it on their own profile too.
    expect((await req('GET', '/profiles/my', shop.token)).body.profile.business).toEqual(edited.body.profile.business);
    // The client leaves the administrator empty when none of its fields is filled.
    const bare = await req('PATCH', `/profiles/${shop.id}/business`, support.token, { type: 'eshop', administrator: {} });
    expect(bare.body.profile.business).toEqual({ companyName: expect.any(String), legal: expect.any(String), type: 'eshop' });
    expect(await actionsOf(shop.id, 'profile_changed')).toHaveLength(2);
    for (const [body, parameter] of [
      [{ type: 'casino' }, 'type'],
      [{ vat: '12' }, 'vat'],
      [{ administrator: { email: 'not-an-address' } }, 'administrator.email'],
    ] as const) {
      expectError(await req('PATCH', `/profiles/${shop.id}/business`, support.token, body), 400, 'exception.validation', parameter);
    }
    expect((await req('GET', `/profiles/${shop.id}`, support.token)).body.profile.business).toEqual(bare.body.profile.business);
  });

  it('PATCH /profiles/{id}/contact — the login form’s body: a code goes to the new login, which changes only when the user confirms it (issue 43)', async () => {
    const alice = await world.user();
    const newLogin = `grace-${randomBytes(3).toString('hex')}@example.com`;
    const edited = await req('PATCH', `/profiles/${alice.id}/contact`, support.token, { login: newLogin.toUpperCase() });
    expectStatus(edited, 200);
    // The form reads the profile back: nothing changed yet.
    expect(edited.body.profile.user.login).toBe(alice.login);
    expect(edited.body.profile.contact).toEqual({ emailVerified: false, phoneVerified: false });
    const { rows: sent } = await world.raw.db.query(
      `SELECT delivered, payload FROM one_time_codes WHERE purpose = 'contact_change' AND target = $1`,
      [newLogin],
    );
    expect(sent).toEqual([
      { delivered: true, payload: expect.objectContaining({ userId: alice.id, proof: 'staff', requestedBy: support.id }) },
    ]);
    expect(await actionsOf(alice.id, 'login_change_requested')).toEqual([
      { actor_user_id: support.id, details: expect.objectContaining({ kind: 'email', to: newLogin, login: true }) },
    ]);
    expect(await actionsOf(alice.id, 'login_changed')).toEqual([]);
    // Asked again at once: the new login had a code moments ago.
    expectError(await req('PATCH', `/profiles/${alice.id}/contact`, support.token, { login: newLogin }), 429, 'exception.rate_limited');
    // The screen's second step confirms the code with the staff member's own session: it is not their change.
    expectError(
      await req('POST', '/profiles/my/contact/confirm', support.token, { login: newLogin, otp: '123456' }),
      400,
      'exception.confirmation_code.not_found',
    );
    // The old login still logs in; the new one does not.
    expectStatus(
      await world.server.request('POST', '/api/v1/authorization', { body: { login: alice.login, password: alice.password } }),
      200,
    );
    expectError(await world.server.request('POST', '/api/v1/authorization', { body: { login: newLogin, password: alice.password } }), 401);
    // The screen sends the contact the user has (its fields are read-only for staff): nothing is asked.
    const bob = await world.user({ login: `bob-${randomBytes(3).toString('hex')}@example.com` });
    expectStatus(await req('PATCH', `/profiles/${bob.id}/contact`, support.token, { login: bob.login }), 200);
    expect(await actionsOf(bob.id, 'login_change_requested')).toEqual([]);
    // Another user's login is a 409, something else a 400; the login stays.
    expectError(
      await req('PATCH', `/profiles/${alice.id}/contact`, support.token, { login: bob.login }),
      409,
      'exception.user.login_taken',
    );
    expectError(
      await req('PATCH', `/profiles/${alice.id}/contact`, support.token, { login: 'nobody' }),
      400,
      'exception.validation',
      'login',
    );
    expect((await req('GET', `/profiles/${alice.id}`, support.token)).body.profile.user.login).toBe(alice.login);
  });

  it('PATCH /profiles/{id}/contact — support may not change the login of a user with powers support lacks (403), nor is it changed', async () => {
    const otherAdmin = await staff('administrator');
    expectError(
      await req('PATCH', `/profiles/${otherAdmin.id}/contact`, support.token, {
        login: `takeover-${randomBytes(3).toString('hex')}@example.com`,
      }),
      403,
      'exception.profile.edit_forbidden',
    );
    expectError(
      await req('PATCH', `/profiles/${otherAdmin.id}/security-settings`, support.token, securityForm),
      403,
      'exception.profile.edit_forbidden',
    );
    expect((await req('GET', `/profiles/${otherAdmin.id}`, admin.token)).body.profile.user.login).toBe(otherAdmin.login);
    // An unknown user is a 404 for every edit; a customer may not edit anyone (403 by permission).
    for (const [path, body] of [
      ['person', personForm],
      ['address', addressForm],
      ['business', businessForm],
      ['contact', { login: 'nobody@example.com' }],
      ['security-settings', securityForm],
    ] as const) {
      expectError(await req('PATCH', `/profiles/${UNKNOWN}/${path}`, support.token, body), 404, 'exception.profile.not_found');
    }
    const alice = await world.user();
    const bob = await world.user();
    expectError(await req('PATCH', `/profiles/${bob.id}/person`, alice.token, personForm), 403);
  });

  it('PATCH /profiles/{id}/security-settings — the security form’s body; reads profile.security', async () => {
    const alice = await world.user();
    const edited = await req('PATCH', `/profiles/${alice.id}/security-settings`, support.token, securityForm);
    expectStatus(edited, 200);
    expect(edited.body.profile.security).toEqual(securityForm.security);
    expect((await req('GET', '/profiles/my', alice.token)).body.profile.security).toEqual(securityForm.security);
    expect(await actionsOf(alice.id, 'profile_changed')).toEqual([
      { actor_user_id: support.id, details: expect.objectContaining({ fields: ['security'] }) },
    ]);
    expectError(
      await req('PATCH', `/profiles/${alice.id}/security-settings`, support.token, {
        security: { ...securityForm.security, twoFactorsAuthEnabled: true },
      }),
      400,
      'exception.two_factor.unreachable',
    );
    expect((await req('GET', `/profiles/${alice.id}`, support.token)).body.profile.security).toEqual(securityForm.security);
  });

  it('POST /profiles/{id}/approve — the identification list approves without a body; reads profile.status', async () => {
    const alice = await world.user();
    const approved = await req('POST', `/profiles/${alice.id}/approve`, compliance.token);
    expectStatus(approved, 200);
    expect(approved.body.profile).toMatchObject({ status: 'approved', role: [{ code: 'individual' }] });
    expect((await req('GET', `/profiles/${alice.id}`, compliance.token)).body.profile.status).toBe('approved');
    expect(await actionsOf(alice.id, 'identification_changed')).toEqual([
      {
        actor_user_id: compliance.id,
        details: expect.objectContaining({ from: 'none', to: 'approved', organizationId: alice.organizationId }),
      },
    ]);
    // Twice is a 409; support may not decide (403); an unknown user is a 404.
    expectError(await req('POST', `/profiles/${alice.id}/approve`, compliance.token), 409, 'exception.identification.unchanged');
    expectError(await req('POST', `/profiles/${alice.id}/decline`, support.token), 403);
    expectError(
      await req('POST', `/profiles/00000000-0000-4000-8000-00000000dead/approve`, compliance.token),
      404,
      'exception.profile.not_found',
    );
    expect(await actionsOf(alice.id, 'identification_changed')).toHaveLength(1);
  });

  it('POST /profiles/{id}/decline — the KYC page declines without a body', async () => {
    const alice = await world.user();
    const declined = await req('POST', `/profiles/${alice.id}/decline`, admin.token);
    expectStatus(declined, 200);
    expect(declined.body.profile.status).toBe('declined');
    expectError(await req('POST', `/profiles/${alice.id}/decline`, admin.token), 409, 'exception.identification.unchanged');
    expect(await actionsOf(alice.id, 'identification_changed')).toEqual([
      { actor_user_id: admin.id, details: expect.objectContaining({ from: 'none', to: 'declined' }) },
    ]);
  });

  it('POST /profiles/{id}/reset — the KYC page’s body {fields: [""]}: the identification is back to none', async () => {
    const alice = await world.user();
    expectStatus(await req('POST', `/profiles/${alice.id}/approve`, compliance.token), 200);
    const reset = await req('POST', `/profiles/${alice.id}/reset`, compliance.token, { fields: [''] });
    expectStatus(reset, 200);
    expect(reset.body.profile.status).toBe('none');
    expect((await actionsOf(alice.id, 'identification_changed')).map((a) => a.details.to)).toEqual(['approved', 'none']);
    expectError(
      await req('POST', `/profiles/${alice.id}/reset`, compliance.token, { fields: [''] }),
      409,
      'exception.identification.unchanged',
    );
    expectError(await req('POST', `/profiles/${alice.id}/reset`, compliance.token, { fields: 'all' }), 400, 'exception.validation');
  });

  describe('identity documents', () => {
    const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1024)]);
    /** A customer with a passport scan and a tax id typed by hand, as the documents page links them. */
    const withDocuments = async () => {
      const user = await world.user();
      const { body, contentType } = multipart('file', 'passport.png', png(), 'image/png');
      const uploaded = await world.server.request('POST', '/api/v1/media-files', {
        token: user.token,
        rawBody: body,
        headers: { 'content-type': contentType },
      });
      const file = uploaded.body.file;
      expectStatus(await req('POST', '/profile-documents', user.token, { fileId: file.id, type: 'passport' }), 200);
      expectStatus(
        await req('POST', '/profile-documents/identifier', user.token, { documentIdentifier: 'LT 3900101', type: 'tax_id' }),
        200,
      );
      return { user, file };
    };
    // The KYC page's body: the user's organization, every status, as the family spells them.
    const kycView = (organizationId: string) => ({ filter: { orgIds: [organizationId], statuses: ['DECLINED', 'APPROVED', 'PENDING'] } });

    it('POST /profile-documents/view — the KYC page’s body; reads records[].type, status, documentIdentifier, file.url, file.createdAt, updatedAt', async () => {
      const { user, file } = await withDocuments();
      await withDocuments(); // someone else's, not listed
      const view = await req('POST', '/profile-documents/view', compliance.token, kycView(user.organizationId));
      expectStatus(view, 200);
      expect(view.body.totalRecords).toBe(2);
      const byType = Object.fromEntries(view.body.records.map((r: { type: string }) => [r.type, r]));
      expect(byType.passport).toMatchObject({
        userId: user.id,
        organizationId: user.organizationId,
        status: 'PENDING',
        label: 'Passport',
        file: { id: file.id, ownerId: user.id, createdAt: file.createdAt, mediaType: 'image/png' },
      });
      // The page shows the scan with <img src="file.url">, which sends no Authorization header: a signed link.
      expect(byType.passport.file.url).toMatch(
        new RegExp(`^/api/v1/media-links/${file.id}/passport\\.png\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`),
      );
      const shown = await fetch(`${world.server.url}${byType.passport.file.url}`);
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await shown.arrayBuffer());
      expect([bytes.length, bytes.subarray(1, 4).toString()]).toEqual([file.size, 'PNG']);
      expect(byType.tax_id).toMatchObject({ status: 'PENDING', documentIdentifier: 'LT 3900101' });
      expect(byType.tax_id.file).toBeUndefined();
      // The conventions of every /view: a status alone, sort, all.
      const pending = await req('POST', '/profile-documents/view', support.token, {
        filter: { userIds: user.id, statuses: 'PENDING', types: ['passport'] },
        sort: { createdAt: 'asc' },
        all: true,
      });
      expect(pending.body.records.map((r: { id: string }) => r.id)).toEqual([byType.passport.id]);
      expectError(await req('POST', '/profile-documents/view', compliance.token, { sort: { size: 'asc' } }), 400, 'exception.validation');
      expectError(
        await req('POST', '/profile-documents/view', compliance.token, { filter: { statuses: ['LOST'] } }),
        400,
        'exception.validation',
        'filter.statuses',
      );
      // Customers have no such search.
      expectError(await req('POST', '/profile-documents/view', user.token, kycView(user.organizationId)), 403);
    });

    it('GET /media-links/{id}/{name} — a signed link shows only its own file, unaltered and unexpired', async () => {
      const { user, file } = await withDocuments();
      const other = await withDocuments();
      const view = await req('POST', '/profile-documents/view', compliance.token, kycView(user.organizationId));
      const url = new URL(view.body.records.find((r: { type: string }) => r.type === 'passport').file.url, world.server.url);
      const get = (id: string, query: string) => world.server.request('GET', `/api/v1/media-links/${id}/passport.png?${query}`);
      const expires = url.searchParams.get('expires')!;
      const signature = url.searchParams.get('signature')!;
      expect((await get(file.id, url.search.slice(1))).status).toBe(200);
      // Another file under this link's signature, a later expiry, a changed signature, an expired time: 404, as for no file.
      expect((await get(other.file.id, url.search.slice(1))).status).toBe(404);
      expect((await get(file.id, `expires=${Number(expires) + 3600}&signature=${signature}`)).status).toBe(404);
      expect((await get(file.id, `expires=${expires}&signature=${signature.slice(1)}A`)).status).toBe(404);
      expect((await get(file.id, `expires=${Math.floor(Date.now() / 1000) - 1}&signature=${signature}`)).status).toBe(404);
      // No signature, or a malformed expiry: a 400 naming the field.
      expectError(await get(file.id, `expires=${expires}`), 400, 'exception.validation', 'signature');
      expect((await get(file.id, `expires=soon&signature=${signature}`)).status).toBe(400);
      // The owner's own answers keep the plain link, which takes their token.
      const mine = (await req('GET', '/profile-documents', user.token)).body.documents;
      expect(mine.find((d: { type: string }) => d.type === 'passport').file.url).toBe(`/api/v1/media-files/${file.id}/passport.png`);
    });

    it('POST /profile-documents/{id}/approve — the KYC page approves without a body; the owner’s documents read APPROVED', async () => {
      const { user } = await withDocuments();
      const [passport] = (
        await req('POST', '/profile-documents/view', compliance.token, { filter: { userIds: [user.id], types: ['passport'] } })
      ).body.records;
      const approved = await req('POST', `/profile-documents/${passport.id}/approve`, compliance.token);
      expectStatus(approved, 200);
      expect(approved.body.document).toMatchObject({ id: passport.id, status: 'APPROVED' });
      const mine = (await req('GET', '/profile-documents', user.token)).body.documents;
      expect(mine.find((d: { type: string }) => d.type === 'passport').status).toBe('APPROVED');
      expect(await actionsOf(user.id, 'profile_document_approved')).toEqual([
        { actor_user_id: compliance.id, details: expect.objectContaining({ profileDocumentId: passport.id, type: 'passport' }) },
      ]);
      // The actions-of-users screen shows the document among the objects of the action, in its state now.
      const [{ id: actionId }] = (
        await world.raw.db.query(`SELECT id FROM user_actions WHERE user_id = $1 AND action = 'profile_document_approved'`, [user.id])
      ).rows as { id: string }[];
      const reverse = await req('GET', `/users/view/${actionId}/action-reverse`, admin.token);
      expectStatus(reverse, 200);
      expect(reverse.body.records[0].objectsOfAction).toContainEqual(
        expect.objectContaining({ entityId: passport.id, entityName: 'Identity document', type: 'profile_document', state: 'approved' }),
      );
      // Deciding twice is a 409; support may not decide (403); an unknown document is a 404, a malformed id a 400.
      expectError(
        await req('POST', `/profile-documents/${passport.id}/decline`, compliance.token),
        409,
        'exception.profile_document.decided',
      );
      expectError(
        await req('POST', `/profile-documents/${passport.id}/approve`, compliance.token),
        409,
        'exception.profile_document.decided',
      );
      expectError(await req('POST', `/profile-documents/${passport.id}/approve`, support.token), 403);
      expectError(
        await req('POST', `/profile-documents/00000000-0000-4000-8000-00000000dead/approve`, compliance.token),
        404,
        'exception.profile_document.not_found',
      );
      expectError(await req('POST', `/profile-documents/not-an-id/approve`, compliance.token), 400);
      expect(await actionsOf(user.id, 'profile_document_declined')).toEqual([]);
    });

    it('POST /profile-documents/{id}/decline — the KYC page declines the tax id; linking another makes it PENDING again', async () => {
      const { user } = await withDocuments();
      const [taxId] = (await req('POST', '/profile-documents/view', admin.token, { filter: { userIds: [user.id], types: ['tax_id'] } }))
        .body.records;
      const declined = await req('POST', `/profile-documents/${taxId.id}/decline`, admin.token);
      expectStatus(declined, 200);
      expect(declined.body.document).toMatchObject({ status: 'DECLINED', documentIdentifier: 'LT 3900101' });
      const view = await req('POST', '/profile-documents/view', admin.token, kycView(user.organizationId));
      expect(view.body.records.find((r: { id: string }) => r.id === taxId.id).status).toBe('DECLINED');
      expect(await actionsOf(user.id, 'profile_document_declined')).toEqual([
        { actor_user_id: admin.id, details: expect.objectContaining({ profileDocumentId: taxId.id, type: 'tax_id' }) },
      ]);
      await req('POST', '/profile-documents/identifier', user.token, { documentIdentifier: 'LT 3900102', type: 'tax_id' });
      const again = await req('POST', '/profile-documents/view', admin.token, {
        filter: { userIds: [user.id], statuses: ['PENDING'], types: ['tax_id'] },
      });
      expect(again.body.records).toEqual([expect.objectContaining({ id: taxId.id, documentIdentifier: 'LT 3900102' })]);
    });

    it('GET /media-files/{id}/{name} — staff holding PROFILE_VIEWER download a document’s scan; a stranger, a cashier, get 404', async () => {
      const { user, file } = await withDocuments();
      const scan = await req('GET', `/media-files/${file.id}/passport.png`, compliance.token);
      expectStatus(scan, 200);
      expect(scan.headers.get('content-type')).toBe('image/png');
      expectStatus(await req('GET', `/media-files/${file.id}/passport.png`, user.token), 200);
      const stranger = await world.user();
      expectError(await req('GET', `/media-files/${file.id}/passport.png`, stranger.token), 404, 'exception.media_file.not_found');
      const cashier = await staff('cashier');
      expectError(await req('GET', `/media-files/${file.id}/passport.png`, cashier.token), 404, 'exception.media_file.not_found');
      expectStatus(await req('GET', `/media-files/${file.id}/passport.png`, accountant.token), 200);
    });
  });
});
