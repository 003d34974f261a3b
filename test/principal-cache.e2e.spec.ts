import { adminToken, aUser, login } from './helpers/actors';
import { dbCalls, HEARD_WITHIN_MS, startServer, TestServer, within } from './helpers/server';

/** Statements `GET /profiles/my` runs besides the token lookup (the user's memberships). */
const PROFILE_CALLS = 1;

describe('the token cache (TOKEN_CACHE_SECONDS)', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    // The database calls are counted in Server-Timing, which is off unless asked for.
    a = await startServer({ SERVER_TIMING: 'true', TOKEN_CACHE_SECONDS: '60' });
    b = await startServer({ DATABASE_URL: a.databaseUrl, SERVER_TIMING: 'true', TOKEN_CACHE_SECONDS: '60' });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  const profile = (server: TestServer, token: string) => server.request('GET', '/api/v1/profiles/my', { token });

  it('serves a guarded read without looking the token up once it is known, and a logout ends it at once', async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    const first = await profile(a, user.token);
    expect(first.status).toBe(200);
    const second = await profile(a, user.token);
    expect(second.status).toBe(200);
    // The profile reads the user's memberships itself: the token lookup is the call the cache saves.
    expect(dbCalls(first.headers.get('server-timing'))).toBe(PROFILE_CALLS + 1);
    expect(dbCalls(second.headers.get('server-timing'))).toBe(PROFILE_CALLS);
    expect(second.body).toEqual(first.body);

    expect((await a.request('DELETE', '/api/v1/authorization', { token: user.token })).status).toBe(200);
    const after = await profile(a, user.token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('exception.authorization.token_invalid');
  });

  it("drops what another instance cached when a token is revoked, or the user's sessions are ended, on this one", async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    expect((await profile(b, user.token)).status).toBe(200);
    expect(dbCalls((await profile(b, user.token)).headers.get('server-timing'))).toBe(PROFILE_CALLS);
    expect((await a.request('DELETE', `/api/v1/users/${user.id}/sessions`, { token: admin })).status).toBe(200);
    // B hears it by NOTIFY (milliseconds), long before its cache would let the token go.
    const took = await within(HEARD_WITHIN_MS, async () => (await profile(b, user.token)).status === 401);
    expect(took).toBeLessThan(HEARD_WITHIN_MS);
  });

  it("keeps serving a user's cached token when the user logs in again elsewhere: a login writes no principal change", async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    const other = await aUser(a, admin);
    await profile(b, user.token);
    expect(dbCalls((await profile(b, user.token)).headers.get('server-timing'))).toBe(PROFILE_CALLS);
    expect((await profile(b, other.token)).status).toBe(200);
    await login(a, user.login, user.password);
    // A barrier: B hears notifications in commit order, so once it has dropped `other`'s revoked token it has
    // heard anything the login above would have sent.
    expect((await a.request('DELETE', '/api/v1/authorization', { token: other.token })).status).toBe(200);
    expect(await within(HEARD_WITHIN_MS, async () => (await profile(b, other.token)).status === 401)).toBeLessThan(HEARD_WITHIN_MS);
    expect(dbCalls((await profile(b, user.token)).headers.get('server-timing'))).toBe(PROFILE_CALLS);
  });

  it('never serves from the cache while the listening connection is down, and serves again once it is back', async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    await profile(a, user.token);
    expect(dbCalls((await profile(a, user.token)).headers.get('server-timing'))).toBe(PROFILE_CALLS);
    await a.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'finapi-listen' AND datname = current_database()`,
    );
    // Both instances lose their listener: each then asks the database on every request until it reconnects.
    const uncached = await within(
      HEARD_WITHIN_MS,
      async () => dbCalls((await profile(a, user.token)).headers.get('server-timing')) === PROFILE_CALLS + 1,
    );
    expect(uncached).toBeLessThan(HEARD_WITHIN_MS);
    const back = await within(
      HEARD_WITHIN_MS,
      async () => dbCalls((await profile(a, user.token)).headers.get('server-timing')) === PROFILE_CALLS,
    );
    expect(back).toBeLessThan(HEARD_WITHIN_MS);
  });

  it('is off with TOKEN_CACHE_SECONDS=0: every guarded request looks its token up', async () => {
    const off = await startServer({ DATABASE_URL: a.databaseUrl, TOKEN_CACHE_SECONDS: '0', SERVER_TIMING: 'true' });
    try {
      const admin = await adminToken(off);
      for (let i = 0; i < 3; i++) expect(dbCalls((await profile(off, admin)).headers.get('server-timing'))).toBe(PROFILE_CALLS + 1);
    } finally {
      await off.stop();
    }
  });
});
