import { Actor, adminToken, aUser } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, expectBalancedLedger, fund } from './helpers/money';
import { startServer, TestServer } from './helpers/server';
import { generator } from './helpers/random';

/**
 * Hostile input on every operation of the OpenAPI document, as an individual, a merchant, staff
 * roles and the administrator: wrong types, nulls, huge and tiny numbers, long and odd strings, unknown and
 * malformed ids, in the path, the query and the body. Every answer must be a 4xx (or a 2xx when
 * the input happens to be valid), never a 5xx; the document check (openapi-answers) then holds
 * each of these answers to the documented statuses and shapes too.
 *
 * Deterministic: the same seed sends the same requests (FUZZ_SEED and FUZZ_ROUNDS change them).
 */

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: string; schema?: Schema }[];
  body?: Schema;
}

const HOSTILE: unknown[] = [
  '',
  ' ',
  null,
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  '1e400',
  '-0',
  'NaN',
  'Infinity',
  true,
  [],
  {},
  [null],
  [{}],
  { nested: { deeper: [1, 'two'] } },
  'x'.repeat(5000),
  '\u0000',
  '\ud800',
  "'; DROP TABLE operations; --",
  '99999999999999999999999999999999999999',
  '0.0000000000000000001',
  '-0.01',
  '00000000-0000-0000-0000-000000000000',
  '2020-13-45',
  '9999-12-31T23:59:59Z',
  '__proto__',
];

/** Idempotency-Key headers: fine, empty, too long, odd characters, and one reused across routes and bodies. */
const IDEMPOTENCY_KEYS = ['fuzz-key-1', '', ' ', 'k'.repeat(300), 'cl\u00e9\u00ff', 'a b;c=d', '../../etc', 'fuzz-key-1'];

// Routes that would end or lock the fuzzing actor's own session: a wrong current password counts toward a hold (at a
// change of password, and of login since issue 43).
const SKIPPED = [/^\/api\/v1\/authorization(\/|$)/, /^\/api\/v1\/profiles\/my\/password$/, /^\/api\/v1\/profiles\/my\/contact$/];

describe('hostile input on every route never answers 5xx', () => {
  let server: TestServer;
  let admin: string;
  let individual: Actor;
  let operations: Operation[];
  /** Real ids and codes, so that some requests get past "not found" into the rules behind it. */
  let known: string[];
  const seed = Number(process.env.FUZZ_SEED ?? 20261125);
  const rounds = Number(process.env.FUZZ_ROUNDS ?? 10);

  beforeAll(async () => {
    server = await startServer();
    admin = await adminToken(server);
    individual = await aUser(server, admin);
    const currency = await aCurrency(server, admin, { fraction: 100 });
    const issuer = await anIssuer(server, admin, currency.code);
    const wallet = await aCoin(server, individual.token, issuer.id, 'Wallet');
    const savings = await aCoin(server, individual.token, issuer.id, 'Savings');
    await fund(server, admin, wallet.serial, '100.00');
    known = [individual.id, individual.organizationId, currency.id, currency.code, issuer.id, wallet.serial, savings.serial];
    const doc = (await server.request('GET', '/swagger/openapi.json')).body;
    const resolve = (schema: Schema | undefined, depth = 0): Schema | undefined => {
      if (!schema || depth > 20) return schema;
      if (schema.$ref) return resolve(doc.components.schemas[String(schema.$ref).split('/').pop()!], depth + 1);
      const out: Schema = { ...schema };
      if (out.properties)
        out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, resolve(v as Schema, depth + 1)]));
      if (out.items) out.items = resolve(out.items, depth + 1);
      for (const key of ['allOf', 'oneOf', 'anyOf']) if (out[key]) out[key] = out[key].map((s: Schema) => resolve(s, depth + 1));
      return out;
    };
    operations = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      if (SKIPPED.some((pattern) => pattern.test(path))) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operations.push({
          method: method.toUpperCase(),
          path,
          parameters: (op.parameters ?? []).map((p: any) => ({ ...p, schema: resolve(p.schema) })),
          body: resolve(op.requestBody?.content?.['application/json']?.schema),
        });
      }
    }
  });
  afterAll(() => server.stop());

  async function fuzz(token: string, ids: string[]): Promise<{ sent: number; failures: string[] }> {
    const random = generator(seed);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
    /** A plausible value for a schema: its example, its first allowed value, or one of its type. */
    const plausible = (schema: Schema | undefined, depth = 0): unknown => {
      if (!schema) return pick(HOSTILE);
      if (schema.example !== undefined && random() < 0.7) return schema.example;
      const variants = schema.allOf ?? schema.oneOf ?? schema.anyOf;
      if (variants) return plausible(pick(variants), depth + 1);
      if (schema.enum) return pick(schema.enum);
      switch (schema.type) {
        case 'object': {
          const out: Record<string, unknown> = {};
          if (depth > 4) return out;
          for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) {
            if ((schema.required ?? []).includes(key) || random() < 0.6) out[key] = plausible(property, depth + 1);
          }
          return out;
        }
        case 'array':
          return depth > 4 ? [] : Array.from({ length: 1 + Math.floor(random() * 2) }, () => plausible(schema.items, depth + 1));
        case 'integer':
          return pick([0, 1, 10, 2147483648]);
        case 'number':
          return pick([0, 1.005, 10, 1e21, '12.345678901234567890123', '0.01']);
        case 'boolean':
          return random() < 0.5;
        default:
          if (schema.format === 'uuid') return pick([...ids, '00000000-0000-4000-8000-000000000000']);
          if (schema.format === 'date-time' || schema.format === 'date') return pick(['2024-01-01T00:00:00Z', '2024-02-29', '2100-01-01']);
          return pick(['abc', '1', '0.01', '100000000000000000000', 'COIN', ...ids]);
      }
    };
    /** A plausible value with one hostile part: the body gets past the checks of its other fields. */
    const value = (schema: Schema | undefined): unknown => {
      const base = structuredClone(plausible(schema));
      if (random() < 0.15) return base;
      const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
      const walk = (node: unknown, depth: number): void => {
        if (depth > 5 || node === null || typeof node !== 'object') return;
        for (const [key, child] of Object.entries(node)) {
          slots.push({ parent: node as Record<string, unknown>, key: Array.isArray(node) ? Number(key) : key });
          walk(child, depth + 1);
        }
      };
      walk(base, 0);
      if (!slots.length) return structuredClone(pick(HOSTILE));
      const slot = pick(slots);
      // null most often: `@IsOptional()` lets it through to code that expects a value or nothing.
      (slot.parent as Record<string | number, unknown>)[slot.key] = random() < 0.3 ? null : structuredClone(pick(HOSTILE));
      return base;
    };
    const pathValue = (): string =>
      encodeURIComponent(
        pick([...ids, '00000000-0000-4000-8000-000000000000', '1', '0', '-1', 'abc', '1.5', '99999999999999999999', '%', ' ']),
      );

    let sent = 0;
    const failures: string[] = [];
    const logsBefore = server.logs.length;
    for (const op of operations) {
      for (let round = 0; round < rounds; round++) {
        let url = op.path.replace(/\{[^}]+\}/g, pathValue);
        const query = new URLSearchParams();
        for (const p of op.parameters) {
          if (p.in !== 'query' || random() < 0.4) continue;
          // Now and then a parameter twice: Fastify then hands the route an array.
          for (let n = random() < 0.1 ? 2 : 1; n > 0; n--) {
            const v = value(p.schema);
            query.append(p.name, v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
          }
        }
        if ([...query].length) url += `?${query.toString()}`;
        const body = op.body ? value(op.body) : undefined;
        const headers: Record<string, string> = {};
        if (op.method === 'POST' && random() < 0.2) headers['idempotency-key'] = pick(IDEMPOTENCY_KEYS);
        const answer = await server.request(op.method, url, { token, headers, ...(body !== undefined ? { body } : {}) });
        sent++;
        if (answer.status >= 500)
          failures.push(`${op.method} ${url} ${JSON.stringify(body)?.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`);
      }
    }
    // A 4xx can still hide a fault the service logs (a NOT NULL or CHECK the request's checks let through): none may appear.
    for (const line of server.logs.slice(logsBefore)) if (line.includes('"level":50')) failures.push(`logged: ${line.slice(0, 600)}`);
    return { sent, failures };
  }

  it('as an individual', async () => {
    const { sent, failures } = await fuzz(individual.token, known);
    expect(sent).toBeGreaterThan(operations.length * rounds - 1);
    expect(failures).toEqual([]);
  }, 300_000);

  it.each(['merchant', 'cashier', 'accountant', 'compliance_manager'])(
    'as a %s',
    async (role) => {
      const actor = await aUser(server, admin, { role });
      const { sent, failures } = await fuzz(actor.token, [...known, actor.id, actor.organizationId]);
      expect(sent).toBeGreaterThan(operations.length * rounds - 1);
      expect(failures).toEqual([]);
    },
    300_000,
  );

  it('as the administrator', async () => {
    const { sent, failures } = await fuzz(admin, known);
    expect(sent).toBeGreaterThan(operations.length * rounds - 1);
    expect(failures).toEqual([]);
    // The administrator's own token survived it all: the answers above were about the input, not a lost session.
    expect((await server.request('GET', '/api/v1/profiles/my', { token: admin })).status).toBe(200);
    // And whatever money it moved, every balance still equals the sum of its entries.
    await expectBalancedLedger(server, admin);
  }, 300_000);
});
