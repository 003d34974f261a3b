import 'reflect-metadata';
import { createApp } from './app.factory';
import { shutDownOnSignals } from './platform/actuator/shutdown';
import { ConfigError, loadConfig } from './platform/config/config';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './platform/database/embedded-postgres';
import { MigrationError, MigrationsPendingError } from './platform/database/migrations';

/**
 * The signals that end the service. embedded-postgres handles them too, from the moment it is loaded (through
 * async-exit-hook): it stops its servers and exits at once, which would cut Nest's graceful shutdown short — even
 * with DATABASE_URL set, where it has nothing to stop. Once the app is up, those handlers are removed.
 */
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  let databaseUrl = config.databaseUrl;
  let stopDatabase: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres(config.dataDir);
    databaseUrl = embedded.url;
    stopDatabase = embedded.stop;
    process.stdout.write(`Embedded PostgreSQL running with its data in ${embedded.dataDir}\n`);
  }
  // embedded-postgres's handlers, in place while the app starts (a failed start still stops the database).
  const exitHooks = SIGNALS.map((signal) => [signal, process.listeners(signal)] as const);
  const app = await createApp(config, databaseUrl);
  for (const [signal, listeners] of exitHooks) for (const listener of listeners) process.removeListener(signal, listener);
  // A signal shuts the app down in its order (actuator/shutdown.ts), then stops PostgreSQL, then ends the process.
  shutDownOnSignals(app, config, stopDatabase);
  await app.listen({ port: config.port, host: config.host });
  const url = await app.getUrl();
  process.stdout.write(
    `finapi listening on ${url.replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost')} (Swagger UI at /swagger/ui/)\n`,
  );
}

main().catch((error: unknown) => {
  // A known failure is one sentence for the operator; anything else is a bug and keeps its stack.
  const known =
    error instanceof EmbeddedPostgresError ||
    error instanceof ConfigError ||
    error instanceof MigrationError ||
    error instanceof MigrationsPendingError;
  process.stderr.write(
    `finapi failed to start: ${error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error)}\n`,
  );
  process.exit(1);
});
