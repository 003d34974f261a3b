/**
 * A CPU profile of the service, by phase of a request: `node dist/bench/profile-phases.js <file.cpuprofile>
 * [--from s] [--to s] [--requests n] [--cpu-ms x] [--top n] [--phase text] [--map file]`.
 *
 * Take the profile under load with the money benchmark (`BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`): each
 * run logs its window in the server process (`--from … --to … --requests …`), so only that run's samples are read. Each
 * sample is put in the phase of the innermost frame of its stack that belongs to one (the bundle's frames are mapped
 * back to their files through dist/finapi.js.map); built-ins (JSON, writev) take their caller's phase. With
 * `--requests`, the phases' milliseconds of profiled CPU per request; with `--cpu-ms` (the run's server CPU per request
 * from /proc, which also counts the kernel's time) each phase's share of that. The source map must be the profiled
 * build's: after a rebuild, keep a copy of the old dist/finapi.js.map and name it with `--map`.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The phases, in the order the table lists them; a frame's file (or function) decides its phase. */
const PHASES: { phase: string; test: RegExp }[] = [
  {
    phase: 'log (pino)',
    test: /node_modules\/(pino|pino-std-serializers|sonic-boom|fast-redact|thread-stream|quick-format-unescaped)\/|src\/platform\/common\/logging\.ts/,
  },
  {
    phase: 'request context (AsyncLocalStorage)',
    test: /^node:(internal\/)?async_hooks|^node:internal\/async_local_storage|src\/platform\/database\/(request-timing|transaction-context)\.ts/,
  },
  {
    phase: 'validate (class-transformer, class-validator)',
    // class-validator's and class-transformer's own source maps name their files `src/…` (node_modules/src/… here).
    test: /node_modules\/(class-validator|class-transformer|validator|libphonenumber-js|src)\/|node_modules\/@nestjs\/common\/pipes\/|src\/platform\/common\/(validation|validators|money-validators|rule-lookups|compiled-validation)\.ts|\/dto\/[^/]+\.ts$/,
  },
  { phase: 'guard (access, token)', test: /node_modules\/(passport|passport-custom|@nestjs\/passport)\/|src\/platform\/(access|auth)\// },
  {
    phase: 'interceptors (RxJS, idempotency)',
    test: /node_modules\/rxjs\/|node_modules\/@nestjs\/core\/interceptors\/|src\/platform\/idempotency\//,
  },
  { phase: 'serialize (JSON)', test: /src\/platform\/common\/json-decimal\.ts|node_modules\/fast-json-stringify\// },
  {
    phase: 'ledger (SQL, pg)',
    test: /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+|pg-connection-string|buffer-writer|packet-reader)\/|src\/platform\/(database|ledger)\/|\.repository\.ts$/,
  },
  {
    phase: 'parse and reply (Fastify)',
    test: /node_modules\/(fastify|find-my-way|avvio|light-my-request|secure-json-parse|lossless-json|@fastify\/[^/]+|@nestjs\/platform-fastify|fast-querystring|toad-cache|process-warning)\/|src\/platform\/common\/json-body\.ts|src\/app\.factory\.ts|src\/platform\/pages\//,
  },
  { phase: 'Nest (router, context)', test: /node_modules\/(@nestjs\/core|@nestjs\/common|reflect-metadata|iterare|tslib)\// },
  { phase: 'metrics (prom-client)', test: /node_modules\/prom-client\/|src\/platform\/common\/metrics\.ts/ },
  { phase: 'handler and services', test: /node_modules\/decimal\.js\/|(^|\/)src\// },
  {
    phase: 'I/O (http, net, streams)',
    test: /^node:(_http_|net|internal\/(streams?|stream_base_commons|http|net)|stream|events|internal\/event_target)/,
  },
];
const BUNDLE = 'bundle helpers (esbuild keepNames, export getters)';
const GC = 'garbage collector';
const PROGRAM = 'native (unattributed)';
const NODE = 'other Node internals';
const OTHER = 'other packages';

function argument(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/** The original file of a frame of the bundle (through its source map), else the frame's own URL. */
function locator(mapFile?: string): (frame: CallFrame) => string {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      let map: SourceMap | null;
      try {
        const path = url.startsWith('file://') ? fileURLToPath(url) : url;
        map = new SourceMap(JSON.parse(readFileSync(mapFile ?? `${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
      } catch {
        map = null;
      }
      maps.set(url, map);
    }
    return maps.get(url)!;
  };
  const cache = new Map<string, string>();
  return (frame) => {
    if (!frame.url || frame.url.startsWith('node:')) return frame.url;
    const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
    let file = cache.get(key);
    if (file === undefined) {
      const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
      file = entry?.originalSource ?? frame.url;
      cache.set(key, file);
    }
    return file;
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
  if (!file) {
    console.error(
      'usage: profile-phases <file.cpuprofile> [--from s] [--to s] [--requests n] [--cpu-ms x] [--top n] [--phase text] [--map file]',
    );
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const from = Number(argument(args, '--from') ?? 0) * 1e6;
  const to = Number(argument(args, '--to') ?? Infinity) * 1e6;
  const requests = Number(argument(args, '--requests') ?? 0);
  const cpuMs = Number(argument(args, '--cpu-ms') ?? 0);
  const top = Number(argument(args, '--top') ?? 25);
  /** Only the top functions of the phases whose name contains this. */
  const only = argument(args, '--phase');

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const fileOf = locator(argument(args, '--map'));

  // Each node's phase, from its own frame up: the innermost frame that has one.
  const phaseOfNode = new Map<number, string>();
  const ownPhase = (node: ProfileNode): string | undefined => {
    const { functionName, url } = node.callFrame;
    if (functionName === '(garbage collector)') return GC;
    if (functionName === '(program)') return PROGRAM;
    if (!url) return undefined;
    const path = fileOf(node.callFrame);
    // A frame of the bundle the source map does not cover: esbuild's own helpers at its top.
    if (path === url && url.endsWith('/finapi.js')) return BUNDLE;
    for (const { phase, test } of PHASES) if (test.test(path)) return phase;
    return path.startsWith('node:') ? undefined : OTHER;
  };
  const phaseOf = (id: number): string => {
    const known = phaseOfNode.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const up = parent.get(id);
    const phase = ownPhase(node) ?? (up === undefined ? NODE : phaseOf(up));
    phaseOfNode.set(id, phase);
    return phase;
  };

  // The sample's time is its delta from the previous one (the profile's own accounting).
  const counts = new Map<string, number>();
  const leaves = new Map<string, number>();
  let time = profile.startTime;
  let busyUs = 0;
  let idleUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i];
    const rel = time - profile.startTime;
    if (rel < from || rel > to) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i])!;
    if (node.callFrame.functionName === '(idle)') {
      idleUs += delta;
      continue;
    }
    busyUs += delta;
    const phase = phaseOf(node.id);
    counts.set(phase, (counts.get(phase) ?? 0) + delta);
    if (only && !phase.includes(only)) continue;
    const leaf = `${node.callFrame.functionName || '(anonymous)'} ${fileOf(node.callFrame).replace(/^.*node_modules\//, '')}`;
    leaves.set(leaf, (leaves.get(leaf) ?? 0) + delta);
  }

  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  const order = [...PHASES.map((p) => p.phase), BUNDLE, GC, PROGRAM, NODE, OTHER];
  rows.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
  const header = ['phase', 'share of busy', ...(requests ? ['profiled ms/request'] : []), ...(cpuMs ? ['of server CPU ms/request'] : [])];
  const lines = rows.map(([phase, us]) => [
    phase,
    `${((100 * us) / busyUs).toFixed(1)} %`,
    ...(requests ? [(us / 1000 / requests).toFixed(3)] : []),
    ...(cpuMs ? [((cpuMs * us) / busyUs).toFixed(3)] : []),
  ]);
  lines.push(['total busy', '100 %', ...(requests ? [(busyUs / 1000 / requests).toFixed(3)] : []), ...(cpuMs ? [cpuMs.toFixed(3)] : [])]);
  const print = (table: string[][]): void => {
    const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
    const row = (r: string[]): string => `| ${r.map((v, c) => (c === 0 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join(' | ')} |`;
    console.log(row(table[0]));
    console.log(`|${widths.map((w, c) => (c === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const r of table.slice(1)) console.log(row(r));
  };
  console.log(
    `${file}: ${((busyUs + idleUs) / 1e6).toFixed(1)} s read, busy ${((100 * busyUs) / (busyUs + idleUs || 1)).toFixed(0)} %` +
      (requests ? `, ${requests} requests` : ''),
  );
  print([header, ...lines]);
  console.log(`\nTop ${top} functions by self time${only ? ` in ${only}` : ''}:`);
  print([
    ['function', 'share of busy'],
    ...[...leaves]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => [name, `${((100 * us) / busyUs).toFixed(1)} %`]),
  ]);
}

main();
