import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { AuthService } from './platform/auth/auth.service';
import { ApiError } from './platform/common/api-error';
import { ConfigError, loadConfig } from './platform/config/config';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './platform/database/embedded-postgres';

const USAGE = 'usage: npm run admin:release -- <login>';

/**
 * `npm run admin:release -- <login>`: the way back in when every administrator is On Hold or their
 * password is lost. Releases the account with the service's own code (AuthService.release), against
 * DATABASE_URL or the embedded server, records it as a user action by actor `cli`, and prints the
 * temporary password once. Whoever can run this on the server already holds the database.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || !args[0].trim() || args[0].startsWith('-')) {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  const login = args[0].trim();
  const config = loadConfig();
  let url = config.databaseUrl;
  let stopDatabase: (() => Promise<void>) | undefined;
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.dataDir, { notice: (line) => process.stderr.write(`${line}\n`) });
    url = embedded.url;
    stopDatabase = embedded.stop;
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ ...config, logLevel: 'warn' }, url), {
    logger: ['error', 'warn'],
  });
  try {
    const released = await app.get(AuthService).release({ login }, 'cli', null);
    process.stdout.write(
      `Released "${login.toLowerCase()}". Temporary password (shown once): ${released.temporaryPassword}\n` +
        `It works once, until ${released.expiresAt}; logging in with it asks for a new password at once.\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ApiError) {
      process.stderr.write(`admin:release: ${error.message} ("${login}")\n`);
      return 1;
    }
    throw error;
  } finally {
    await app.close();
    if (stopDatabase) await stopDatabase();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof EmbeddedPostgresError;
    process.stderr.write(
      `admin:release failed: ${error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error)}\n`,
    );
    process.exit(1);
  },
);
