import { expectError, expectStatus, fund, transfer, aWholeFirstPage } from './helpers/money';
import { moneyWorld } from './helpers/world';

const BASE = '/api/v1/transaction-categories';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('transaction categories', () => {
  const world = moneyWorld();
  const alice = world.suiteUser();
  const bob = world.suiteUser({ role: 'merchant' });
  const a1 = world.suiteCoin(alice, '100.00');
  const b1 = world.suiteCoin(bob);

  const create = (token: string, body: object) => world.server.request('POST', BASE, { token, body });
  const view = (token: string, body: object = {}) => world.server.request('POST', `${BASE}/view`, { token, body });
  const tag = (token: string, id: string, operationId: string, method = 'POST') =>
    world.server.request(method, `${BASE}/${id}/operations/${operationId}`, { token });
  const tagged = (token: string, id: string, body: object = {}) =>
    world.server.request('POST', `${BASE}/${id}/operations/view`, { token, body });
  const aCategory = async (token: string, name: string, extra: object = {}) => {
    const response = await create(token, { name, ...extra });
    expectStatus(response, 201);
    return response.body.category as { id: string; name: string };
  };

  it('creates a category of the caller’s own, with an optional colour and icon', async () => {
    const response = await create(alice.token, { name: 'Groceries', color: '#2E7D32', icon: 'shopping-cart' });
    expectStatus(response, 201);
    expect(response.body).toEqual({
      status: 'ok',
      message: 'Category created',
      category: {
        id: expect.stringMatching(UUID),
        name: 'Groceries',
        code: 'groceries',
        color: '#2E7D32',
        icon: 'shopping-cart',
        imageLink: null,
        createdAt: expect.stringMatching(ISO_UTC),
      },
    });
    const bare = await create(alice.token, { name: 'Rent', color: null });
    expect(bare.body.category).toMatchObject({ name: 'Rent', color: null, icon: null });
  });

  it('keeps names unique per user whatever their case (409), while another user may reuse one', async () => {
    await aCategory(alice.token, 'Travel');
    expectError(await create(alice.token, { name: 'TRAVEL' }), 409, 'exception.transaction_category.name_taken');
    await aCategory(bob.token, 'Travel');
    // A colleague in the same organization has categories of their own.
    const colleague = await world.user({ role: 'merchant', organizationId: bob.organizationId });
    await aCategory(colleague.token, 'Travel');
  });

  it('validates what is sent (400)', async () => {
    for (const [body, parameter] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 7 }, 'name'],
      [{ name: 'Ok', color: 'green' }, 'color'],
      [{ name: 'Ok', color: '#12345' }, 'color'],
      [{ name: 'Ok', icon: 'i'.repeat(51) }, 'icon'],
      [{ name: 'Ok', imageLink: 'http://cdn.example.com/a.png' }, 'imageLink'],
      [{ name: 'Ok', imageLink: 'https://' }, 'imageLink'],
      [{ name: 'Ok', userId: bob.id }, 'userId'],
    ] as const) {
      expectError(await create(alice.token, body), 400, 'exception.validation', parameter);
    }
    expect((await create(alice.token, { name: 'x'.repeat(100) })).status).toBe(201);
  });

  it('lists only the caller’s categories in the paging envelope, by name, filtered by part of the name', async () => {
    const carol = await world.user();
    for (const name of ['cinema', 'Bakery', 'Books', '50% off']) await aCategory(carol.token, name);
    const all = await view(carol.token);
    expectStatus(all, 200);
    expect(all.body).toEqual(aWholeFirstPage(4));
    expect(all.body.records.map((c: { name: string }) => c.name)).toEqual(['50% off', 'Bakery', 'Books', 'cinema']);

    const page = await view(carol.token, { pageNumber: 1, pageSize: 3, sort: { name: 'desc' } });
    expect(page.body).toMatchObject({ pageNumber: 1, pageSize: 3, totalRecords: 4, totalPages: 2 });
    expect(page.body.records.map((c: { name: string }) => c.name)).toEqual(['50% off']);

    const byName = await view(carol.token, { filter: { name: 'B' } });
    expect(byName.body.records.map((c: { name: string }) => c.name)).toEqual(['Bakery', 'Books']);
    // % and _ are searched for as themselves.
    expect((await view(carol.token, { filter: { name: '%' } })).body.records.map((c: { name: string }) => c.name)).toEqual(['50% off']);
    const newest = await view(carol.token, { sort: { createdAt: 'desc' }, pageSize: 1 });
    expect(newest.body.records.map((c: { name: string }) => c.name)).toEqual(['50% off']);

    expectError(await view(carol.token, { filter: { colour: 'red' } }), 400, 'exception.validation', 'filter.colour');
    expectError(await view(carol.token, { sort: { color: 'asc' } }), 400, 'exception.validation', 'sort.color');
    expectError(await view(carol.token, { pageSize: 1001 }), 400, 'exception.validation', 'pageSize');
  });

  it('tags an operation the caller’s organization takes part in, once, and lists the tagged operations', async () => {
    const food = await aCategory(alice.token, 'Food');
    const first = await transfer(world.server, alice.token, a1.serial, b1.serial, '1.00');
    const second = await transfer(world.server, alice.token, a1.serial, b1.serial, '2.00');
    const third = await transfer(world.server, bob.token, b1.serial, a1.serial, '0.50'); // incoming: Alice takes part too
    const ids = [first, second, third].map((r) => r.body.process.id as string);

    const response = await tag(alice.token, food.id, ids[0]);
    expectStatus(response, 200);
    expect(response.body).toEqual({ status: 'ok', message: 'Operation tagged', category: food, operationId: ids[0] });
    expectStatus(await tag(alice.token, food.id, ids[0]), 200); // again: nothing changes
    expectStatus(await tag(alice.token, food.id, ids[1]), 200);
    expectStatus(await tag(alice.token, food.id, ids[2]), 200);

    const list = await tagged(alice.token, food.id, { pageSize: 2 });
    expectStatus(list, 200);
    expect(list.body).toMatchObject({ status: 'ok', pageNumber: 0, pageSize: 2, totalRecords: 3, totalPages: 2 });
    expect(list.body.records.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
    // The records are the operations as POST /transactions/view answers them.
    const read = await world.server.request('GET', `/api/v1/transactions/${ids[2]}`, { token: alice.token });
    expect(list.body.records[0]).toEqual(read.body.process);
    const oldest = await tagged(alice.token, food.id, { sort: { createdAt: 'asc' }, pageNumber: 0, pageSize: 20 });
    expect(oldest.body.records.map((o: { id: string }) => o.id)).toEqual(ids);

    const since = await tagged(alice.token, food.id, { filter: { createdAtFrom: read.body.process.createdAt } });
    expect(since.body.records.map((o: { id: string }) => o.id)).toEqual([ids[2]]);
    expectError(
      await tagged(alice.token, food.id, { filter: { createdAtFrom: '2026-02-01T00:00:00Z', createdAtTo: '2026-01-01T00:00:00Z' } }),
      400,
      'exception.validation',
      'filter.createdAtTo',
    );
    expectError(
      await tagged(alice.token, food.id, { filter: { createdAtFrom: 'yesterday' } }),
      400,
      'exception.validation',
      'filter.createdAtFrom',
    );

    // The categories of an operation.
    const other = await aCategory(alice.token, 'Gifts');
    expectStatus(await tag(alice.token, other.id, ids[1]), 200);
    const ofOperation = await view(alice.token, { filter: { operationIds: [ids[1]] } });
    expect(ofOperation.body.records.map((c: { name: string }) => c.name)).toEqual(['Food', 'Gifts']);
  });

  it('removes a tag, then answers 404 for a tag that is not there', async () => {
    const category = await aCategory(alice.token, 'Untag me');
    const operation = (await transfer(world.server, alice.token, a1.serial, b1.serial, '1.00')).body.process.id;
    expectStatus(await tag(alice.token, category.id, operation), 200);
    const removed = await tag(alice.token, category.id, operation, 'DELETE');
    expectStatus(removed, 200);
    expect(removed.body).toEqual({ status: 'ok', message: 'Tag removed', category, operationId: operation });
    expect((await tagged(alice.token, category.id)).body.totalRecords).toBe(0);
    expectError(await tag(alice.token, category.id, operation, 'DELETE'), 404, 'exception.transaction_category.not_tagged');
  });

  it('deletes a category with its tags', async () => {
    const category = await aCategory(alice.token, 'Short-lived');
    const operation = (await transfer(world.server, alice.token, a1.serial, b1.serial, '1.00')).body.process.id;
    expectStatus(await tag(alice.token, category.id, operation), 200);
    const deleted = await world.server.request('DELETE', `${BASE}/${category.id}`, { token: alice.token });
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ status: 'ok', message: 'Category deleted', category });
    expect((await view(alice.token, { filter: { name: 'Short-lived' } })).body.records).toEqual([]);
    expectError(
      await world.server.request('DELETE', `${BASE}/${category.id}`, { token: alice.token }),
      404,
      'exception.transaction_category.not_found',
    );
    expectError(await tag(alice.token, category.id, operation), 404, 'exception.transaction_category.not_found');
    const { rows } = await world.server.db.query('SELECT count(*)::int AS n FROM transaction_category_operations WHERE category_id = $1', [
      category.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('answers 404 for another user’s category and for an operation the organization takes no part in', async () => {
    const mine = await aCategory(alice.token, 'Private');
    const aliceOperation = (await transfer(world.server, alice.token, a1.serial, b1.serial, '1.00')).body.process.id;
    expectStatus(await tag(alice.token, mine.id, aliceOperation), 200);
    const dave = await world.user();
    const daveCoin = await world.coin(dave);
    const daveOperation = (await fund(world.server, world.admin, daveCoin.serial, '5.00')).id;

    // Bob took part in Alice's operation, but the category is Alice's.
    expectError(await tag(bob.token, mine.id, aliceOperation), 404, 'exception.transaction_category.not_found');
    expectError(await tag(bob.token, mine.id, aliceOperation, 'DELETE'), 404, 'exception.transaction_category.not_found');
    expectError(await tagged(bob.token, mine.id), 404, 'exception.transaction_category.not_found');
    expectError(
      await world.server.request('DELETE', `${BASE}/${mine.id}`, { token: bob.token }),
      404,
      'exception.transaction_category.not_found',
    );
    expect((await view(bob.token, { filter: { name: 'Private' } })).body.records).toEqual([]);
    // Alice's organization takes no part in Dave's top-up.
    expectError(await tag(alice.token, mine.id, daveOperation), 404, 'exception.transaction.not_found');
    expectError(await tag(alice.token, mine.id, UNKNOWN), 404, 'exception.transaction.not_found');
    expectError(await tag(alice.token, UNKNOWN, aliceOperation), 404, 'exception.transaction_category.not_found');
    expectError(await tag(alice.token, 'not-a-uuid', aliceOperation), 400, 'exception.validation', 'id');
    expectError(await tag(alice.token, mine.id, 'not-a-uuid'), 400, 'exception.validation', 'operationId');
    // Staff own no categories.
    expectError(await view(world.admin), 403, 'exception.access.permission_missing');
  });
});
