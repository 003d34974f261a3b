import { Injectable, Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppConfig } from '../config/config';

/** Whether this instance is shutting down: readiness answers 503 from the first moment (the actuator reads it). */
@Injectable()
export class ShutdownState {
  private draining = false;

  get isDraining(): boolean {
    return this.draining;
  }

  start(): void {
    this.draining = true;
  }
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * The one order of a shutdown; every step waits for the one before:
 * 1. readiness answers 503, and the listener keeps serving for SHUTDOWN_DELAY_SECONDS (a load balancer or
 *    Kubernetes sees the instance leave before its connections are refused);
 * 2. the listener closes: no new connection, idle ones closed, each answer still given says `Connection: close`;
 *    requests in flight finish, and those still open after SHUTDOWN_TIMEOUT_SECONDS have their connections cut;
 * 3. `app.close()`: background work (sweeps, the scheduler, the webhook dispatcher, the LISTEN connection) stops in
 *    `onModuleDestroy`, then every pool closes in `onApplicationShutdown` (DatabaseModule's PoolsShutdown) — nothing
 *    may stop later than the pools, nor close a pool earlier.
 * Answers how many connections were cut (0: a clean shutdown).
 */
export async function shutDown(
  app: NestFastifyApplication,
  config: Pick<AppConfig, 'shutdownDelaySeconds' | 'shutdownTimeoutSeconds'>,
): Promise<number> {
  const logger = new Logger('Shutdown');
  app.get(ShutdownState).start();
  if (config.shutdownDelaySeconds > 0) await sleep(config.shutdownDelaySeconds * 1000);
  const server = app.getHttpServer() as Server;
  const closed = app.getHttpAdapter().getInstance().close();
  let cut = 0;
  const timeout = new AbortController();
  await Promise.race([
    closed,
    sleep(config.shutdownTimeoutSeconds * 1000, undefined, { signal: timeout.signal }).then(
      async () => {
        cut = await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
        server.closeAllConnections();
      },
      () => undefined,
    ),
  ]);
  timeout.abort();
  await closed;
  if (cut) {
    logger.error(`${cut} connection(s) still open after SHUTDOWN_TIMEOUT_SECONDS=${config.shutdownTimeoutSeconds} were cut`);
  }
  await app.close();
  return cut;
}

/**
 * SIGTERM, SIGINT and SIGHUP shut the app down (`shutDown`), then run `after` (main.ts stops its embedded PostgreSQL
 * there), then exit: 0 after a clean shutdown, 1 when connections had to be cut or a step failed. A second signal
 * changes nothing: the shutdown under way goes on.
 */
export function shutDownOnSignals(
  app: NestFastifyApplication,
  config: Pick<AppConfig, 'shutdownDelaySeconds' | 'shutdownTimeoutSeconds'>,
  after: () => Promise<void> = async () => undefined,
): void {
  let stopping: Promise<void> | undefined;
  const onSignal = (): void => {
    stopping ??= shutDown(app, config)
      .finally(after)
      .then(
        (cut) => process.exit(cut ? 1 : 0),
        (error: unknown) => {
          new Logger('Shutdown').error(`The shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          process.exit(1);
        },
      );
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
