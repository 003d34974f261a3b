import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminToken, aUser } from './helpers/actors';
import { startServer, TestServer } from './helpers/server';

/**
 * The OpenAPI document tells the truth: every answer the e2e suites received (recorded by
 * test/helpers/server.ts; this suite runs last, see test/runner.js) matches the schema of its
 * operation and status, with no field the document does not name; and every documented
 * operation and status was seen at least once. (Spectral and Redocly lint the document in openapi.e2e.spec.ts.)
 */

type Json = Record<string, any>;

interface Answer {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | null>;
  text: string;
}

interface Operation {
  key: string;
  method: string;
  pattern: RegExp;
  specificity: number;
  json: Json;
  path: string;
}

/** OpenAPI 3.0 schemas as JSON Schema for ajv: `nullable` becomes a null alternative; objects with properties admit no other. */
function toJsonSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'nullable' || k === 'example' || k === 'examples' || k === 'xml' || k === 'externalDocs' || k === 'deprecated') continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, toJsonSchema(s as Json)]))
        : toJsonSchema(v as Json);
  }
  if (out.properties && out.additionalProperties === undefined && !out.allOf) out.additionalProperties = false;
  return schema.nullable ? { anyOf: [out, { type: 'null' }] } : out;
}

function loadAnswers(dir: string): Answer[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Answer),
    );
}

describe('the OpenAPI document against the real answers', () => {
  let server: TestServer;
  let doc: Json;
  let operations: Operation[];

  beforeAll(async () => {
    server = await startServer();
    const raw = (await server.request('GET', '/swagger/openapi.json')).body;
    doc = (await SwaggerParser.dereference(structuredClone(raw))) as Json;
    operations = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
      Object.entries<Json>(item).map(([method, json]) => ({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        specificity: (path.match(/\{/g) ?? []).length,
        json,
        path,
      })),
    );
  });
  afterAll(() => server.stop());

  it('gives every operation a callable operationId, a tag it declares, and no security on public routes but an explicit empty one', () => {
    const declared = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    for (const op of operations) {
      expect({ op: op.key, id: /^[a-z][A-Za-z]+$/.test(op.json.operationId ?? '') }).toEqual({ op: op.key, id: true });
      expect({ op: op.key, tags: op.json.tags.every((t: string) => declared.has(t)) }).toEqual({ op: op.key, tags: true });
      expect(Array.isArray(op.json.security)).toBe(true);
    }
    expect(doc.components.securitySchemes.bearer.bearerFormat).toBe('opaque');
    // A PATCH leaves out what it does not change: no field of its body has a default.
    const defaults = operations
      .filter((op) => op.method === 'PATCH')
      .flatMap((op) =>
        Object.entries<Json>(op.json.requestBody?.content['application/json'].schema.properties ?? {})
          .filter(([, p]) => p.default !== undefined)
          .map(([name]) => `${op.key} ${name}`),
      );
    expect(defaults).toEqual([]);
    expect(doc.servers).toEqual([{ url: '/', description: 'This service' }]);
  });

  it('matches every answer the suites received, field by field, and sees every documented operation and status', async () => {
    const dir = process.env.FINAPI_RECORD_DIR!;
    expect(existsSync(dir)).toBe(true);
    // Fill the gaps a service answers the same way everywhere: no token, a role without the permission, invalid input, an unknown id.
    await probe(server, operations, new Set(loadAnswers(dir).map((a) => `${a.method} ${a.path} ${a.status}`)));
    const answers = loadAnswers(dir);
    expect(answers.length).toBeGreaterThan(500);

    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validators = new Map<string, ValidateFunction>();
    const seen = new Set<string>();
    const problems: string[] = [];
    const byPath = [...operations].sort((a, b) => a.specificity - b.specificity);
    // CORS preflights (OPTIONS) are the browser's, not operations of the API.
    for (const answer of answers.filter((a) => a.method !== 'OPTIONS')) {
      // The router ignores a trailing slash (the family's web client sends one on a gate transaction's payer-fields/).
      const path = answer.path.length > 1 ? answer.path.replace(/\/$/, '') : answer.path;
      const op = byPath.find((o) => o.method === answer.method && o.pattern.test(path));
      if (!op) {
        if (answer.status !== 404 && answer.status !== 405)
          problems.push(`${answer.method} ${answer.path} → ${answer.status}: no such operation`);
        continue;
      }
      const documented = op.json.responses[String(answer.status)];
      if (!documented) {
        problems.push(`${op.key} → ${answer.status}: not documented (${answer.text.slice(0, 200)})`);
        continue;
      }
      seen.add(`${op.key} ${answer.status}`);
      if (!answer.headers['x-request-id']) problems.push(`${op.key} → ${answer.status}: no X-Request-Id`);
      if (answer.status === 429 && !answer.headers['retry-after']) problems.push(`${op.key} → 429 without Retry-After`);
      // A documented non-JSON answer (text/csv, text/plain) must be of a documented media type; only JSON is checked field by field.
      const mediaType = (answer.headers['content-type'] ?? '').split(';')[0].trim();
      if (documented.content && mediaType && mediaType !== 'application/json') {
        if (!documented.content[mediaType]) problems.push(`${op.key} → ${answer.status}: ${mediaType} is not documented`);
        continue;
      }
      const schema = documented.content?.['application/json']?.schema;
      if (!schema) continue;
      const key = `${op.key} ${answer.status}`;
      if (!validators.has(key)) validators.set(key, ajv.compile(toJsonSchema(schema)));
      const validate = validators.get(key)!;
      if (!validate(JSON.parse(answer.text))) {
        problems.push(`${key}: ${ajv.errorsText(validate.errors, { separator: '; ' })} in ${answer.text.slice(0, 300)}`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);
    // A 503 (the database down) is answered alike by every route that reads it: the suites see it on health and on login.
    const missing = operations
      .flatMap((op) => Object.keys(op.json.responses).map((s) => `${op.key} ${s}`))
      .filter((k) => !seen.has(k) && !(k.endsWith(' 503') && [...seen].some((s) => s.endsWith(' 503'))));
    expect(missing).toEqual([]);
  });
});

/** Sends, for each documented status not yet seen, the request that answers it on every route alike. */
async function probe(server: TestServer, operations: Operation[], seen: Set<string>): Promise<void> {
  const admin = await adminToken(server);
  const list = (await server.request('GET', '/api/v1/actuator/api-list')).body;
  const rolesOf = new Map<string, string[]>();
  for (const group of list.records) for (const r of group.records) rolesOf.set(`${r.HTTP_method} ${r.path}`, r.roles);
  const tokens = new Map<string, string>([['administrator', admin]]);
  const tokenFor = async (role: string): Promise<string> => {
    if (!tokens.has(role)) tokens.set(role, (await aUser(server, admin, { role })).token);
    return tokens.get(role)!;
  };
  // A token issued for a temporary password may only change it: any other guarded route answers it 403.
  const temporary = await server.request('POST', '/api/v1/users', {
    token: admin,
    body: { login: 'probe-temporary@example.com', role: 'individual' },
  });
  const passwordChange = (
    await server.request('POST', '/api/v1/authorization', {
      body: { login: 'probe-temporary@example.com', password: temporary.body.temporaryPassword },
    })
  ).body.authorizationToken.token as string;
  const concrete = (path: string, unknown: boolean) =>
    path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (name === 'file') return unknown ? 'en.xml' : 'en.json';
      if (/serial/i.test(name)) return unknown ? '999999999999' : 'x';
      return unknown ? '00000000-0000-4000-8000-00000000dead' : 'not-a-uuid';
    });
  // An answer belongs to the most specific operation its path matches (as the check above attributes it):
  // GET /profiles/my is not GET /profiles/{userId}.
  const byPath = [...operations].sort((a, b) => a.specificity - b.specificity);
  const ownerOf = (method: string, path: string) => byPath.find((o) => o.method === method && o.pattern.test(path));
  for (const op of operations) {
    const documented = (status: string) => Boolean(op.json.responses[status]);
    const wasSeen = (status: string) =>
      [...seen].some((s) => {
        const [method, path, answered] = s.split(' ');
        return answered === status && ownerOf(method, path) === op;
      });
    const body = op.json.requestBody ? {} : undefined;
    const roles = rolesOf.get(op.key) ?? [];
    if (documented('401') && !wasSeen('401')) await server.request(op.method, concrete(op.path, true), { body });
    if (documented('413') && !wasSeen('413')) {
      await server.request(op.method, concrete(op.path, true), {
        rawBody: `{"x":"${'x'.repeat(1_100_000)}"}`,
        headers: { 'content-type': 'application/json' },
      });
    }
    if (documented('415') && !wasSeen('415')) {
      await server.request(op.method, concrete(op.path, true), { rawBody: 'x=1', headers: { 'content-type': 'text/plain' } });
    }
    if (documented('403') && !wasSeen('403')) {
      const lacking = ['individual', 'cashier', 'administrator'].find((r) => !roles.includes(r));
      const token = lacking ? await tokenFor(lacking) : passwordChange;
      await server.request(op.method, concrete(op.path, true), { token, body });
    }
    const holder = ['administrator', 'individual', ...roles].find((r) => roles.includes(r));
    if (!holder) continue;
    const token = await tokenFor(holder);
    if (documented('400') && !wasSeen('400')) {
      const params = (op.json.parameters ?? []) as { in: string }[];
      if (op.json.requestBody) await server.request(op.method, concrete(op.path, true), { token, body: { zzUnknownField: 1 } });
      else if (params.some((p) => p.in === 'path')) await server.request(op.method, concrete(op.path, false), { token });
      else if (params.some((p) => p.in === 'query'))
        await server.request(op.method, `${concrete(op.path, true)}?zzUnknownField=1`, { token });
    }
    if (documented('404') && !wasSeen('404') && op.path.includes('{')) {
      await server.request(op.method, concrete(op.path, true), { token, body: op.json.requestBody ? {} : undefined });
    }
  }
}
