import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { AppModule } from '../../src/app.module';
import { ApiError } from '../../src/platform/common/api-error';
import { loadConfig } from '../../src/platform/config/config';

/**
 * The service's module as a harness drives it, on DATABASE_URL (quick hashing, silent logs; `env` adds to the
 * settings), with a client of the same database for what the harness reads behind the service's back.
 * `close` ends both.
 */
export async function harnessApp(env: Record<string, string> = {}): Promise<{
  app: INestApplicationContext;
  db: Client;
  close(): Promise<void>;
}> {
  const url = process.env.DATABASE_URL!;
  const config = loadConfig({ ...process.env, BCRYPT_COST: '4', ADMIN_PASSWORD: 'harness-password-1', LOG_LEVEL: 'silent', ...env });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, url), { logger: false });
  const db = new Client({ connectionString: url });
  await db.connect();
  return {
    app,
    db,
    async close() {
      await db.end();
      await app.close();
    },
  };
}

/** What a call came to: `accepted`, the API error it threw (`409 exception.…`), or a bug's message. */
export async function attempt(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'accepted';
  } catch (error) {
    return error instanceof ApiError ? `${error.status} ${error.code}` : `bug: ${(error as Error).message}`;
  }
}

/** Runs a harness: prints what it observed as one JSON line (the spec reads the last); a failure prints its stack, exit 1. */
export function printObservations(main: () => Promise<unknown>): void {
  main().then(
    (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
