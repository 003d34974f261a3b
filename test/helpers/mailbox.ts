import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** An e-mail as the mailbox received it, parsed. */
export interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  messageId: string;
  at: number;
}

/**
 * What the server does with the next message (one per message, then `accept`): take it, refuse it for now (451, try
 * again), reject it for good (550), or stall (read it and never answer, until the sender gives up).
 */
export type MailAnswer = 'accept' | 'refuse' | 'reject' | 'stall';

/**
 * A real SMTP server in the test process (the smtp-server package), without TLS (the service is pointed at it with
 * `?starttls=off`), taking any sender and recipient: the mailbox the service's e-mail sender writes to.
 */
export class Mailbox {
  readonly received: Mail[] = [];
  readonly answers: MailAnswer[] = [];
  /** Every attempt to hand over a message's data, taken or not (a refused one counts too). */
  attempts = 0;
  private readonly events = new EventEmitter();
  private server?: SMTPServer;

  async start(): Promise<string> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        this.attempts++;
        const answer = this.answers.shift() ?? 'accept';
        void simpleParser(stream).then((mail) => {
          if (answer === 'stall') return;
          if (answer === 'refuse') return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          if (answer === 'reject') return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
          const received: Mail = {
            from: mail.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            messageId: mail.messageId ?? '',
            at: Date.now(),
          };
          this.received.push(received);
          callback();
          this.events.emit('mail', received);
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.server.address();
    return `smtp://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}?starttls=off`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The mails to `to` so far. */
  to(to: string): Mail[] {
    return this.received.filter((m) => m.to.includes(to));
  }

  /** The `n`-th mail (from 1) to `to` that `matches`, as soon as it arrives; fails after `timeoutMs` without it. */
  mail(to: string, matches: (m: Mail) => boolean = () => true, n = 1, timeoutMs = 30_000): Promise<Mail> {
    const found = () => this.to(to).filter(matches)[n - 1];
    return new Promise((resolve, reject) => {
      const now = found();
      if (now) return resolve(now);
      const timer = setTimeout(() => {
        this.events.off('mail', heard);
        reject(new Error(`no mail #${n} came to ${to}`));
      }, timeoutMs);
      const heard = () => {
        const mail = found();
        if (!mail) return;
        clearTimeout(timer);
        this.events.off('mail', heard);
        resolve(mail);
      };
      this.events.on('mail', heard);
    });
  }

  /** The code of the `n`-th mail to `to` whose subject contains `subject` (as a reader finds it: "Your code: 123456"). */
  async code(to: string, subject: string, n = 1): Promise<string> {
    return codeIn((await this.mail(to, (m) => m.subject.includes(subject), n)).text);
  }
}

/** The six digits of a message's text ("Your code: 123456", "Ihr Code: 123456", "123456 is your finapi code…"). */
export function codeIn(text: string): string {
  const match = /(?:Your code|Ihr Code): (\d{6})/.exec(text) ?? /^(\d{6}) /.exec(text);
  if (!match) throw new Error(`no code in "${text}"`);
  return match[1];
}

/**
 * The two calls of Mailpit's HTTP API (a mail catcher for development: SMTP on 1025, this API on 8025) that
 * docs/authentication.md's walk-through makes, answered from `mailbox`: `GET /api/v1/search?query=to:<address>` (the
 * newest first) and `GET /api/v1/message/<ID>` (with its `Text`). Answers the API's URL (MAILPIT_URL).
 */
export async function mailpitApi(mailbox: Mailbox): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mailpit');
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/api/v1/search') {
      const to = /(?:^|\s)to:"?([^"\s]+)"?/.exec(url.searchParams.get('query') ?? '')?.[1] ?? '';
      const found = mailbox.received.map((mail, i) => ({ mail, ID: String(i) })).filter(({ mail }) => mail.to.includes(to));
      const messages = found.reverse().map(({ mail, ID }) => ({ ID, Subject: mail.subject, To: mail.to.map((Address) => ({ Address })) }));
      return send(200, { total: messages.length, messages_count: messages.length, messages });
    }
    const id = /^\/api\/v1\/message\/(\d+)$/.exec(url.pathname)?.[1];
    const mail = id === undefined ? undefined : mailbox.received[Number(id)];
    if (mail) return send(200, { ID: id, Subject: mail.subject, Text: mail.text });
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
