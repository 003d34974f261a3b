import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminToken, aUser } from './helpers/actors';
import { startServer, TestServer } from './helpers/server';

interface ApiRoute {
  HTTP_method: string;
  path: string;
  permissions: string[];
  roles: string[];
  public: boolean;
  request_parameters: string[];
}

function concrete(path: string): string {
  return path.replace(/\{[^}]+\}/g, (m) => (m.toLowerCase().includes('serial') ? '1000000001' : '00000000-0000-4000-8000-00000000abcd'));
}

describe('access control and the actuator', () => {
  let server: TestServer;
  let admin: string;
  let routes: ApiRoute[];

  beforeAll(async () => {
    server = await startServer();
    admin = await adminToken(server);
    const list = await server.request('GET', '/api/v1/actuator/api-list');
    routes = list.body.records.flatMap((g: { records: ApiRoute[] }) => g.records);
  });
  afterAll(() => server.stop());

  it('lists every API grouped by module, with permissions and roles', async () => {
    const list = await server.request('GET', '/api/v1/actuator/api-list');
    expect(list.status).toBe(200);
    expect(list.body.totalNumberOfAPIs).toBe(routes.length);
    for (const group of list.body.records) {
      expect(group).toEqual({
        name: expect.any(String),
        tag: expect.any(String),
        description: expect.any(String),
        number_of_APIs: group.records.length,
        records: expect.any(Array),
      });
    }
    const release = routes.find((r) => r.path === '/api/v1/users/{id}/release');
    expect(release).toMatchObject({ HTTP_method: 'POST', permissions: ['USER_RELEASER'], public: false });
    expect(release!.roles).toEqual(expect.arrayContaining(['administrator']));
    expect(release!.roles).not.toContain('individual');
    const login = routes.find((r) => r.path === '/api/v1/authorization' && r.HTTP_method === 'POST');
    expect(login).toMatchObject({ public: true, permissions: [], request_parameters: ['login', 'password'] });
    const createUser = routes.find((r) => r.path === '/api/v1/users' && r.HTTP_method === 'POST');
    expect(createUser!.request_parameters).toEqual(expect.arrayContaining(['login', 'password', 'name', 'role', 'organizationId']));
  });

  it('declares an access rule on every route: the api-list covers every operation of the OpenAPI document', async () => {
    const doc = (await server.request('GET', '/swagger/openapi.json')).body;
    const documented: string[] = [];
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) documented.push(`${method.toUpperCase()} ${path}`);
    }
    const listed = routes.map((r) => `${r.HTTP_method} ${r.path}`);
    expect(listed.sort()).toEqual(documented.sort());
    // Deny by default: a route is open to everyone, or to any logged-in member, only where it is listed here on purpose.
    const key = (r: ApiRoute) => `${r.HTTP_method} ${r.path}`;
    expect(
      routes
        .filter((r) => r.public)
        .map(key)
        .sort(),
    ).toEqual(
      [
        'GET /api/v1/actuator/api-list',
        'GET /api/v1/actuator/health',
        // The probes an orchestrator calls: readiness (a database ping, 503 once shutting down) and liveness.
        'GET /api/v1/actuator/health/liveness',
        'GET /api/v1/actuator/health/readiness',
        'GET /api/v1/actuator/info',
        'GET /api/v1/i18n/export/{file}',
        'POST /api/v1/authorization',
        // The second step of a login and its resend: no token until the code sent to the login is confirmed.
        'POST /api/v1/authorization/confirm',
        'POST /api/v1/authorization/resend-otp',
        // Who forgot their password, or signs up, has no token: a one-time code sent to the login stands for them.
        'POST /api/v1/password/recovery',
        'POST /api/v1/password/recovery/confirm',
        'POST /api/v1/registration',
        'POST /api/v1/registration/confirm',
        'POST /api/v1/registration/resend-otp',
        // The old address of a changed login takes it back: its sessions were ended, and whoever changed it may hold the password.
        'POST /api/v1/profiles/my/contact/restore',
        // A gate provider's callback: no user's token, authenticated by the HMAC of its body with the provider's secret.
        'POST /api/v1/gate/callbacks/{gateProviderId}',
        // A document's scan shown as an image on the staff review page: no token, the link's own signature and expiry.
        'GET /api/v1/media-links/{id}/{name}',
      ].sort(),
    );
    expect(
      routes
        .filter((r) => !r.public && r.permissions.length === 0)
        .map(key)
        .sort(),
    ).toEqual(
      [
        'DELETE /api/v1/authorization',
        'GET /api/v1/profiles/my',
        'POST /api/v1/authorization/password',
        // The caller's own sessions (issue 10, ASVS 7.4).
        'GET /api/v1/authorization/sessions',
        'DELETE /api/v1/authorization/sessions/{id}',
        // The catalogue of operation flows (issue 11): the same words as the operation types every member reads.
        'GET /api/v1/operation-flows',
      ].sort(),
    );
    for (const route of routes) {
      // A public route needs nothing; every other one is held by at least one role.
      if (route.public)
        expect({ route: key(route), permissions: route.permissions, roles: route.roles }).toEqual({
          route: key(route),
          permissions: [],
          roles: [],
        });
      else expect({ route: key(route), held: route.roles.length > 0 }).toEqual({ route: key(route), held: true });
    }
  });

  it('answers 401 without a token on every non-public route', async () => {
    const guarded = routes.filter((r) => !r.public);
    expect(guarded.length).toBeGreaterThan(5);
    for (const route of guarded) {
      const response = await server.request(route.HTTP_method, concrete(route.path), {
        body: route.HTTP_method === 'GET' || route.HTTP_method === 'DELETE' ? undefined : {},
      });
      expect({ route: `${route.HTTP_method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.HTTP_method} ${route.path}`,
        status: 401,
      });
      expect(response.body.status).toBe('error');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 403 to a member whose role lacks the permission, on every route that requires one', async () => {
    const individual = await aUser(server, admin, { role: 'individual' });
    const profile = await server.request('GET', '/api/v1/profiles/my', { token: individual.token });
    const held = new Set<string>(profile.body.permissions);
    const denied = routes.filter((r) => !r.public && r.permissions.some((p) => !held.has(p)));
    expect(denied.length).toBeGreaterThan(3);
    for (const route of denied) {
      const response = await server.request(route.HTTP_method, concrete(route.path), {
        token: individual.token,
        body: route.HTTP_method === 'GET' || route.HTTP_method === 'DELETE' ? undefined : {},
      });
      expect({ route: route.path, status: response.status }).toEqual({ route: route.path, status: 403 });
      expect(response.body.code).toBe('exception.access.permission_missing');
    }
  });

  it('serves health with a database ping, and info', async () => {
    const health = await server.request('GET', '/api/v1/actuator/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.details.database.status).toBe('up');
    const info = await server.request('GET', '/api/v1/actuator/info');
    expect(info.status).toBe(200);
    // `version` is the specification's API release; the build's packageVersion the service's own (CHANGELOG.md).
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(info.body).toMatchObject({ name: 'finapi', version: '4.10.0', build: { packageVersion: version } });
    expect(version).not.toBe('4.10.0');
    // The public answer does not tell the runtime's version (issue 10).
    expect(info.text).not.toContain(process.version);
  });

  it('lets administrators manage users and keeps the rules of roles and organizations', async () => {
    const individual = await aUser(server, admin, { role: 'individual' });
    const staff = await aUser(server, admin, { role: 'cashier' });
    expect(staff.organizationId).toBe('00000000-0000-4000-8000-000000000001');
    expect(individual.organizationId).not.toBe(staff.organizationId);

    const sameOrg = await server.request('POST', '/api/v1/users', {
      token: admin,
      body: {
        login: 'second-member',
        password: 'password-1',
        name: 'Second',
        role: 'individual',
        organizationId: individual.organizationId,
      },
    });
    expect(sameOrg.status).toBe(201);
    expect(sameOrg.body.user.members[0].organization.id).toBe(individual.organizationId);

    const mismatch = await server.request('POST', '/api/v1/users', {
      token: admin,
      body: { login: 'wrong-org', password: 'password-1', name: 'Wrong', role: 'merchant', organizationId: individual.organizationId },
    });
    expect(mismatch.status).toBe(400);
    const missingOrg = await server.request('POST', '/api/v1/users', {
      token: admin,
      body: {
        login: 'no-org',
        password: 'password-1',
        name: 'None',
        role: 'merchant',
        organizationId: '00000000-0000-4000-8000-00000000dead',
      },
    });
    expect(missingOrg.status).toBe(404);
    const taken = await server.request('POST', '/api/v1/users', {
      token: admin,
      body: { login: individual.login.toUpperCase(), password: 'password-1', name: 'Dup', role: 'individual' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('exception.user.login_taken');
    // A password sent as null is no password and no request for a temporary one: a 400 (it reached bcrypt: a 500).
    const nullPassword = await server.request('POST', '/api/v1/users', {
      token: admin,
      body: { login: 'null-password', password: null, name: 'Null', role: 'individual' },
    });
    expect(nullPassword.status).toBe(400);
    expect(nullPassword.body.errors.map((e: { parameter: string }) => e.parameter)).toContain('password');
    const badRole = await server.request('POST', '/api/v1/users', {
      token: admin,
      body: { login: 'bad-role', password: 'password-1', name: 'X', role: 'root' },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.errors[0].parameter).toBe('role');
    const sneaky = await server.request('POST', '/api/v1/users', {
      token: admin,
      body: { login: 'sneaky', password: 'password-1', name: 'X', role: 'individual', status: 'active' },
    });
    expect(sneaky.status).toBe(400);
    expect(sneaky.body.errors).toEqual([{ parameter: 'status', message: 'is not a known field' }]);

    expect((await server.request('GET', '/api/v1/users/not-a-uuid', { token: admin })).status).toBe(400);
    expect((await server.request('GET', '/api/v1/users/00000000-0000-4000-8000-00000000dead', { token: admin })).status).toBe(404);
    const got = await server.request('GET', `/api/v1/users/${staff.id}`, { token: admin });
    expect(got.body.user).toMatchObject({ id: staff.id, login: staff.login, status: 'active', members: [{ role: 'cashier' }] });

    const byRole = await server.request('POST', '/api/v1/users/view', {
      token: admin,
      body: { filter: { roles: ['cashier'] }, pageSize: 1000 },
    });
    expect(byRole.status).toBe(200);
    expect(byRole.body.records.every((r: { members: { role: string }[] }) => r.members.some((m) => m.role === 'cashier'))).toBe(true);
    const page = await server.request('POST', '/api/v1/users/view', {
      token: admin,
      body: { pageNumber: 0, pageSize: 2, sort: { login: 'asc' } },
    });
    expect(page.body).toMatchObject({
      status: 'ok',
      pageNumber: 0,
      pageSize: 2,
      totalRecords: expect.any(Number),
      totalPages: expect.any(Number),
    });
    expect(page.body.records).toHaveLength(2);
    expect([page.body.records[0].login, page.body.records[1].login]).toEqual(
      [page.body.records[0].login, page.body.records[1].login].sort(),
    );
    const unknownFilter = await server.request('POST', '/api/v1/users/view', { token: admin, body: { filter: { nickname: 'x' } } });
    expect(unknownFilter.status).toBe(400);
    expect(unknownFilter.body.errors[0].parameter).toBe('filter.nickname');
    const hugePage = await server.request('POST', '/api/v1/users/view', { token: admin, body: { pageSize: 1001 } });
    expect(hugePage.status).toBe(400);
  });
});
