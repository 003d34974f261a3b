import { expectError, expectStatus, transfer } from '../helpers/money';
import { moneyWorld } from '../helpers/world';

/**
 * The conventions every `/view` search shares, as the family's web client relies on them: `all: true` for every
 * record (bounded by a documented maximum), a scalar where a list filter is expected, and unknown sort fields.
 */
describe('family client: /view paging, list filters and sort', () => {
  const world = moneyWorld();
  const alice = world.suiteUser();
  const bob = world.suiteUser({ role: 'merchant' });
  const a1 = world.suiteCoin(alice, '100.00');
  const b1 = world.suiteCoin(bob);
  const MAXIMUM = 10_000;

  const view = (token: string, path: string, body: object) => world.server.request('POST', `/api/v1${path}`, { token, body });

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) expectStatus(await transfer(world.server, alice.token, a1.serial, b1.serial, '1.00'), 201);
    // More categories than a default page holds (20).
    for (let i = 1; i <= 23; i++) {
      expectStatus(await view(alice.token, '/transaction-categories', { name: `Category ${String(i).padStart(2, '0')}` }), 201);
    }
  });

  /** An `all: true` answer: every record on page 0, the page size the documented maximum, one page. */
  function expectEverything(body: any, count: number): void {
    expect({
      pageNumber: body.pageNumber,
      pageSize: body.pageSize,
      totalRecords: body.totalRecords,
      totalPages: body.totalPages,
      records: body.records.length,
      truncated: body.truncated,
      totalRecordsEstimated: body.totalRecordsEstimated,
    }).toEqual({
      pageNumber: 0,
      pageSize: MAXIMUM,
      totalRecords: count,
      totalPages: count === 0 ? 0 : 1,
      records: count,
      truncated: undefined,
      totalRecordsEstimated: undefined,
    });
  }

  it('POST /transaction-categories/view — the catalog store’s body ({ all: true })', async () => {
    const response = await view(alice.token, '/transaction-categories/view', { all: true });
    expectStatus(response, 200);
    expectEverything(response.body, 23);
    // What the catalog keeps of each category.
    expect(response.body.records[0]).toMatchObject({ id: expect.any(String), name: 'Category 01' });
    expect(response.body.records[22].name).toBe('Category 23');
  });

  it('`all: true` answers every record, whatever pageNumber/pageSize say, on several views', async () => {
    for (const [token, path, least] of [
      [alice.token, '/transaction-categories/view', 23],
      [world.admin, '/currencies/view', 1],
      [alice.token, '/transactions/view', 4],
      [world.admin, '/users/view', 3],
      [world.admin, '/coins/view', 2],
    ] as const) {
      const paged = await view(token, path, { pageSize: 1 });
      expectStatus(paged, 200);
      const total = paged.body.totalRecords;
      expect({ path, enough: total >= least }).toEqual({ path, enough: true });
      const everything = await view(token, path, { all: true, pageNumber: 3, pageSize: 1 });
      expect({ path, status: everything.status }).toEqual({ path, status: 200 });
      expectEverything(everything.body, total);
    }
  });

  it('`all: false` (or absent) keeps paging', async () => {
    const page = await view(alice.token, '/transaction-categories/view', { all: false, pageNumber: 1, pageSize: 10 });
    expectStatus(page, 200);
    expect(page.body).toMatchObject({ pageNumber: 1, pageSize: 10, totalRecords: 23, totalPages: 3 });
    expect(page.body.records.map((r: { name: string }) => r.name)[0]).toBe('Category 11');
    expect(page.body.truncated).toBeUndefined();
    const defaults = await view(alice.token, '/transaction-categories/view', {});
    expect(defaults.body).toMatchObject({ pageNumber: 0, pageSize: 20, totalRecords: 23, totalPages: 2 });
    expect(defaults.body.records).toHaveLength(20);
  });

  it('`all` must be a boolean (400)', async () => {
    for (const all of ['yes', 1, null]) {
      expectError(await view(alice.token, '/transaction-categories/view', { all }), 400, 'exception.validation', 'all');
    }
  });

  it('`all: true` stops at the documented maximum of 10,000 records and says so', async () => {
    const hoarder = await world.user();
    await world.server.db.query(
      `INSERT INTO transaction_categories (user_id, name) SELECT $1, 'Bulk ' || lpad(n::text, 5, '0') FROM generate_series(1, $2::int) n`,
      [hoarder.id, MAXIMUM + 1],
    );
    const response = await view(hoarder.token, '/transaction-categories/view', { all: true });
    expectStatus(response, 200);
    const { records, ...page } = response.body;
    expect(records).toHaveLength(MAXIMUM);
    expect(records[MAXIMUM - 1].name).toBe('Bulk 10000');
    expect(page).toMatchObject({ pageNumber: 0, pageSize: MAXIMUM, totalPages: 2, truncated: true });
    expect(page.totalRecords).toBeGreaterThan(MAXIMUM);
    // The one left out is still reachable by paging.
    const last = await view(hoarder.token, '/transaction-categories/view', { pageNumber: 10, pageSize: 1000 });
    expect(last.body.records.map((r: { name: string }) => r.name)).toEqual(['Bulk 10001']);
    // Exactly the maximum is everything: no flag.
    await world.server.db.query(`DELETE FROM transaction_categories WHERE user_id = $1 AND name = 'Bulk 10001'`, [hoarder.id]);
    const exactly = await view(hoarder.token, '/transaction-categories/view', { all: true });
    expectEverything(exactly.body, MAXIMUM);
  });

  it('takes a scalar where a list filter is expected as a list of one', async () => {
    const listed = await view(alice.token, '/transactions/view', { filter: { statuses: ['processed'], coinSerials: [a1.serial] } });
    expectStatus(listed, 200);
    expect(listed.body.records.length).toBeGreaterThan(0);
    const id = listed.body.records[0].id;
    for (const filter of [
      { statuses: 'processed', coinSerials: a1.serial },
      { types: listed.body.records[0].type, ids: id },
      { currencyCodes: world.currency.code, ids: id },
      { issuerIds: world.issuer.id, orgIds: alice.organizationId, ids: id },
    ]) {
      const response = await view(alice.token, '/transactions/view', { filter });
      expectStatus(response, 200);
      expect(response.body.records.map((r: { id: string }) => r.id)).toContain(id);
      if ('ids' in filter) expect(response.body.totalRecords).toBe(1);
    }
    const currencies = await view(world.admin, '/currencies/view', { filter: { codes: world.currency.code } });
    expectStatus(currencies, 200);
    expect(currencies.body.records.map((c: { code: string }) => c.code)).toEqual([world.currency.code]);
    const users = await view(world.admin, '/users/view', { filter: { ids: alice.id } });
    expectStatus(users, 200);
    expect(users.body.records.map((u: { id: string }) => u.id)).toEqual([alice.id]);
    // A scalar is checked like the list of one it stands for.
    expectError(
      await view(alice.token, '/transactions/view', { filter: { statuses: 'bogus' } }),
      400,
      'exception.validation',
      'filter.statuses',
    );
    expectError(
      await view(alice.token, '/transactions/view', { filter: { ids: 'not-a-uuid' } }),
      400,
      'exception.validation',
      'filter.ids',
    );
    expectError(await view(world.admin, '/currencies/view', { filter: { codes: 7 } }), 400, 'exception.validation', 'filter.codes');
  });

  it('an unknown sort field is a 400 naming it', async () => {
    for (const [token, path] of [
      [alice.token, '/transaction-categories/view'],
      [world.admin, '/currencies/view'],
      [alice.token, '/transactions/view'],
      [world.admin, '/users/view'],
      [world.admin, '/coins/view'],
      [bob.token, '/webhooks/view'],
      [alice.token, '/bank-accounts/view'],
    ] as const) {
      const response = await view(token, path, { sort: { bogus: 'asc' } });
      expect({ path, status: response.status, code: response.body.code, errors: response.body.errors }).toEqual({
        path,
        status: 400,
        code: 'exception.validation',
        errors: [{ parameter: 'sort.bogus', message: 'is not a known field' }],
      });
      expect(response.body.message).toBe('sort.bogus is not a known field');
    }
    // A known field with an unknown direction names the field too.
    expectError(await view(world.admin, '/currencies/view', { sort: { name: 'up' } }), 400, 'exception.validation', 'sort.name');
  });
});
