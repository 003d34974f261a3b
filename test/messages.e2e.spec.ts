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
    ONE_TIME_CODES_PER_HOUR: '1000',
    ONE_TIME_CODES_PER_ADDRESS_PER_HOUR: '1000000',
    ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR: '1000000',
    MAIL_FROM: 'finapi <no-reply@finapi.test>',
    SMS_GATEWAY_SECRET: gateway.secret,
    MESSAGES_TIMEOUT_MS: '1500',
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
});
