import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * src/ holds the platform every module stands on (src/platform/<module>) and one folder per domain of the
 * specification (src/<domain>/<module>). Imports point down: a platform module may import from its own layer and
 * below (`common` knows nothing of the database, the ledger nothing of any feature), never from a domain; a domain's
 * modules import the platform, their own domain and the domains below theirs; only the bootstrap at the top of src/
 * sees everything. A new platform module must be placed here; a domain's new module takes its domain's layer.
 */
const PLATFORM: Record<string, number> = {
  config: 0,
  common: 1,
  database: 2,
  organizations: 3,
  'user-actions': 3,
  outbox: 3,
  messages: 4,
  'one-time-codes': 4,
  access: 4,
  users: 5,
  ledger: 5,
  idempotency: 5,
  // The one route decorator: it states a route's access (4) and idempotency (5) with its OpenAPI operation.
  http: 5,
  scheduler: 5,
  commissions: 6,
  'payment-tools': 6,
  files: 6,
  'pending-operations': 6,
  auth: 6,
  actuator: 7,
  i18n: 7,
  pages: 7,
};

/** The domains, lowest first: coins and currencies are what every other domain moves money between. */
const DOMAINS: Record<string, number> = {
  'money-movement': 10,
  'money-in-out': 11,
  commerce: 11,
  'cards-and-gates': 11,
  people: 11,
  operators: 11,
};
const BOOTSTRAP = 20;
/** The bootstrap: the service's entry point, the operator's command-line entry point (`npm run admin:release`) and the app they both start. */
const BOOTSTRAP_FILES = ['admin-release.ts', 'app.factory.ts', 'app.module.ts', 'main.ts'];

const SRC = resolve(__dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** A file's module: `platform/ledger`, `commerce/invoices`, or `.` for the bootstrap files at the top of src/. */
function moduleOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length === 1 ? '.' : parts.slice(0, 2).join('/');
}

function layerOf(module: string): number | undefined {
  if (module === '.') return BOOTSTRAP;
  const [area, name] = module.split('/');
  return area === 'platform' ? PLATFORM[name] : DOMAINS[area];
}

/** The platform imports its own layer and below; a domain the platform, itself and the domains below it; the bootstrap anything. */
function mayImport(from: string, to: string): boolean {
  const [fromArea] = from.split('/');
  const [toArea] = to.split('/');
  const fromLayer = layerOf(from) ?? -1;
  const toLayer = layerOf(to) ?? 99;
  if (from === '.') return true;
  if (fromArea === 'platform') return toArea === 'platform' && toLayer <= fromLayer;
  return toArea === 'platform' || toArea === fromArea || toLayer < fromLayer;
}

/** The file a relative import names: `./x` is `x.ts` or `x/index.ts`. */
function resolveImport(file: string, specifier: string): string {
  const base = resolve(dirname(file), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate)) ?? base;
}

/** Every relative import of src/ (type-only imports and re-exports included): from which file and module to which. */
function imports(): { file: string; target: string; from: string; to: string }[] {
  return sources(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:from|import) '(\.{1,2}\/[^']+)'/g)].map((m) => {
      const target = resolveImport(file, m[1]);
      return { file: relative(SRC, file), target: relative(SRC, target), from: moduleOf(file), to: moduleOf(target) };
    }),
  );
}

/** Every cycle of a directed graph, each once, as `a → b → a` (Tarjan's strongly connected components, then one loop in each). */
function cyclesOf(edges: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) connect(next);
      if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, low.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component = stack.splice(stack.indexOf(node));
      if (component.length > 1 || edges.get(node)?.has(node)) components.push(component);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  // One loop through each component, found by a walk that stays inside it, to name in the failure.
  return components.map((component) => {
    const members = new Set(component);
    const path = [component.sort()[0]];
    for (;;) {
      const next = [...(edges.get(path[path.length - 1]) ?? [])].filter((n) => members.has(n)).sort()[0];
      if (path.includes(next)) return [...path.slice(path.indexOf(next)), next].join(' → ');
      path.push(next);
    }
  });
}

describe('layers of src/', () => {
  const all = imports();

  it('holds only the bootstrap, the platform and the domains at the top of src/', () => {
    expect(readdirSync(SRC).sort()).toEqual([...BOOTSTRAP_FILES, 'platform', ...Object.keys(DOMAINS)].sort());
  });

  it('places every module in a layer', () => {
    const modules = [...new Set(sources(SRC).map(moduleOf))];
    expect(modules.filter((m) => layerOf(m) === undefined)).toEqual([]);
    expect(modules.filter((m) => m.startsWith('platform/')).length).toBe(Object.keys(PLATFORM).length);
    expect(all.length).toBeGreaterThan(100);
  });

  it('never imports from a higher layer, nor from a domain beside its own', () => {
    const upward = all.filter((i) => !mayImport(i.from, i.to)).map((i) => `${i.file} → ${i.to}`);
    expect(upward).toEqual([]);
  });

  it('keeps modules free of import cycles', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of all) if (i.from !== i.to) edges.set(i.from, (edges.get(i.from) ?? new Set()).add(i.to));
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('keeps files free of import cycles, inside a module too', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of all) edges.set(i.file, (edges.get(i.file) ?? new Set()).add(i.target));
    expect(cyclesOf(edges)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = (pairs: string[][]) => {
      const edges = new Map<string, Set<string>>();
      for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b));
      return edges;
    };
    expect(
      cyclesOf(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd'],
        ]),
      ),
    ).toEqual(['a → b → c → a']);
    expect(cyclesOf(graph([['a', 'a']]))).toEqual(['a → a']);
    expect(
      cyclesOf(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).toEqual([]);
  });
});
