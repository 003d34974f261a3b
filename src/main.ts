import 'reflect-metadata';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/config';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './database/embedded-postgres';

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
  const app = await createApp(config, databaseUrl);
  if (stopDatabase) {
    const stop = stopDatabase;
    // Stop PostgreSQL after Nest has closed its pool.
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onClose', async () => stop().catch(() => undefined));
  }
  await app.listen({ port: config.port, host: config.host });
  const url = await app.getUrl();
  process.stdout.write(
    `finapi listening on ${url.replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost')} (Swagger UI at /swagger/ui/)\n`,
  );
}

main().catch((error: unknown) => {
  // A known failure is one sentence for the operator; anything else is a bug and keeps its stack.
  const known = error instanceof EmbeddedPostgresError;
  process.stderr.write(
    `finapi failed to start: ${error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error)}\n`,
  );
  process.exit(1);
});
