import { transfer } from './helpers/money';
import { createDatabase, startServer, TestServer } from './helpers/server';
import { aFundedPair } from './helpers/world';

/**
 * READ_DATABASE_URL: searches read from the replica. Pointed at the same server here, the replica's pool is told
 * apart by its connections' application_name (`finapi-read`) and the last statement each one ran.
 */
describe('searches from a read replica (READ_DATABASE_URL)', () => {
  let server: TestServer;
  beforeAll(async () => {
    const url = await createDatabase();
    server = await startServer({ DATABASE_URL: url, READ_DATABASE_URL: url });
  });
  afterAll(() => server?.stop());

  const replicaStatements = async (): Promise<string[]> =>
    (
      await server.db.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE application_name = 'finapi-read' AND datname = current_database()`,
      )
    ).rows.map((r) => r.query);

  it('answers POST /transactions/view from the replica, and everything else from the primary', async () => {
    const { alice, from, to } = await aFundedPair(server, '10.00');
    expect(await replicaStatements()).toEqual([]);

    const moved = await transfer(server, alice.token, from.serial, to.serial, '2.50');
    expect(moved.status).toBe(201);
    expect(await replicaStatements()).toEqual([]);

    const found = await server.request('POST', '/api/v1/transactions/view', { token: alice.token, body: { pageNumber: 0, pageSize: 20 } });
    expect(found.status).toBe(200);
    expect(found.body.records.map((r: { id: string }) => r.id)).toContain(moved.body.process.id);
    const statements = await replicaStatements();
    expect(statements.length).toBeGreaterThan(0);
    // The search's statements: its page of operations, or what the history adds to it (the page's coins, and the
    // caller's categories with the invoices and points of sale of the family's record) — pg_stat_activity keeps only
    // each connection's last statement, and a pooled connection may have run several of them.
    expect(
      statements.some((q) =>
        /^SELECT (o\.id, o\.type, o\.status|serial::text AS serial, name, type, organization_id FROM coins|o\.id AS operation_id, cat\.name)/.test(
          q,
        ),
      ),
    ).toBe(true);
    // The token was read from the primary: no replica connection ever ran the token lookup.
    expect(statements.some((q) => /auth_tokens/.test(q))).toBe(false);

    // One operation by id is not a search: the primary answers it.
    const before = await replicaStatements();
    expect((await server.request('GET', `/api/v1/transactions/${moved.body.process.id}`, { token: alice.token })).status).toBe(200);
    expect(await replicaStatements()).toEqual(before);
  });
});
