import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * src/ holds the platform every module stands on (src/platform/<module>) and one folder per domain of the
 * specification (src/<domain>/<module>). Imports point down: a platform module may import from its own layer and
 * below (`common` knows nothing of the database, the ledger nothing of any feature), never from a domain; a domain's
 * modules import the platform, their own domain and the domains below theirs; only the bootstrap (main.ts,
 * app.module.ts, app.factory.ts, and the CLI's admin-release.ts) sees everything. A new platform module must be placed here; a domain's new
 * module takes its domain's layer.
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
/** Command-line entry points that start the whole app, as main.ts does: they see everything too. */
const ENTRY_POINTS = ['platform/auth/admin-release.ts'];

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
  return parts.length === 1 || ENTRY_POINTS.includes(parts.join('/')) ? '.' : parts.slice(0, 2).join('/');
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

/** Every relative import of src/: from which module to which. */
function imports(): { file: string; from: string; to: string }[] {
  return sources(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => ({
      file: relative(SRC, file),
      from: moduleOf(file),
      to: moduleOf(resolve(dirname(file), m[1])),
    })),
  );
}

describe('layers of src/', () => {
  const all = imports();

  it('holds at most 10 entries at the top of src/: the bootstrap, the platform and the domains', () => {
    const top = readdirSync(SRC);
    expect(top.length).toBeLessThanOrEqual(10);
    expect(top.filter((e) => statSync(join(SRC, e)).isDirectory()).sort()).toEqual(['platform', ...Object.keys(DOMAINS)].sort());
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
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      if (path.includes(node)) return cycles.push([...path.slice(path.indexOf(node)), node].join(' → '));
      for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});
