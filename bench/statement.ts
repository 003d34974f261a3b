/**
 * The statement benchmark (issue 17): `npm run bench:statement`. Shows that a coin statement streams
 * with flat memory: one coin gets BENCH_STATEMENT_ENTRIES ledger entries (100k by default, written
 * by SQL as balanced transfers to and from a second coin, so the ledger check stays balanced), then
 * `GET /api/v1/coins/{serial}/statement` is downloaded as CSV and as JSON while the service's
 * resident memory (VmRSS from /proc) is sampled every 20 ms. Printed: the body size, the time, and
 * the RSS before and at its peak, each format twice. Flat memory shows as a peak that does not move with
 * the number of entries (compare BENCH_STATEMENT_ENTRIES=100000 and 400000) and does not climb on the
 * second run; a statement held in memory would grow RSS by several times its body, every time. The
 * service runs with a V8 heap limit (BENCH_STATEMENT_HEAP_MB, 96 by default) smaller than the bodies:
 * holding a statement would crash it. Written to bench/results/statement.json.
 */
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import {
  ADMIN_LOGIN,
  ADMIN_PASSWORD,
  api,
  fmt,
  log,
  login,
  num,
  runBench,
  startDatabase,
  startService,
  table,
  writeResults,
} from './common';

const ENTRIES = num('BENCH_STATEMENT_ENTRIES', 100_000);
const CHUNK = 50_000;

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

interface Figures {
  format: string;
  bytes: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  growth: number;
}

/** Downloads the statement, reading and dropping each chunk, while sampling the service's RSS. */
async function download(url: string, token: string, pid: number, format: 'csv' | 'json'): Promise<Figures> {
  if (global.gc) global.gc();
  await new Promise((r) => setTimeout(r, 500));
  const rssBefore = rssBytes(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssBytes(pid))), 20);
  const started = Date.now();
  const response = await fetch(url + `?format=${format}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) throw new Error(`statement answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).length;
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssBytes(pid));
  return { format, bytes, seconds, rssBefore, rssPeak, growth: rssPeak - rssBefore };
}

/** The service's V8 heap limit: a statement held in memory (the 400k-entry JSON is ~130 MB) could not be answered under it. */
const HEAP_MB = num('BENCH_STATEMENT_HEAP_MB', 96);

runBench('statement benchmark', async () => {
  process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --max-old-space-size=${HEAP_MB}`.trim();
  log(`The service runs with --max-old-space-size=${HEAP_MB}.`);
  const urlOf = await startDatabase('finapi-bench-statement-', ['bench']);
  const service = await startService(urlOf('bench'), { bcryptCost: 4, logLevel: 'warn', dbPoolSize: 10 });
  const admin = await login(service.url, ADMIN_LOGIN, ADMIN_PASSWORD);
  const code = `ST${Date.now() % 100000}`;
  await api(service.url, 'POST', '/api/v1/currencies', { code, name: 'Statement bench' }, admin);
  const issuer = (await api(service.url, 'POST', '/api/v1/issuers', { currencyCode: code, name: 'Bench bank' }, admin)).issuer;
  const password = 'bench-user-password-1';
  await api(service.url, 'POST', '/api/v1/users', { login: 'statement-user', password, name: 'Statement user', role: 'individual' }, admin);
  const user = await login(service.url, 'statement-user', password);
  const a = (await api(service.url, 'POST', '/api/v1/coins', { issuerId: issuer.id, name: 'A' }, user)).coin.serial as string;
  const b = (await api(service.url, 'POST', '/api/v1/coins', { issuerId: issuer.id, name: 'B' }, user)).coin.serial as string;
  await api(service.url, 'POST', '/api/v1/bank-top-ups', { coinSerial: a, amount: '1000.00' }, admin);

  log(`Writing ${ENTRIES.toLocaleString('en')} entries on coin ${a}…`);
  const db = new Client({ connectionString: urlOf('bench') });
  await db.connect();
  for (let written = 0; written < ENTRIES; written += CHUNK) {
    // Pairs of transfers, A→B then B→A, 0.01 each: every operation gives A one entry, and A's balance is unchanged.
    await db.query(
      `WITH ops AS (
         INSERT INTO operations (type, status, currency_id, amount, from_coin, to_coin, from_organization_id, to_organization_id,
                                 description, created_at, updated_at)
         SELECT 'client_transaction_transfer', 'processed', c.currency_id, 0.01,
                CASE WHEN i % 2 = 0 THEN $1::bigint ELSE $2::bigint END, CASE WHEN i % 2 = 0 THEN $2::bigint ELSE $1::bigint END,
                c.organization_id, c.organization_id, 'bench load', now(), now()
           FROM generate_series(1, $3::int) i, coins c WHERE c.serial = $1::bigint
         RETURNING id, from_coin, to_coin, from_organization_id, to_organization_id, currency_id, amount, created_at
       )
       INSERT INTO ledger_entries (operation_id, leg, coin_serial, currency_id, organization_id, amount, created_at)
       SELECT id, 0, from_coin, currency_id, from_organization_id, -amount, created_at FROM ops
       UNION ALL
       SELECT id, 0, to_coin, currency_id, to_organization_id, amount, created_at FROM ops`,
      [a, b, Math.min(CHUNK, ENTRIES - written)],
    );
    log(`  … ${fmt(Math.min(ENTRIES, written + CHUNK) / 1000, 0)}k`);
  }
  await db.query('VACUUM (ANALYZE) operations, ledger_entries');
  await db.end();

  const url = `${service.url}/api/v1/coins/${a}/statement`;
  const results: Figures[] = [];
  // Each format twice: memory that plateaus (the second run grows no further) is garbage not yet collected, not a statement held.
  for (const format of ['csv', 'csv', 'json', 'json'] as const) results.push(await download(url, user, service.pid, format));
  const mb = (n: number) => fmt(n / 1024 / 1024);
  log(
    `\n${table([
      ['format', 'body MB', 'seconds', 'RSS before MB', 'RSS peak MB', 'growth MB', 'growth / body'],
      ...results.map((r) => [
        r.format,
        mb(r.bytes),
        fmt(r.seconds, 2),
        mb(r.rssBefore),
        mb(r.rssPeak),
        mb(r.growth),
        fmt(r.growth / r.bytes, 2),
      ]),
    ])}`,
  );
  const check = await api(service.url, 'GET', '/api/v1/actuator/ledger-check', undefined, admin);
  log(`ledger-check balanced: ${String(check.balanced)}`);
  await writeResults('statement.json', { entries: ENTRIES, heapLimitMb: HEAP_MB, results, ledgerBalanced: check.balanced });
});
