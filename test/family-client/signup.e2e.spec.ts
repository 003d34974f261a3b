import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueLogin } from '../helpers/actors';
import { expectError, recording } from '../helpers/money';
import { ApiResponse, startServer, TestServer } from '../helpers/server';
import { Receiver } from '../helpers/webhook-receiver';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's sign-up, login confirmation, password recovery and change of login (its `entrance` and
 * `store` modules, and the login form of `user-dashboard` / `user-profile`), with the bodies its call sites send and
 * the fields its screens read; then the codes' brute-force, replay, rate-limit and enumeration guarantees.
 *
 * The codes are read where the default sender (the log sender) delivers them: ONE_TIME_CODE_LOG, one JSON line each.
 */
const codeLog = (name: string) => join(mkdtempSync(join(tmpdir(), 'finapi-codes-')), name);

/** A code's line (a notice's line has neither `purpose` nor `code`). */
interface Delivery {
  purpose?: string;
  to: string;
  code?: string;
}

function deliveries(file: string): Delivery[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Delivery);
  } catch {
    return [];
  }
}

/** The `n`-th code (from 1) delivered to `to` for `purpose`, once the sender wrote it (it writes after the commit). */
async function codeSent(file: string, to: string, purpose: string, n = 1): Promise<string> {
  // A minute at most: on a loaded machine the sender's turn may come late; a code that never comes fails all the same.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const sent = deliveries(file).filter((d) => d.to === to && d.purpose === purpose);
    if (sent.length >= n) return sent[n - 1].code!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${purpose} code #${n} was delivered to ${to}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const anEmail = () => `${uniqueLogin('signup')}@example.com`;
const aPassword = () => `pw-${randomBytes(6).toString('hex')}`;
/** A code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Every answer and log line must be free of every code delivered (checked at the end of each server's tests). */
function expectNoCodeLeaked(file: string, answers: string[], logs: string[]): void {
  const codes = deliveries(file).flatMap((d) => (d.code ? [d.code] : []));
  expect(codes.length).toBeGreaterThan(0);
  for (const code of codes) {
    const standalone = new RegExp(`(?<![0-9A-Za-z-])${code}(?![0-9A-Za-z-])`);
    expect(answers.filter((a) => standalone.test(a))).toEqual([]);
    expect(logs.filter((l) => standalone.test(l))).toEqual([]);
  }
}

describe('family client: sign-up, recovery and change of login', () => {
  const codes = codeLog('codes.log');
  const world = moneyWorld({
    env: {
      ONE_TIME_CODE_LOG: codes,
      ONE_TIME_CODE_RESEND_SECONDS: '1',
      ONE_TIME_CODES_PER_HOUR: '4',
      ONE_TIME_CODE_MAX_ATTEMPTS: '3',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '100',
    },
  });
  const answers: string[] = [];
  const post = async (path: string, body: unknown, token?: string): Promise<ApiResponse> => {
    const answer = await world.server.request('POST', `/api/v1${path}`, { body, token });
    answers.push(answer.text);
    return answer;
  };
  const code = (to: string, purpose: string, n = 1) => codeSent(codes, to, purpose, n);

  /** Signs up as the screens do: POST /registration, the code, POST /registration/confirm. */
  const signUp = async (body: Record<string, unknown>) => {
    const login = body.login as string;
    const password = aPassword();
    expect((await post('/registration', body)).status).toBe(200);
    const confirmed = await post('/registration/confirm', { login, otp: await code(login, 'registration'), password });
    expect(confirmed.status).toBe(200);
    return { login, password };
  };
  const logIn = async (login: string, password: string) => {
    const answer = await post('/authorization', { login, password });
    expect(answer.status).toBe(200);
    return answer.body.members[0].token.token as string;
  };

  it('POST /registration — the sign-up screen’s body (an individual: no legalType); answers OTP_SENT, never the code', async () => {
    const login = anEmail();
    const answer = await post('/registration', { login, role: 'individual' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok', message: expect.any(String), action: 'OTP_SENT' });
    expect(answer.text).not.toContain(await code(login, 'registration'));
  });

  it('POST /registration/confirm — the confirm screen’s body {login, otp, password}; then the sign-in screen logs in', async () => {
    const { login, password } = await signUp({ login: anEmail(), role: 'individual' });
    const answer = await post('/authorization', { login, password });
    expect(answer.body.action).toBe('TOKEN_CREATED');
    // The store keeps members[0].token and members[0].role.
    expect(answer.body.members[0]).toMatchObject({
      role: 'individual',
      token: { token: expect.any(String), expiresAt: expect.any(String) },
    });
    const me = await world.server.request('GET', '/api/v1/profiles/my', { token: answer.body.members[0].token.token });
    expect(me.body.profile.contact).toMatchObject({ email: login, emailVerified: true });
    expect(me.body.organization.type).toBe('individual');
  });

  it('POST /registration — a merchant with legalType corporation signs up as a merchant; a phone number is a login too', async () => {
    const { login, password } = await signUp({ login: anEmail(), role: 'merchant', legalType: 'corporation' });
    expect((await post('/authorization', { login, password })).body.members[0].role).toBe('merchant');
    const phone = `+3706${String(Date.now()).slice(-7)}`;
    const byPhone = await signUp({ login: phone, role: 'individual' });
    const token = await logIn(byPhone.login, byPhone.password);
    const me = await world.server.request('GET', '/api/v1/profiles/my', { token });
    expect(me.body.profile.contact).toMatchObject({ phoneNumber: phone, phoneVerified: true });
  });

  it('POST /registration/resend-otp — {login}: a new code, the one before it refused', async () => {
    const login = anEmail();
    await post('/registration', { login });
    const first = await code(login, 'registration');
    await sleep(1100);
    const resent = await post('/registration/resend-otp', { login });
    expect(resent.status).toBe(200);
    expect(resent.body.action).toBe('OTP_SENT');
    const second = await code(login, 'registration', 2);
    if (first !== second)
      expectError(
        await post('/registration/confirm', { login, otp: first, password: aPassword() }),
        400,
        'exception.confirmation_code.not_found',
      );
    expect((await post('/registration/confirm', { login, otp: second, password: aPassword() })).status).toBe(200);
  });

  it('POST /password/recovery and /password/recovery/confirm — {login}, then {login, newUserPassword, otp}: the new password logs in, the old tokens are revoked', async () => {
    const { login, password } = await signUp({ login: anEmail() });
    const oldToken = await logIn(login, password);
    const asked = await post('/password/recovery', { login });
    expect(asked.status).toBe(200);
    expect(asked.body.action).toBe('OTP_SENT');
    const newUserPassword = aPassword();
    const done = await post('/password/recovery/confirm', { login, newUserPassword, otp: await code(login, 'password_recovery') });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'ok', action: 'PASSWORD_CHANGED' });
    expectError(await post('/authorization', { login, password }), 401, 'exception.authorization.invalid_credentials');
    await logIn(login, newUserPassword);
    expect((await world.server.request('GET', '/api/v1/profiles/my', { token: oldToken })).status).toBe(401);
  });

  it('POST /password/recovery/confirm — a reused password is refused and the code stays usable', async () => {
    const { login, password } = await signUp({ login: anEmail() });
    await post('/password/recovery', { login });
    const otp = await code(login, 'password_recovery');
    expectError(await post('/password/recovery/confirm', { login, newUserPassword: password, otp }), 400, 'exception.password.reused');
    expect((await post('/password/recovery/confirm', { login, newUserPassword: aPassword(), otp })).status).toBe(200);
  });

  it('POST /profiles/my/contact and /confirm — {login}, then {login, otp}: the form reads profile.contact; the new login logs in', async () => {
    const { login, password } = await signUp({ login: anEmail() });
    const token = await logIn(login, password);
    const newLogin = anEmail();
    const asked = await post('/profiles/my/contact', { login: newLogin }, token);
    expect(asked.status).toBe(200);
    expect(asked.body.action).toBe('OTP_SENT');
    // The client sends no password: its one code field takes the code sent to the current login, then the new one's (issue 43).
    const both = async (current: string, wanted: string) =>
      (await code(current, 'contact_change_owner')) + (await code(wanted, 'contact_change'));
    const confirmed = await post('/profiles/my/contact/confirm', { login: newLogin, otp: await both(login, newLogin) }, token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.profile.contact).toMatchObject({ email: newLogin, emailVerified: true });
    expect(confirmed.body.profile).toMatchObject({ type: 'individual', person: expect.any(Object) });
    await logIn(newLogin, password);
    expectError(await post('/authorization', { login, password }), 401);
    // A phone number added beside an e-mail login is a contact; the login stays the e-mail address.
    const phone = `+3706${String(Date.now()).slice(-7)}`;
    await post('/profiles/my/contact', { login: phone }, token);
    const withPhone = await post('/profiles/my/contact/confirm', { login: phone, otp: await both(newLogin, phone) }, token);
    expect(withPhone.body.profile.contact).toMatchObject({ email: newLogin, phoneNumber: phone, phoneVerified: true });
    await logIn(newLogin, password);
  });

  it('POST /profiles/my/contact/confirm — another user’s code is refused; a login another user has gets no code', async () => {
    const alice = await signUp({ login: anEmail() });
    const bob = await signUp({ login: anEmail() });
    const [aliceToken, bobToken] = [await logIn(alice.login, alice.password), await logIn(bob.login, bob.password)];
    const target = anEmail();
    await post('/profiles/my/contact', { login: target }, aliceToken);
    const otp = (await code(alice.login, 'contact_change_owner')) + (await code(target, 'contact_change'));
    expectError(await post('/profiles/my/contact/confirm', { login: target, otp }, bobToken), 400, 'exception.confirmation_code.not_found');
    // Bob asks for Alice's login: the same answer, but nothing is sent to it (only Bob's own login gets his code).
    const before = deliveries(codes).filter((d) => d.to === alice.login).length;
    expect((await post('/profiles/my/contact', { login: alice.login }, bobToken)).body.action).toBe('OTP_SENT');
    await code(bob.login, 'contact_change_owner');
    expect(deliveries(codes).filter((d) => d.to === alice.login).length).toBe(before);
    expectError(await post('/profiles/my/contact', { login: 'not a login' }, bobToken), 400, 'exception.validation');
  });

  it('POST /authorization — PASSWORD_CHANGE_REQUIRED carries members[0].token and role as the store reads them', async () => {
    const login = uniqueLogin('temp');
    const created = await world.server.request('POST', '/api/v1/users', { token: world.admin, body: { login, role: 'individual' } });
    const answer = await post('/authorization', { login, password: created.body.temporaryPassword });
    expect(answer.body.action).toBe('PASSWORD_CHANGE_REQUIRED');
    expect(answer.body.members[0]).toMatchObject({ role: 'individual', token: { token: expect.any(String) } });
  });

  describe('brute force, replay, rate limits, enumeration', () => {
    it('wrong codes until burnt: after ONE_TIME_CODE_MAX_ATTEMPTS (3) wrong ones, the right code is refused too', async () => {
      const login = anEmail();
      await post('/registration', { login });
      const otp = await code(login, 'registration');
      for (let i = 0; i < 3; i++) {
        expectError(
          await post('/registration/confirm', { login, otp: wrong(otp), password: aPassword() }),
          400,
          'exception.confirmation_code.not_found',
        );
      }
      expectError(await post('/registration/confirm', { login, otp, password: aPassword() }), 400, 'exception.confirmation_code.not_found');
      const row = await world.raw.db.query(`SELECT failed_attempts, spent_reason FROM one_time_codes WHERE target = $1`, [login]);
      expect(row.rows).toEqual([{ failed_attempts: 3, spent_reason: 'burnt' }]);
    });

    it('a used code is refused the second time (sign-up and recovery)', async () => {
      const login = anEmail();
      await post('/registration', { login });
      const otp = await code(login, 'registration');
      const password = aPassword();
      expect((await post('/registration/confirm', { login, otp, password })).status).toBe(200);
      expectError(await post('/registration/confirm', { login, otp, password }), 400, 'exception.confirmation_code.not_found');
      await post('/password/recovery', { login });
      const recovery = await code(login, 'password_recovery');
      expect((await post('/password/recovery/confirm', { login, otp: recovery, newUserPassword: aPassword() })).status).toBe(200);
      expectError(
        await post('/password/recovery/confirm', { login, otp: recovery, newUserPassword: aPassword() }),
        400,
        'exception.confirmation_code.not_found',
      );
    });

    it('an expired code is refused', async () => {
      const login = anEmail();
      await post('/registration', { login });
      const otp = await code(login, 'registration');
      // The code's lifetime is at least 30 s: its expiry is moved into the past instead of waiting.
      await world.raw.db.query(`UPDATE one_time_codes SET expires_at = now() - interval '1 second' WHERE target = $1`, [login]);
      expectError(await post('/registration/confirm', { login, otp, password: aPassword() }), 400, 'exception.confirmation_code.not_found');
    });

    it('resending is rate-limited: not twice within ONE_TIME_CODE_RESEND_SECONDS, at most ONE_TIME_CODES_PER_HOUR (4) an hour', async () => {
      const login = anEmail();
      expect((await post('/registration', { login })).status).toBe(200);
      const soon = await post('/registration/resend-otp', { login });
      expectError(soon, 429, 'exception.rate_limited');
      expect(Number(soon.headers.get('retry-after'))).toBeGreaterThan(0);
      for (let i = 2; i <= 4; i++) {
        await sleep(1100);
        expect((await post('/registration/resend-otp', { login })).status).toBe(200);
      }
      await sleep(1100);
      expectError(await post('/registration/resend-otp', { login }), 429, 'exception.rate_limited');
      expect(deliveries(codes).filter((d) => d.to === login)).toHaveLength(4);
    });

    it('no enumeration: an existing login signing up or recovering, and an unknown one, get the same answers; no code goes to them', async () => {
      const existing = await signUp({ login: anEmail() });
      const unknown = anEmail();
      const before = deliveries(codes).filter((d) => d.to === existing.login).length;
      // Past the cooldown of its own sign-up: the limits count codes per login, whether or not it exists.
      await sleep(1100);
      const [a, b] = [await post('/registration', { login: existing.login }), await post('/registration', { login: unknown })];
      expect([a.status, a.body]).toEqual([b.status, b.body]);
      await sleep(1100);
      const [c, d] = [await post('/password/recovery', { login: existing.login }), await post('/password/recovery', { login: anEmail() })];
      expect([c.status, c.body]).toEqual([d.status, d.body]);
      await sleep(1100);
      const [e, f] = [
        await post('/registration/resend-otp', { login: existing.login }),
        await post('/registration/resend-otp', { login: anEmail() }),
      ];
      expect([e.status, e.body]).toEqual([f.status, f.body]);
      await sleep(300);
      // Only the recovery code reached the existing login; the stand-ins were sent nowhere.
      expect(
        deliveries(codes)
          .filter((x) => x.to === existing.login)
          .map((x) => x.purpose),
      ).toEqual([...Array(before).fill('registration'), 'password_recovery']);
      // The stand-in refuses every code, the same way a wrong code is refused.
      expectError(
        await post('/registration/confirm', { login: existing.login, otp: '000000', password: aPassword() }),
        400,
        'exception.confirmation_code.not_found',
      );
    });

    it('staff roles never sign themselves up: 403, and no code is sent', async () => {
      for (const role of ['administrator', 'accountant', 'compliance_manager']) {
        const login = anEmail();
        expectError(await post('/registration', { login, role }), 403, 'exception.registration.disabled');
        expect(deliveries(codes).filter((d) => d.to === login)).toEqual([]);
      }
      expectError(await post('/registration', { login: anEmail(), role: 'root' }), 400, 'exception.validation');
      expectError(await post('/registration', { login: 'bob' }), 400, 'exception.validation');
    });

    it('every code-sending call is rate-limited (429) and refuses a body without login (400)', async () => {
      const { login, password } = await signUp({ login: anEmail() });
      const token = await logIn(login, password);
      const newLogin = anEmail();
      const calls: [string, unknown, string?][] = [
        ['/registration', { login: anEmail() }],
        ['/password/recovery', { login }],
        ['/profiles/my/contact', { login: newLogin }, token],
      ];
      for (const [path, body, as] of calls) {
        expect((await post(path, body, as)).status).toBe(200);
        expectError(await post(path, body, as), 429, 'exception.rate_limited');
      }
      for (const path of ['/registration/resend-otp', '/password/recovery', '/authorization/resend-otp']) {
        expectError(await post(path, {}), 400, 'exception.validation', 'login');
      }
    });

    it('a login taken between the code and its confirmation is a 409 (sign-up and change of login)', async () => {
      const login = anEmail();
      await post('/registration', { login });
      const otp = await code(login, 'registration');
      const created = await world.server.request('POST', '/api/v1/users', {
        token: world.admin,
        body: { login, password: aPassword(), role: 'individual' },
      });
      expect(created.status).toBe(201);
      expectError(await post('/registration/confirm', { login, otp, password: aPassword() }), 409, 'exception.user.login_taken');

      const alice = await signUp({ login: anEmail() });
      const token = await logIn(alice.login, alice.password);
      const wanted = anEmail();
      await post('/profiles/my/contact', { login: wanted }, token);
      const contactCode = (await code(alice.login, 'contact_change_owner')) + (await code(wanted, 'contact_change'));
      await world.server.request('POST', '/api/v1/users', {
        token: world.admin,
        body: { login: wanted, password: aPassword(), role: 'individual' },
      });
      expectError(
        await post('/profiles/my/contact/confirm', { login: wanted, otp: contactCode }, token),
        409,
        'exception.user.login_taken',
      );
    });

    it('the outbox event one_time_code.issued tells the operator’s staff that a code was sent, never the code; a stand-in emits none', async () => {
      const receiver = new Receiver();
      const url = await receiver.start();
      const hook = await world.server.request('POST', '/api/v1/webhooks', {
        token: world.admin,
        body: { url, events: ['one_time_code.issued'], description: 'codes sent' },
      });
      expect(hook.status).toBe(201);
      try {
        const login = anEmail();
        await post('/registration', { login });
        const otp = await code(login, 'registration');
        await receiver.waitFor(1);
        const existing = await signUp({ login: anEmail() });
        await sleep(1100);
        await post('/registration', { login: existing.login });
        await receiver.waitFor(3, 2000);
        const sent = receiver.ofType('one_time_code.issued');
        expect(sent.filter((r) => r.event.data.to === login).map((r) => r.event.data)).toEqual([
          { id: expect.any(String), purpose: 'registration', to: login, expiresAt: expect.any(String) },
        ]);
        // One event for the real sign-up of `existing`, none for the stand-in of its second one.
        expect(sent.filter((r) => r.event.data.to === existing.login)).toHaveLength(1);
        expect(sent.map((r) => r.body).join('\n')).not.toContain(`"${otp}"`);
      } finally {
        await world.server.request('DELETE', `/api/v1/webhooks/${hook.body.webhook.id}`, { token: world.admin });
        await receiver.stop();
      }
    });

    it('the codes are in no answer and not in the service’s log', () => {
      expectNoCodeLeaked(codes, answers, world.raw.logs);
      const stored = readFileSync(codes, 'utf8');
      expect(stored).toMatch(/"code":"\d{6}"/);
    });
  });
});

describe('family client: login confirmation, and sign-up closed by the settings', () => {
  const codes = codeLog('codes.log');
  let raw: TestServer;
  let server: ReturnType<typeof recording>;
  const answers: string[] = [];
  beforeAll(async () => {
    raw = await startServer({
      LOGIN_CONFIRMATION: 'always',
      SELF_REGISTRATION_MERCHANTS: 'false',
      ONE_TIME_CODE_LOG: codes,
      ONE_TIME_CODE_RESEND_SECONDS: '1',
      // One proxy hop: a request's address is the X-Forwarded-For entry it carries (none: the peer's, 127.0.0.1).
      TRUST_PROXY: '1',
      ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR: '10',
      ONE_TIME_CODE_FAILURES_BEFORE_LOCK: '6',
    });
    server = recording(raw);
  });
  afterAll(() => raw?.stop());
  afterEach(() => server.expectCleanResponses());
  const post = async (path: string, body: unknown): Promise<ApiResponse> => {
    const answer = await server.request('POST', `/api/v1${path}`, { body });
    answers.push(answer.text);
    return answer;
  };

  const signedUp = async () => {
    const login = anEmail();
    const password = aPassword();
    await post('/registration', { login, role: 'individual' });
    expect((await post('/registration/confirm', { login, otp: await codeSent(codes, login, 'registration'), password })).status).toBe(200);
    return { login, password };
  };

  it('POST /authorization — the sign-in screen’s body answers action OTP_SENT and no token', async () => {
    const { login, password } = await signedUp();
    const answer = await post('/authorization', { login, password });
    expect(answer.status).toBe(200);
    // The screen reads `action`; `challengeId` binds the code to this step (issue 43), which the screen does not send back.
    expect(answer.body).toEqual({ status: 'ok', message: expect.any(String), action: 'OTP_SENT', challengeId: expect.any(String) });
    // A wrong password is still a 401: no code is sent for it.
    expectError(await post('/authorization', { login, password: 'wrong-password-1' }), 401, 'exception.authorization.invalid_credentials');
  });

  it('POST /authorization/confirm — {login, otp}: members[0].token and role as the store reads them; a wrong code is exception.confirmation_code.not_found', async () => {
    const { login, password } = await signedUp();
    await post('/authorization', { login, password });
    const otp = await codeSent(codes, login, 'login');
    expectError(await post('/authorization/confirm', { login, otp: wrong(otp) }), 400, 'exception.confirmation_code.not_found');
    const answer = await post('/authorization/confirm', { login: login.toUpperCase(), otp });
    expect(answer.status).toBe(200);
    expect(answer.body.action).toBe('TOKEN_CREATED');
    expect(answer.body.members[0]).toMatchObject({
      role: 'individual',
      token: { token: expect.any(String), expiresAt: expect.any(String) },
    });
    const me = await server.request('GET', '/api/v1/profiles/my', { token: answer.body.members[0].token.token });
    expect(me.status).toBe(200);
    expectError(await post('/authorization/confirm', { login, otp }), 400, 'exception.confirmation_code.not_found');
  });

  it('POST /authorization/resend-otp — {login}: a new login code; for a login without one pending, the same answer and nothing sent', async () => {
    const { login, password } = await signedUp();
    await post('/authorization', { login, password });
    await codeSent(codes, login, 'login');
    await sleep(1100);
    const resent = await post('/authorization/resend-otp', { login });
    expect(resent.status).toBe(200);
    const otp = await codeSent(codes, login, 'login', 2);
    expect((await post('/authorization/confirm', { login, otp })).status).toBe(200);
    const nobody = anEmail();
    const other = await post('/authorization/resend-otp', { login: nobody });
    expect([other.status, other.body]).toEqual([resent.status, resent.body]);
    await sleep(300);
    expect(deliveries(codes).filter((d) => d.to === nobody)).toEqual([]);
  });

  it('POST /authorization/confirm — the code alone is not enough: it must come with the password step’s challengeId, or from its address; a resend from elsewhere sends nothing (issue 43, 3)', async () => {
    const { login, password } = await signedUp();
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const owner = '198.51.100.10';
    const other = '203.0.113.20';
    const step = await server.request('POST', '/api/v1/authorization', { body: { login, password }, ...from(owner) });
    expect(step.body).toEqual({ status: 'ok', message: expect.any(String), action: 'OTP_SENT', challengeId: expect.any(String) });
    const challengeId = step.body.challengeId as string;
    const otp = await codeSent(codes, login, 'login');
    // Someone else asks for a new code with the login alone: the same answer, and nothing is sent.
    await sleep(1100);
    const resent = await server.request('POST', '/api/v1/authorization/resend-otp', { body: { login }, ...from(other) });
    expect(resent.status).toBe(200);
    await sleep(300);
    expect(deliveries(codes).filter((d) => d.to === login && d.purpose === 'login')).toHaveLength(1);
    // The owner's code without the challenge, from another address: refused, as a wrong code is.
    expectError(
      await server.request('POST', '/api/v1/authorization/confirm', { body: { login, otp }, ...from(other) }),
      400,
      'exception.confirmation_code.not_found',
    );
    // With the challenge, a resend keeps the challenge's end (it does not restart the window), and its code works anywhere.
    await sleep(1100);
    const again = await server.request('POST', '/api/v1/authorization/resend-otp', { body: { login, challengeId }, ...from(other) });
    expect([again.status, again.body]).toEqual([resent.status, resent.body]);
    const second = await codeSent(codes, login, 'login', 2);
    const sent = deliveries(codes).filter((d) => d.to === login && d.purpose === 'login') as (Delivery & { expiresAt: string })[];
    expect(sent[1].expiresAt).toBe(sent[0].expiresAt);
    expectError(
      await server.request('POST', '/api/v1/authorization/confirm', {
        body: { login, otp: second, challengeId: 'x'.repeat(43) },
        ...from(other),
      }),
      400,
      'exception.confirmation_code.not_found',
    );
    const confirmed = await server.request('POST', '/api/v1/authorization/confirm', {
      body: { login, otp: second, challengeId },
      ...from(other),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.action).toBe('TOKEN_CREATED');
  });

  it('POST /authorization/confirm — wrong codes with the challenge stop the login’s confirmation at ONE_TIME_CODE_FAILURES_BEFORE_LOCK (6); without it they count against the address only (429 after 10) (issue 43, 2)', async () => {
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const confirm = (body: Record<string, string>, address: string) =>
      server.request('POST', '/api/v1/authorization/confirm', { body, ...from(address) });
    const passwordStep = async (login: string, password: string, address: string) => {
      const step = await server.request('POST', '/api/v1/authorization', { body: { login, password }, ...from(address) });
      expect(step.body.action).toBe('OTP_SENT');
      return step.body.challengeId as string;
    };
    // Someone with the password, guessing: five wrong codes burn the first challenge's code, one more stops the login's.
    const victim = await signedUp();
    const guesser = '198.51.100.30';
    const first = await passwordStep(victim.login, victim.password, guesser);
    const firstCode = await codeSent(codes, victim.login, 'login');
    for (let i = 0; i < 5; i++) {
      expectError(
        await confirm({ login: victim.login, otp: wrong(firstCode), challengeId: first }, guesser),
        400,
        'exception.confirmation_code.not_found',
      );
    }
    await sleep(1100);
    const second = await passwordStep(victim.login, victim.password, guesser);
    const secondCode = await codeSent(codes, victim.login, 'login', 2);
    expectError(
      await confirm({ login: victim.login, otp: wrong(secondCode), challengeId: second }, guesser),
      400,
      'exception.confirmation_code.not_found',
    );
    const stopped = await confirm({ login: victim.login, otp: secondCode, challengeId: second }, guesser);
    expectError(stopped, 429, 'exception.rate_limited');
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(0);

    // Without a challenge a code can never match: ten wrong ones end the address's hour, and stop no one's login.
    const owner = await signedUp();
    const prober = '203.0.113.40';
    for (let i = 0; i < 10; i++) {
      expectError(await confirm({ login: owner.login, otp: String(200000 + i) }, prober), 400, 'exception.confirmation_code.not_found');
    }
    expectError(await confirm({ login: owner.login, otp: '123456' }, prober), 429, 'exception.rate_limited');
    const challengeId = await passwordStep(owner.login, owner.password, '198.51.100.31');
    const otp = await codeSent(codes, owner.login, 'login');
    expect((await confirm({ login: owner.login, otp, challengeId }, '198.51.100.31')).status).toBe(200);
  });

  it('SELF_REGISTRATION_MERCHANTS=false: a merchant cannot sign up (403), an individual still can; staff never', async () => {
    expectError(
      await post('/registration', { login: anEmail(), role: 'merchant', legalType: 'corporation' }),
      403,
      'exception.registration.disabled',
    );
    expectError(await post('/registration', { login: anEmail(), role: 'administrator' }), 403, 'exception.registration.disabled');
    expect((await post('/registration', { login: anEmail(), role: 'individual' })).status).toBe(200);
  });

  it('POST /authorization/confirm — a user put On Hold after the code was sent gets 403, whatever the code', async () => {
    const { login, password } = await signedUp();
    await post('/authorization', { login, password });
    const otp = await codeSent(codes, login, 'login');
    for (let i = 0; i < 3; i++) await post('/authorization', { login, password: `wrong-password-${i}` });
    expectError(await post('/authorization/confirm', { login, otp }), 403, 'exception.authorization.user_on_hold');
  });

  it('POST /registration/confirm — a role closed since its code was sent is refused (403)', async () => {
    const login = anEmail();
    await post('/registration', { login, role: 'individual' });
    const otp = await codeSent(codes, login, 'registration');
    // As if the code had been sent while merchants could sign up (the setting is read again at confirmation).
    await raw.db.query(`UPDATE one_time_codes SET payload = '{"role":"merchant"}' WHERE target = $1`, [login]);
    expectError(await post('/registration/confirm', { login, otp, password: aPassword() }), 403, 'exception.registration.disabled');
  });

  it('POST /authorization/resend-otp — twice at once: 429', async () => {
    const login = anEmail();
    expect((await post('/authorization/resend-otp', { login })).status).toBe(200);
    expectError(await post('/authorization/resend-otp', { login }), 429, 'exception.rate_limited');
  });

  it('the codes are in no answer and not in the service’s log', () => {
    expectNoCodeLeaked(codes, answers, raw.logs);
  });
});

/**
 * Issue 43: one-time codes against guessing from one address or many, lock-outs by others, and holds. The service
 * trusts one proxy hop (TRUST_PROXY=1), so each request's address is the X-Forwarded-For entry it carries: the tests
 * play owners and attackers at addresses of their own.
 */
describe('issue 43: codes against guessing, lock-outs by others, and holds', () => {
  const codes = codeLog('codes.log');
  const world = moneyWorld({
    env: {
      TRUST_PROXY: '1',
      ONE_TIME_CODE_LOG: codes,
      ONE_TIME_CODE_RESEND_SECONDS: '1',
      ONE_TIME_CODES_PER_HOUR: '3',
      ONE_TIME_CODES_PER_ADDRESS_PER_HOUR: '6',
      ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR: '8',
      ONE_TIME_CODE_FAILURES_BEFORE_LOCK: '12',
      ONE_TIME_CODE_LOCK_SECONDS: '3600',
      LOGIN_FAILURES_PER_MINUTE: '1000',
    },
  });
  let next = 0;
  /** A client address of its own (TEST-NET ranges), for one owner or one attacker. */
  const anAddress = () => {
    next += 1;
    return `198.51.${100 + Math.floor(next / 250)}.${(next % 250) + 1}`;
  };
  const post = (path: string, body: unknown, from: string, token?: string): Promise<ApiResponse> =>
    world.server.request('POST', `/api/v1${path}`, { body, token, headers: { 'x-forwarded-for': from } });
  const sentTo = (login: string, purpose: string) => deliveries(codes).filter((d) => d.to === login && d.purpose === purpose);
  /**
   * A user with an e-mail login, created by the administrator and proven by its own code from its profile, as a
   * signed-up user's is: recovery codes go only to a proven login.
   */
  const aCustomer = async () => {
    const user = await world.user({ login: anEmail() });
    const from = anAddress();
    expect((await post('/profiles/my/contact', { login: user.login }, from, user.token)).status).toBe(200);
    const otp = await codeSent(codes, user.login, 'contact_change');
    expect((await post('/profiles/my/contact/confirm', { login: user.login, otp }, from, user.token)).status).toBe(200);
    return user;
  };
  const expectRateLimited = (answer: ApiResponse) => {
    expectError(answer, 429, 'exception.rate_limited');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  it('one address checking codes across many logins gets 429 after ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR (8) wrong codes (issue 43, 2)', async () => {
    const owners = [await aCustomer(), await aCustomer(), await aCustomer(), await aCustomer()];
    const otps: string[] = [];
    for (const owner of owners) {
      expect((await post('/password/recovery', { login: owner.login }, anAddress())).status).toBe(200);
      otps.push(await codeSent(codes, owner.login, 'password_recovery'));
    }
    const guesser = anAddress();
    // Two wrong codes for each login: under each code's own limit (5), 8 in all from the one address.
    for (const [i, owner] of owners.entries()) {
      for (let k = 0; k < 2; k++) {
        expectError(
          await post('/password/recovery/confirm', { login: owner.login, otp: wrong(otps[i]), newUserPassword: aPassword() }, guesser),
          400,
          'exception.confirmation_code.not_found',
        );
      }
    }
    // The ninth is refused before any code is compared, the right one too.
    expectRateLimited(
      await post('/password/recovery/confirm', { login: owners[0].login, otp: wrong(otps[0]), newUserPassword: aPassword() }, guesser),
    );
    expectRateLimited(
      await post('/password/recovery/confirm', { login: owners[1].login, otp: otps[1], newUserPassword: aPassword() }, guesser),
    );
    expectRateLimited(await post('/registration/confirm', { login: anEmail(), otp: '123456', password: aPassword() }, guesser));
    expectRateLimited(await post('/profiles/my/contact/confirm', { login: anEmail(), otp: '123456' }, guesser, owners[2].token));
    // Another address is not limited by it: the owner's right code still works.
    expect(
      (await post('/password/recovery/confirm', { login: owners[1].login, otp: otps[1], newUserPassword: aPassword() }, anAddress()))
        .status,
    ).toBe(200);
  });

  it('one address asking codes for many logins gets 429 after ONE_TIME_CODES_PER_ADDRESS_PER_HOUR (6), known and unknown logins alike (issue 43, 2)', async () => {
    const asker = anAddress();
    const known = await aCustomer();
    const asked = [
      await post('/password/recovery', { login: known.login }, asker),
      await post('/password/recovery', { login: anEmail() }, asker),
      await post('/registration', { login: known.login }, asker),
      await post('/registration', { login: anEmail() }, asker),
      await post('/registration/resend-otp', { login: anEmail() }, asker),
      await post('/authorization/resend-otp', { login: known.login }, asker),
    ];
    expect(asked.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expectRateLimited(await post('/password/recovery', { login: anEmail() }, asker));
    expectRateLimited(await post('/registration', { login: anEmail() }, asker));
    // Another address asks on.
    expect((await post('/password/recovery', { login: anEmail() }, anAddress())).status).toBe(200);
  });

  it('consecutive wrong codes for one login, from many addresses, stop its codes at ONE_TIME_CODE_FAILURES_BEFORE_LOCK (12) until an administrator releases it; an unknown login alike (issue 43, 2)', async () => {
    const owner = await aCustomer();
    const home = anAddress();
    const unknown = anEmail();
    for (const login of [owner.login, unknown]) {
      expect((await post('/password/recovery', { login }, home)).status).toBe(200);
      // Twelve wrong codes from four addresses: none of them near its own address limit (8).
      for (let a = 0; a < 4; a++) {
        const from = anAddress();
        for (let k = 0; k < 3; k++) {
          expectError(
            await post('/password/recovery/confirm', { login, otp: String(100000 + a * 10 + k), newUserPassword: aPassword() }, from),
            400,
            'exception.confirmation_code.not_found',
          );
        }
      }
      // Recovery for that login has stopped: no new code, no check, from any address.
      await sleep(1100);
      expectRateLimited(await post('/password/recovery', { login }, home));
      expectRateLimited(await post('/password/recovery/confirm', { login, otp: '123456', newUserPassword: aPassword() }, anAddress()));
    }
    // The stop is on the owner's record, with the address of the failure that reached it.
    const locked = await world.raw.db.query(`SELECT details FROM user_actions WHERE user_id = $1 AND action = 'one_time_codes_locked'`, [
      owner.id,
    ]);
    expect(locked.rows).toEqual([{ details: expect.objectContaining({ purpose: 'password_recovery', failures: 12 }) }]);
    // An administrator's release lifts it: the owner recovers from home.
    expect((await world.server.request('POST', `/api/v1/users/${owner.id}/release`, { token: world.admin })).status).toBe(200);
    const before = sentTo(owner.login, 'password_recovery').length;
    expect((await post('/password/recovery', { login: owner.login }, home)).status).toBe(200);
    const otp = await codeSent(codes, owner.login, 'password_recovery', before + 1);
    const newUserPassword = aPassword();
    expect((await post('/password/recovery/confirm', { login: owner.login, otp, newUserPassword }, home)).status).toBe(200);
    expect((await post('/authorization', { login: owner.login, password: newUserPassword }, home)).body.action).toBe('TOKEN_CREATED');
  });

  it('others asking codes for a login (sign-up, recovery, resend, from many addresses) neither use up its owner’s budget nor replace the owner’s code (issue 43, 5)', async () => {
    const owner = await aCustomer();
    const home = anAddress();
    expect((await post('/password/recovery', { login: owner.login }, home)).status).toBe(200);
    const first = await codeSent(codes, owner.login, 'password_recovery');
    // Four addresses ask for the owner's login: each within its own budgets, together beyond the login's (3 an hour).
    for (let a = 0; a < 4; a++) {
      const from = anAddress();
      // Three calls each (the budget of one login at one address), sign-up and its resend from every other one.
      const signUp = a % 2 ? '/registration/resend-otp' : '/registration';
      for (const path of ['/password/recovery', signUp, '/authorization/resend-otp']) {
        expect((await post(path, { login: owner.login }, from)).status).toBe(200);
      }
    }
    // The owner asks again from home, past the cooldown: answered, and the new code works there…
    await sleep(1100);
    const before = sentTo(owner.login, 'password_recovery').length;
    expect((await post('/password/recovery', { login: owner.login }, home)).status).toBe(200);
    const second = await codeSent(codes, owner.login, 'password_recovery', before + 1);
    // …while others keep asking.
    expect((await post('/password/recovery', { login: owner.login }, anAddress())).status).toBe(200);
    const newUserPassword = aPassword();
    if (first !== second) {
      expectError(
        await post('/password/recovery/confirm', { login: owner.login, otp: first, newUserPassword }, home),
        400,
        'exception.confirmation_code.not_found',
      );
    }
    expect((await post('/password/recovery/confirm', { login: owner.login, otp: second, newUserPassword }, home)).status).toBe(200);
  });

  it('a recovery code issued before a hold or a deactivation is refused after it; the user stays On Hold, or deactivated (issue 43, 8)', async () => {
    const held = await aCustomer();
    const home = anAddress();
    expect((await post('/password/recovery', { login: held.login }, home)).status).toBe(200);
    const heldCode = await codeSent(codes, held.login, 'password_recovery');
    for (let i = 0; i < 3; i++)
      expectError(await post('/authorization', { login: held.login, password: `wrong-${i}-password` }, home), 401);
    expectError(
      await post('/password/recovery/confirm', { login: held.login, otp: heldCode, newUserPassword: aPassword() }, home),
      400,
      'exception.confirmation_code.not_found',
    );
    const heldRow = await world.raw.db.query(`SELECT status FROM users WHERE id = $1`, [held.id]);
    expect(heldRow.rows).toEqual([{ status: 'on_hold' }]);
    expectError(
      await post('/authorization', { login: held.login, password: held.password }, home),
      403,
      'exception.authorization.user_on_hold',
    );

    const deactivated = await aCustomer();
    expect((await post('/password/recovery', { login: deactivated.login }, home)).status).toBe(200);
    const deactivatedCode = await codeSent(codes, deactivated.login, 'password_recovery');
    const patch = (active: boolean) =>
      world.server.request('PATCH', `/api/v1/users/${deactivated.id}`, { token: world.admin, body: { active } });
    expect((await patch(false)).status).toBe(200);
    expectError(
      await post('/password/recovery/confirm', { login: deactivated.login, otp: deactivatedCode, newUserPassword: aPassword() }, home),
      400,
      'exception.confirmation_code.not_found',
    );
    // Activated again, the code issued before stays refused and the password unchanged.
    expect((await patch(true)).status).toBe(200);
    expectError(
      await post('/password/recovery/confirm', { login: deactivated.login, otp: deactivatedCode, newUserPassword: aPassword() }, home),
      400,
      'exception.confirmation_code.not_found',
    );
    expect((await post('/authorization', { login: deactivated.login, password: deactivated.password }, home)).body.action).toBe(
      'TOKEN_CREATED',
    );
  });
});
