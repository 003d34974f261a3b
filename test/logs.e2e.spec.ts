import { adminToken, aUser } from './helpers/actors';
import { startServer, TestServer } from './helpers/server';

describe('logs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'trace', SERVER_TIMING: 'true' });
  });
  afterAll(() => server.stop());

  it('are JSON with a request id, and never contain passwords or tokens', async () => {
    const admin = await adminToken(server);
    const user = await aUser(server, admin, { password: 'very-secret-pass-42' });
    await server.request('POST', '/api/v1/authorization', { body: { login: user.login, password: 'wrong-secret-pass-43' } });
    await server.request('GET', '/api/v1/profiles/my?token=query-secret-77', { headers: { authorization: `Bearer ${user.token}` } });
    await server.request('POST', '/api/v1/users/view', { token: admin, headers: { 'x-request-id': 'log-check-1' }, body: {} });
    // The lines come in order: the last request's means every earlier one is there.
    expect(await server.waitForLog('"id":"log-check-1"')).toBeDefined();
    const lines = server.logs.filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(5);
    const records = lines.map((l) => JSON.parse(l));
    const completed = records.filter((r) => r.msg === 'request completed');
    expect(completed.length).toBeGreaterThan(3);
    for (const r of completed) expect(r.req.id).toEqual(expect.any(String));
    expect(completed.some((r) => r.req.id === 'log-check-1')).toBe(true);
    const all = server.logs.join('\n');
    for (const secret of ['very-secret-pass-42', 'wrong-secret-pass-43', 'query-secret-77', user.token, admin]) {
      expect(all).not.toContain(secret);
    }
  });

  it('answer a Server-Timing header with the database time of the request and its total when SERVER_TIMING is on', async () => {
    const admin = await adminToken(server);
    const guarded = await server.request('POST', '/api/v1/users/view', { token: admin, body: {} });
    expect(guarded.status).toBe(200);
    const timing = guarded.headers.get('server-timing') ?? '';
    const match = /^db;dur=(\d+\.\d);desc="(\d+) calls", total;dur=(\d+\.\d)$/.exec(timing);
    expect(match).not.toBeNull();
    const [, db, calls, total] = match!;
    // The token lookup and the search ran: at least two statements, and they fit in the request's time.
    expect(Number(calls)).toBeGreaterThanOrEqual(2);
    expect(Number(db)).toBeGreaterThan(0);
    expect(Number(db)).toBeLessThanOrEqual(Number(total) + 0.1);
    // An unknown route runs no handler: only the total.
    const unknown = await server.request('GET', '/api/v1/nowhere');
    expect(unknown.headers.get('server-timing')).toMatch(/^total;dur=\d+\.\d$/);
  });
});
