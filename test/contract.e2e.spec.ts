import { aUser, login } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, expectError, expectStatus, fund, transfer } from './helpers/money';
import { ADMIN_PASSWORD, request, startExpectingFailure, startServer, TestServer } from './helpers/server';
import { moneyWorld } from './helpers/world';

describe('the wire contract', () => {
  const world = moneyWorld();

  describe('1. amounts are exact JSON numbers', () => {
    it('writes balances and operation amounts as numbers with the currency’s decimals', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const [a, b] = await world.pair(alice, bob, '100.5');
      const sent = await transfer(world.server, alice.token, a.serial, b.serial, '0.25');
      expectStatus(sent, 201);
      expect(sent.text).toMatch(/"amount":0\.25,/);
      expect(sent.text).not.toMatch(/"amount":"/);
      const coin = await world.server.request('GET', `/api/v1/coins/${a.serial}`, { token: alice.token });
      expect(coin.text).toContain('"amount":100.25,"availableAmount":100.25,"heldAmount":0.00');
    });

    it('round-trips an amount of 10^-18 and one of 17 integer digits exactly', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const atto = await anIssuer(
        world.server,
        world.admin,
        (await aCurrency(world.server, world.admin, { fraction: '1000000000000000000' })).code,
      );
      const a = await aCoin(world.server, alice.token, atto.id);
      const b = await aCoin(world.server, bob.token, atto.id);
      await fund(world.server, world.admin, a.serial, '12345678901234567.000000000000000001');
      const sent = await world.server.request('POST', '/api/v1/transfers', {
        token: alice.token,
        rawBody: `{"paymentTool":{"type":"COIN","srcValue":"${a.serial}","destValue":"${b.serial}"},"amount":0.000000000000000001}`,
        headers: { 'content-type': 'application/json' },
      });
      expectStatus(sent, 201);
      expect(sent.text).toContain('"amount":0.000000000000000001,');
      const coin = await world.server.request('GET', `/api/v1/coins/${a.serial}`, { token: alice.token });
      expect(coin.text).toContain('"amount":12345678901234567.000000000000000000,');
      // JSON.parse rounds it; a lossless parser (as the test client uses) reads it exactly.
      expect(JSON.parse(coin.text).coin.amount).toBe(12345678901234568);
      expect(coin.body.coin.amount).toBe('12345678901234567.000000000000000000');
    });
  });

  describe('2 and 3. coins, issuers', () => {
    it('answers a coin with issuer {id, sn, currency code, symbol} and its own currency', async () => {
      const usd = await aCurrency(world.server, world.admin);
      await world.server.request('PATCH', `/api/v1/currencies/${usd.id}`, { token: world.admin, body: { symbol: '$' } });
      const issuer = await anIssuer(world.server, world.admin, usd.code);
      const alice = await world.user();
      const coin = await aCoin(world.server, alice.token, issuer.id);
      expect(coin.issuer).toEqual({ id: issuer.id, sn: issuer.sn, currency: usd.code, symbol: '$' });
      expect(coin.currency).toMatchObject({ id: usd.id, code: usd.code, symbol: '$', fraction: 100 });
    });

    it('lists issuers in records with sn and currencyCode; removed fields sent as null are ignored, other values refused', async () => {
      const currency = await aCurrency(world.server, world.admin);
      const created = await world.server.request('POST', '/api/v1/issuers', {
        token: world.admin,
        body: { currencyCode: currency.code, name: 'Bank', orderNumber: null, orderQuote: null },
      });
      expectStatus(created, 201);
      expect(created.body.issuer).toMatchObject({ sn: expect.any(Number), currencyCode: currency.code });
      const list = await world.server.request('GET', '/api/v1/issuers', { token: world.admin });
      expect(list.body.records.find((i: { id: string }) => i.id === created.body.issuer.id)).toMatchObject({ currencyCode: currency.code });
      for (const body of [{ orderNumber: 3 }, { orderQuote: 'x' }]) {
        const refused = await world.server.request('POST', '/api/v1/issuers', {
          token: world.admin,
          body: { currencyCode: currency.code, name: 'B', ...body },
        });
        expectError(refused, 400, 'exception.validation', Object.keys(body)[0]);
      }
    });
  });

  describe('4. profiles', () => {
    it('answers profile {type, status, person, contact, address, business, security} and memberShips, for a customer and for an administrator', async () => {
      const alice = await world.user({ login: 'alice.profile@example.com', name: 'Alice Liddell' });
      const mine = await world.server.request('GET', '/api/v1/profiles/my', { token: alice.token });
      expectStatus(mine, 200);
      expect(mine.body.profile).toEqual({
        type: 'individual',
        status: 'none',
        person: { namePlain: { first: 'Alice', last: 'Liddell' }, nameIntl: { first: 'Alice', last: 'Liddell' }, dateOfBirth: null },
        contact: { email: 'alice.profile@example.com', emailVerified: false, phoneVerified: false },
        address: {},
        business: {},
        security: {
          twoFactorsAuthEnabled: false,
          transactionNotification: { phone: false, email: false },
          authorizationNotification: { phone: false, email: false },
        },
      });
      expect(mine.body.memberShips).toEqual([{ organizationId: alice.organizationId, roleName: 'individual' }]);
      const theirs = await world.server.request('GET', '/api/v1/profiles/my', { token: world.admin });
      expect(theirs.body.profile).toMatchObject({ type: 'support', person: { namePlain: { first: 'Administrator', last: '' } } });
      expect(theirs.body.memberShips).toEqual([{ organizationId: '00000000-0000-4000-8000-000000000001', roleName: 'administrator' }]);
    });
  });

  describe('5. operations in the family’s vocabulary', () => {
    it('answers type, status, from/to with their issuer, sender/recipient without unknown contacts, and positive legs', async () => {
      const alice = await world.user({ login: 'alice.ops@example.com' });
      const bob = await world.user();
      const [a, b] = await world.pair(alice, bob, '10.00');
      const sent = await transfer(world.server, alice.token, a.serial, b.serial, '4.00');
      const op = sent.body.process;
      expect(op).toMatchObject({ type: 'client_transaction_transfer', status: 'processed', amount: '4.00' });
      const issuer = { id: world.issuer.id, sn: world.issuer.sn, currency: world.currency.code, symbol: null };
      // Each coin as the family's screens show it; of the other organization's, its name and its owner's name only.
      const coin = (serial: string, owner: { organizationId: string }, organizationName: string) => ({
        serial,
        name: 'Wallet',
        organizationId: owner.organizationId,
        organizationName,
        technical: false,
        type: 'client',
        issuer,
      });
      expect(op.from).toEqual(coin(a.serial, alice, op.sender.fullName));
      expect(op.to).toEqual(coin(b.serial, bob, op.recipient.fullName));
      expect(op.sender).toEqual({ organizationId: alice.organizationId, fullName: expect.any(String), email: 'alice.ops@example.com' });
      expect(op.recipient).toEqual({ organizationId: bob.organizationId, fullName: expect.any(String) });
      expect(Object.keys(op.recipient)).not.toContain('phoneNumber');
      expect(op.transactions).toEqual([
        expect.objectContaining({
          type: 'transfer',
          amount: '4.00',
          from: op.from,
          to: op.to,
          issuer: op.from.issuer,
          performedAt: op.createdAt,
        }),
      ]);
      expect(op.children).toEqual([]);
      const topUp = await world.server.request(
        'GET',
        `/api/v1/transactions/${(await fund(world.server, world.admin, a.serial, '1.00')).id}`,
        {
          token: alice.token,
        },
      );
      expect(topUp.body.process).toMatchObject({ type: 'bank_topup', status: 'processed' });
      // Money coming in: a leg out of the issuer's bank-settlement coin, a system coin.
      expect(topUp.body.process.transactions).toEqual([
        expect.objectContaining({
          type: 'issue',
          from: expect.objectContaining({ technical: true, type: 'system' }),
          to: topUp.body.process.to,
        }),
      ]);
    });

    it('filters by types, statuses and, for staff, orgIds', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const [a, b] = await world.pair(alice, bob, '10.00');
      await transfer(world.server, alice.token, a.serial, b.serial, '1.00');
      const view = (token: string, filter: object) =>
        world.server.request('POST', '/api/v1/transactions/view', { token, body: { filter } });
      const transfers = await view(alice.token, { types: ['client_transaction_transfer'], statuses: ['processed'] });
      expect(transfers.body.totalRecords).toBe(1);
      expectError(await view(alice.token, { types: ['transfer'] }), 400, 'exception.validation', 'filter.types');
      expectError(await view(alice.token, { statuses: ['completed'] }), 400, 'exception.validation', 'filter.statuses');
      const bobsByStaff = await view(world.admin, { orgIds: [bob.organizationId] });
      expect(bobsByStaff.body.records.map((r: { type: string }) => r.type)).toEqual(['client_transaction_transfer']);
      // A member's orgIds narrow what it sees: its transfer with Bob, nothing of an organization it never dealt with.
      expect((await view(alice.token, { orgIds: [bob.organizationId] })).body.totalRecords).toBe(1);
      const carol = await world.user();
      expect((await view(alice.token, { orgIds: [carol.organizationId] })).body.totalRecords).toBe(0);
    });
  });

  describe('6. calculations', () => {
    it('answers transactionAmount, the …AmountPush fields, issuer and paymentToolDetails', async () => {
      const alice = await world.user();
      const bob = await world.user();
      const [a, b] = await world.pair(alice, bob, '10.00');
      const calc = await world.server.request('POST', '/api/v1/transfers/calculate', {
        token: alice.token,
        body: { paymentTool: { type: 'COIN', srcValue: a.serial, destValue: b.serial }, amount: '2.5' },
      });
      expectStatus(calc, 200);
      expect(calc.body).toMatchObject({
        transactionAmount: '2.50',
        senderAmountPush: '2.50',
        recipientAmountPush: '2.50',
        commissionAmountPush: '0.00',
        issuer: { currency: world.currency.code, symbol: null },
        paymentToolDetails: { type: 'COIN', srcValue: a.serial, destValue: b.serial, currency: world.currency.code, symbol: null },
      });
    });
  });

  describe('7. coins: active, PUT close, empty target', () => {
    it('lets the owner deactivate and reactivate a coin; a renaming alone keeps it as it was', async () => {
      const alice = await world.user();
      const coin = await world.coin(alice);
      const patch = (body: object) => world.server.request('PATCH', `/api/v1/coins/${coin.serial}`, { token: alice.token, body });
      expect((await patch({ active: false })).body.coin.active).toBe(false);
      expect((await patch({ name: 'Renamed' })).body.coin).toMatchObject({ name: 'Renamed', active: false });
      expect((await patch({ active: true })).body.coin.active).toBe(true);
      expectError(await patch({}), 400, 'exception.validation');
    });

    it('closes with PUT as with POST, and takes an empty transferToCoinSerial as none', async () => {
      const alice = await world.user();
      const empty = await world.coin(alice);
      const closed = await world.server.request('PUT', `/api/v1/close/coin/${empty.serial}`, {
        token: alice.token,
        body: { transferToCoinSerial: '' },
      });
      expectStatus(closed, 200);
      expect(closed.body).toMatchObject({ coin: { serial: empty.serial, active: false }, process: null });
      const funded = await world.coin(alice, '1.00');
      expectError(
        await world.server.request('PUT', `/api/v1/close/coin/${funded.serial}`, {
          token: alice.token,
          body: { transferToCoinSerial: '' },
        }),
        409,
        'exception.coin.not_empty',
      );
    });
  });

  describe('8. users for staff screens', () => {
    it('answers contact, active and banned, and filters by ids and identificationStatus', async () => {
      const carol = await aUser(world.server, world.admin, { login: 'carol@example.com' });
      const page = await world.server.request('POST', '/api/v1/users/view', { token: world.admin, body: { filter: { ids: [carol.id] } } });
      expect(page.body.records).toHaveLength(1);
      expect(page.body.records[0]).toMatchObject({
        id: carol.id,
        contact: { email: 'carol@example.com', emailVerified: false, phoneVerified: false },
        active: true,
        banned: false,
      });
      const none = await world.server.request('POST', '/api/v1/users/view', {
        token: world.admin,
        body: { filter: { ids: [carol.id], identificationStatus: ['approved'] } },
      });
      expect(none.body.totalRecords).toBe(0);
      const some = await world.server.request('POST', '/api/v1/users/view', {
        token: world.admin,
        body: { filter: { ids: [carol.id], identificationStatus: ['none'] } },
      });
      expect(some.body.totalRecords).toBe(1);
      for (let i = 0; i < 3; i++)
        await world.server.request('POST', '/api/v1/authorization', { body: { login: carol.login, password: 'wrong-password-9' } });
      const held = await world.server.request('GET', `/api/v1/users/${carol.id}`, { token: world.admin });
      // On Hold is `banned`; `active` (the family's) turns false only when staff deactivate the user.
      expect(held.body.user).toMatchObject({ status: 'on_hold', active: true, banned: true, deactivatedAt: null });
    });

    it('creates a user without a password or a name: a temporary password shown once, changed at the first login', async () => {
      const created = await world.server.request('POST', '/api/v1/users', {
        token: world.admin,
        body: { login: 'dora@example.com', role: 'individual', firstName: 'Dora', lastName: 'Explorer', phoneNumber: '+37060000001' },
      });
      expectStatus(created, 201);
      expect(created.body).toMatchObject({
        user: { name: 'Dora Explorer', firstName: 'Dora', contact: { email: 'dora@example.com', phoneNumber: '+37060000001' } },
        temporaryPassword: expect.any(String),
        temporaryPasswordExpiresAt: expect.any(String),
      });
      const first = await world.server.request('POST', '/api/v1/authorization', {
        body: { login: 'dora@example.com', password: created.body.temporaryPassword },
      });
      expect(first.body.action).toBe('PASSWORD_CHANGE_REQUIRED');
      const withPassword = await world.server.request('POST', '/api/v1/users', {
        token: world.admin,
        body: { login: 'eve@example.com', password: 'eve-pass-word-1', role: 'individual' },
      });
      expect(Object.keys(withPassword.body)).not.toContain('temporaryPassword');
      expect(withPassword.body.user.name).toBe('eve@example.com');
      expect(await login(world.server, 'eve@example.com', 'eve-pass-word-1')).toEqual(expect.any(String));
    });
  });

  describe('9 and 17. error catalogue and i18n export', () => {
    it('answers every error code with its English message, publicly; other locales fall back to English', async () => {
      const en = await world.server.request('GET', '/api/v1/i18n/export/en.json');
      expect(en.status).toBe(200);
      expect(en.body['exception.coin.insufficient_funds']).toBe('The coin has insufficient available funds');
      expect(Object.keys(en.body).length).toBeGreaterThan(40);
      expect(Object.keys(en.body).every((code) => /^exception(\.[a-z_]+)+$/.test(code))).toBe(true);
      const fr = await world.server.request('GET', '/api/v1/i18n/export/fr.json');
      expect(fr.status).toBe(200);
      expect(fr.body).toEqual(en.body);
      expectError(await world.server.request('GET', '/api/v1/i18n/export/en.xml'), 404, 'exception.not_found');
    });

    it('answers each error with a code the export knows', async () => {
      const en = (await world.server.request('GET', '/api/v1/i18n/export/en.json')).body;
      const missing = await world.server.request('GET', '/api/v1/users/00000000-0000-4000-8000-00000000dead', { token: world.admin });
      expect(missing.status).toBe(404);
      expect(en[missing.body.code]).toBe('No such user');
      const unauthorized = await world.server.request('GET', '/api/v1/profiles/my');
      expect(en[unauthorized.body.code]).toBe('Send Authorization: Bearer <token>');
    });
  });
});

describe('11. the default administrator login is e-mail shaped', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ADMIN_LOGIN: '' });
  });
  afterAll(() => server.stop());

  it('creates admin@finapi.local on the first start', async () => {
    const answer = await request(server.url, 'POST', '/api/v1/authorization', {
      body: { login: 'admin@finapi.local', password: ADMIN_PASSWORD },
    });
    expectStatus(answer, 200);
    const profile = await server.request('GET', '/api/v1/profiles/my', { token: answer.body.authorizationToken.token });
    expect(profile.body.profile.contact.email).toBe('admin@finapi.local');
  });
});

describe('16. CORS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' });
  });
  afterAll(() => server.stop());

  it('answers a preflight from an allowed origin, without credentials, and exposes the headers clients read', async () => {
    const preflight = await request(server.url, 'OPTIONS', '/api/v1/transfers', {
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const answer = await request(server.url, 'GET', '/api/v1/actuator/info', { headers: { origin: 'http://localhost:5173' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(answer.headers.get('access-control-expose-headers')).toBe('X-Request-Id, Idempotent-Replayed, Retry-After');
  });

  it('says nothing to another origin, and nothing to anyone without CORS_ORIGINS', async () => {
    const other = await request(server.url, 'GET', '/api/v1/actuator/info', { headers: { origin: 'https://evil.example.com' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await startServer();
    try {
      const none = await request(plain.url, 'GET', '/api/v1/actuator/info', { headers: { origin: 'https://app.example.com' } });
      expect(none.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.stop();
    }
  });

  it('refuses to start with an origin that is not one', async () => {
    const failed = await startExpectingFailure({
      CORS_ORIGINS: 'https://app.example.com/path',
      DATABASE_URL: 'postgres://x@127.0.0.1:1/x',
    });
    expect(failed.output).toContain('Invalid configuration: CORS_ORIGINS must be origins like https://app.example.com');
  });
});
