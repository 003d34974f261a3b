import { randomBytes } from 'node:crypto';
import { codeLogFile, messagesSent } from './helpers/code-log';
import { codeIn, Mailbox } from './helpers/mailbox';
import { SmsReceiver } from './helpers/sms-receiver';
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
});
