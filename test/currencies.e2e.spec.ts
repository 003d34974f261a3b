import { adminToken, aUser } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, expectError, expectStatus, recording, uniqueCode } from './helpers/money';
import { startServer, TestServer } from './helpers/server';

const CURRENCIES = '/api/v1/currencies';
const ISSUERS = '/api/v1/issuers';

describe('currencies and issuers', () => {
  let server: ReturnType<typeof recording>;
  let raw: TestServer;
  let admin: string;

  beforeAll(async () => {
    raw = await startServer();
    server = recording(raw);
    admin = await adminToken(server);
  });
  afterAll(() => raw.stop());
  afterEach(() => server.expectCleanResponses());

  describe('currencies', () => {
    it('creates a currency with its fraction and lists it with the fraction', async () => {
      const code = uniqueCode('C');
      const created = await server.request('POST', CURRENCIES, {
        token: admin,
        body: { code, digitalCode: '978', symbol: '€', name: 'Euro', description: 'Single currency', fraction: 1000 },
      });
      expectStatus(created, 201);
      expect(created.body).toMatchObject({ status: 'ok' });
      expect(created.body.currency).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        code,
        digitalCode: '978',
        symbol: '€',
        name: 'Euro',
        description: 'Single currency',
        fraction: 1000,
        active: true,
      });
      const list = await server.request('GET', CURRENCIES, { token: admin });
      expectStatus(list, 200);
      expect(list.body.currencies).toContainEqual(created.body.currency);
    });

    it('defaults the fraction to 100', async () => {
      const currency = await aCurrency(server, admin);
      expect(currency.fraction).toBe(100);
    });

    it('accepts fraction 10^18 as a string and as a JSON number, and answers it exactly', async () => {
      const asString = await aCurrency(server, admin, { fraction: '1000000000000000000' });
      expect(asString.fraction).toBe(1e18);
      const code = uniqueCode('N');
      const asNumber = await server.request('POST', CURRENCIES, {
        token: admin,
        rawBody: `{"code":"${code}","name":"Atto","fraction":1000000000000000000}`,
        headers: { 'content-type': 'application/json' },
      });
      expectStatus(asNumber, 201);
      expect(asNumber.text).toContain('"fraction":1000000000000000000');
      const list = await server.request('GET', CURRENCIES, { token: admin });
      expect(list.text).toContain(`"code":"${code}"`);
      expect(list.body.currencies.find((c: { code: string }) => c.code === code).fraction).toBe(1e18);
      const one = await aCurrency(server, admin, { fraction: 1 });
      expect(one.fraction).toBe(1);
    });

    it.each([
      ['zero', 0],
      ['not a power of ten', 250],
      ['three', 3],
      ['negative', -100],
      ['a fraction of a unit', 0.1],
      ['10^19 as a string', '10000000000000000000'],
      ['10^19 as a number', 1e19],
      ['a word', 'hundred'],
      ['a padded string', '0100'],
    ])('rejects a fraction that is %s with 400', async (_, fraction) => {
      const response = await server.request('POST', CURRENCIES, { token: admin, body: { code: uniqueCode(), name: 'Bad', fraction } });
      expectError(response, 400, 'exception.validation', 'fraction');
    });

    it('rejects 10^19 sent as a raw JSON number with 400', async () => {
      const response = await server.request('POST', CURRENCIES, {
        token: admin,
        rawBody: `{"code":"${uniqueCode()}","name":"Big","fraction":10000000000000000000}`,
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'exception.validation', 'fraction');
    });

    it('answers a duplicate code or digital code with 409', async () => {
      const currency = await aCurrency(server, admin);
      const again = await server.request('POST', CURRENCIES, { token: admin, body: { code: currency.code, name: 'Again' } });
      expectError(again, 409, 'exception.currency.code_taken');
      const digital = await server.request('POST', CURRENCIES, {
        token: admin,
        body: { code: uniqueCode(), name: 'D1', digitalCode: '111' },
      });
      expectStatus(digital, 201);
      const clash = await server.request('POST', CURRENCIES, {
        token: admin,
        body: { code: uniqueCode(), name: 'D2', digitalCode: '111' },
      });
      expectError(clash, 409, 'exception.currency.digital_code_taken');
    });

    it('rejects unknown fields and bad codes with 400', async () => {
      const unknown = await server.request('POST', CURRENCIES, { token: admin, body: { code: uniqueCode(), name: 'U', rate: 1 } });
      expectError(unknown, 400, 'exception.validation', 'rate');
      const lower = await server.request('POST', CURRENCIES, { token: admin, body: { code: 'usd', name: 'U' } });
      expectError(lower, 400, 'exception.validation', 'code');
    });

    it('changes the fraction while no coin holds the currency, and refuses it after (409)', async () => {
      const currency = await aCurrency(server, admin);
      const before = await server.request('PATCH', `${CURRENCIES}/${currency.id}`, { token: admin, body: { fraction: '1000' } });
      expectStatus(before, 200);
      expect(before.body.currency.fraction).toBe(1000);
      const issuer = await anIssuer(server, admin, currency.code);
      const user = await aUser(server, admin);
      await aCoin(server, user.token, issuer.id);
      const after = await server.request('PATCH', `${CURRENCIES}/${currency.id}`, { token: admin, body: { fraction: 100 } });
      expectError(after, 409, 'exception.currency.fraction_locked');
      const same = await server.request('PATCH', `${CURRENCIES}/${currency.id}`, {
        token: admin,
        body: { fraction: 1000, name: 'Renamed' },
      });
      expectStatus(same, 200);
      expect(same.body.currency).toMatchObject({ fraction: 1000, name: 'Renamed' });
      const bad = await server.request('PATCH', `${CURRENCIES}/${currency.id}`, { token: admin, body: { fraction: 7 } });
      expectError(bad, 400, 'exception.validation', 'fraction');
      const code = await server.request('PATCH', `${CURRENCIES}/${currency.id}`, { token: admin, body: { code: 'ZZZ' } });
      expectError(code, 400, 'exception.validation', 'code');
    });

    it('answers PATCH of an unknown currency with 404 and of a malformed id with 400', async () => {
      expectError(
        await server.request('PATCH', `${CURRENCIES}/00000000-0000-4000-8000-00000000abcd`, { token: admin, body: { name: 'x' } }),
        404,
        'exception.currency.not_found',
      );
      expectError(await server.request('PATCH', `${CURRENCIES}/not-a-uuid`, { token: admin, body: { name: 'x' } }), 400);
    });

    it('searches currencies with paging, and rejects unknown filter fields', async () => {
      const a = await aCurrency(server, admin, { code: uniqueCode('V') });
      const b = await aCurrency(server, admin, { code: uniqueCode('V') });
      const page = await server.request('POST', `${CURRENCIES}/view`, {
        token: admin,
        body: { pageNumber: 0, pageSize: 1, filter: { codes: [a.code, b.code] }, sort: { code: 'desc' } },
      });
      expectStatus(page, 200);
      expect(page.body).toMatchObject({ status: 'ok', pageNumber: 0, pageSize: 1, totalRecords: 2, totalPages: 2 });
      expect(page.body.records).toEqual([[a, b].sort((x, y) => (x.code < y.code ? 1 : -1))[0]]);
      const unknown = await server.request('POST', `${CURRENCIES}/view`, { token: admin, body: { filter: { color: 'red' } } });
      expectError(unknown, 400, 'exception.validation', 'filter.color');
    });

    it('lets customers read currencies but not create them', async () => {
      const user = await aUser(server, admin);
      expectStatus(await server.request('GET', CURRENCIES, { token: user.token }), 200);
      expectError(await server.request('POST', CURRENCIES, { token: user.token, body: { code: uniqueCode(), name: 'No' } }), 403);
      expectError(await server.request('GET', CURRENCIES), 401);
    });
  });

  describe('issuers', () => {
    it('creates an issuer with its currency and lists it', async () => {
      const currency = await aCurrency(server, admin);
      const created = await server.request('POST', ISSUERS, {
        token: admin,
        body: { currencyCode: currency.code, name: 'First bank', description: 'Settles in USD' },
      });
      expectStatus(created, 201);
      expect(created.body.issuer).toEqual({
        id: expect.any(String),
        sn: expect.any(Number),
        snPrefix: expect.stringMatching(/^[1-9][0-9]*$/),
        currencyCode: currency.code,
        name: 'First bank',
        description: 'Settles in USD',
        active: true,
        currency,
      });
      // The family's name of the serial number, as text.
      expect(created.body.issuer.snPrefix).toBe(String(created.body.issuer.sn));
      const list = await server.request('GET', ISSUERS, { token: admin });
      expect(list.body.records).toContainEqual(created.body.issuer);
    });

    it.each(['orderNumber', 'orderQuote'])('treats %s as an unknown field (400)', async (field) => {
      const currency = await aCurrency(server, admin);
      const response = await server.request('POST', ISSUERS, {
        token: admin,
        body: { currencyCode: currency.code, name: 'B', [field]: 1 },
      });
      expectError(response, 400, 'exception.validation', field);
      const issuer = await anIssuer(server, admin, currency.code);
      const patch = await server.request('PATCH', `${ISSUERS}/${issuer.id}`, { token: admin, body: { [field]: '2' } });
      expectError(patch, 400, 'exception.validation', field);
    });

    it('answers an unknown currency code with 404', async () => {
      const response = await server.request('POST', ISSUERS, { token: admin, body: { currencyCode: 'NOPE42', name: 'B' } });
      expectError(response, 404, 'exception.currency.not_found');
    });

    it('applies PATCH /issuers/{id} so that GET shows it', async () => {
      const currency = await aCurrency(server, admin);
      const issuer = await anIssuer(server, admin, currency.code, 'Old name');
      const patched = await server.request('PATCH', `${ISSUERS}/${issuer.id}`, {
        token: admin,
        body: { name: 'New name', description: 'New description', active: false },
      });
      expectStatus(patched, 200);
      expect(patched.body.issuer).toMatchObject({
        id: issuer.id,
        sn: issuer.sn,
        name: 'New name',
        description: 'New description',
        active: false,
      });
      const list = await server.request('GET', ISSUERS, { token: admin });
      expect(list.body.records.find((i: { id: string }) => i.id === issuer.id)).toMatchObject({
        name: 'New name',
        description: 'New description',
        active: false,
      });
      // an inactive issuer opens no coins
      const user = await aUser(server, admin);
      expectError(await server.request('POST', '/api/v1/coins', { token: user.token, body: { issuerId: issuer.id, name: 'W' } }), 409);
      const back = await server.request('PATCH', `${ISSUERS}/${issuer.id}`, { token: admin, body: { active: true } });
      expect(back.body.issuer).toMatchObject({ name: 'New name', active: true });
      expectStatus(await server.request('POST', '/api/v1/coins', { token: user.token, body: { issuerId: issuer.id, name: 'W' } }), 201);
    });

    it('answers PATCH of an unknown issuer with 404, and customers get 403', async () => {
      expectError(
        await server.request('PATCH', `${ISSUERS}/00000000-0000-4000-8000-00000000abcd`, { token: admin, body: { name: 'x' } }),
        404,
        'exception.issuer.not_found',
      );
      const currency = await aCurrency(server, admin);
      const user = await aUser(server, admin, { role: 'merchant' });
      expectError(await server.request('POST', ISSUERS, { token: user.token, body: { currencyCode: currency.code, name: 'B' } }), 403);
      expectStatus(await server.request('GET', ISSUERS, { token: user.token }), 200);
    });
  });
});
