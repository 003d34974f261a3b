import { serviceWorld } from './helpers/world';
import { Client, Pool } from 'pg';
import { ADMIN_LOGIN, startExpectingFailure, startServer } from './helpers/server';

function expectErrorShape(body: Record<string, unknown>, code: string): void {
  expect(body).toEqual({ status: 'error', code, message: expect.any(String), errors: expect.any(Array), requestId: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|QueryFailedError|node_modules|SELECT |Error:/);
}

describe('the error contract', () => {
  const world = serviceWorld();

  it('answers validation failures with 400 and field paths', async () => {
    const response = await world.server.request('POST', '/api/v1/users', {
      token: world.admin,
      body: { login: 'x', password: 1, role: 'individual' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'exception.validation');
    const parameters = response.body.errors.map((e: { parameter: string }) => e.parameter);
    expect(parameters).toEqual(expect.arrayContaining(['login', 'password']));
    // A name is optional (issue 9): without one the user is named after its login.
    expect(parameters).not.toContain('name');
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('answers an unknown route with 404', async () => {
    const response = await world.server.request('GET', '/api/v1/no-such-thing');
    expect(response.status).toBe(404);
    expectErrorShape(response.body, 'exception.not_found');
  });

  it('answers a path parameter longer than 100 characters through the route (its 400), not with a bare 414', async () => {
    const response = await world.server.request('GET', `/api/v1/transactions/${'a'.repeat(1000)}`, { token: world.admin });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'exception.validation');
  });

  it('answers a path with a malformed %-escape with 400 in the error shape, with its request id and no-store', async () => {
    for (const path of ['/api/v1/transactions/%ED%A0%80', '/api/v1/coins/%E0%A4%A']) {
      const response = await world.server.request('GET', path, { token: world.admin });
      expect(response.status).toBe(400);
      expectErrorShape(response.body, 'exception.request');
      expect(response.body.message).toBe('The path has a malformed %-escape');
      expect(response.headers.get('x-request-id')).toBe(response.body.requestId);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers malformed JSON with 400', async () => {
    const response = await world.server.request('POST', '/api/v1/authorization', {
      rawBody: '{"login": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'exception.request.malformed_json');
  });

  it('answers a JSON escape of half a character (a lone surrogate) with 400, where an e-mail check used to throw', async () => {
    const response = await world.server.request('POST', '/api/v1/users', {
      token: world.admin,
      rawBody: '{"login":"surrogate-user","password":"pw-0123456789ab","name":"S","role":"individual","email":"\\ud800@example.com"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'exception.request.malformed_json');
    expect(response.body.message).toMatch(/lone surrogate/);
    const { rows } = await world.server.db.query('SELECT 1 FROM users WHERE login = $1', ['surrogate-user']);
    expect(rows).toHaveLength(0);
  });

  it('answers JSON nested deeper than 32 levels with 400 in the error shape, on a public route, and logs no fault (issue 43)', async () => {
    const deep = (depth: number, open: string, close: string) => `${open.repeat(depth)}${close.repeat(depth)}`;
    const bodies = [
      deep(3000, '{"a":', '}').replace(/:}/, ':{}}'),
      deep(3000, '[', ']'),
      `{"login":"deep@example.com","password":"pw-0123456789ab","role":"individual","extra":${deep(40, '{"a":', '}').replace(/:}/, ':1}')}}`,
    ];
    for (const rawBody of bodies) {
      const response = await world.server.request('POST', '/api/v1/registration', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expectErrorShape(response.body, 'exception.request.malformed_json');
      expect(response.body.message).toBe('The JSON body is nested deeper than 32 levels');
      expect(await world.server.waitForLog(`"id":"${response.body.requestId}"`)).toBeDefined();
    }
    // 32 levels, and brackets inside strings, are a body like any other: the validation answers it.
    const shallow = await world.server.request('POST', '/api/v1/registration', {
      rawBody: `{"login":"[[[[{{{{","extra":${deep(31, '{"a":', '}').replace(/:}/, ':1}')}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(shallow.status).toBe(400);
    expectErrorShape(shallow.body, 'exception.validation');
    expect(world.server.logs.filter((line) => line.startsWith('{"level":50,'))).toEqual([]);
  });

  it('answers a body that is not an object with 400', async () => {
    const response = await world.server.request('POST', '/api/v1/authorization', {
      rawBody: '"just a string"',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorShape(response.body, 'exception.validation');
  });

  it('answers a non-JSON body with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await world.server.request('POST', '/api/v1/authorization', {
        rawBody: 'login=admin&password=x',
        headers: { 'content-type': type },
      });
      expect(response.status).toBe(415);
      expectErrorShape(response.body, 'exception.request.unsupported_media_type');
    }
  });

  it('answers a body over 1 MB with 413', async () => {
    const big = JSON.stringify({ login: 'admin', password: 'x'.repeat(1024 * 1024) });
    const response = await world.server.request('POST', '/api/v1/authorization', {
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expectErrorShape(response.body, 'exception.request.too_large');
  });

  it('maps a unique violation raised by the database to 409', async () => {
    // Two creations of the same login race; one wins, the other gets the 409, never a 500.
    const body = { login: 'race-login', password: 'password-1', name: 'Race', role: 'individual' };
    const results = await Promise.all(
      Array.from({ length: 6 }, () => world.server.request('POST', '/api/v1/users', { token: world.admin, body })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectErrorShape(r.body, 'exception.user.login_taken');
  });

  it('echoes a request id in the body and the X-Request-Id header', async () => {
    const response = await world.server.request('GET', '/api/v1/nowhere', { headers: { 'x-request-id': 'trace-123' } });
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    expect(response.body.requestId).toBe('trace-123');
  });

  it('answers 503 when the database is gone, without internals', async () => {
    const other = await startServer({}, { allowFaults: true });
    const name = new URL(other.databaseUrl).pathname.slice(1);
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await other.db.end();
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
      const health = await other.request('GET', '/api/v1/actuator/health');
      expect(health.status).toBe(503);
      expectErrorShape(health.body, 'exception.unavailable');
      const login = await other.request('POST', '/api/v1/authorization', { body: { login: ADMIN_LOGIN, password: 'whatever-1' } });
      expect(login.status).toBe(503);
      expectErrorShape(login.body, 'exception.unavailable');
    } finally {
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
      other.db = new Pool({ connectionString: other.databaseUrl, max: 1 });
      await other.stop();
    }
  });
});

describe('configuration', () => {
  it.each([
    ['PORT', 'abc'],
    ['TOKEN_TTL_SECONDS', '0'],
    ['BCRYPT_COST', '40'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['ADMIN_PASSWORD', 'short'],
  ])('refuses to start when %s is %s, naming the variable', async (name, value) => {
    const { code, output } = await startExpectingFailure({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', [name]: value });
    expect(code).not.toBe(0);
    expect(output).toContain(`Invalid configuration: ${name}`);
  });
});
