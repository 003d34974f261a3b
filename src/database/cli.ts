import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { startEmbeddedPostgres } from './embedded-postgres';

/**
 * `npm run migration:run|revert|generate [-- Name]`: runs the TypeORM CLI against DATABASE_URL, or
 * against the embedded server (started for the occasion) when DATABASE_URL is unset.
 */
async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
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
  const root = join(__dirname, '..', '..', '..');
  const args = [join(root, 'node_modules', 'typeorm', 'cli.js'), command, '-d', join(__dirname, '..', '..', 'ormconfig.js')];
  if (command === 'migration:generate') {
    const name = rest[0];
    if (!name) throw new Error('migration:generate needs a name: npm run migration:generate -- AddCoins');
    args.push(join(root, 'migrations', name));
  }
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
  if (stop) await stop();
  process.exit(result.status ?? 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error instanceof Error ? error.message : error)}\n`);
  process.exit(1);
});
