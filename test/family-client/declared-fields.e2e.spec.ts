import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, TestServer } from '../helpers/server';

/**
 * Every field the family's web client declares for an answer (declared-fields.tsv, made from the client's own types by
 * scripts/family-client-fields.mjs) is in the served OpenAPI document, or docs/family-client.md says why finapi does
 * not answer it ("Declared fields finapi does not answer": the call, the field — which covers the fields below it —
 * and why, with the client's file:line). A field dropped from an answer's DTO, or a new declared field, fails here.
 */
const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs', 'family-client.md');
const SECTION = '## Declared fields finapi does not answer';

interface Declared {
  call: string;
  fn: string;
  field: string;
}

function declaredFields(): Declared[] {
  return readFileSync(join(__dirname, 'declared-fields.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [call, fn, field] = line.split('\t');
      return { call, fn, field };
    });
}

interface Explained {
  calls: string[];
  fields: string[];
  why: string;
}

/** The section's table: `| \`POST /a\`, \`POST /b\` | \`x.y\`, \`z[]\` | why |`. */
function explainedFields(): Explained[] {
  const text = readFileSync(DOCS, 'utf8');
  const start = text.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/family-client.md has no section "${SECTION}"`);
  const end = text.indexOf('\n## ', start + SECTION.length);
  const section = text.slice(start, end < 0 ? undefined : end);
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [calls, fields, ...why] = line.slice(1, -1).split(' | ');
      return { calls: ticked(calls), fields: ticked(fields), why: why.join(' | ').trim() };
    });
}

type Schema = Record<string, any>;

/** Whether the answer schema of `call` declares `field` (`records[].coin.issuer.sn`). */
function documents(doc: Schema, call: string, field: string): boolean {
  const deref = (s: Schema | undefined): Schema | undefined => {
    for (let i = 0; s?.$ref && i < 50; i++)
      s = (s.$ref as string)
        .split('/')
        .slice(1)
        .reduce((o: Schema, k) => o[k], doc);
    return s;
  };
  const properties = (s: Schema | undefined): Record<string, Schema> => {
    const schema = deref(s);
    if (!schema) return {};
    const out: Record<string, Schema> = {};
    for (const k of ['allOf', 'oneOf', 'anyOf']) for (const part of schema[k] ?? []) Object.assign(out, properties(part));
    Object.assign(out, schema.properties ?? {});
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') out['*'] = schema.additionalProperties;
    return out;
  };
  const items = (s: Schema | undefined): Schema | undefined => {
    const schema = deref(s);
    if (!schema) return undefined;
    if (schema.items) return schema.items;
    for (const k of ['allOf', 'oneOf', 'anyOf']) for (const part of schema[k] ?? []) if (items(part)) return items(part);
    return undefined;
  };
  const [method, path] = call.split(' ');
  const want = `/api/v1${path.split('?')[0]}`.replace(/\/$/, ''); // the client asks `…/payer-fields/`: the route answers both
  const operation = Object.entries<Schema>(doc.paths).find(
    ([p, item]) => p.replace(/\{[^}]+\}/g, '{}') === want && item[method.toLowerCase()],
  )?.[1][method.toLowerCase()];
  if (!operation) return false;
  const success = Object.keys(operation.responses).find((code) => code.startsWith('2'));
  let current: Schema | undefined = operation.responses[success!]?.content?.['application/json']?.schema;
  let rest = field;
  if (rest.startsWith('[]')) {
    current = items(current);
    rest = rest.slice(3);
    if (!rest) return current !== undefined;
  }
  for (const segment of rest.split('.')) {
    const list = segment.endsWith('[]');
    const name = list ? segment.slice(0, -2) : segment;
    const props = properties(current);
    current = props[name] ?? props['*'];
    if (!current) return false;
    if (list && !(current = items(current))) return false;
  }
  return true;
}

const covers = (explained: string, field: string) =>
  field === explained || field.startsWith(`${explained}.`) || field.startsWith(`${explained}[]`);

describe("the family client's declared answer fields (issue 45)", () => {
  let server: TestServer;
  let doc: Schema;
  const declared = declaredFields();
  const explained = explainedFields();

  beforeAll(async () => {
    server = await startServer();
    doc = (await server.request('GET', '/swagger/openapi.json')).body;
  });
  afterAll(() => server.stop());

  it('are read from the client’s types: every reachable call’s answer, thousands of fields', () => {
    expect(declared.length).toBeGreaterThan(3000);
    expect(new Set(declared.map((d) => d.call)).size).toBeGreaterThan(90);
  });

  it('are each answered (in the served document) or explained in docs/family-client.md', () => {
    const missing = declared.filter((d) => !documents(doc, d.call, d.field));
    const unexplained = missing.filter((d) => !explained.some((e) => e.calls.includes(d.call) && e.fields.some((f) => covers(f, d.field))));
    // The highest unexplained fields only: a missing object's own fields are missing with it.
    const highest = unexplained.filter(
      (d) => !unexplained.some((o) => o !== d && o.call === d.call && o.fn === d.fn && d.field !== o.field && covers(o.field, d.field)),
    );
    expect(highest.map((d) => `${d.call}  ${d.field}`)).toEqual([]);
  });

  it('explains only what is declared and not answered, with the client’s file:line', () => {
    const stale: string[] = [];
    for (const e of explained) {
      expect(e.why).toMatch(/\.(ts|vue):\d+/);
      // A row may name several calls and the fields of each: every field is declared by one of them at least.
      for (const field of e.fields) {
        const declaring = e.calls.filter((call) => declared.some((d) => d.call === call && covers(field, d.field)));
        if (declaring.length === 0) stale.push(`${e.calls.join(', ')}  ${field}: not declared by the client`);
        for (const call of declaring) if (documents(doc, call, field)) stale.push(`${call}  ${field}: answered, yet explained as not`);
      }
    }
    expect(stale).toEqual([]);
  });
});
