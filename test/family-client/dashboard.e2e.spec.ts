import { Actor } from '../helpers/actors';
import { CoinBody, expectStatus, transfer } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/** Today's UTC date and the first and last day of its month, as the client's date pickers send them (`YYYY-MM-DD`). */
function thisMonth(): { today: string; first: string; last: string } {
  const now = new Date();
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    today: day(now),
    first: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))),
    last: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0))),
  };
}

/**
 * The family web client's dashboard, reports and history as an individual and a merchant see them (its `user-dashboard`
 * and `wallets` modules and its store): each call with the body its call site sends, checking the fields its screens read.
 */
describe('family client: dashboard, reports and history', () => {
  const world = moneyWorld();
  let alice: Actor;
  let bob: Actor;
  let a1: CoinBody;
  let a2: CoinBody;
  let b1: CoinBody;
  let groceries: string;
  let rent: string;

  const get = (token: string, path: string, query: Record<string, string> = {}) =>
    world.server.request('GET', `/api/v1${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, { token });
  const tag = async (category: string, operationId: string) =>
    expectStatus(
      await world.server.request('POST', `/api/v1/transaction-categories/${category}/operations/${operationId}`, { token: alice.token }),
      200,
    );

  beforeAll(async () => {
    alice = await world.user();
    bob = await world.user({ role: 'merchant' });
    a1 = await world.coin(alice, '100.00');
    a2 = await world.coin(alice, '20.50');
    b1 = await world.coin(bob, '10.00');
    const category = async (name: string) =>
      (await world.server.request('POST', '/api/v1/transaction-categories', { token: alice.token, body: { name } })).body.category.id;
    groceries = (
      await world.server.request('POST', '/api/v1/transaction-categories', {
        token: alice.token,
        body: { name: 'Groceries', imageLink: 'https://cdn.example.com/categories/groceries.png' },
      })
    ).body.category.id;
    rent = await category('Rent & bills');
    // Alice pays Bob three times from a1 (two tagged Groceries, one Rent) and once from a2 (untagged); Bob pays her back 1.00.
    for (const [from, amount, category] of [
      [a1, '10.00', groceries],
      [a1, '5.00', groceries],
      [a1, '25.00', rent],
      [a2, '10.00', undefined],
    ] as const) {
      const paid = await transfer(world.server, alice.token, from.serial, b1.serial, amount);
      expectStatus(paid, 201);
      if (category) await tag(category, paid.body.process.id);
    }
    expectStatus(await transfer(world.server, bob.token, b1.serial, a1.serial, '1.00'), 201);
  });

  it('GET /reporting/coins?currency={} — the coins store reads coinsDetail[].coinEntry.currency and roundedAmount', async () => {
    const answer = await get(alice.token, '/reporting/coins', { currency: world.currency.code });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({ totalAmount: '71.50', roundedTotalAmount: 72, currency: world.currency.code });
    expect(answer.body.coinsDetail).toEqual([
      expect.objectContaining({
        amount: '61.00',
        percentFromTotal: '85.31',
        roundedAmount: 61,
        currency: world.currency.code,
        coinEntry: { currency: world.currency.code, amount: '61.00', issuerId: world.issuer.id, symbol: null },
      }),
      expect.objectContaining({
        amount: '10.50',
        roundedAmount: 10,
        coinEntry: expect.objectContaining({ currency: world.currency.code, issuerId: world.issuer.id }),
      }),
    ]);
  });

  it('GET /reporting/coins/outflows — the spending summary’s body (currency, this month as from/to); reads records per category', async () => {
    const { first, last } = thisMonth();
    const answer = await get(alice.token, '/reporting/coins/outflows', { currency: world.currency.code, from: first, to: last });
    expectStatus(answer, 200);
    const row = (categoryId: string | null, sum: string, percentage: string, numberOfOperations: number) => ({
      categoryId,
      sum,
      percentage,
      numberOfOperations,
      currencyCode: world.currency.code,
      currencySymbol: null,
    });
    // 50.00 left Alice's organization: rent 25 (50 %), groceries 15 (30 %), 10 untagged (20 %), the largest first.
    expect(answer.body.records).toEqual([
      row(rent, '25.00', '50.00', 1),
      row(groceries, '15.00', '30.00', 2),
      row(null, '10.00', '20.00', 1),
    ]);
    expect(answer.body.outflowSum).toBe('50.00');
    // The categories are Alice's own: Bob sees his outflow uncategorized.
    const bobs = await get(bob.token, '/reporting/coins/outflows', { currency: world.currency.code, from: first, to: last });
    expect(bobs.body.records).toEqual([
      expect.objectContaining({ categoryId: null, sum: '1.00', percentage: '100.00', numberOfOperations: 1 }),
    ]);
  });

  it('GET /reporting/coins/outflows/{serial} — the wallet’s spending summary (from/to only); reads records per category of that coin', async () => {
    const { first, last } = thisMonth();
    const answer = await get(alice.token, `/reporting/coins/outflows/${a2.serial}`, { from: first, to: last });
    expectStatus(answer, 200);
    expect(answer.body.records).toEqual([
      {
        categoryId: null,
        sum: '10.00',
        percentage: '100.00',
        numberOfOperations: 1,
        currencyCode: world.currency.code,
        currencySymbol: null,
      },
    ]);
    const first1 = await get(alice.token, `/reporting/coins/outflows/${a1.serial}`, { from: first, to: last });
    expect(first1.body.records.map((r: { categoryId: string }) => r.categoryId)).toEqual([rent, groceries]);
    // Not one of Alice's coins.
    expect((await get(alice.token, `/reporting/coins/outflows/${b1.serial}`, { from: first, to: last })).status).toBe(404);
  });

  it('GET /reporting/coins/funds-flows — the summary cards’ body; an inclusive `to` (today) counts today, the answer keeps its shape', async () => {
    const { today } = thisMonth();
    const answer = await get(alice.token, '/reporting/coins/funds-flows', { currency: world.currency.code, from: today, to: today });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({
      currencyCode: world.currency.code,
      currencySymbol: null,
      inflowSum: '121.50',
      outflowSum: '50.00',
      from: `${today}T00:00:00.000Z`,
    });
    expect(Date.parse(answer.body.to) - Date.parse(answer.body.from)).toBe(24 * 60 * 60 * 1000);
  });

  it('GET /reporting/coins/funds-flows/{serial} — the wallet’s summary cards with today as `to`', async () => {
    const { today } = thisMonth();
    const answer = await get(alice.token, `/reporting/coins/funds-flows/${a1.serial}`, { from: today, to: today });
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({ currencyCode: world.currency.code, inflowSum: '101.00', outflowSum: '40.00' });
  });

  it('POST /transaction-categories/view — the catalog store’s body ({ all: true }); reads id, name, code and imageLink', async () => {
    const answer = await world.server.request('POST', '/api/v1/transaction-categories/view', { token: alice.token, body: { all: true } });
    expectStatus(answer, 200);
    expect(answer.body.records).toEqual([
      expect.objectContaining({
        id: groceries,
        name: 'Groceries',
        code: 'groceries',
        imageLink: 'https://cdn.example.com/categories/groceries.png',
      }),
      expect.objectContaining({ id: rent, name: 'Rent & bills', code: 'rent_bills', imageLink: null }),
    ]);
  });
});
