import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { connectionOptions, ConnectionSettings } from './data-source-options';

/**
 * The URL of the one connection that is not the pool's: LISTEN needs a session of its own, so straight to PostgreSQL
 * (DATABASE_LISTEN_URL) when DATABASE_URL is a pooler in transaction mode, which would hand its LISTEN to any client.
 */
export const LISTEN_URL = Symbol('LISTEN_URL');
/** How the LISTEN connection is opened (its connect timeout): ConnectionSettings. */
export const LISTEN_SETTINGS = Symbol('LISTEN_SETTINGS');

export interface NotificationHandler {
  /** A notification on the channel, with its payload. */
  message(payload: string): void;
  /** The listening connection was (re)established or lost: notifications may have been missed. */
  reset(): void;
}

/**
 * PostgreSQL's LISTEN/NOTIFY for this process: one dedicated connection, opened on the first subscription and
 * reopened after a loss (with a reset to every handler, since notifications sent meanwhile are lost). A cache
 * that may serve only while it hears every change asks `live()` first.
 */
@Injectable()
export class DatabaseNotifications implements OnModuleDestroy {
  private readonly logger = new Logger(DatabaseNotifications.name);
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private client?: Client;
  private connected = false;
  private closing = false;
  private retry?: NodeJS.Timeout;
  /** Reconnecting after a loss: the failed attempts are not logged one by one (the outage log says it once). */
  private failing = false;
  /** The LISTENs sent while connected, in order (listen). */
  private listening: Promise<void> = Promise.resolve();

  constructor(
    @Inject(LISTEN_URL) private readonly url: string,
    @Inject(LISTEN_SETTINGS) private readonly settings: ConnectionSettings,
  ) {}

  /** Listens on `channel` (a plain identifier) for `handler`. */
  subscribe(channel: string, handler: NotificationHandler): void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    const known = this.handlers.get(channel);
    // A channel listened to already (or to be, once connected) takes another handler and no second LISTEN.
    if (known) return void known.add(handler);
    this.handlers.set(channel, new Set([handler]));
    if (this.client) {
      if (this.connected) this.listen(this.client, channel);
    } else {
      void this.connect();
    }
  }

  /** One LISTEN after another on the listening connection (pg deprecates a query sent while one runs). */
  private listen(client: Client, channel: string): void {
    this.listening = this.listening
      .then(() => client.query(`LISTEN ${channel}`))
      .then(
        () => undefined,
        () => this.lost(),
      );
  }

  /** Whether the listening connection is up, so every change committed from now on will be heard. */
  live(): boolean {
    return this.connected;
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearTimeout(this.retry);
    this.connected = false;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: 'finapi-listen', ...connectionOptions(this.settings) });
    this.client = client;
    client.on('notification', (n) => {
      for (const handler of this.handlers.get(n.channel) ?? []) handler.message(n.payload ?? '');
    });
    client.on('error', () => this.lost());
    client.on('end', () => this.lost());
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      if (this.client !== client || this.closing) return;
      this.connected = true;
      if (this.failing) this.logger.warn('The LISTEN connection is back: changes made on other instances are heard again');
      this.failing = false;
      this.resetAll();
    } catch (error) {
      if (!this.failing)
        this.logger.warn(`LISTEN connection failed: ${error instanceof Error ? error.message : String(error)}; retrying every second`);
      this.failing = true;
      this.lost();
    }
  }

  private lost(): void {
    const wasConnected = this.connected;
    this.connected = false;
    if (wasConnected) this.resetAll();
    if (this.closing || this.retry) return;
    const client = this.client;
    this.client = undefined;
    void client?.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closing) void this.connect();
    }, 1000);
    this.retry.unref();
  }

  private resetAll(): void {
    for (const set of this.handlers.values()) for (const handler of set) handler.reset();
  }
}
