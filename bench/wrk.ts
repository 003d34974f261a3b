/**
 * The money benchmark's other load generator (BENCH_LOAD=wrk): `wrk` (a C program, its own process) instead of
 * autocannon in the bench's own event loop, to see how much the load generator itself moves the figures. The
 * requests are drawn in JavaScript as for autocannon (a pool of them, written into a Lua script that picks one
 * at random per request); a keyed run gives each request an Idempotency-Key of its own (thread, counter).
 * The result is shaped as autocannon's, so `measure` summarises both alike.
 */
import type autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One request of a load: its path, the caller's Authorization header and its JSON body. */
export interface MoneyRequest {
  path: string;
  authorization: string;
  body: object;
}

/** How many requests are drawn into the script (picked from at random, so repeats only repeat a random pair). */
const POOL = 20_000;

const lua = (text: string): string => JSON.stringify(text); // a JSON string is a valid Lua string literal for ASCII text

function script(make: () => MoneyRequest, keyed: boolean): string {
  const entries: string[] = [];
  for (let i = 0; i < POOL; i++) {
    const r = make();
    entries.push(`{${lua(r.path)},${lua(r.authorization)},${lua(JSON.stringify(r.body))}}`);
  }
  return `local pool = {
${entries.join(',\n')}
}
local n = 0
function setup(thread)
  n = n + 1
  thread:set("tid", n)
end
local counter = 0
local run = tostring(os.time())
function init(args)
  math.randomseed(os.time() * 100 + (tid or 0))
end
function request()
  local r = pool[math.random(#pool)]
  local headers = { ["content-type"] = "application/json", ["authorization"] = r[2] }
  ${keyed ? 'counter = counter + 1\n  headers["idempotency-key"] = "wrk-" .. run .. "-" .. tid .. "-" .. counter' : ''}
  return wrk.format("POST", r[1], headers, r[3])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK-RESULT {"requests":%d,"duration":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%f,"p90":%f,"p99":%f,"max":%f,"mean":%f}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000, latency.mean / 1000))
end
`;
}

interface WrkFigures {
  requests: number;
  duration: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Runs `wrk` against `baseUrl` for `seconds` at `connections` (2 threads) and answers its figures as autocannon's result. */
export async function wrkLoad(
  baseUrl: string,
  connections: number,
  seconds: number,
  make: () => MoneyRequest,
  keyed: boolean,
): Promise<autocannon.Result> {
  const dir = await mkdtemp(join(tmpdir(), 'finapi-wrk-'));
  try {
    const file = join(dir, 'load.lua');
    await writeFile(file, script(make, keyed));
    const output = await new Promise<string>((resolveRun, reject) => {
      const child = spawn('wrk', ['-t2', `-c${connections}`, `-d${seconds}s`, '--timeout', '30s', '-s', file, baseUrl], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      child.once('error', (error) => reject(new Error(`wrk did not run (${error.message}): install it (apt-get install wrk)`)));
      child.once('exit', (code) => (code === 0 ? resolveRun(text) : reject(new Error(`wrk exited ${code}:\n${text}`))));
    });
    const line = /WRK-RESULT (\{.*\})/.exec(output);
    if (!line) throw new Error(`wrk printed no result:\n${output}`);
    const w = JSON.parse(line[1]) as WrkFigures;
    const durationSeconds = w.duration / 1e6;
    const ok = w.requests - w.status;
    const histogram = (mean: number) => ({ average: mean, mean, stddev: 0, min: 0, total: 0, p97_5: w.p99, p99_9: w.max });
    return {
      url: baseUrl,
      connections,
      duration: durationSeconds,
      start: new Date(),
      finish: new Date(),
      errors: w.connect + w.read + w.write,
      timeouts: w.timeout,
      non2xx: w.status,
      '2xx': ok,
      statusCodeStats: { '2xx': { count: ok }, ...(w.status ? { 'non-2xx': { count: w.status } } : {}) },
      latency: { ...histogram(w.mean), p50: w.p50, p90: w.p90, p99: w.p99, max: w.max, totalCount: w.requests },
      requests: { ...histogram(w.requests / durationSeconds), p50: 0, p90: 0, p99: 0, max: 0, sent: w.requests },
      throughput: { ...histogram(0), p50: 0, p90: 0, p99: 0, max: 0 },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
