import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layers of src/, lowest first. A folder may import from its own layer and below, never from
 * above: `common` knows nothing of the database, the ledger nothing of any feature. A new folder
 * must be placed here (most are features).
 */
const LAYERS: Record<string, number> = {
  config: 0,
  common: 1,
  database: 2,
  organizations: 3,
  'user-actions': 3,
  outbox: 3,
  access: 4,
  ledger: 5,
  idempotency: 5,
  commissions: 6,
  'payment-tools': 6,
  'pending-operations': 6,
  // features
  actuator: 7,
  audit: 7,
  'contact-book': 7,
  gates: 7,
  invoices: 7,
  'merchant-products': 7,
  'points-of-sale': 7,
  // pays at points of sale, with vouchers: above both
  'merchant-payments': 8,
  'organization-views': 7,
  auth: 7,
  'bank-accounts': 7,
  'bank-catalog': 7,
  'bank-top-ups': 7,
  'bank-withdrawals': 7,
  'cash-desks': 7,
  coins: 7,
  contracts: 7,
  currencies: 7,
  exchange: 7,
  'exchange-rates': 7,
  i18n: 7,
  pages: 7,
  profiles: 7,
  reporting: 7,
  'smart-cards': 7,
  'transaction-categories': 7,
  transactions: 7,
  'transfer-templates': 7,
  transfers: 7,
  users: 7,
  vouchers: 7,
  webhooks: 7,
  statements: 7,
  dashboard: 7,
  // main.ts, app.module.ts, app.factory.ts
  '.': 8,
};

const SRC = resolve(__dirname);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length === 1 ? '.' : parts[0];
}

/** Every relative import of src/: from which folder to which. */
function imports(): { file: string; from: string; to: string }[] {
  return sources(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => ({
      file: relative(SRC, file),
      from: folderOf(file),
      to: folderOf(resolve(dirname(file), m[1])),
    })),
  );
}

describe('layers of src/', () => {
  const all = imports();

  it('places every folder in a layer', () => {
    const folders = [...new Set(sources(SRC).map(folderOf))];
    expect(folders.filter((f) => LAYERS[f] === undefined)).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });

  it('never imports from a higher layer', () => {
    const upward = all.filter((i) => (LAYERS[i.to] ?? 99) > (LAYERS[i.from] ?? -1)).map((i) => `${i.file} → ${i.to}`);
    expect(upward).toEqual([]);
  });

  it('keeps features free of import cycles between folders', () => {
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
