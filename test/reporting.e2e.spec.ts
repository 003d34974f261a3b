import { Actor } from './helpers/actors';
import { aRate } from './helpers/exchange';
import { aCurrency, anIssuer, CoinBody, expectError, expectStatus, IssuerBody, transfer } from './helpers/money';
import { moneyWorld } from './helpers/world';

const ATTO = '1000000000000000000';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an instant, `YYYY-MM-DD`, shifted by `days`. */
const dayOf = (iso: string, days = 0) => new Date(Date.parse(iso.slice(0, 10)) + days * DAY_MS).toISOString().slice(0, 10);

/** The fields of a coin's share the tests below compare (the family's `coinEntry` and `roundedAmount` are checked in test/family-client). */
const share = ({ serial, name, amount, percentFromTotal }: Record<string, unknown>) => ({ serial, name, amount, percentFromTotal });

describe('reporting on the caller’s own coins', () => {
  const world = moneyWorld();
  const bob = world.suiteUser({ role: 'merchant' });
  const bobCoin = world.suiteCoin(bob, '500.00');

  const report = (token: string, path: string, query: Record<string, string> = {}) =>
    world.server.request('GET', `/api/v1/reporting/coins${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, {
      token,
    });

  describe('GET /reporting/coins', () => {
    it('answers the total of the open coins of a currency, rounded to its cents, and each coin’s exact share', async () => {
      const alice = await world.user();
      const a1 = await world.coin(alice, '100.00');
      const a2 = await world.coin(alice, '50.50');
      const closed = await world.coin(alice);
      expectStatus(await world.server.request('POST', `/api/v1/close/coin/${closed.serial}`, { token: alice.token, body: {} }), 200);

      const response = await report(alice.token, '', { currency: world.currency.code });
      expectStatus(response, 200);
      expect(response.body).toEqual({
        status: 'ok',
        message: 'OK',
        totalAmount: '150.50',
        // Rounded to the currency's minor unit, not to whole units (which made it 150): nothing to round here.
        roundedTotalAmount: '150.50',
        currency: world.currency.code,
        symbol: null,
        unconvertedCurrencies: [],
        coinsDetail: [expect.objectContaining({ serial: a1.serial }), expect.objectContaining({ serial: a2.serial })],
      });
      expect(response.body.coinsDetail.map(share)).toEqual([
        { serial: a1.serial, name: 'Wallet', amount: '100.00', percentFromTotal: '66.45' },
        { serial: a2.serial, name: 'Wallet', amount: '50.50', percentFromTotal: '33.55' },
      ]);
      // Exact JSON numbers on the wire, never strings.
      expect(response.text).toContain('"totalAmount":150.50,"roundedTotalAmount":150.50,');
      expect(response.text).toContain('"amount":100.00,"percentFromTotal":66.45,"roundedAmount":100.00,');
    });

    it('answers zeros and no coin for a currency the caller holds no coin of, and 0 % for coins of a zero total', async () => {
      const carol = await world.user();
      const other = await aCurrency(world.server, world.admin);
      const none = await report(carol.token, '', { currency: other.code });
      expectStatus(none, 200);
      expect(none.body).toMatchObject({ totalAmount: '0.00', roundedTotalAmount: '0.00', currency: other.code, coinsDetail: [] });

      const empty = await world.coin(carol);
      const zero = await report(carol.token, '', { currency: world.currency.code });
      expect(zero.body.coinsDetail.map(share)).toEqual([
        { serial: empty.serial, name: 'Wallet', amount: '0.00', percentFromTotal: '0.00' },
      ]);
      expect(zero.body.totalAmount).toBe('0.00');
    });

    it('is exact at a fraction of 10^18', async () => {
      const atto = await aCurrency(world.server, world.admin, { fraction: ATTO });
      const issuer: IssuerBody = await anIssuer(world.server, world.admin, atto.code);
      const dave = await world.user();
      const small = await world.coin(dave, '0.000000000000000001', issuer.id);
      const large = await world.coin(dave, '12345678901234567.500000000000000001', issuer.id);
      const response = await report(dave.token, '', { currency: atto.code });
      expectStatus(response, 200);
      expect(response.body.totalAmount).toBe('12345678901234567.500000000000000002');
      // Its minor unit is 10^-18: the rounded total is the exact one, to the last digit.
      expect(response.text).toContain('"roundedTotalAmount":12345678901234567.500000000000000002,');
      expect(response.body.coinsDetail.map(share)).toEqual([
        { serial: small.serial, name: 'Wallet', amount: '0.000000000000000001', percentFromTotal: '0.00' },
        { serial: large.serial, name: 'Wallet', amount: '12345678901234567.500000000000000001', percentFromTotal: '100.00' },
      ]);
      expect(response.text).toContain('"amount":0.000000000000000001,');
    });

    it('converts the coins of other currencies at the rate in force, rounds half-even to the minor unit, and names those without a rate', async () => {
      const other = await aCurrency(world.server, world.admin, { fraction: 100 });
      const otherIssuer = await anIssuer(world.server, world.admin, other.code);
      const unrated = await aCurrency(world.server, world.admin, { fraction: 100 });
      const unratedIssuer = await anIssuer(world.server, world.admin, unrated.code);
      const whole = await aCurrency(world.server, world.admin, { fraction: 1 });
      // other→currency: an older rate, the one in force, and one that takes effect later.
      await aRate(world.server, world.admin, other.code, world.currency.code, '0.5');
      await aRate(world.server, world.admin, other.code, world.currency.code, '0.125');
      await aRate(world.server, world.admin, other.code, world.currency.code, '10', '2099-01-01T00:00:00Z');
      // Only the inverse pair of unrated→currency has a rate: never inverted.
      await aRate(world.server, world.admin, world.currency.code, unrated.code, '2');
      await aRate(world.server, world.admin, world.currency.code, whole.code, '2.5');
      const gina = await world.user();
      const own = await world.coin(gina, '1.00');
      const foreign = await world.coin(gina, '1.00', otherIssuer.id);
      const left = await world.coin(gina, '7.00', unratedIssuer.id);

      const response = await report(gina.token, '', { currency: world.currency.code });
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        // 1.00 + 1.00 × 0.125 exactly; 1.125 is a tie at the cent, which half-even takes to the even 1.12.
        totalAmount: '1.125',
        roundedTotalAmount: '1.12',
        currency: world.currency.code,
        unconvertedCurrencies: [unrated.code],
      });
      expect(response.body.coinsDetail).toEqual([
        expect.objectContaining({
          serial: own.serial,
          amount: '1.00',
          roundedAmount: '1.00',
          percentFromTotal: '88.89',
          currency: world.currency.code,
        }),
        {
          serial: foreign.serial,
          name: 'Wallet',
          amount: '0.125',
          percentFromTotal: '11.11',
          roundedAmount: '0.12',
          currency: world.currency.code,
          symbol: null,
          coinEntry: { currency: other.code, amount: '1.00', issuerId: otherIssuer.id, symbol: null },
        },
      ]);
      expect(response.text).toContain('"totalAmount":1.125,"roundedTotalAmount":1.12,');

      // In the currency that had no rate into the asked one: its own coin, the asked one's converted, the third left out.
      const inUnrated = await report(gina.token, '', { currency: unrated.code });
      expect(inUnrated.body).toMatchObject({ totalAmount: '9.00', roundedTotalAmount: '9.00', unconvertedCurrencies: [other.code] });
      expect(inUnrated.body.coinsDetail.map(share)).toEqual([
        { serial: own.serial, name: 'Wallet', amount: '2.00', percentFromTotal: '22.22' },
        { serial: left.serial, name: 'Wallet', amount: '7.00', percentFromTotal: '77.78' },
      ]);

      // A currency without decimals: its minor unit is the whole unit (2.5, a tie, to the even 2).
      const inWhole = await report(gina.token, '', { currency: whole.code });
      expect(inWhole.body).toMatchObject({
        totalAmount: '2.5',
        roundedTotalAmount: 2,
        unconvertedCurrencies: [other.code, unrated.code].sort(),
      });
      expect(inWhole.body.coinsDetail).toEqual([expect.objectContaining({ serial: own.serial, amount: '2.5', roundedAmount: 2 })]);
    });

    it('shows only the caller’s organization’s coins', async () => {
      const erin = await world.user();
      const response = await report(erin.token, '', { currency: world.currency.code });
      expect(response.body.coinsDetail).toEqual([]);
      const bobs = await report(bob.token, '', { currency: world.currency.code });
      expect(bobs.body.coinsDetail.map((c: { serial: string }) => c.serial)).toEqual([bobCoin.serial]);
    });

    it('answers 404 for an unknown currency and 400 for a missing or malformed one or an unknown query field', async () => {
      const token = bob.token;
      expectError(await report(token, '', { currency: 'NOPE123' }), 404, 'exception.currency.not_found');
      expectError(await report(token, '/funds-flows', { currency: 'NOPE123' }), 404, 'exception.currency.not_found');
      expectError(await report(token, '/outflows', { currency: 'NOPE123' }), 404, 'exception.currency.not_found');
      expectError(await report(token, ''), 400, 'exception.validation', 'currency');
      expectError(await report(token, '', { currency: 'usd' }), 400, 'exception.validation', 'currency');
      expectError(await report(token, '', { currency: world.currency.code, colour: 'red' }), 400, 'exception.validation', 'colour');
      expectError(
        await world.server.request('GET', `/api/v1/reporting/coins?currency=${world.currency.code}&currency=EUR`, { token }),
        400,
      );
    });

    it('is for customers: staff own no coins (403), and a token is needed (401)', async () => {
      expectError(await report(world.admin, '', { currency: world.currency.code }), 403, 'exception.access.permission_missing');
      expectError(await world.server.request('GET', `/api/v1/reporting/coins?currency=${world.currency.code}`), 401);
    });
  });

  describe('funds flows and daily outflows', () => {
    let carol: Actor;
    let c1: CoinBody;
    let c2: CoinBody;
    let day: string;
    let range: { from: string; to: string };

    /** A report's whole answer for the world's currency over `range` (its bounds as answered), with its own `fields`. */
    const inTheRange = (fields: Record<string, unknown>) => ({
      status: 'ok',
      message: 'OK',
      currencyCode: world.currency.code,
      currencySymbol: null,
      from: `${dayOf(day, -2)}T00:00:00.000Z`,
      to: `${dayOf(day, 1)}T00:00:00.000Z`,
      ...fields,
    });

    beforeAll(async () => {
      carol = await world.user();
      c1 = await world.coin(carol, '100.00'); // in from the bank: inflow
      c2 = await world.coin(carol);
      // Between Carol's own coins: not a flow of her organization, but one of each coin.
      expectStatus(await transfer(world.server, carol.token, c1.serial, c2.serial, '30.00'), 201);
      const out = await transfer(world.server, carol.token, c1.serial, bobCoin.serial, '12.34');
      expectStatus(out, 201);
      const incoming = await transfer(world.server, bob.token, bobCoin.serial, c2.serial, '5.00');
      expectStatus(incoming, 201);
      // The reversal of Bob's payment takes 5.00 out of c2 again: a flow the other way.
      const reversed = await world.server.request('POST', `/api/v1/transactions/${incoming.body.process.id}/reverse`, {
        token: world.admin,
        body: {},
      });
      expectStatus(reversed, 201);
      day = dayOf(out.body.process.createdAt);
      range = { from: `${dayOf(day, -2)}T00:00:00Z`, to: `${dayOf(day, 1)}T00:00:00Z` };
    });

    it('sums what entered and left the organization in a currency, leaving out moves between its own coins', async () => {
      const response = await report(carol.token, '/funds-flows', { currency: world.currency.code, ...range });
      expectStatus(response, 200);
      expect(response.body).toEqual(inTheRange({ inflowSum: '105.00', outflowSum: '17.34' }));
      expect(response.text).toContain('"inflowSum":105.00,"outflowSum":17.34,');
    });

    it('counts, for one coin, every movement to or from any other coin, the organization’s own included', async () => {
      const first = await report(carol.token, `/funds-flows/${c1.serial}`, range);
      expectStatus(first, 200);
      expect(first.body).toMatchObject({ currencyCode: world.currency.code, inflowSum: '100.00', outflowSum: '42.34' });
      const second = await report(carol.token, `/funds-flows/${c2.serial}`, range);
      expect(second.body).toMatchObject({ inflowSum: '35.00', outflowSum: '5.00' });
    });

    it('answers the outflow of every UTC day of the range, 0 for days without any', async () => {
      const response = await report(carol.token, '/outflows', { currency: world.currency.code, ...range });
      expectStatus(response, 200);
      expect(response.body).toEqual(
        inTheRange({
          outflowSum: '17.34',
          // Carol tagged nothing: all of it is uncategorized.
          records: [
            {
              categoryId: null,
              sum: '17.34',
              percentage: '100.00',
              numberOfOperations: 2,
              currencyCode: world.currency.code,
              currencySymbol: null,
            },
          ],
          days: [
            { date: dayOf(day, -2), outflowSum: '0.00' },
            { date: dayOf(day, -1), outflowSum: '0.00' },
            { date: day, outflowSum: '17.34' },
          ],
        }),
      );
      // A range ending inside a day lists that day; one starting at its midnight does not list the day before.
      const partial = await report(carol.token, '/outflows', {
        currency: world.currency.code,
        from: `${day}T00:00:00Z`,
        to: `${day}T00:00:00.001Z`,
      });
      expect(partial.body.days.map((r: { date: string }) => r.date)).toEqual([day]);
    });

    it('defaults to the last 30 UTC days with today, ending now', async () => {
      const response = await report(carol.token, '/outflows', { currency: world.currency.code });
      expectStatus(response, 200);
      const records: { date: string; outflowSum: string }[] = response.body.days;
      expect(records).toHaveLength(30);
      expect(response.body.from).toBe(`${records[0].date}T00:00:00.000Z`);
      expect(Date.now() - Date.parse(response.body.to)).toBeLessThan(60_000);
      expect(records.find((r) => r.date === day)?.outflowSum).toBe('17.34');
      const flows = await report(carol.token, '/funds-flows', { currency: world.currency.code });
      expect(flows.body).toMatchObject({ inflowSum: '105.00', outflowSum: '17.34', from: response.body.from });
    });

    it('answers zeros outside the range, for a currency without coins, and reads dates with offsets', async () => {
      const before = { from: `${dayOf(day, -10)}T00:00:00Z`, to: `${dayOf(day, -1)}T00:00:00Z` };
      expect((await report(carol.token, '/funds-flows', { currency: world.currency.code, ...before })).body).toMatchObject({
        inflowSum: '0.00',
        outflowSum: '0.00',
      });
      const other = await aCurrency(world.server, world.admin);
      expect((await report(carol.token, '/funds-flows', { currency: other.code, ...range })).body).toMatchObject({
        currencyCode: other.code,
        inflowSum: '0.00',
        outflowSum: '0.00',
      });
      // The same range written with a +02:00 offset, and as plain dates.
      const shifted = { from: `${dayOf(day, -2)}T02:00:00+02:00`, to: `${dayOf(day, 1)}T02:00:00+02:00` };
      const withOffset = await report(carol.token, '/funds-flows', { currency: world.currency.code, ...shifted });
      expect(withOffset.body).toMatchObject({ inflowSum: '105.00', outflowSum: '17.34', from: range.from.replace('Z', '.000Z') });
      const plain = await report(carol.token, '/funds-flows', { currency: world.currency.code, from: dayOf(day, -2), to: dayOf(day, 1) });
      expect(plain.body).toMatchObject({ inflowSum: '105.00', outflowSum: '17.34' });
    });

    it('refuses a date that is not ISO 8601, an end not after the start, and a daily range over 366 days (400)', async () => {
      const q = { currency: world.currency.code };
      for (const [path, base] of [
        ['/funds-flows', q],
        ['/outflows', q],
        [`/funds-flows/${c1.serial}`, {}],
      ] as const) {
        expectError(await report(carol.token, path, { ...base, from: '31/01/2026' }), 400, 'exception.validation', 'from');
        expectError(await report(carol.token, path, { ...base, to: '2026-02-30' }), 400, 'exception.validation', 'to');
        expectError(await report(carol.token, path, { ...base, from: '2026-01-01T10:00:00' }), 400, 'exception.validation', 'from');
        expectError(await report(carol.token, path, { ...base, ...range, to: range.from }), 400, 'exception.validation', 'to');
        expectError(await report(carol.token, path, { ...base, from: range.to, to: range.from }), 400, 'exception.validation', 'to');
        // Only from, in the future: the end (now) is not after it.
        expectError(await report(carol.token, path, { ...base, from: '2999-01-01T00:00:00Z' }), 400, 'exception.validation', 'to');
      }
      expectStatus(await report(carol.token, '/outflows', { ...q, from: '2025-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }), 200);
      expectError(
        await report(carol.token, '/outflows', { ...q, from: '2025-01-01T00:00:00Z', to: '2026-01-02T00:00:01Z' }),
        400,
        'exception.validation',
        'to',
      );
      // The sums have no such limit.
      expectStatus(await report(carol.token, '/funds-flows', { ...q, from: '2000-01-01T00:00:00Z' }), 200);
    });

    it('answers 404 for another organization’s coin and 400 for a malformed serial', async () => {
      expectError(await report(bob.token, `/funds-flows/${c1.serial}`, range), 404, 'exception.coin.not_found');
      expectError(await report(carol.token, `/funds-flows/${bobCoin.serial}`, range), 404, 'exception.coin.not_found');
      expectError(await report(carol.token, '/funds-flows/999999999999', range), 404, 'exception.coin.not_found');
      expectError(await report(carol.token, '/funds-flows/abc', range), 400, 'exception.validation', 'serial');
      expectError(
        await report(carol.token, `/funds-flows/${c1.serial}`, { currency: world.currency.code }),
        400,
        'exception.validation',
        'currency',
      );
    });
  });

  it('documents the dashboard’s operations with ids a client can call, formats and nullable fields', async () => {
    const doc = (await world.server.request('GET', '/swagger/openapi.json')).body;
    const operationIds = Object.fromEntries(
      Object.entries<Record<string, { operationId: string }>>(doc.paths)
        .filter(([path]) => /reporting|transaction-categories|templates\/transfer/.test(path))
        .flatMap(([path, item]) =>
          Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation.operationId]),
        ),
    );
    expect(operationIds).toEqual({
      'GET /api/v1/reporting/coins': 'reportCoins',
      'GET /api/v1/reporting/coins/funds-flows': 'reportFundsFlows',
      'GET /api/v1/reporting/coins/funds-flows/{serial}': 'reportCoinFundsFlows',
      'GET /api/v1/reporting/coins/outflows': 'reportDailyOutflows',
      'GET /api/v1/reporting/coins/outflows/{serial}': 'reportCoinOutflows',
      'POST /api/v1/transaction-categories': 'createTransactionCategory',
      'POST /api/v1/transaction-categories/view': 'viewTransactionCategories',
      'DELETE /api/v1/transaction-categories/{id}': 'deleteTransactionCategory',
      'POST /api/v1/transaction-categories/{id}/operations/view': 'viewTransactionCategoryOperations',
      'POST /api/v1/transaction-categories/{id}/operations/{operationId}': 'tagOperationWithCategory',
      'DELETE /api/v1/transaction-categories/{id}/operations/{operationId}': 'untagOperationFromCategory',
      'GET /api/v1/templates/transfer': 'listTransferTemplates',
      'POST /api/v1/templates/transfer': 'createTransferTemplate',
      'POST /api/v1/templates/transfer/operation/{operationId}': 'createTransferTemplateFromOperation',
      'POST /api/v1/templates/transfer/view': 'viewTransferTemplates',
      'PATCH /api/v1/templates/transfer/{id}': 'updateTransferTemplate',
      'DELETE /api/v1/templates/transfer/{id}': 'deleteTransferTemplate',
      'POST /api/v1/templates/transfer/{id}/calculate': 'calculateTransferTemplate',
      'POST /api/v1/templates/transfer/{id}/execute': 'executeTransferTemplate',
    });
    const flows = doc.paths['/api/v1/reporting/coins/funds-flows/{serial}'].get.parameters;
    expect(flows.find((p: { name: string }) => p.name === 'serial').schema.pattern).toBe('^[1-9][0-9]{0,17}$');
    expect(flows.find((p: { name: string }) => p.name === 'from')).toMatchObject({
      in: 'query',
      required: false,
      schema: { format: 'date-time' },
    });
    const schemas = doc.components.schemas;
    expect(schemas.CoinsReportDto.required).toEqual(
      expect.arrayContaining(['totalAmount', 'roundedTotalAmount', 'currency', 'symbol', 'coinsDetail']),
    );
    expect(schemas.CoinsReportDto.properties.symbol.nullable).toBe(true);
    expect(schemas.DailyOutflowDto.properties.date.format).toBe('date');
    expect(schemas.TransactionCategoryDto.properties.color.nullable).toBe(true);
    expect(schemas.CreateTransactionCategoryDto.required).toEqual(['name']);
    // payerCoin and payeeCoin, or the family client's paymentTool: neither alone is required by the schema.
    expect(schemas.CreateTransferTemplateDto.required.sort()).toEqual(['amount', 'name']);
    expect(schemas.TransferTemplatePageDto.properties.totalRecords.type).toBe('integer');
  });

  it('serves every call of a new customer’s dashboard first page', async () => {
    const frank = await world.user();
    const calls = await Promise.all([
      report(frank.token, '', { currency: world.currency.code }),
      report(frank.token, '/funds-flows', { currency: world.currency.code }),
      report(frank.token, '/outflows', { currency: world.currency.code }),
      world.server.request('POST', '/api/v1/transaction-categories/view', { token: frank.token, body: {} }),
      world.server.request('POST', '/api/v1/templates/transfer/view', { token: frank.token, body: { pageNumber: 0, pageSize: 5 } }),
    ]);
    for (const call of calls) expectStatus(call, 200);
    expect(calls[0].body).toMatchObject({ totalAmount: '0.00', roundedTotalAmount: '0.00', unconvertedCurrencies: [], coinsDetail: [] });
    expect(calls[1].body).toMatchObject({ inflowSum: '0.00', outflowSum: '0.00' });
    expect(calls[2].body.days).toHaveLength(30);
    expect(calls[2].body.records).toEqual([]);
    expect(calls[3].body).toEqual({
      status: 'ok',
      message: 'OK',
      pageNumber: 0,
      pageSize: 20,
      totalRecords: 0,
      totalPages: 0,
      records: [],
    });
    expect(calls[4].body).toEqual({ status: 'ok', message: 'OK', pageNumber: 0, pageSize: 5, totalRecords: 0, totalPages: 0, records: [] });
    const wallet = await world.coin(frank, '10.00');
    const after = await report(frank.token, '', { currency: world.currency.code });
    expect(after.body.coinsDetail.map(share)).toEqual([
      { serial: wallet.serial, name: 'Wallet', amount: '10.00', percentFromTotal: '100.00' },
    ]);
  });
});
