import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { FaultRig, Query, ready } from './helpers/fault-load';
import { debianPostgresBin, serverDirectory } from './helpers/postgres-cluster';
import { runbookBlock, runRunbook } from './helpers/runbook';
import { freePort, startServer, TestServer, within } from './helpers/server';

/**
 * Issue 44: docs/operations.md, "High availability", run as written — etcd, two PostgreSQL nodes under Patroni in
 * synchronous mode, HAProxy leading to the leader, the database and its role — with a temporary directory and free
 * ports; then two instances of the service behind HAProxy, unchanged, under load, and the leader killed (its Patroni
 * and its PostgreSQL, SIGKILL): Patroni elects the replica, HAProxy turns to it, the transfers resume, and nothing
 * acknowledged is lost (RPO 0) or doubled. The recovery time (RTO) measured is printed and stated in the guide.
 */

/** Kills a process by the pid file a block or PostgreSQL wrote (its first line); no error if it is gone. */
function killByPidFile(file: string, signal: NodeJS.Signals): void {
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0].trim());
  if (!(pid > 0)) return;
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

const get = async (url: string): Promise<number> => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status;
  } catch {
    return 0;
  }
};

describe('high availability on Patroni, etcd and HAProxy (docs/operations.md, issue 44)', () => {
  let dir: string;
  let env: Record<string, string>;
  let A: TestServer;
  let B: TestServer;
  let rig: FaultRig;
  let databaseUrl: string;
  /** The node (1 or 2) that leads, by its Patroni's REST API. */
  const leader = async (): Promise<1 | 2 | undefined> => {
    if ((await get(`http://127.0.0.1:${env.REST1_PORT}/primary`)) === 200) return 1;
    if ((await get(`http://127.0.0.1:${env.REST2_PORT}/primary`)) === 200) return 2;
    return undefined;
  };
  /** SQL on the node that leads now, as the superuser, straight to it (not through HAProxy). */
  const onLeader: Query = async <T>(sql: string): Promise<T[]> => {
    const node = await leader();
    if (!node) throw new Error('No node leads');
    const client = new Client({
      connectionString: `postgres://postgres:${env.HA_PASSWORD}@127.0.0.1:${env[`PG${node}_PORT`]}/finapi`,
    });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    dir = await serverDirectory('finapi-ha-');
    const ports = await Promise.all(Array.from({ length: 7 }, () => freePort()));
    env = {
      PGBIN: debianPostgresBin(),
      HA_DIR: dir,
      ETCD_PORT: String(ports[0]),
      ETCD_PEER_PORT: String(ports[1]),
      PG1_PORT: String(ports[2]),
      REST1_PORT: String(ports[3]),
      PG2_PORT: String(ports[4]),
      REST2_PORT: String(ports[5]),
      HAPROXY_PORT: String(ports[6]),
      HA_PASSWORD: randomBytes(12).toString('hex'),
      FINAPI_DB_PASSWORD: randomBytes(12).toString('hex'),
    };
    // The test sets every variable the guide's settings block names, and the block itself keeps them.
    const named = [...runbookBlock('ha-settings').script.matchAll(/export ((?:\w+=\S+\s*)+)/gm)].flatMap((m) =>
      [...m[1].matchAll(/(\w+)=/g)].map((n) => n[1]),
    );
    expect(named.filter((name) => !(name in env))).toEqual([]);
    const settings = await runRunbook('ha-settings', env);
    expect(settings.code).toBe(0);
    // As root: the packages (present here: the block installs only what is missing) and the directory; then as postgres.
    await runRunbook('ha-packages', env, { timeoutMs: 600_000 });
    const asPostgres = { osUser: 'postgres', timeoutMs: 240_000 };
    await runRunbook('ha-etcd', env, asPostgres);
    await runRunbook('ha-patroni', env, asPostgres);
    await runRunbook('ha-haproxy', env, asPostgres);
    const created = await runRunbook('ha-database', env, { osUser: 'postgres' });
    databaseUrl = /^DATABASE_URL=(\S+)$/m.exec(created.stdout)![1];
    const service = { DATABASE_URL: databaseUrl, TOKEN_CACHE_SECONDS: '60' };
    A = await startServer(service, { allowFaults: true });
    B = await startServer(service, { allowFaults: true });
    rig = await FaultRig.create(A);
  }, 600_000);

  afterAll(async () => {
    await Promise.all([A?.stop(), B?.stop()]);
    if (rig?.costs.length) process.stdout.write(`\nHigh availability (issue 44):\n${rig.costs.join('\n')}\n`);
    if (!dir) return;
    killByPidFile(join(dir, 'haproxy.pid'), 'SIGTERM');
    for (const n of [1, 2]) killByPidFile(join(dir, `patroni${n}.pid`), 'SIGTERM');
    // Patroni stops its PostgreSQL on SIGTERM; one it could not (killed) is stopped here.
    await new Promise((r) => setTimeout(r, 3000));
    for (const n of [1, 2]) {
      killByPidFile(join(dir, `patroni${n}.pid`), 'SIGKILL');
      killByPidFile(join(dir, `pg${n}`, 'postmaster.pid'), 'SIGKILL');
    }
    killByPidFile(join(dir, 'etcd.pid'), 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('builds what the guide says: a leader and its synchronous standby, HAProxy leading to the leader, the service on it', async () => {
    const first = await leader();
    expect(first).toBeDefined();
    const members = await onLeader<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication');
    expect(members.map((m) => m.sync_state)).toEqual(['sync']);
    expect(await ready(A)).toBe(200);
    expect(await ready(B)).toBe(200);
  });

  it('kills the leader under load: Patroni elects the replica, traffic resumes, nothing acknowledged is lost or doubled (RPO 0)', async () => {
    const old = (await leader())!;
    const next = old === 1 ? 2 : 1;
    let killedAt = 0;
    let promotedAt = 0;
    const back = await rig.rideOut(
      'the leader killed (Patroni failover)',
      [A, B],
      async () => {
        killedAt = Date.now();
        killByPidFile(join(dir, `patroni${old}.pid`), 'SIGKILL');
        killByPidFile(join(dir, `pg${old}`, 'postmaster.pid'), 'SIGKILL');
        expect(await within(10_000, async () => (await ready(A)) === 503)).not.toBe(Infinity);
        // The replica leads once the dead leader's lock expires (ttl), and HAProxy's check turns to it.
        expect(await within(120_000, async () => (await get(`http://127.0.0.1:${env[`REST${next}_PORT`]}/primary`)) === 200)).not.toBe(
          Infinity,
        );
        promotedAt = Date.now();
      },
      onLeader,
    );
    const rto = promotedAt - killedAt + back;
    rig.costs.push(
      `RTO ${(rto / 1000).toFixed(1)} s: the replica led ${promotedAt - killedAt} ms after the kill, transfers back ${back} ms later`,
    );
    expect(await leader()).toBe(next);
  }, 240_000);
});
