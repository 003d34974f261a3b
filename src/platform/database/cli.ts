import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { startEmbeddedPostgres } from './embedded-postgres';

/**
 * `npm run migration:run|revert|show|generate [-- Name]`: runs the TypeORM CLI against DATABASE_URL,
 * or against the embedded server (started for the occasion) when DATABASE_URL is unset. The schema
 * is hand-written SQL, so `generate` writes a timestamped migration for you to fill in.
 */
async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'migration:generate') return generate(rest[0]);
  if (!['migration:run', 'migration:revert', 'migration:generate', 'migration:show'].includes(command)) {
    throw new Error('usage: cli.js migration:run|migration:revert|migration:show|migration:generate <Name>');
  }
  const config = loadConfig();
  let url = config.databaseUrl;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.dataDir);
    url = embedded.url;
    stop = embedded.stop;
  }
  const root = join(__dirname, '..', '..', '..', '..');
  const args = [join(root, 'node_modules', 'typeorm', 'cli.js'), command, '-d', join(__dirname, '..', '..', '..', 'ormconfig.js')];
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
  if (stop) await stop();
  process.exit(result.status ?? 1);
}

/** Writes migrations/<timestamp>-<Name>.ts with empty up/down for the SQL of the change. */
async function generate(name: string | undefined): Promise<void> {
  if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error('usage: npm run migration:generate -- AddCashDesks (a PascalCase name)');
  const timestamp = Date.now();
  const file = join(__dirname, '..', '..', '..', '..', 'migrations', `${timestamp}-${name}.ts`);
  const body = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${timestamp} implements MigrationInterface {
  name = '${name}${timestamp}';

  async up(q: QueryRunner): Promise<void> {
    await q.query(\`\`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(\`\`);
  }
}
`;
  await writeFile(file, body, { flag: 'wx' });
  process.stdout.write(`Created ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error instanceof Error ? error.message : error)}\n`);
  // EX_CONFIG, as the service: a configuration error is not worth a retry.
  process.exit(error instanceof ConfigError ? 78 : 1);
});
