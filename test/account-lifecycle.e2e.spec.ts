import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Role, STAFF_ROLES } from '../src/platform/access/permissions';
import { Actor, STAFF_ROLES_IN_ORDER } from './helpers/actors';
import { loginChangedByOwner } from './helpers/action-details';
import { codeLogFile, codeSent, messagesSent, noticeSent, SentMessage } from './helpers/code-log';
import { expectError, expectStatus, recording } from './helpers/money';
import { ApiResponse, startServer, TestServer, within } from './helpers/server';
import { Receiver } from './helpers/webhook-receiver';
import { moneyWorld } from './helpers/world';

/**
 * Issue 43: the account lifecycle as a whole. docs/security.md's table "The account lifecycle" has one row per way
 * control of an account changes; each row is a test below, asserting each of its columns that can be observed over
 * HTTP: who may start it (others get 401/403/404), the proof it needs (without it: refused, nothing changes), where
 * codes go (ONE_TIME_CODE_LOG's `to`), who is told (notices in the same log, webhooks), which sessions end, what the
 * action log records (`POST /users/view/actions`), and the limits (429 with Retry-After). Then every staff role walks
 * every row a member of staff could try on someone else's account, and then the chains an attacker would try.
 *
 * One database, two instances: A, with the default settings, and B, with LOGIN_CONFIRMATION=always (the login
 * confirmation's row). Both keep a token's resolution for a minute (TOKEN_CACHE_SECONDS=60), so a session that ends
 * on one and is refused on the other at once was ended everywhere. Both trust one proxy hop: every actor acts from an
 * address of its own (X-Forwarded-For), and the limits are small enough to reach in a few requests.
 */

/** The limits the service runs with here (the table's last column names the settings). */
const LIMITS = {
  LOGIN_FAILURES_PER_MINUTE: 4,
  ONE_TIME_CODE_RESEND_SECONDS: 30,
  ONE_TIME_CODES_PER_ADDRESS_PER_HOUR: 4,
  ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR: 4,
  ONE_TIME_CODE_FAILURES_BEFORE_LOCK: 6,
  ONE_TIME_CODE_MAX_ATTEMPTS: 3,
};

/** The rows of docs/security.md's table, in its order: each names a test of 'the rows of the table'. */
const TABLE_ROWS = [
  'sign-up',
  'creation by staff',
  'login',
  'login confirmation',
  'password recovery',
  'change of login by the user',
  'change of login asked by staff',
  'restore of a changed login',
  'password change',
  'hold',
  'release',
  'deactivation',
  'session end',
];

/** The advisory lock the action log's chain is appended under (migration 1763801680000): held, it stops any act before its commit. */
const ACTION_CHAIN_LOCK = 7312016;

interface Person extends Actor {
  /** The client address this person acts from. */
  from: string;
}

interface ActionRecord {
  action: string;
  userId: string | null;
  actorUserId: string | null;
  address: string | null;
  details: Record<string, unknown>;
}

/** Runs the operator's CLI, `npm run admin:release -- <login>` (the built script), on the suite's database. */
function releaseByCli(login: string, databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const script = join(process.env.FINAPI_DIST ?? join(__dirname, '..', 'dist'), 'src', 'admin-release.js');
  const child = spawn(process.execPath, [script, login], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      BCRYPT_COST: '4',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('issue 43: the account lifecycle, row by row (docs/security.md)', () => {
  const codes = codeLogFile();
  const shared = {
    TRUST_PROXY: '1',
    TOKEN_CACHE_SECONDS: '60',
    ONE_TIME_CODE_LOG: codes,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_MS: '100',
    ...Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])),
  };
  const world = moneyWorld({ env: shared });
  let rawB: TestServer;
  let B: ReturnType<typeof recording>;
  beforeAll(async () => {
    rawB = await startServer({ ...shared, DATABASE_URL: world.raw.databaseUrl, LOGIN_CONFIRMATION: 'always' });
    B = recording(rawB);
  });
  afterAll(() => rawB?.stop());
  afterEach(() => B?.expectCleanResponses());

  const A = () => world.server;
  let next = 0;
  /** A client address of its own (198.18.0.0/15, the benchmarking range), for one actor. */
  const anAddress = () => {
    next += 1;
    return `198.18.${Math.floor(next / 250)}.${(next % 250) + 1}`;
  };
  const anEmail = (tag: string, domain = 'example.com') => `${tag}-${randomBytes(4).toString('hex')}@${domain}`;
  const aPassword = () => `pw-${randomBytes(6).toString('hex')}`;
  /** A code that is not `code`. */
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  const call = (
    server: TestServer,
    method: string,
    path: string,
    options: { token?: string; body?: unknown; from?: string } = {},
  ): Promise<ApiResponse> =>
    server.request(method, `/api/v1${path}`, {
      ...(options.token ? { token: options.token } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
      ...(options.from ? { headers: { 'x-forwarded-for': options.from } } : {}),
    });
  const post = (path: string, body: unknown, from: string, token?: string) => call(A(), 'POST', path, { body, from, token });
  const logIn = (server: TestServer, login: string, password: string, from: string) =>
    call(server, 'POST', '/authorization', { body: { login, password }, from });
  /** The status a guarded read answers with the token, on A or B. */
  const works = async (token: string, server: TestServer = A()) => (await call(server, 'GET', '/profiles/my', { token })).status;
  /** Waits until the token is refused on `server` (a change heard by NOTIFY comes within milliseconds; the cache keeps a minute). */
  const refusedOn = async (server: TestServer, token: string) => within(30_000, async () => (await works(token, server)) === 401);
  const expectLimited = (answer: ApiResponse) => {
    expectError(answer, 429, 'exception.rate_limited');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  };
  const code = (to: string, purpose: string, n = 1) => codeSent(codes, to, purpose, n);
  const sentTo = (to: string, what?: (m: SentMessage) => boolean) => messagesSent(codes).filter((m) => m.to === to && (!what || what(m)));
  const codesOf = (to: string, purpose: string) => sentTo(to, (m) => m.purpose === purpose).length;
  /**
   * Waits until every message the acts before it sent is written: the sender writes after each commit, so a message a
   * later request makes comes after them. What was not sent then was not sent at all.
   */
  const settled = async () => {
    const probe = anEmail('probe');
    expectStatus(await post('/registration', { login: probe }, anAddress()), 200);
    await code(probe, 'registration');
  };
  /** The user's recorded actions of these kinds, oldest first, as staff read them. */
  const logOf = async (userId: string, ...actions: string[]): Promise<ActionRecord[]> => {
    const page = await call(A(), 'POST', '/users/view/actions', {
      token: world.admin,
      body: { filter: { userIds: [userId], ...(actions.length ? { actions } : {}) }, pageSize: 1000, sort: { createdAt: 'asc' } },
    });
    expectStatus(page, 200);
    return page.body.records as ActionRecord[];
  };
  const userRow = async (id: string) =>
    (
      await world.raw.db.query<{ login: string; status: string; failed_attempts: number; deactivated_at: Date | null }>(
        'SELECT login, status, failed_attempts, deactivated_at FROM users WHERE id = $1',
        [id],
      )
    ).rows[0];

  /** A user created by the administrator, acting from an address of their own. */
  const aPerson = async (options: { role?: string; login?: string } = {}): Promise<Person> => ({
    ...(await world.user({ login: options.login ?? anEmail(options.role ?? 'user'), role: options.role })),
    from: anAddress(),
  });
  /** A customer whose login is proven (by its own code, from the profile), as a signed-up customer's is: recovery goes there. */
  const aCustomer = async (tag = 'customer'): Promise<Person> => {
    const person = await aPerson({ login: anEmail(tag) });
    expectStatus(await post('/profiles/my/contact', { login: person.login }, person.from, person.token), 200);
    const otp = await code(person.login, 'contact_change');
    expectStatus(await post('/profiles/my/contact/confirm', { login: person.login, otp }, person.from, person.token), 200);
    return person;
  };
  /**
   * Another session of the person, on B, from a device of its own (an address: each asks its own codes). B confirms
   * logins with a code: the password step, then the code with the step's challenge.
   */
  const sessionOnB = async (person: Pick<Person, 'login' | 'password'>): Promise<string> => {
    const device = anAddress();
    const before = codesOf(person.login, 'login');
    const step = await logIn(B, person.login, person.password, device);
    expectStatus(step, 200);
    const otp = await code(person.login, 'login', before + 1);
    const confirmed = await call(B, 'POST', '/authorization/confirm', {
      body: { login: person.login, otp, challengeId: step.body.challengeId },
      from: device,
    });
    expectStatus(confirmed, 200);
    const token = confirmed.body.authorizationToken.token as string;
    expect(await works(token, B)).toBe(200);
    return token;
  };
  /** Three wrong passwords in a row, from an outsider's address: the user is On Hold. */
  const hold = async (login: string) => {
    const outsider = anAddress();
    for (let i = 1; i <= 3; i++) expectError(await logIn(A(), login, `not-the-password-${i}`, outsider), 401);
  };

  it('docs/security.md carries the table, one row per test below, each with every column filled', () => {
    const doc = readFileSync(join(__dirname, '..', 'docs', 'security.md'), 'utf8');
    const section = doc.split('\n## The account lifecycle\n')[1];
    expect(section).toBeDefined();
    const lines = section.split('\n').filter((line) => line.startsWith('| '));
    const cells = lines.map((line) => line.slice(2, -2).split(' | '));
    expect(cells[0]).toEqual([
      'Row',
      'Who may start it',
      'Proof',
      'Where codes go',
      'Who is told',
      'Sessions that end',
      'Action log',
      'Limits',
    ]);
    const rows = cells.slice(1);
    for (const row of rows) expect(row.length).toBe(8);
    for (const row of rows) for (const cell of row) expect(cell.trim()).not.toBe('');
    expect(rows.map((row) => row[0])).toEqual(TABLE_ROWS);
  });

  describe('the rows of the table', () => {
    it('sign-up: anyone, with the code sent to the login (never a staff role); a taken login gets nothing; no session; user_registered; the login’s cooldown and the address’s codes are limited', async () => {
      const from = anAddress();
      const login = anEmail('signup');
      const password = aPassword();
      // Who: anyone without a token, as an individual or a merchant; a staff role never (403), and nothing is sent.
      const staff = anEmail('would-be-admin');
      expectError(await post('/registration', { login: staff, role: 'administrator' }, from), 403, 'exception.registration.disabled');
      const asked = await post('/registration', { login }, from);
      expectStatus(asked, 200);
      expect(asked.body).toEqual({ status: 'ok', message: expect.any(String), action: 'OTP_SENT' });
      // Where codes go: to the login itself.
      const otp = await code(login, 'registration');
      // Limits, per login and asking address: no second code within ONE_TIME_CODE_RESEND_SECONDS.
      expectLimited(await post('/registration', { login }, from));
      // Proof: a wrong code creates nobody.
      const confirmFrom = anAddress();
      expectError(
        await post('/registration/confirm', { login, otp: wrong(otp), password }, confirmFrom),
        400,
        'exception.confirmation_code.not_found',
      );
      const found = () => call(A(), 'POST', '/users/view', { token: world.admin, body: { filter: { login } } });
      expect((await found()).body.totalRecords).toBe(0);
      // With the code: the user exists, their login proven; the answer carries no session.
      const registered = await post('/registration/confirm', { login, otp, password }, confirmFrom);
      expectStatus(registered, 200);
      expect(registered.body).toEqual({ status: 'ok', message: expect.any(String), action: 'REGISTERED' });
      const user = (await found()).body.records[0];
      expect(user.contact).toMatchObject({ email: login, emailVerified: true });
      const sessions = async () =>
        (await world.raw.db.query('SELECT count(*)::int AS n FROM auth_tokens WHERE user_id = $1', [user.id])).rows[0].n;
      expect(await sessions()).toBe(0);
      expectStatus(await logIn(A(), login, password, confirmFrom), 200);
      // The action log: user_registered, from the confirming address.
      expect(await logOf(user.id, 'user_registered')).toEqual([
        expect.objectContaining({ actorUserId: null, address: confirmFrom, details: expect.objectContaining({ role: 'individual' }) }),
      ]);
      // A taken login signing up: the same answer, and nothing sent to its holder (who is told nothing either).
      expectStatus(await post('/registration', { login }, anAddress()), 200);
      await settled();
      expect(sentTo(login)).toEqual([expect.objectContaining({ purpose: 'registration' })]);
      // Limits, per address, whatever the logins: ONE_TIME_CODES_PER_ADDRESS_PER_HOUR codes asked, known or not.
      const asker = anAddress();
      for (let i = 0; i < LIMITS.ONE_TIME_CODES_PER_ADDRESS_PER_HOUR; i++) {
        expectStatus(await post('/registration', { login: i === 0 ? login : anEmail('many') }, asker), 200);
      }
      expectLimited(await post('/registration', { login: anEmail('one-more') }, asker));
      expectStatus(await post('/registration', { login: anEmail('elsewhere') }, anAddress()), 200);
    });

    it('creation by staff: an administrator only, with a password staff chose; the login is unproven, so no recovery code goes there; no session; user_created', async () => {
      const admin = await aPerson({ role: 'administrator' });
      const login = anEmail('created');
      const password = aPassword();
      const created = await call(A(), 'POST', '/users', {
        token: admin.token,
        from: admin.from,
        body: { login, password, name: 'Created by staff', role: 'individual' },
      });
      expectStatus(created, 201);
      const id = created.body.user.id as string;
      expect(created.body.user.contact).toMatchObject({ email: login, emailVerified: false });
      // Proof: the administrator's token only; another role may not (every role: the staff matrix below).
      const support = await aPerson({ role: 'customer_support' });
      expectError(
        await call(A(), 'POST', '/users', { token: support.token, body: { login: anEmail('x'), password, name: 'X', role: 'individual' } }),
        403,
        'exception.access.permission_missing',
      );
      // No session was made; staff know the password, which logs in.
      expect((await world.raw.db.query('SELECT count(*)::int AS n FROM auth_tokens WHERE user_id = $1', [id])).rows[0].n).toBe(0);
      expectStatus(await logIn(A(), login, password, anAddress()), 200);
      // Where codes go: nowhere; a recovery for the login sends nothing until the user proves it.
      expectStatus(await post('/password/recovery', { login }, anAddress()), 200);
      await settled();
      expect(sentTo(login)).toEqual([]);
      expect(await logOf(id, 'user_created')).toEqual([
        expect.objectContaining({ actorUserId: admin.id, address: admin.from, details: expect.objectContaining({ role: 'individual' }) }),
      ]);
    });

    it('login: whoever has the password; a wrong one is refused and counted; no code, no notice; earlier sessions stay; login_succeeded and login_failed; an address’s failures are limited per minute', async () => {
      const user = await aPerson();
      // Proof: the password. A wrong one is a 401 like an unknown login's, counted toward the hold.
      expectError(await logIn(A(), user.login, 'not-the-password', user.from), 401, 'exception.authorization.invalid_credentials');
      expectError(await logIn(A(), anEmail('nobody'), 'not-the-password', user.from), 401, 'exception.authorization.invalid_credentials');
      expect(await userRow(user.id)).toMatchObject({ status: 'active', failed_attempts: 1 });
      const answer = await logIn(A(), user.login, user.password, user.from);
      expectStatus(answer, 200);
      expect(answer.body.action).toBe('TOKEN_CREATED');
      const token = answer.body.authorizationToken.token as string;
      expect(await userRow(user.id)).toMatchObject({ failed_attempts: 0 });
      // Sessions: none ends; the new one is listed with the address it was issued to.
      expect(await works(user.token)).toBe(200);
      const listed = await call(A(), 'GET', '/authorization/sessions', { token });
      expect(listed.body.records).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ address: user.from, current: true, scope: 'full' }),
          expect.objectContaining({ current: false }),
        ]),
      );
      // Codes and who is told: nothing is sent.
      await settled();
      expect(sentTo(user.login)).toEqual([]);
      // The action log.
      expect(await logOf(user.id, 'login_failed', 'login_succeeded')).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ action: 'login_failed', address: user.from, details: expect.objectContaining({ failedAttempts: 1 }) }),
          expect.objectContaining({ action: 'login_succeeded', address: user.from }),
        ]),
      );
      // Limits, per address: LOGIN_FAILURES_PER_MINUTE failed checks, across logins, then 429 before any check. Sent at
      // once, so at most two minutes' worth are checked whatever the clock.
      const guesser = anAddress();
      const guesses = await Promise.all(
        Array.from({ length: 4 * LIMITS.LOGIN_FAILURES_PER_MINUTE }, (_, i) =>
          logIn(A(), i % 2 ? user.login : anEmail('ghost'), `guess-${i}-password`, guesser),
        ),
      );
      const statuses = guesses.map((g) => g.status);
      expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(2 * LIMITS.LOGIN_FAILURES_PER_MINUTE);
      for (const limited of guesses.filter((g) => g.status === 429)) expectLimited(limited);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2 * LIMITS.LOGIN_FAILURES_PER_MINUTE);
    });

    it('login confirmation (B: LOGIN_CONFIRMATION=always): the password step, then the code sent to the login with its challenge; the code alone is refused; no session ends; login_succeeded confirmed; a code per login and address within the cooldown', async () => {
      const user = await aPerson();
      const elsewhere = anAddress();
      // Who: whoever passed the password step; a wrong password is a 401 and sends nothing.
      expectError(await logIn(B, user.login, 'not-the-password', user.from), 401);
      const step = await logIn(B, user.login, user.password, user.from);
      expectStatus(step, 200);
      expect(step.body).toEqual({ status: 'ok', message: expect.any(String), action: 'OTP_SENT', challengeId: expect.any(String) });
      // Where codes go: a login code to the login, proven or not (this one staff typed).
      const otp = await code(user.login, 'login');
      // Proof: the code without its challenge, from elsewhere, is a wrong code; a resend from elsewhere sends nothing.
      const confirm = (body: Record<string, unknown>, from: string) => call(B, 'POST', '/authorization/confirm', { body, from });
      expectError(await confirm({ login: user.login, otp }, elsewhere), 400, 'exception.confirmation_code.not_found');
      expectStatus(await call(B, 'POST', '/authorization/resend-otp', { body: { login: user.login }, from: elsewhere }), 200);
      // Limits, per login and address: a second password step within ONE_TIME_CODE_RESEND_SECONDS asks a code too soon.
      expectLimited(await logIn(B, user.login, user.password, user.from));
      // With the challenge: the tokens, as a login answers them.
      const confirmed = await confirm({ login: user.login, otp, challengeId: step.body.challengeId }, elsewhere);
      expectStatus(confirmed, 200);
      expect(confirmed.body.action).toBe('TOKEN_CREATED');
      expect(await works(confirmed.body.authorizationToken.token, B)).toBe(200);
      // The code is used once; sessions: none ended (the first one works on both instances).
      expectError(await confirm({ login: user.login, otp, challengeId: step.body.challengeId }, user.from), 400);
      expect(await works(user.token, B)).toBe(200);
      // Who is told: nobody; the one code was the only message.
      await settled();
      expect(sentTo(user.login)).toEqual([expect.objectContaining({ purpose: 'login' })]);
      expect(await logOf(user.id, 'login_succeeded')).toEqual(
        expect.arrayContaining([expect.objectContaining({ address: elsewhere, details: expect.objectContaining({ confirmed: true }) })]),
      );
      // The family's web client sends no challengeId: the password step's address stands for it.
      const home = anAddress();
      const second = await logIn(B, user.login, user.password, home);
      expectStatus(second, 200);
      const next = await code(user.login, 'login', 2);
      expectStatus(await confirm({ login: user.login, otp: next }, home), 200);
    });

    it('password recovery: anyone asks, the code goes to a proven login only; with it, a new password and every session ends on every instance; password_recovered; wrong codes limited per address, and in a row per login', async () => {
      const owner = await aCustomer('recovering');
      const onB = await sessionOnB(owner);
      // Who: anyone, without a token; an unproven login (staff typed it) gets nothing, with the same answer.
      const unproven = await aPerson();
      expectStatus(await post('/password/recovery', { login: unproven.login }, anAddress()), 200);
      const asked = await post('/password/recovery', { login: owner.login }, owner.from);
      expectStatus(asked, 200);
      expect(asked.body.action).toBe('OTP_SENT');
      const otp = await code(owner.login, 'password_recovery');
      // Proof: a wrong code changes nothing.
      const password = aPassword();
      expectError(
        await post('/password/recovery/confirm', { login: owner.login, otp: wrong(otp), newUserPassword: password }, owner.from),
        400,
        'exception.confirmation_code.not_found',
      );
      expect(await works(owner.token)).toBe(200);
      const recovered = await post('/password/recovery/confirm', { login: owner.login, otp, newUserPassword: password }, owner.from);
      expectStatus(recovered, 200);
      // Sessions: every one, on both instances.
      expect(await works(owner.token)).toBe(401);
      expect(await refusedOn(B, onB)).not.toBe(Infinity);
      expectError(await logIn(A(), owner.login, owner.password, owner.from), 401);
      expectStatus(await logIn(A(), owner.login, password, owner.from), 200);
      // Who is told: the owner, at their login, that the password was set anew (issue 46: no code, no new password in it).
      await settled();
      expect(sentTo(unproven.login)).toEqual([]);
      expect(sentTo(owner.login, (m) => !m.purpose)).toEqual([
        expect.objectContaining({
          notice: 'password_changed',
          details: expect.objectContaining({ how: 'recovered', address: owner.from }),
        }),
      ]);
      expect(await logOf(owner.id, 'password_recovered')).toEqual([expect.objectContaining({ address: owner.from, actorUserId: null })]);

      // Limits: an address presents ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR wrong codes, then 429 before any compare…
      const guess = (from: string, n: number) =>
        post('/password/recovery/confirm', { login: owner.login, otp: String(100000 + n), newUserPassword: aPassword() }, from);
      const first = anAddress();
      for (let i = 0; i < LIMITS.ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR; i++) expectError(await guess(first, i), 400);
      expectLimited(await guess(first, 99));
      // …and ONE_TIME_CODE_FAILURES_BEFORE_LOCK wrong codes in a row for the login, from any addresses, stop its codes:
      // none is sent or compared, from anywhere, and the stop is on the user's record.
      const second = anAddress();
      const rest = LIMITS.ONE_TIME_CODE_FAILURES_BEFORE_LOCK - LIMITS.ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR;
      for (let i = 0; i < rest; i++) expectError(await guess(second, 10 + i), 400);
      expectLimited(await guess(anAddress(), 50));
      expectLimited(await post('/password/recovery', { login: owner.login }, anAddress()));
      expect(await logOf(owner.id, 'one_time_codes_locked')).toEqual([
        expect.objectContaining({
          address: second,
          details: expect.objectContaining({ purpose: 'password_recovery', failures: LIMITS.ONE_TIME_CODE_FAILURES_BEFORE_LOCK }),
        }),
      ]);
    });

    it('change of login by the user: their own session, the new address’s code and their own proof (a code to the current login, or the password); the old login is told and may undo it; every other session ends; login_changed', async () => {
      const owner = await aCustomer('moving');
      const second = (await logIn(A(), owner.login, owner.password, owner.from)).body.authorizationToken.token as string;
      const onB = await sessionOnB(owner);
      const next = anEmail('moved');
      // Who: the member, in their own session; no token is a 401.
      expectError(await post('/profiles/my/contact', { login: next }, owner.from), 401);
      // Proof: a wrong password is a 400 counted toward the hold, on the record.
      expectError(
        await post('/profiles/my/contact', { login: next, password: 'not-the-password' }, owner.from, owner.token),
        400,
        'exception.validation',
        'password',
      );
      expect(await userRow(owner.id)).toMatchObject({ failed_attempts: 1 });
      // Without the password: a code to the new login, and one to the current login.
      expectStatus(await post('/profiles/my/contact', { login: next }, owner.from, owner.token), 200);
      const newCode = await code(next, 'contact_change');
      const ownerCode = await code(owner.login, 'contact_change_owner');
      // Limits: the same ask again from the same address within ONE_TIME_CODE_RESEND_SECONDS.
      expectLimited(await post('/profiles/my/contact', { login: next }, owner.from, owner.token));
      // The new address's code alone (a stolen token and an address) changes nothing.
      expectError(await post('/profiles/my/contact/confirm', { login: next, otp: newCode }, owner.from, owner.token), 400);
      expect((await userRow(owner.id)).login).toBe(owner.login);
      const confirmed = await post('/profiles/my/contact/confirm', { login: next, otp: ownerCode + newCode }, owner.from, owner.token);
      expectStatus(confirmed, 200);
      expect(confirmed.body.profile.contact).toMatchObject({ email: next, emailVerified: true });
      // Sessions: every other one ends, on both instances; the confirming one stays.
      expect(await works(owner.token)).toBe(200);
      expect(await works(second)).toBe(401);
      expect(await refusedOn(B, onB)).not.toBe(Infinity);
      // Who is told: the old login, with a code that takes the login back.
      expect((await noticeSent(codes, owner.login, 'login_changed')).details).toEqual({ newLogin: next });
      await code(owner.login, 'contact_restore');
      expectStatus(await logIn(A(), next, owner.password, owner.from), 200);
      expect(await logOf(owner.id, 'contact_change_failed', 'login_changed')).toEqual([
        expect.objectContaining({ action: 'contact_change_failed', address: owner.from }),
        expect.objectContaining({
          action: 'login_changed',
          address: owner.from,
          details: loginChangedByOwner(owner, next, 2),
        }),
      ]);
    });

    it('change of login asked by staff: PROFILE_MANAGER asks, the user is told, the new address gets the code and the user confirms it in their own session; login_change_requested, then login_changed', async () => {
      const support = await aPerson({ role: 'customer_support' });
      const cashier = await aPerson({ role: 'cashier' });
      const user = await aCustomer('helped');
      const second = (await logIn(A(), user.login, user.password, user.from)).body.authorizationToken.token as string;
      const wanted = anEmail('new-mailbox');
      const ask = (by: Person, login: string) =>
        call(A(), 'PATCH', `/profiles/${user.id}/contact`, { token: by.token, from: by.from, body: { login } });
      // Who: PROFILE_MANAGER (administrators, customer support), never for their own login.
      expectError(await ask(cashier, wanted), 403, 'exception.access.permission_missing');
      expectError(
        await call(A(), 'PATCH', `/profiles/${support.id}/contact`, { token: support.token, body: { login: anEmail('self') } }),
        403,
        'exception.profile.edit_forbidden',
      );
      const asked = await ask(support, wanted);
      expectStatus(asked, 200);
      // Nothing changes yet: the login, both sessions.
      expect((await userRow(user.id)).login).toBe(user.login);
      expect(await works(second)).toBe(200);
      // Limits: the same ask again within ONE_TIME_CODE_RESEND_SECONDS.
      expectLimited(await ask(support, wanted));
      // Where codes go: the new login; who is told: the user, at their current login.
      const otp = await code(wanted, 'contact_change');
      expect((await noticeSent(codes, user.login, 'login_change_requested')).details).toEqual({ newLogin: wanted });
      // Proof: the request stands for the owner's second proof, but only the user's own session confirms it.
      expectError(
        await post('/profiles/my/contact/confirm', { login: wanted, otp }, support.from, support.token),
        400,
        'exception.confirmation_code.not_found',
      );
      expectStatus(await post('/profiles/my/contact/confirm', { login: wanted, otp }, user.from, user.token), 200);
      expect((await userRow(user.id)).login).toBe(wanted);
      expect(await works(user.token)).toBe(200);
      expect(await works(second)).toBe(401);
      expect((await noticeSent(codes, user.login, 'login_changed')).details).toEqual({ newLogin: wanted });
      expect(await logOf(user.id, 'login_change_requested', 'login_changed')).toEqual([
        expect.objectContaining({
          action: 'login_change_requested',
          actorUserId: support.id,
          address: support.from,
          details: expect.objectContaining({ from: user.login, to: wanted, told: user.login }),
        }),
        expect.objectContaining({
          action: 'login_changed',
          actorUserId: null,
          address: user.from,
          details: expect.objectContaining({ proof: 'staff', requestedBy: support.id, confirmedBy: user.id, endedSessions: 1 }),
        }),
      ]);
    });

    it('restore of a changed login: whoever holds the code sent to the old login, without a token; the login back and a new password; every session ends; the new login is not told; login_restored', async () => {
      const owner = await aCustomer('restoring');
      const moved = anEmail('taken-over');
      // Someone with the owner's token and password moves the login (the password is the owner's proof).
      expectStatus(await post('/profiles/my/contact', { login: moved, password: owner.password }, owner.from, owner.token), 200);
      expectStatus(
        await post('/profiles/my/contact/confirm', { login: moved, otp: await code(moved, 'contact_change') }, owner.from, owner.token),
        200,
      );
      const taker = (await logIn(A(), moved, owner.password, anAddress())).body.authorizationToken.token as string;
      const restoreCode = await code(owner.login, 'contact_restore');
      const password = aPassword();
      const restore = (otp: string, from: string) =>
        post('/profiles/my/contact/restore', { login: owner.login, otp, newUserPassword: password }, from);
      // Proof: the code; a wrong one changes nothing.
      expectError(await restore(wrong(restoreCode), owner.from), 400, 'exception.confirmation_code.not_found');
      expect((await userRow(owner.id)).login).toBe(moved);
      expectStatus(await restore(restoreCode, owner.from), 200);
      expect((await userRow(owner.id)).login).toBe(owner.login);
      // Sessions: every one ends, the one that changed the login included.
      expect(await works(owner.token)).toBe(401);
      expect(await works(taker)).toBe(401);
      expectError(await logIn(A(), moved, owner.password, owner.from), 401);
      expectStatus(await logIn(A(), owner.login, password, owner.from), 200);
      // The code is used once; no code was sent at the restore, and nobody was told (the new login neither).
      expectError(await restore(restoreCode, owner.from), 400, 'exception.confirmation_code.not_found');
      await settled();
      expect(sentTo(moved)).toEqual([expect.objectContaining({ purpose: 'contact_change' })]);
      expect(await logOf(owner.id, 'login_restored')).toEqual([
        expect.objectContaining({
          actorUserId: null,
          address: owner.from,
          details: expect.objectContaining({ from: moved, to: owner.login, endedSessions: 2 }),
        }),
      ]);
    });

    it('password change: the user’s own session and current password; PATCH keeps the session presented, POST ends it too and answers new tokens; the user is told; password_changed; a wrong current password counts toward the hold; the last 5 are refused', async () => {
      const user = await aPerson();
      const onB = await sessionOnB(user);
      const second = (await logIn(A(), user.login, user.password, user.from)).body.authorizationToken.token as string;
      const patch = (token: string, current: string, next: string) =>
        call(A(), 'PATCH', '/profiles/my/password', {
          token,
          from: user.from,
          body: { currentUserPassword: current, newUserPassword: next },
        });
      // Who: the user's own session; no token is a 401.
      expectError(await call(A(), 'PATCH', '/profiles/my/password', { body: { currentUserPassword: 'x', newUserPassword: 'y' } }), 401);
      // Proof: a wrong current password is refused and counted.
      expectError(await patch(user.token, 'not-the-password', aPassword()), 400, 'exception.validation', 'currentUserPassword');
      expect(await userRow(user.id)).toMatchObject({ failed_attempts: 1 });
      const changed = aPassword();
      expectStatus(await patch(user.token, user.password, changed), 200);
      // Sessions (PATCH): the one presented stays; every other ends, on both instances.
      expect(await works(user.token)).toBe(200);
      expect(await works(second)).toBe(401);
      expect(await refusedOn(B, onB)).not.toBe(Infinity);
      // Limits: not one of the last 5 passwords.
      expectError(await patch(user.token, changed, user.password), 400, 'exception.password.reused');
      // POST /authorization/password ends every session, the presented one too, and answers new tokens.
      const third = aPassword();
      const posted = await call(A(), 'POST', '/authorization/password', {
        token: user.token,
        from: user.from,
        body: { currentPassword: changed, newPassword: third },
      });
      expectStatus(posted, 200);
      expect(await works(user.token)).toBe(401);
      expect(await works(posted.body.authorizationToken.token)).toBe(200);
      // Codes: none. Who is told: the user, at their login, of each change (issue 46).
      await settled();
      expect(sentTo(user.login, (m) => m.purpose !== 'login')).toEqual([
        expect.objectContaining({ notice: 'password_changed', details: expect.objectContaining({ how: 'changed', address: user.from }) }),
        expect.objectContaining({ notice: 'password_changed', details: expect.objectContaining({ how: 'changed', address: user.from }) }),
      ]);
      expect(await logOf(user.id, 'password_change_failed', 'password_changed')).toEqual([
        expect.objectContaining({ action: 'password_change_failed', address: user.from }),
        expect.objectContaining({ action: 'password_changed', address: user.from }),
        expect.objectContaining({ action: 'password_changed', address: user.from }),
      ]);
    });

    it('hold: anyone, by three wrong passwords in a row; every session ends and the codes asked before are burnt; the operator’s staff are told (user.on_hold), and the user; user_held; while held the right password gets the paced 403', async () => {
      const receiver = new Receiver();
      const url = await receiver.start();
      try {
        const hook = await call(A(), 'POST', '/webhooks', {
          token: world.admin,
          body: { url, events: ['user.on_hold'], description: 'holds' },
        });
        expectStatus(hook, 201);
        receiver.secret = hook.body.webhook.secret as string;
        const user = await aCustomer('held');
        const onB = await sessionOnB(user);
        expectStatus(await post('/password/recovery', { login: user.login }, user.from), 200);
        const asked = await code(user.login, 'password_recovery');
        // Who and proof: anyone who knows the login, with no proof at all.
        await hold(user.login);
        expect(await userRow(user.id)).toMatchObject({ status: 'on_hold', failed_attempts: 3 });
        // Sessions: every one, on both instances.
        expect(await works(user.token)).toBe(401);
        expect(await refusedOn(B, onB)).not.toBe(Infinity);
        // The codes asked before are burnt: the hold cannot be undone with them.
        expectError(
          await post('/password/recovery/confirm', { login: user.login, otp: asked, newUserPassword: aPassword() }, user.from),
          400,
          'exception.confirmation_code.not_found',
        );
        expectError(await logIn(A(), user.login, user.password, user.from), 403, 'exception.authorization.user_on_hold');
        // Who is told: the operator's staff, by webhook; the user, at their login, a notice without the address of the guesser.
        expect(await within(30_000, async () => receiver.ofType('user.on_hold').some((r) => r.event.data.userId === user.id))).not.toBe(
          Infinity,
        );
        await settled();
        expect(
          sentTo(user.login, (m) => m.purpose !== 'contact_change' && m.purpose !== 'login' && m.purpose !== 'password_recovery'),
        ).toEqual([
          { at: expect.any(String), to: user.login, notice: 'user_held', details: { failedAttempts: '3', at: expect.any(String) } },
        ]);
        const record = await logOf(user.id, 'login_failed', 'user_held', 'login_refused_on_hold');
        expect(record.map((r) => r.action)).toEqual(['login_failed', 'login_failed', 'login_failed', 'user_held', 'login_refused_on_hold']);
        expect(record[3].details).toMatchObject({ failedAttempts: 3, revokedCodes: 1 });
      } finally {
        await receiver.stop();
      }
    });

    it('release: an administrator (or the operator’s CLI) only, of a user On Hold or whose codes stopped; a temporary password answered once, every session ends, codes burnt and stops lifted; user_released; the user is told', async () => {
      const admin = await aPerson({ role: 'administrator' });
      const support = await aPerson({ role: 'customer_support' });
      const user = await aCustomer('released');
      const release = (by: Person) => call(A(), 'POST', `/users/${user.id}/release`, { token: by.token, from: by.from });
      // Who: USER_RELEASER only; and only a user On Hold, with a spent temporary password or stopped codes.
      expectError(await release(support), 403, 'exception.access.permission_missing');
      expectError(await release(admin), 409, 'exception.user.not_on_hold');
      // Guessers stop the user's recovery codes (ONE_TIME_CODE_FAILURES_BEFORE_LOCK in a row, from two addresses).
      const guessers = [anAddress(), anAddress()];
      for (let i = 0; i < LIMITS.ONE_TIME_CODE_FAILURES_BEFORE_LOCK; i++) {
        const from = guessers[i < LIMITS.ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR ? 0 : 1];
        expectError(
          await post('/password/recovery/confirm', { login: user.login, otp: String(200000 + i), newUserPassword: aPassword() }, from),
          400,
        );
      }
      expectLimited(await post('/password/recovery', { login: user.login }, user.from));
      const onB = await sessionOnB(user);
      const released = await release(admin);
      expectStatus(released, 200);
      expect(released.body).toEqual({
        status: 'ok',
        message: expect.any(String),
        temporaryPassword: expect.any(String),
        expiresAt: expect.any(String),
      });
      // Sessions: every one, on both instances.
      expect(await works(user.token)).toBe(401);
      expect(await refusedOn(B, onB)).not.toBe(Infinity);
      // The temporary password logs in once, on either instance, with no code, to a token that only changes the password.
      const temporary = released.body.temporaryPassword as string;
      const first = await logIn(B, user.login, temporary, user.from);
      expectStatus(first, 200);
      expect(first.body.action).toBe('PASSWORD_CHANGE_REQUIRED');
      const limited = first.body.authorizationToken.token as string;
      expectError(await call(A(), 'GET', '/profiles/my', { token: limited }), 403, 'exception.authorization.password_change_required');
      expectError(await logIn(A(), user.login, temporary, user.from), 401, 'exception.authorization.temporary_password_expired');
      // Limits: a fresh, unused temporary password is not replaced.
      // (This one was used: a second release is allowed, and replaces it.)
      const again = await release(admin);
      expectStatus(again, 200);
      expectError(await release(admin), 409, 'exception.user.not_on_hold');
      expect(await works(limited)).toBe(401);
      // The stop is lifted: the user recovers from home.
      const before = codesOf(user.login, 'password_recovery');
      expectStatus(await post('/password/recovery', { login: user.login }, anAddress()), 200);
      await code(user.login, 'password_recovery', before + 1);
      // Who is told: the user, at their login, at each release (issue 46); never the temporary password.
      await settled();
      expect(sentTo(user.login, (m) => !m.purpose)).toEqual([
        { at: expect.any(String), to: user.login, notice: 'user_released', details: { at: expect.any(String) } },
        { at: expect.any(String), to: user.login, notice: 'user_released', details: { at: expect.any(String) } },
      ]);
      expect(await logOf(user.id, 'user_released')).toEqual([
        expect.objectContaining({
          actorUserId: admin.id,
          address: admin.from,
          details: expect.objectContaining({ wasOnHold: false, stoppedCodes: ['password_recovery'] }),
        }),
        expect.objectContaining({ actorUserId: admin.id, details: expect.objectContaining({ wasOnHold: false }) }),
      ]);

      // The operator's CLI (npm run admin:release -- <login>) releases any user, on the record as actor cli; the running
      // instances hear that the user's sessions ended.
      const other = await aCustomer('cli-released');
      const otherOnB = await sessionOnB(other);
      const run = await releaseByCli(other.login, world.raw.databaseUrl);
      expect(run.code).toBe(0);
      const cliTemporary = /Temporary password \(shown once\): (\S+)/.exec(run.output)?.[1];
      expect(cliTemporary).toBeDefined();
      expect(await refusedOn(A(), other.token)).not.toBe(Infinity);
      expect(await refusedOn(B, otherOnB)).not.toBe(Infinity);
      expect((await logIn(A(), other.login, cliTemporary!, other.from)).body.action).toBe('PASSWORD_CHANGE_REQUIRED');
      expect(await logOf(other.id, 'user_released')).toEqual([
        expect.objectContaining({ actorUserId: null, address: null, details: expect.objectContaining({ actor: 'cli' }) }),
      ]);
    });

    it('deactivation: an administrator only, never of themselves; every session ends and the codes asked before are burnt; logins refused; activation brings neither back; user_deactivated and user_activated; the user is told of a deactivation', async () => {
      const admin = await aPerson({ role: 'administrator' });
      const user = await aCustomer('deactivated');
      const onB = await sessionOnB(user);
      expectStatus(await post('/password/recovery', { login: user.login }, user.from), 200);
      const asked = await code(user.login, 'password_recovery');
      const patch = (by: Person, id: string, active: boolean) =>
        call(A(), 'PATCH', `/users/${id}`, { token: by.token, from: by.from, body: { active } });
      // Who: USER_MANAGER, never on oneself.
      expectError(await patch(admin, admin.id, false), 409, 'exception.user.self_deactivation');
      const off = await patch(admin, user.id, false);
      expectStatus(off, 200);
      expect(off.body).toMatchObject({ action: 'USER_DEACTIVATED', user: { active: false } });
      // Sessions: every one, on both instances; logins refused (told only with the right password).
      expect(await works(user.token)).toBe(401);
      expect(await refusedOn(B, onB)).not.toBe(Infinity);
      expectError(await logIn(A(), user.login, user.password, user.from), 403, 'exception.authorization.user_deactivated');
      expectError(await logIn(B, user.login, user.password, user.from), 403, 'exception.authorization.user_deactivated');
      // Limits: none; the state it has already changes nothing.
      expect((await patch(admin, user.id, false)).body.action).toBe('UNCHANGED');
      // The code asked before is void, now and after an activation.
      const recover = () => post('/password/recovery/confirm', { login: user.login, otp: asked, newUserPassword: aPassword() }, user.from);
      expectError(await recover(), 400, 'exception.confirmation_code.not_found');
      expect((await patch(admin, user.id, true)).body.action).toBe('USER_ACTIVATED');
      expectError(await recover(), 400, 'exception.confirmation_code.not_found');
      expect(await works(user.token)).toBe(401);
      expectStatus(await logIn(A(), user.login, user.password, user.from), 200);
      // DELETE is a deactivation too.
      const deleted = await call(A(), 'DELETE', `/users/${user.id}`, { token: admin.token, from: admin.from });
      expect(deleted.body).toMatchObject({ action: 'USER_DEACTIVATED', user: { active: false } });
      // Who is told: the user, at their login, of each deactivation (issue 46); of the activation, nobody.
      await settled();
      expect(sentTo(user.login, (m) => !m.purpose).map((m) => m.notice)).toEqual(['user_deactivated', 'user_deactivated']);
      expect(await logOf(user.id, 'user_deactivated', 'user_activated')).toEqual([
        expect.objectContaining({
          action: 'user_deactivated',
          actorUserId: admin.id,
          address: admin.from,
          details: expect.objectContaining({ endedSessions: 2, revokedCodes: 1 }),
        }),
        expect.objectContaining({ action: 'user_activated', actorUserId: admin.id }),
        expect.objectContaining({
          action: 'user_deactivated',
          actorUserId: admin.id,
          details: expect.objectContaining({ deleteRequested: true }),
        }),
      ]);
    });

    it('session end: the user ends the presented session or one of theirs by id (another’s is a 404); an administrator ends all of a user’s; logout, session_ended, sessions_ended; nothing sent', async () => {
      const admin = await aPerson({ role: 'administrator' });
      const user = await aPerson();
      const stranger = await aPerson();
      const onB = await sessionOnB(user);
      const second = (await logIn(A(), user.login, user.password, user.from)).body.authorizationToken.token as string;
      const listed = (await call(A(), 'GET', '/authorization/sessions', { token: user.token })).body.records as {
        id: string;
        current: boolean;
      }[];
      const secondId = (await call(A(), 'GET', '/authorization/sessions', { token: second })).body.records.find((r: any) => r.current).id;
      expect(listed.map((r) => r.id)).toContain(secondId);
      // Who: the user's own sessions only.
      expectError(
        await call(A(), 'DELETE', `/authorization/sessions/${secondId}`, { token: stranger.token }),
        404,
        'exception.session.not_found',
      );
      expect(await works(second)).toBe(200);
      expectStatus(await call(A(), 'DELETE', `/authorization/sessions/${secondId}`, { token: user.token, from: user.from }), 200);
      expect(await works(second)).toBe(401);
      expect(await works(user.token)).toBe(200);
      // The presented one (a log-out), on B: B refuses it at once, A with it.
      expectStatus(await call(B, 'DELETE', '/authorization', { token: onB, from: user.from }), 200);
      expect(await works(onB, B)).toBe(401);
      expect(await works(onB)).toBe(401);
      // All of them: an administrator.
      const third = await sessionOnB(user);
      const ended = await call(A(), 'DELETE', `/users/${user.id}/sessions`, { token: admin.token, from: admin.from });
      expectStatus(ended, 200);
      expect(ended.body).toMatchObject({ action: 'SESSIONS_ENDED', endedSessions: 2 });
      expect(await works(user.token)).toBe(401);
      expect(await refusedOn(B, third)).not.toBe(Infinity);
      // Nothing is sent; the password still logs in (no limits: a session is the user's to end).
      await settled();
      expect(sentTo(user.login, (m) => m.purpose !== 'login')).toEqual([]);
      expectStatus(await logIn(A(), user.login, user.password, user.from), 200);
      expect(await logOf(user.id, 'session_ended', 'logout', 'sessions_ended')).toEqual([
        expect.objectContaining({ action: 'session_ended', address: user.from, details: expect.objectContaining({ sessionId: secondId }) }),
        expect.objectContaining({ action: 'logout', address: user.from }),
        expect.objectContaining({
          action: 'sessions_ended',
          actorUserId: admin.id,
          details: expect.objectContaining({ endedSessions: 2 }),
        }),
      ]);
    });
  });

  describe('every staff role against every row', () => {
    /**
     * What each member of staff gets trying each row on someone else's account (a customer with a proven login), in
     * STAFF_ROLES' order. A 200 to "ask a recovery code" sends the code to the customer's login, never to the asker; a
     * 400 is the answer of a wrong code; a 404 to "change their password" is the route that does not exist.
     */
    // prettier-ignore
    const MATRIX: [act: string, statuses: number[]][] = [
      //                                            admin  cfo  c.mgr c.spec supp anti  acct  cash
      ['sign a user up',                             [201,  403,  403,  403,  403,  403,  403,  403]],
      ['ask to change their login',                  [200,  403,  403,  403,  200,  403,  403,  403]],
      ['confirm that change in their own session',   [400,  400,  400,  400,  400,  400,  400,  400]],
      ['change their password',                      [404,  404,  404,  404,  404,  404,  404,  404]],
      ['log in as them without their password',      [401,  401,  401,  401,  401,  401,  401,  401]],
      ['ask a recovery code for them',               [200,  200,  200,  200,  200,  200,  200,  200]],
      ['recover their password without the code',    [400,  400,  400,  400,  400,  400,  400,  400]],
      ['confirm a login for them without its code',  [400,  400,  400,  400,  400,  400,  400,  400]],
      ['take their login back without the code',     [400,  400,  400,  400,  400,  400,  400,  400]],
      ['end one of their sessions',                  [404,  404,  404,  404,  404,  404,  404,  404]],
      ['end all their sessions',                     [200,  403,  403,  403,  403,  403,  403,  403]],
      ['deactivate them',                            [200,  403,  403,  403,  403,  403,  403,  403]],
      ['activate them',                              [200,  403,  403,  403,  403,  403,  403,  403]],
      ['delete them',                                [200,  403,  403,  403,  403,  403,  403,  403]],
      ['release them while active',                  [409,  403,  403,  403,  403,  403,  403,  403]],
      ['unban them while active',                    [409,  403,  403,  403,  403,  403,  403,  403]],
      ['release them On Hold',                       [200,  403,  403,  403,  403,  403,  403,  403]],
    ];
    /**
     * Who got a working session of the customer's account, and by which act: only an administrator, by the
     * specification's release of a user On Hold (which anyone can cause with three wrong passwords): the temporary
     * password hands the account over. It is on the record (user_released, by them); the customer is not told.
     */
    const TAKEOVERS: Record<string, string> = { administrator: 'release them On Hold' };

    it('each staff role may do exactly what the matrix says; none gets a code meant for the owner, and only an administrator’s release hands an account over', async () => {
      expect([...STAFF_ROLES]).toEqual(STAFF_ROLES_IN_ORDER);
      const observed = new Map<string, number[]>(MATRIX.map(([act]) => [act, []]));
      const takeovers: Record<string, string> = {};
      for (const role of STAFF_ROLES_IN_ORDER as Role[]) {
        const staff = await aPerson({ role });
        const guesser = anAddress();
        const target = await aCustomer(`target-of-${role}`);
        const targetSession = (await logIn(A(), target.login, target.password, target.from)).body.authorizationToken.token as string;
        const sessionId = (await call(A(), 'GET', '/authorization/sessions', { token: targetSession })).body.records.find(
          (r: any) => r.current,
        ).id as string;
        const evil = anEmail(`evil-${role}`, 'attacker.example');
        const by = (method: string, path: string, body?: unknown, server: TestServer = A()) =>
          call(server, method, path, { token: staff.token, from: staff.from, body });
        const answers: ApiResponse[] = [];
        const act = async (name: string, answer: Promise<ApiResponse>) => {
          const done = await answer;
          answers.push(done);
          observed.get(name)!.push(done.status);
          return done;
        };
        const recoveryCodes = codesOf(target.login, 'password_recovery');

        await act(
          'sign a user up',
          by('POST', '/users', { login: anEmail('signed-up'), password: aPassword(), name: 'New', role: 'individual' }),
        );
        await act('ask to change their login', by('PATCH', `/profiles/${target.id}/contact`, { login: evil }));
        // The code the wanted address got, when it got one: the staff member holds it.
        await settled();
        const evilCode = sentTo(evil, (m) => m.purpose === 'contact_change')[0]?.code ?? '123456';
        await act(
          'confirm that change in their own session',
          call(A(), 'POST', '/profiles/my/contact/confirm', {
            token: staff.token,
            from: guesser,
            body: { login: evil, otp: evilCode },
          }),
        );
        await act(
          'change their password',
          by('PATCH', `/profiles/${target.id}/password`, { currentUserPassword: 'x-password', newUserPassword: aPassword() }),
        );
        await act(
          'log in as them without their password',
          call(A(), 'POST', '/authorization', { from: staff.from, body: { login: target.login, password: `${role}-guess` } }),
        );
        await act(
          'ask a recovery code for them',
          call(A(), 'POST', '/password/recovery', { from: staff.from, body: { login: target.login } }),
        );
        await code(target.login, 'password_recovery', recoveryCodes + 1);
        await act(
          'recover their password without the code',
          call(A(), 'POST', '/password/recovery/confirm', {
            from: guesser,
            body: { login: target.login, otp: evilCode, newUserPassword: aPassword() },
          }),
        );
        await act(
          'confirm a login for them without its code',
          call(B, 'POST', '/authorization/confirm', { from: guesser, body: { login: target.login, otp: evilCode } }),
        );
        await act(
          'take their login back without the code',
          call(A(), 'POST', '/profiles/my/contact/restore', {
            from: guesser,
            body: { login: target.login, otp: evilCode, newUserPassword: aPassword() },
          }),
        );
        await act('end one of their sessions', by('DELETE', `/authorization/sessions/${sessionId}`));
        expect([role, await works(targetSession)]).toEqual([role, 200]);
        await act('end all their sessions', by('DELETE', `/users/${target.id}/sessions`));
        await act('deactivate them', by('PATCH', `/users/${target.id}`, { active: false }));
        await act('activate them', by('PATCH', `/users/${target.id}`, { active: true }));
        const deleted = await act('delete them', by('DELETE', `/users/${target.id}`));
        if (deleted.status === 200)
          expectStatus(await call(A(), 'PATCH', `/users/${target.id}`, { token: world.admin, body: { active: true } }), 200);
        await act('release them while active', by('POST', `/users/${target.id}/release`));
        await act('unban them while active', by('POST', `/users/${target.id}/unban`));

        // Nothing so far handed the account over: no answer carried a token or a password, the login has not moved, the
        // owner's password logs in, and no code but the new address's own went anywhere the member of staff reads.
        expect([role, answers.filter((a) => a.body?.authorizationToken || a.body?.temporaryPassword).map((a) => a.body.message)]).toEqual([
          role,
          [],
        ]);
        expect([role, (await userRow(target.id)).login]).toEqual([role, target.login]);
        expectStatus(await logIn(A(), target.login, target.password, target.from), 200);
        await settled();
        expect([role, sentTo(staff.login)]).toEqual([role, []]);
        expect([role, sentTo(evil, (m) => m.purpose !== 'contact_change')]).toEqual([role, []]);

        await hold(target.login);
        const released = await act('release them On Hold', by('POST', `/users/${target.id}/release`));
        if (released.status === 200) {
          const session = await logIn(A(), target.login, released.body.temporaryPassword, staff.from);
          const changed = await call(A(), 'POST', '/authorization/password', {
            token: session.body.authorizationToken.token,
            from: staff.from,
            body: { currentPassword: released.body.temporaryPassword, newPassword: aPassword() },
          });
          if (changed.status === 200 && (await works(changed.body.authorizationToken.token)) === 200)
            takeovers[role] = 'release them On Hold';
          expect(await logOf(target.id, 'user_released')).toEqual([
            expect.objectContaining({ actorUserId: staff.id, address: staff.from }),
          ]);
        }
      }
      expect(MATRIX.map(([act]) => [act, observed.get(act)])).toEqual(MATRIX);
      expect(takeovers).toEqual(TAKEOVERS);
    });
  });

  describe('chains an attacker tries', () => {
    /**
     * Runs `change` (a request that changes the user) until it waits, about to commit, on the action log's chain (whose
     * lock the test holds); then a login with the password the user had, until it waits on the user's row, which the
     * change holds; then lets the change commit. The login read the user before the change and reaches its token after
     * it: answers the change's and the login's answers.
     */
    const loginRacing = async (change: () => Promise<ApiResponse>, login: string, password: string, from: string) => {
      const waiting = async (n: number) =>
        within(30_000, async () => {
          const { rows } = await world.raw.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          return rows[0].n >= n;
        });
      const gate = await world.raw.db.connect();
      try {
        await gate.query('BEGIN');
        await gate.query('SELECT pg_advisory_xact_lock($1)', [ACTION_CHAIN_LOCK]);
        const changed = change();
        expect(await waiting(1)).not.toBe(Infinity);
        const loggedIn = logIn(A(), login, password, from);
        expect(await waiting(2)).not.toBe(Infinity);
        await gate.query('COMMIT');
        return { changed: await changed, loggedIn: await loggedIn };
      } finally {
        gate.release();
      }
    };

    it('a login racing a password change, a recovery or a deactivation gets no session that outlives it (fixed: it was answered a live token)', async () => {
      const admin = await aPerson({ role: 'administrator' });
      // A password change: the login with the old password, in flight across it, is a wrong password now.
      const changer = await aPerson();
      const changing = await loginRacing(
        () =>
          call(A(), 'PATCH', '/profiles/my/password', {
            token: changer.token,
            from: changer.from,
            body: { currentUserPassword: changer.password, newUserPassword: aPassword() },
          }),
        changer.login,
        changer.password,
        anAddress(),
      );
      expectStatus(changing.changed, 200);
      expectError(changing.loggedIn, 401, 'exception.authorization.invalid_credentials');
      // A recovery, likewise.
      const recovering = await aCustomer('racing-recovery');
      expectStatus(await post('/password/recovery', { login: recovering.login }, recovering.from), 200);
      const otp = await code(recovering.login, 'password_recovery');
      const recovered = await loginRacing(
        () => post('/password/recovery/confirm', { login: recovering.login, otp, newUserPassword: aPassword() }, recovering.from),
        recovering.login,
        recovering.password,
        anAddress(),
      );
      expectStatus(recovered.changed, 200);
      expectError(recovered.loggedIn, 401, 'exception.authorization.invalid_credentials');
      // A deactivation: the login is refused as a deactivated user's is.
      const leaving = await aPerson();
      const deactivated = await loginRacing(
        () => call(A(), 'PATCH', `/users/${leaving.id}`, { token: admin.token, from: admin.from, body: { active: false } }),
        leaving.login,
        leaving.password,
        anAddress(),
      );
      expectStatus(deactivated.changed, 200);
      expectError(deactivated.loggedIn, 403, 'exception.authorization.user_deactivated');
      // The live sessions left: the one that changed the password (PATCH keeps it), none for the others.
      const live = async (id: string) =>
        (await world.raw.db.query(`SELECT count(*)::int AS n FROM auth_tokens WHERE user_id = $1 AND revoked_at IS NULL`, [id])).rows[0].n;
      expect([await live(changer.id), await live(recovering.id), await live(leaving.id)]).toEqual([1, 0, 0]);
      expect(await works(changer.token)).toBe(200);
    });

    it('hold, then release, then recovery: the codes asked before either stay void; the temporary password’s token changes the password and nothing else', async () => {
      const admin = await aPerson({ role: 'administrator' });
      const user = await aCustomer('held-released');
      const coin = await world.coin(user, '40.00');
      expectStatus(await post('/password/recovery', { login: user.login }, user.from), 200);
      const beforeHold = await code(user.login, 'password_recovery');
      await hold(user.login);
      const released = await call(A(), 'POST', `/users/${user.id}/release`, { token: admin.token, from: admin.from });
      expectStatus(released, 200);
      const recover = (otp: string) =>
        post('/password/recovery/confirm', { login: user.login, otp, newUserPassword: aPassword() }, user.from);
      expectError(await recover(beforeHold), 400, 'exception.confirmation_code.not_found');
      // The temporary password's token: only the password change (and a log-out) answer it.
      const limited = (await logIn(A(), user.login, released.body.temporaryPassword, user.from)).body.authorizationToken.token as string;
      for (const [method, path, body] of [
        ['GET', '/profiles/my', undefined],
        ['GET', '/authorization/sessions', undefined],
        ['PATCH', '/profiles/my/password', { currentUserPassword: released.body.temporaryPassword, newUserPassword: aPassword() }],
        ['POST', '/profiles/my/contact', { login: anEmail('elsewhere'), password: released.body.temporaryPassword }],
        ['POST', '/transfers', { paymentTool: { type: 'COIN', srcValue: coin.serial, destValue: coin.serial }, amount: '1.00' }],
      ] as const) {
        const answer = await call(A(), method, path, { token: limited, from: user.from, body });
        expect([path, answer.status, answer.body.code]).toEqual([path, 403, 'exception.authorization.password_change_required']);
      }
      // A recovery after the release works (the user is active): it replaces the temporary password and ends that token.
      const before = codesOf(user.login, 'password_recovery');
      expectStatus(await post('/password/recovery', { login: user.login }, anAddress()), 200);
      expectStatus(await recover(await code(user.login, 'password_recovery', before + 1)), 200);
      expect(await works(limited)).toBe(401);
      expectError(await logIn(A(), user.login, released.body.temporaryPassword, user.from), 401);
    });

    it('a code asked before a change of login is void after it: a recovery of the old login, and a second change asked from it', async () => {
      const owner = await aCustomer('old-codes');
      expectStatus(await post('/password/recovery', { login: owner.login }, owner.from), 200);
      const recovery = await code(owner.login, 'password_recovery');
      // Two changes asked from the same login; the first one is confirmed.
      const first = anEmail('first-move');
      const secondMove = anEmail('second-move');
      expectStatus(await post('/profiles/my/contact', { login: first, password: owner.password }, owner.from, owner.token), 200);
      expectStatus(await post('/profiles/my/contact', { login: secondMove, password: owner.password }, anAddress(), owner.token), 200);
      const firstCode = await code(first, 'contact_change');
      const secondCode = await code(secondMove, 'contact_change');
      expectStatus(await post('/profiles/my/contact/confirm', { login: first, otp: firstCode }, owner.from, owner.token), 200);
      // The old login's recovery code names no user now; the second change was asked from a login the user no longer has.
      expectError(
        await post('/password/recovery/confirm', { login: owner.login, otp: recovery, newUserPassword: aPassword() }, owner.from),
        400,
        'exception.confirmation_code.not_found',
      );
      expectError(
        await post('/profiles/my/contact/confirm', { login: secondMove, otp: secondCode }, owner.from, owner.token),
        400,
        'exception.confirmation_code.not_found',
      );
      expect((await userRow(owner.id)).login).toBe(first);
      expectStatus(await logIn(A(), first, owner.password, owner.from), 200);
    });

    it('parallel requests racing one change: one code confirms one change of login, and recovers once', async () => {
      const owner = await aCustomer('parallel');
      const targets = [anEmail('race-a'), anEmail('race-b')];
      for (const target of targets) {
        expectStatus(await post('/profiles/my/contact', { login: target, password: owner.password }, anAddress(), owner.token), 200);
      }
      const otps = await Promise.all(targets.map((t) => code(t, 'contact_change')));
      const confirmations = await Promise.all(
        targets.flatMap((t, i) =>
          [0, 1].map(() => post('/profiles/my/contact/confirm', { login: t, otp: otps[i] }, anAddress(), owner.token)),
        ),
      );
      expect(confirmations.map((c) => c.status).sort()).toEqual([200, 400, 400, 400]);
      expect(targets).toContain((await userRow(owner.id)).login);
      expect(await logOf(owner.id, 'login_changed')).toHaveLength(1);

      const recovering = await aCustomer('parallel-recovery');
      expectStatus(await post('/password/recovery', { login: recovering.login }, recovering.from), 200);
      const otp = await code(recovering.login, 'password_recovery');
      const passwords = [aPassword(), aPassword(), aPassword()];
      const recoveries = await Promise.all(
        passwords.map((p) => post('/password/recovery/confirm', { login: recovering.login, otp, newUserPassword: p }, anAddress())),
      );
      expect(recoveries.map((r) => r.status).sort()).toEqual([200, 400, 400]);
      const winner = passwords[recoveries.findIndex((r) => r.status === 200)];
      expectStatus(await logIn(A(), recovering.login, winner, recovering.from), 200);
      expect(await logOf(recovering.id, 'password_recovered')).toHaveLength(1);
    });
  });
});
