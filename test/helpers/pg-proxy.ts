import { createServer, Server, Socket } from 'node:net';
import { freePort } from './server';

/**
 * Where a COMMIT is cut: `before` — the COMMIT never reaches the server (the transaction rolls back); `after` — the
 * server commits and answers, and the answer never reaches the service (the commit landed, the service cannot know).
 */
export type CommitCut = 'before' | 'after';

interface Link {
  client: Socket;
  server: Socket;
  /** Prepared statements of the connection, by name (a Bind names the statement, not its SQL). */
  statements: Map<string, string>;
  /** The SQL of the open transaction so far matched the armed cut's pattern. */
  matched: boolean;
  /** Set once the connection's COMMIT was sent under an `after` cut: the server's next bytes are swallowed. */
  swallowing: boolean;
}

/**
 * A TCP proxy in front of a PostgreSQL server that a test controls, to break the service's connections the way a
 * crash, a network fault or a failover does: `cutAll()` ends every connection at once (a server crash seen from the
 * service), `refuse()` turns new connections away, `pointTo(port)` sends new connections elsewhere (a failover behind a
 * re-pointed proxy), and `cutCommit(where, pattern)` breaks the connection of the next transaction whose statements
 * matched `pattern`, at its COMMIT (the commit's outcome lost). It reads the frontend's messages only to find
 * statements and COMMITs: simple queries (`Q`), and the extended protocol's Parse (`P`) and Bind (`B`).
 */
export class PgProxy {
  private server: Server | undefined;
  private readonly links = new Set<Link>();
  private readonly stalled = new Set<Socket>();
  private refusing = false;
  private stalling = false;
  private armed: { where: CommitCut; pattern: RegExp; done: (cut: boolean) => void } | undefined;
  port = 0;

  constructor(private target: number) {}

  async start(): Promise<string> {
    this.port = await freePort();
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    return `127.0.0.1:${this.port}`;
  }

  /** A database URL through the proxy, from one straight to the target. */
  url(direct: string): string {
    const u = new URL(direct);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  pointTo(port: number): void {
    this.target = port;
  }

  refuse(refusing = true): void {
    this.refusing = refusing;
  }

  /** New connections are accepted and then hang: nothing reaches the server, nothing comes back (a blackholed host). */
  stall(stalling = true): void {
    this.stalling = stalling;
  }

  /** Ends every open connection, both ways, as a server crash does. */
  cutAll(): void {
    for (const link of this.links) this.end(link);
    for (const socket of this.stalled) socket.destroy();
  }

  get connections(): number {
    return this.links.size;
  }

  /**
   * Arms a cut at the COMMIT of the next transaction whose statements match `pattern`; resolves true once it was cut.
   */
  cutCommit(where: CommitCut, pattern: RegExp): Promise<boolean> {
    return new Promise((done) => (this.armed = { where, pattern, done }));
  }

  /** Disarms a cut not yet made (its promise resolves false). */
  disarm(): void {
    this.armed?.done(false);
    this.armed = undefined;
  }

  async stop(): Promise<void> {
    this.disarm();
    this.cutAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    if (this.stalling) {
      client.on('error', () => undefined);
      this.stalled.add(client);
      client.once('close', () => this.stalled.delete(client));
      return;
    }
    const server = new Socket();
    const link: Link = { client, server, statements: new Map(), matched: false, swallowing: false };
    this.links.add(link);
    client.on('error', () => this.end(link));
    server.on('error', () => this.end(link));
    client.on('close', () => this.end(link));
    server.on('close', () => this.end(link));
    server.connect(this.target, '127.0.0.1');
    let pending = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // The startup message has no type byte; every message after it has one.
      for (;;) {
        const header = started ? 5 : 4;
        if (pending.length < header) return;
        const length = pending.readInt32BE(started ? 1 : 0) + (started ? 1 : 0);
        if (pending.length < length) return;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (!started) {
          // An SSLRequest (8 bytes, code 80877103) is answered by the server; the startup follows it.
          started = !(length === 8 && message.readInt32BE(4) === 80877103);
          server.write(message);
          continue;
        }
        if (!this.frontend(link, message)) return;
        server.write(message);
      }
    });
    server.on('data', (chunk: Buffer) => {
      if (link.swallowing) {
        // The server answered the COMMIT: it landed. The service never hears it.
        this.end(link);
        return;
      }
      client.write(chunk);
    });
  }

  /** Looks at one frontend message; false when the link was cut before it (it is not forwarded). */
  private frontend(link: Link, message: Buffer): boolean {
    const type = String.fromCharCode(message[0]);
    const body = message.subarray(5);
    const cstring = (from: number): [string, number] => {
      const end = body.indexOf(0, from);
      return [body.toString('utf8', from, end), end + 1];
    };
    let sql: string | undefined;
    if (type === 'Q') [sql] = cstring(0);
    else if (type === 'P') {
      const [name, next] = cstring(0);
      [sql] = cstring(next);
      link.statements.set(name, sql);
    } else if (type === 'B') {
      const [, next] = cstring(0);
      const [name] = cstring(next);
      sql = link.statements.get(name);
    }
    if (sql === undefined) return true;
    const armed = this.armed;
    if (/^\s*COMMIT\b/i.test(sql)) {
      const matched = link.matched;
      link.matched = false;
      if (!armed || !matched) return true;
      this.armed = undefined;
      armed.done(true);
      if (armed.where === 'before') {
        this.end(link);
        return false;
      }
      link.swallowing = true;
      return true;
    }
    if (/^\s*(ROLLBACK|BEGIN)\b/i.test(sql)) link.matched = false;
    else if (armed?.pattern.test(sql)) link.matched = true;
    return true;
  }

  private end(link: Link): void {
    if (!this.links.delete(link)) return;
    link.client.destroy();
    link.server.destroy();
  }
}
