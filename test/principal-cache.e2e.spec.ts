import { adminToken, aUser, login } from './helpers/actors';
import { dbCalls, HEARD_WITHIN_MS, startServer, TestServer, within } from './helpers/server';

/**
 * Statements `GET /profiles/my` runs: the token's lookup and the profile's own read (the person and memberships), each
 * only when it is not kept (PrincipalCache, ProfileCache).
 */
const COLD = 2;
const WARM = 0;

describe('the token and profile caches (TOKEN_CACHE_SECONDS)', () => {
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
    expect(dbCalls(first.headers.get('server-timing'))).toBe(COLD);
    expect(dbCalls(second.headers.get('server-timing'))).toBe(WARM);
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
    expect(dbCalls((await profile(b, user.token)).headers.get('server-timing'))).toBe(WARM);
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
    expect(dbCalls((await profile(b, user.token)).headers.get('server-timing'))).toBe(WARM);
    expect((await profile(b, other.token)).status).toBe(200);
    await login(a, user.login, user.password);
    // A barrier: B hears notifications in commit order, so once it has dropped `other`'s revoked token it has
    // heard anything the login above would have sent.
    expect((await a.request('DELETE', '/api/v1/authorization', { token: other.token })).status).toBe(200);
    expect(await within(HEARD_WITHIN_MS, async () => (await profile(b, other.token)).status === 401)).toBeLessThan(HEARD_WITHIN_MS);
    expect(dbCalls((await profile(b, user.token)).headers.get('server-timing'))).toBe(WARM);
  });

  it('keeps what it cached of everyone on the instance someone logs in on: a login writes nothing a principal is made of', async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    const other = await aUser(a, admin);
    await profile(a, user.token);
    expect(dbCalls((await profile(a, user.token)).headers.get('server-timing'))).toBe(WARM);
    await login(a, other.login, other.password);
    expect(dbCalls((await profile(a, user.token)).headers.get('server-timing'))).toBe(WARM);
  });

  it('never serves from the cache while the listening connection is down, and serves again once it is back', async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    await profile(a, user.token);
    expect(dbCalls((await profile(a, user.token)).headers.get('server-timing'))).toBe(WARM);
    await a.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'finapi-listen' AND datname = current_database()`,
    );
    // Both instances lose their listener: each then asks the database on every request until it reconnects.
    const uncached = await within(
      HEARD_WITHIN_MS,
      async () => dbCalls((await profile(a, user.token)).headers.get('server-timing')) === COLD,
    );
    expect(uncached).toBeLessThan(HEARD_WITHIN_MS);
    const back = await within(HEARD_WITHIN_MS, async () => dbCalls((await profile(a, user.token)).headers.get('server-timing')) === WARM);
    expect(back).toBeLessThan(HEARD_WITHIN_MS);
  });

  it('answers a profile changed on this instance at once, and one changed on another as soon as it is heard', async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    for (const server of [a, b]) {
      await profile(server, user.token);
      expect(dbCalls((await profile(server, user.token)).headers.get('server-timing'))).toBe(WARM);
    }
    const edited = await a.request('PATCH', '/api/v1/profiles/my/person', {
      token: user.token,
      body: { person: { namePlain: { first: 'Changed', last: 'Person' } } },
    });
    expect(edited.status).toBe(200);
    // A: the write's own instance, at once (WriteWatch); B: by NOTIFY, without waiting out the cache.
    expect((await profile(a, user.token)).body.profile.person.namePlain.first).toBe('Changed');
    const took = await within(
      HEARD_WITHIN_MS,
      async () => (await profile(b, user.token)).body.profile.person.namePlain.first === 'Changed',
    );
    expect(took).toBeLessThan(HEARD_WITHIN_MS);
  });

  it("lists a membership added in the database on the next read of every instance that kept the user's profile", async () => {
    const admin = await adminToken(a);
    const user = await aUser(a, admin);
    const other = await aUser(a, admin);
    for (const server of [a, b]) {
      await profile(server, user.token);
      expect(dbCalls((await profile(server, user.token)).headers.get('server-timing'))).toBe(WARM);
    }
    const before = (await profile(a, user.token)).body.memberShips;
    expect(before).toHaveLength(1);
    // Written behind both instances' backs: only the database's announcement can tell them.
    await a.db.query(`INSERT INTO memberships (user_id, organization_id, role) VALUES ($1, $2, 'individual')`, [
      user.id,
      other.organizationId,
    ]);
    for (const server of [a, b]) {
      const took = await within(HEARD_WITHIN_MS, async () => (await profile(server, user.token)).body.memberShips.length === 2);
      expect(took).toBeLessThan(HEARD_WITHIN_MS);
    }
  });

  it('is off with TOKEN_CACHE_SECONDS=0: every guarded request looks its token up, every profile read reads', async () => {
    const off = await startServer({ DATABASE_URL: a.databaseUrl, TOKEN_CACHE_SECONDS: '0', SERVER_TIMING: 'true' });
    try {
      const admin = await adminToken(off);
      for (let i = 0; i < 3; i++) expect(dbCalls((await profile(off, admin)).headers.get('server-timing'))).toBe(COLD);
    } finally {
      await off.stop();
    }
  });
});
