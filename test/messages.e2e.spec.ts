import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeLogFile, messagesSent } from './helpers/code-log';
import { codeIn, Mailbox, mailpitApi } from './helpers/mailbox';
import { SmsReceiver } from './helpers/sms-receiver';
import { Actor } from './helpers/actors';
import { expectStatus, transfer } from './helpers/money';
import { moneyWorld } from './helpers/world';

/**
 * Issue 46: messages reach people by configuration alone. The service is pointed at a real SMTP server running in
 * this process (smtp-server) and at a local HTTP SMS gateway; sign-up and recovery codes are read back from there,
 * and nothing of them reaches the log sender's file or the service's log.
 */
describe('issue 46: codes and notices by e-mail and SMS', () => {
  const mailbox = new Mailbox();
  const gateway = new SmsReceiver();
  const codes = codeLogFile();
  const env: Record<string, string> = {
    ONE_TIME_CODE_LOG: codes,
    ONE_TIME_CODE_RESEND_SECONDS: '0',
    // Three codes an hour per login: a code whose message failed must not use one up (item 2).
    ONE_TIME_CODES_PER_HOUR: '3',
    ONE_TIME_CODES_PER_ADDRESS_PER_HOUR: '1000000',
    ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR: '1000000',
    MAIL_FROM: 'finapi <no-reply@finapi.test>',
    SMS_GATEWAY_SECRET: gateway.secret,
    MESSAGES_TIMEOUT_MS: '1500',
    MESSAGES_RETRY_BASE_MS: '200',
    MESSAGES_MAX_ATTEMPTS: '3',
    // Each answer says how many statements it ran (item 3: a money movement nobody asked to hear of runs none more).
    SERVER_TIMING: 'true',
  };
  beforeAll(async () => {
    env.SMTP_URL = await mailbox.start();
    env.SMS_GATEWAY_URL = await gateway.start();
  });
  const world = moneyWorld({ env });
  afterAll(async () => {
    await mailbox.stop();
    await gateway.stop();
  });
  const req = (method: string, path: string, token?: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
  const email = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
  const phone = () => `+3706${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, '0')}`;
  /** The newest message row to `to` (what staff and the dispatcher see), its secret included. */
  const messageTo = async (to: string) =>
    (
      await world.raw.db.query<{
        id: string;
        status: string;
        attempts: number;
        secret: Buffer | null;
        code_id: string | null;
        last_error: string | null;
      }>('SELECT id, status, attempts, secret, code_id, last_error FROM messages WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1', [
        to,
      ])
    ).rows[0];
  /** Waits until the newest message to `to` is `status` (the dispatcher recorded its outcome); fails after 30 s. */
  const messageBecomes = async (to: string, status: string) => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const row = await messageTo(to);
      if (row?.status === status) return row;
    }
    throw new Error(`the message to ${to} never became ${status}: ${JSON.stringify(await messageTo(to))}`);
  };
  /** Nothing of `code` in the log sender's file nor in the service's log. */
  const leakedNowhere = (code: string, to: string) => {
    expect(messagesSent(codes).filter((m) => m.to === to)).toEqual([]);
    expect(world.raw.logs.filter((line) => line.includes(code))).toEqual([]);
  };

  describe('item 1: senders configured, not coded', () => {
    it('signs a customer up with a code mailed to their address, over SMTP from MAIL_FROM', async () => {
      const login = email('mailed');
      expect((await req('POST', '/registration', undefined, { login, role: 'individual' })).status).toBe(200);
      const mail = await mailbox.mail(login, (m) => m.subject.includes('sign up'));
      expect(mail.from).toBe('"finapi" <no-reply@finapi.test>');
      expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@finapi>$/);
      const otp = codeIn(mail.text);
      const confirmed = await req('POST', '/registration/confirm', undefined, { login, otp, password: 'mailed-pass-1' });
      expect(confirmed.status).toBe(200);
      expect((await req('POST', '/authorization', undefined, { login, password: 'mailed-pass-1' })).status).toBe(200);
      leakedNowhere(otp, login);
    });

    it('signs a customer up with a code sent by SMS to their phone number, through the signed gateway request', async () => {
      const login = phone();
      expect((await req('POST', '/registration', undefined, { login, role: 'individual' })).status).toBe(200);
      const sms = await gateway.sms(login);
      expect(sms.verified).toBe(true);
      expect(sms.idempotencyKey).toBe(sms.id);
      const otp = codeIn(sms.text);
      expect((await req('POST', '/registration/confirm', undefined, { login, otp, password: 'texted-pass-1' })).status).toBe(200);
      expect((await req('POST', '/authorization', undefined, { login, password: 'texted-pass-1' })).status).toBe(200);
      leakedNowhere(otp, login);
    });

    it('docs/authentication.md’s sign-up walk-through reads the code from the mailbox (a Mailpit’s API over it) with SMTP configured', async () => {
      const doc = readFileSync(join(__dirname, '..', 'docs', 'authentication.md'), 'utf8');
      const signUp = doc.slice(doc.indexOf('\n## Signing up'));
      const json = /^json\(\) \{.*\}$/m.exec(signUp)![0];
      const codeFor = /^code_for\(\) \{\n[\s\S]*?\n\}$/m.exec(signUp)![0];
      const login = email('walked');
      expect((await req('POST', '/registration', undefined, { login, role: 'individual' })).status).toBe(200);
      const mailpit = await mailpitApi(mailbox);
      try {
        const read = await new Promise<string>((resolve, reject) =>
          execFile(
            'bash',
            ['-c', `${json}\n${codeFor}\ncode_for registration ${login}`],
            { env: { PATH: process.env.PATH, MAILPIT_URL: mailpit.url, ONE_TIME_CODE_LOG: codes }, timeout: 30_000 },
            (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
          ),
        );
        expect(read).toBe(await mailbox.code(login, 'sign up'));
        expect((await req('POST', '/registration/confirm', undefined, { login, otp: read, password: 'walked-pass-1' })).status).toBe(200);
      } finally {
        await mailpit.stop();
      }
    });

    it('recovers a password with a code read from the mailbox', async () => {
      const login = email('recovers');
      await req('POST', '/registration', undefined, { login, role: 'individual' });
      const otp = await mailbox.code(login, 'sign up');
      expect((await req('POST', '/registration/confirm', undefined, { login, otp, password: 'recover-pass-1' })).status).toBe(200);
      expect((await req('POST', '/password/recovery', undefined, { login })).status).toBe(200);
      const recovery = await mailbox.code(login, 'new password');
      const reset = await req('POST', '/password/recovery/confirm', undefined, { login, otp: recovery, newUserPassword: 'recover-pass-2' });
      expect(reset.status).toBe(200);
      expect((await req('POST', '/authorization', undefined, { login, password: 'recover-pass-2' })).status).toBe(200);
      // The owner is told their password was set anew (item 3), in a mail of its own without the code.
      const told = await mailbox.mail(login, (m) => m.subject === 'Your password was changed');
      expect(told.text).toContain('set anew with a recovery code');
      expect(told.text).not.toContain(recovery);
      leakedNowhere(recovery, login);
    });
  });

  describe('item 2: delivered reliably through the messages outbox', () => {
    it('answers without waiting for a stalled SMTP server, keeps the code only sealed meanwhile, and sends it on a later attempt', async () => {
      const login = email('stalled');
      mailbox.answers.push('stall');
      const started = Date.now();
      expect((await req('POST', '/registration', undefined, { login, role: 'individual' })).status).toBe(200);
      // The request did not wait for the server: answered before the first attempt could even time out.
      expect(Date.now() - started).toBeLessThan(1500);
      const mail = await mailbox.mail(login);
      const otp = codeIn(mail.text);
      const sent = await messageBecomes(login, 'sent');
      expect(sent.attempts).toBe(2);
      expect(sent.secret).toBeNull();
      expect((await req('POST', '/registration/confirm', undefined, { login, otp, password: 'stalled-pass-1' })).status).toBe(200);
      expect(mailbox.to(login)).toHaveLength(1);
    });

    it('seals a code until it is sent: the waiting row holds the code only encrypted, and nothing once sent', async () => {
      const login = email('sealed');
      mailbox.answers.push('refuse');
      await req('POST', '/registration', undefined, { login, role: 'individual' });
      const waiting = await messageTo(login);
      expect(waiting.status).toBe('pending');
      expect(waiting.secret).toBeInstanceOf(Buffer);
      const otp = await mailbox.code(login, 'sign up');
      expect(waiting.secret!.includes(Buffer.from(otp))).toBe(false);
      expect(waiting.secret!.length).toBeGreaterThanOrEqual(12 + 16 + 6);
      const sent = await messageBecomes(login, 'sent');
      expect(sent).toMatchObject({ secret: null, attempts: 2 });
    });

    it('retries an SMS gateway that answers 503 or does not answer, and sends the message once', async () => {
      const login = phone();
      gateway.answers.push(503, 'hang');
      const before = gateway.attempts;
      await req('POST', '/registration', undefined, { login, role: 'individual' });
      const sms = await gateway.sms(login);
      expect(sms.verified).toBe(true);
      const sent = await messageBecomes(login, 'sent');
      expect(sent.attempts).toBe(3);
      expect(gateway.attempts - before).toBe(3);
      expect(gateway.to(login)).toHaveLength(1);
      // Every attempt carried the same id, so a gateway that took one and lost its answer would not send it twice.
      expect(sms.idempotencyKey).toBe(sent.id);
    });

    it('gives up on a refused mail, shows it as undeliverable (staff view, metrics), and its code does not count against the owner', async () => {
      const login = email('refused');
      for (let i = 0; i < 3; i++) {
        mailbox.answers.push('reject');
        expect((await req('POST', '/registration', undefined, { login, role: 'individual' })).status).toBe(200);
        const failed = await messageBecomes(login, 'failed');
        expect(failed.secret).toBeNull();
        expect(failed.last_error).toMatch(/^SMTP 550/);
      }
      // Three codes were asked this hour (the limit), none delivered: the fourth is not refused, and arrives.
      expect((await req('POST', '/registration', undefined, { login, role: 'individual' })).status).toBe(200);
      const otp = await mailbox.code(login, 'sign up');
      expect((await req('POST', '/registration/confirm', undefined, { login, otp, password: 'refused-pass-1' })).status).toBe(200);
      const view = await req('POST', '/messages/view', world.admin, { filter: { statuses: 'failed', to: login } });
      expect(view.status).toBe(200);
      expect(view.body.records).toHaveLength(3);
      expect(view.body.records[0]).toMatchObject({
        channel: 'email',
        to: login,
        kind: 'code',
        template: 'registration',
        status: 'failed',
        attempts: 1,
      });
      expect(view.body.records[0].lastError).toMatch(/^SMTP 550/);
      expect(view.text).not.toContain(otp);
      const customer = await world.user();
      expect((await req('POST', '/messages/view', customer.token, {})).status).toBe(403);
      const metrics = await req('GET', '/actuator/prometheus', world.admin);
      expect(metrics.text).toMatch(/^finapi_messages_total\{channel="email",outcome="failed"\} [1-9]/m);
      expect(metrics.text).toMatch(/^finapi_messages\{status="failed"\} [1-9]/m);
      expect(metrics.text).toMatch(/^finapi_messages_total\{channel="email",outcome="sent"\} [1-9]/m);
    });
  });

  describe('item 3: two-step login per user', () => {
    /** The security page's body, as the family's web client sends it (security-form.vue: `{security}` only). */
    const form = (twoFactorsAuthEnabled: boolean, email = false) => ({
      security: {
        twoFactorsAuthEnabled,
        transactionNotification: { email, phone: false },
        authorizationNotification: { email: false, phone: false },
      },
    });
    /** A customer signed up with a mailed code (their login proven), and their token. */
    const customer = async (tag: string) => {
      const login = email(tag);
      await req('POST', '/registration', undefined, { login, role: 'individual' });
      const otp = await mailbox.code(login, 'sign up');
      const password = `${tag}-pass-1`;
      expect((await req('POST', '/registration/confirm', undefined, { login, otp, password })).status).toBe(200);
      const token = (await req('POST', '/authorization', undefined, { login, password })).body.authorizationToken.token as string;
      return { login, password, token };
    };

    it('twoFactorsAuthEnabled: true asks this user, and only them, for a code mailed at each login, bound to its challenge', async () => {
      const alice = await customer('two-step');
      const bob = await customer('one-step');
      const on = await req('PATCH', '/profiles/my/security-settings', alice.token, form(true));
      expect(on.status).toBe(200);
      expect(on.body.profile.security.twoFactorsAuthEnabled).toBe(true);
      const step = await req('POST', '/authorization', undefined, { login: alice.login, password: alice.password });
      expect(step.status).toBe(200);
      expect(step.body).toMatchObject({ action: 'OTP_SENT', challengeId: expect.any(String) });
      expect(step.body.authorizationToken).toBeUndefined();
      const otp = await mailbox.code(alice.login, 'log in');
      const confirmed = await req('POST', '/authorization/confirm', undefined, {
        login: alice.login,
        otp,
        challengeId: step.body.challengeId,
      });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.authorizationToken.token).toEqual(expect.any(String));
      // Another user, with the setting off (LOGIN_CONFIRMATION is off here), logs in with the password alone.
      expect(
        (await req('POST', '/authorization', undefined, { login: bob.login, password: bob.password })).body.authorizationToken,
      ).toBeDefined();
      // While it is on, the family's form saves the other settings as before (it sends twoFactorsAuthEnabled: true again).
      const saved = await req('PATCH', '/profiles/my/security-settings', alice.token, form(true, true));
      expect(saved.status).toBe(200);
      expect(saved.body.profile.security).toMatchObject({ twoFactorsAuthEnabled: true, transactionNotification: { email: true } });
    });

    it('turning it off takes a code: the form alone sends one and changes nothing; a wrong one is refused; the right one turns it off', async () => {
      const alice = await customer('two-step-off');
      expect((await req('PATCH', '/profiles/my/security-settings', alice.token, form(true))).status).toBe(200);
      const asked = await req('PATCH', '/profiles/my/security-settings', alice.token, form(false, true));
      expect(asked.status).toBe(400);
      expect(asked.body).toMatchObject({ code: 'exception.two_factor.code_required', errors: [{ parameter: 'otp' }] });
      expect((await req('GET', '/profiles/my', alice.token)).body.profile.security).toMatchObject({
        twoFactorsAuthEnabled: true,
        transactionNotification: { email: false },
      });
      const otp = await mailbox.code(alice.login, 'two-step login off');
      const wrong = String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
      const refused = await req('PATCH', '/profiles/my/security-settings', alice.token, { ...form(false), otp: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('exception.confirmation_code.not_found');
      expect((await req('GET', '/profiles/my', alice.token)).body.profile.security.twoFactorsAuthEnabled).toBe(true);
      const off = await req('PATCH', '/profiles/my/security-settings', alice.token, { ...form(false), otp });
      expect(off.status).toBe(200);
      expect(off.body.profile.security.twoFactorsAuthEnabled).toBe(false);
      expect(
        (await req('POST', '/authorization', undefined, { login: alice.login, password: alice.password })).body.authorizationToken,
      ).toBeDefined();
    });

    it('turning it off, asked again and again, meets the codes’ hourly limit: a 429 with Retry-After, and nothing changed', async () => {
      const alice = await customer('two-step-often');
      expect((await req('PATCH', '/profiles/my/security-settings', alice.token, form(true))).status).toBe(200);
      // ONE_TIME_CODES_PER_HOUR is 3 here, and the sign-up's code was one of them.
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await req('PATCH', '/profiles/my/security-settings', alice.token, form(false)));
      expect(answers.map((a) => a.status)).toEqual([400, 400, 429]);
      expect(answers[1].body.code).toBe('exception.two_factor.code_required');
      expect(answers[2].body.code).toBe('exception.rate_limited');
      expect(Number(answers[2].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await req('GET', '/profiles/my', alice.token)).body.profile.security.twoFactorsAuthEnabled).toBe(true);
    });

    it('staff with PROFILE_MANAGER turn it off for a user who lost their phone, without a code', async () => {
      const alice = await customer('two-step-staff');
      expect((await req('PATCH', '/profiles/my/security-settings', alice.token, form(true))).status).toBe(200);
      const me = await req('GET', '/profiles/my', alice.token);
      const userId = me.body.user?.id ?? me.body.profile?.id;
      const support = await world.user({ role: 'customer_support' });
      const off = await req('PATCH', `/profiles/${userId}/security-settings`, support.token, form(false));
      expect(off.status).toBe(200);
      expect(
        (await req('POST', '/authorization', undefined, { login: alice.login, password: alice.password })).body.authorizationToken,
      ).toBeDefined();
    });
  });

  describe('item 3: notices, in the reader’s language', () => {
    /** The security page's body with the notices asked for (security-form.vue sends the whole of it). */
    const settings = (transaction: { email?: boolean; phone?: boolean }, authorization: { email?: boolean; phone?: boolean } = {}) => ({
      security: {
        twoFactorsAuthEnabled: false,
        transactionNotification: { email: false, phone: false, ...transaction },
        authorizationNotification: { email: false, phone: false, ...authorization },
      },
    });
    const ask = async (who: Actor, transaction: { email?: boolean; phone?: boolean }, authorization = {}) =>
      expectStatus(await req('PATCH', '/profiles/my/security-settings', who.token, settings(transaction, authorization)), 200);
    /** `db;…;desc="N calls"` of the answer's Server-Timing: the statements the request ran. */
    const dbCalls = (answer: { headers: Headers }) => Number(/desc="(\d+) calls"/.exec(answer.headers.get('server-timing') ?? '')?.[1]);
    const notices = async (to: string) =>
      (
        await world.raw.db.query<{ template: string; locale: string; secret: Buffer | null; details: Record<string, string> }>(
          `SELECT template, locale, secret, details FROM messages WHERE recipient = $1 AND kind = 'notice' ORDER BY created_at`,
          [to],
        )
      ).rows;
    const secretsOf = (...actors: Actor[]) => actors.flatMap((a) => [a.password, a.token]);

    it('tells payer and payee of a transfer, by e-mail and by SMS as each asked: amount, currency, the other side, never a secret', async () => {
      const alice = await world.user({ login: email('payer'), name: 'Alice Payer' });
      const bob = await world.user({ login: phone(), name: 'Bob Payee' });
      await ask(alice, { email: true });
      await ask(bob, { phone: true });
      const [a, b] = await world.pair(alice, bob, '100.00');
      const sent = await transfer(world.server, alice.token, a.serial, b.serial, '12.34');
      expectStatus(sent, 201);
      const operationId = sent.body.process.id as string;
      const currency = world.currency.code;

      const mail = await mailbox.mail(alice.login, (m) => m.subject === `You sent 12.34 ${currency}`);
      expect(mail.text).toContain(`12.34 ${currency} left your coin`);
      expect(mail.text).toContain(`to Bob Payee`);
      expect(mail.text).toContain(operationId);
      const sms = await gateway.sms(bob.login, 1);
      expect(sms.verified).toBe(true);
      expect(sms.text).toContain(`12.34 ${currency} came into your coin`);
      expect(sms.text).toContain('from Alice Payer');
      expect(sms.text).toContain(operationId);
      // The top-up before it told Alice too (money came in: no other side); nothing else was sent to either.
      expect((await notices(alice.login)).map((n) => n.template)).toEqual(['money_received', 'money_sent']);
      expect((await notices(bob.login)).map((n) => n.template)).toEqual(['money_received']);
      for (const text of [mail.text, sms.body]) for (const secret of secretsOf(alice, bob)) expect(text).not.toContain(secret);
      for (const row of [...(await notices(alice.login)), ...(await notices(bob.login))]) expect(row.secret).toBeNull();
    });

    it('tells nobody who did not ask, and a movement of organizations nobody listens in runs no statement more', async () => {
      const carol = await world.user({ login: email('quiet-payer') });
      const dave = await world.user({ login: email('quiet-payee') });
      const erin = await world.user({ login: email('listener') });
      const [c, d] = await world.pair(carol, dave, '100.00');
      const [e] = await world.pair(erin, dave, '100.00');
      expectStatus(await transfer(world.server, carol.token, c.serial, d.serial, '1.00'), 201);
      // Measured on a staff top-up, whose posting runs in the request (a customer's transfer is group-committed, its
      // statements outside the request's count): the notices' handler is the same for both.
      const topUp = async (serial: string) => {
        const answer = await req('POST', '/bank-top-ups', world.admin, { coinSerial: serial, amount: '1.00' });
        expectStatus(answer, 201);
        return dbCalls(answer);
      };
      /**
       * What a top-up costs once the instance heard every change: the same three times in a row. (A change of settings
       * is forgotten here at its commit and again when its NOTIFY comes back a few milliseconds later: each of the two
       * top-ups after them may read the list once more.)
       */
      const steady = async (serial: string) => {
        const costs = [await topUp(serial), await topUp(serial), await topUp(serial)];
        while (costs.length < 12 && new Set(costs.slice(-3)).size > 1) costs.push(await topUp(serial));
        if (new Set(costs.slice(-3)).size > 1) throw new Error(`the cost of a top-up never settled: ${costs.join(', ')}`);
        return costs[costs.length - 1];
      };
      const quiet = await steady(d.serial);
      expect(quiet).toBeGreaterThan(0);
      // Someone else asks: the list of organizations listened to is read again, then a quiet movement costs as before.
      await ask(erin, { email: true });
      expect(await steady(d.serial)).toBe(quiet);
      // Erin's movements read her organization's readers and queue her notice: two statements more, and the mail comes.
      expect(await steady(e.serial)).toBe(quiet + 2);
      await mailbox.mail(erin.login, (m) => m.subject === `You received 1.00 ${world.currency.code}`);
      expectStatus(await transfer(world.server, erin.token, e.serial, d.serial, '2.50'), 201);
      await mailbox.mail(erin.login, (m) => m.subject === `You sent 2.50 ${world.currency.code}`);
      // Dave (the payee of all of them) and Carol asked nothing: no message was even written for them.
      expect(await notices(carol.login)).toEqual([]);
      expect(await notices(dave.login)).toEqual([]);
      // Erin turns it off: her movements tell no one, and cost no statement more once the list is read again.
      const told = (await notices(erin.login)).length;
      await ask(erin, {});
      expect(await steady(e.serial)).toBe(quiet);
      expect(await notices(erin.login)).toHaveLength(told);
      expect(new Set((await notices(erin.login)).map((n) => n.template))).toEqual(new Set(['money_received', 'money_sent']));
    });

    it('tells of a login when authorizationNotification asks for it: where from and when', async () => {
      const frank = await world.user({ login: email('logins') });
      const quiet = await world.user({ login: email('no-login-notices') });
      await ask(frank, {}, { email: true });
      expect((await req('POST', '/authorization', undefined, { login: frank.login, password: frank.password })).status).toBe(200);
      const mail = await mailbox.mail(frank.login, (m) => m.subject === 'A login to your finapi account');
      expect(mail.text).toMatch(/^Someone logged in to your account from \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\./);
      expect(mail.text).not.toContain(frank.password);
      expect((await req('POST', '/authorization', undefined, { login: quiet.login, password: quiet.password })).status).toBe(200);
      expect(await notices(quiet.login)).toEqual([]);
    });

    it('tells the user at their login of a password change, a hold, a release and a deactivation', async () => {
      const grace = await world.user({ login: email('lifecycle') });
      const changed = await req('PATCH', '/profiles/my/password', grace.token, {
        currentUserPassword: grace.password,
        newUserPassword: 'lifecycle-pass-2',
      });
      expect(changed.status).toBe(200);
      expect((await mailbox.mail(grace.login, (m) => m.subject === 'Your password was changed')).text).toContain(
        'Your password was changed at',
      );
      for (let i = 1; i <= 3; i++) await req('POST', '/authorization', undefined, { login: grace.login, password: `wrong-${i}-password` });
      const held = await mailbox.mail(grace.login, (m) => m.subject === 'Your account was put On Hold');
      expect(held.text).toContain('After 3 wrong passwords in a row');
      const released = await req('POST', `/users/${grace.id}/release`, world.admin);
      expect(released.status).toBe(200);
      const mail = await mailbox.mail(grace.login, (m) => m.subject === 'Your account was released');
      // The temporary password is the administrator's to give: it is never in the mail.
      expect(mail.text).not.toContain(released.body.temporaryPassword);
      expect((await req('PATCH', `/users/${grace.id}`, world.admin, { active: false })).status).toBe(200);
      await mailbox.mail(grace.login, (m) => m.subject === 'Your account was deactivated');
      expect((await notices(grace.login)).map((n) => n.template)).toEqual([
        'password_changed',
        'user_held',
        'user_released',
        'user_deactivated',
      ]);
    });

    it('writes to a user with locale de in German: the notices, and the profile shows the locale', async () => {
      const payer = await world.user({ login: email('zahler'), name: 'Paul Zahler' });
      const heidi = await world.user({ login: email('empfaenger'), name: 'Heidi Empfänger' });
      const set = await req('PATCH', '/profiles/my', heidi.token, { locale: 'DE-at' });
      expect(set.status).toBe(200);
      expect(set.body.profile.user.locale).toBe('de-at');
      expect((await req('PATCH', '/profiles/my', heidi.token, { locale: 'not a language' })).status).toBe(400);
      await ask(heidi, { email: true });
      const [p, h] = await world.pair(payer, heidi, '50.00');
      expectStatus(await transfer(world.server, payer.token, p.serial, h.serial, '5.00'), 201);
      const currency = world.currency.code;
      const mail = await mailbox.mail(heidi.login, (m) => m.subject === `Sie haben 5.00 ${currency} erhalten`);
      expect(mail.text).toContain(`5.00 ${currency} gingen auf Ihrem Wallet`);
      expect(mail.text).toContain('von Paul Zahler');
      expect(mail.text).toContain('Diese Nachricht wurde von finapi gesendet');
      const changed = await req('PATCH', '/profiles/my/password', heidi.token, {
        currentUserPassword: heidi.password,
        newUserPassword: 'heidi-pass-2',
      });
      expect(changed.status).toBe(200);
      await mailbox.mail(heidi.login, (m) => m.subject === 'Ihr Passwort wurde geändert');
      expect((await notices(heidi.login)).every((n) => n.locale === 'de')).toBe(true);
      // Her codes too: with two-step login on, the login's code comes in German.
      const twoStep = { security: { ...settings({ email: true }).security, twoFactorsAuthEnabled: true } };
      expect((await req('PATCH', '/profiles/my/security-settings', heidi.token, twoStep)).status).toBe(200);
      const step = await req('POST', '/authorization', undefined, { login: heidi.login, password: 'heidi-pass-2' });
      expect(step.body.action).toBe('OTP_SENT');
      const otp = await mailbox.code(heidi.login, 'Ihr finapi-Code, um sich anzumelden');
      const confirmed = await req('POST', '/authorization/confirm', undefined, {
        login: heidi.login,
        otp,
        challengeId: step.body.challengeId,
      });
      expect(confirmed.status).toBe(200);
    });
  });
});
