// Writes test/family-client/declared-fields.tsv: every field the family's web client's own types declare for the
// answer of each call it can reach, read from its source with the TypeScript compiler. The client is not part of this
// repository (its code is not licensed for that): run this against a checkout of it, then commit the table, which
// test/family-client/declared-fields.e2e.spec.ts holds against the served OpenAPI document.
//
//   git clone https://github.com/sdkfinance/sdk-finance-frontend /tmp/client && git -C /tmp/client checkout 4d95ba2
//   node scripts/family-client-fields.mjs /tmp/client path/to/calls.tsv
//
// calls.tsv: the client's calls (`verdict`, `call`, `client functions`, …; tab-separated, one header line), of which
// the calls in test/family-client/calls.ts are read. A request function answers `Promise<IApiResponse<R>>`; the table
// lists each property of R, depth first (`records[]` an element of a list, a type nested in itself expanded once).
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');
const [client, callsFile] = process.argv.slice(2);
if (!client || !callsFile) throw new Error('usage: node scripts/family-client-fields.mjs <client checkout> <calls.tsv>');

const reachable = new Set(
  [...readFileSync(join(root, 'test/family-client/calls.ts'), 'utf8').matchAll(/call: '([^']+)'/g)].map((m) => m[1]),
);
const calls = readFileSync(callsFile, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .filter(([, call]) => reachable.has(call));

const sources = [];
const collect = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) collect(path);
    else if (path.endsWith('.ts')) sources.push(path);
  }
};
collect(join(client, 'src/services'));
collect(join(client, 'src/types'));
const program = ts.createProgram(sources, {
  baseUrl: client,
  paths: { '@/*': ['src/*'] },
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2018,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  esModuleInterop: true,
});
const checker = program.getTypeChecker();

/** The request objects and classes (`ExchangeRequests`) by name. */
const requests = new Map();
for (const file of program.getSourceFiles()) {
  if (!file.fileName.includes('/src/services/requests/')) continue;
  ts.forEachChild(file, (node) => {
    if (ts.isVariableStatement(node))
      for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) requests.set(d.name.text, d);
    if (ts.isClassDeclaration(node) && node.name) requests.set(node.name.text, node);
  });
}

/** R of a request function answering Promise<IApiResponse<R>>; undefined for an untyped one. */
function answerType(fn) {
  const [object, method] = fn.split('.');
  const decl = requests.get(object);
  if (!decl || !method) return undefined;
  const prop = checker.getTypeAtLocation(decl.name).getProperty(method);
  if (!prop) return undefined;
  const signature = checker.getTypeOfSymbolAtLocation(prop, decl).getCallSignatures()[0];
  if (!signature) return undefined;
  let type = signature.getReturnType();
  type = checker.getPromisedTypeOfPromise(type) ?? type;
  for (const member of type.isUnion() ? type.types : [type]) {
    const response = member.getProperty('response');
    if (!response) continue;
    const answer = checker.getTypeOfSymbolAtLocation(response, decl);
    if (!(answer.flags & ts.TypeFlags.Null)) return { type: answer, at: decl };
  }
  return undefined;
}

const SCALAR =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.Null |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Any |
  ts.TypeFlags.Unknown |
  ts.TypeFlags.EnumLike |
  ts.TypeFlags.Never |
  ts.TypeFlags.BigIntLike;
const scalar = (t) => (t.flags & SCALAR) !== 0;
/** `T | null | undefined` as T; a union of objects as its first object. */
function strip(t) {
  if (!t.isUnion()) return t;
  const types = t.types.filter((x) => !(x.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
  return types.find((x) => !scalar(x)) ?? types[0];
}
function fields(type, at, prefix, stack, out) {
  const t = strip(type);
  if (!t || scalar(t) || t.getCallSignatures().length) return;
  if (checker.isArrayType(t) || checker.isTupleType(t)) {
    const element = checker.getTypeArguments(t)[0];
    if (element) fields(element, at, `${prefix}[]`, stack, out);
    return;
  }
  if (/^(Date|Blob|File)$/.test(checker.typeToString(t))) return;
  if (stack.filter((x) => x === t).length > 1 || stack.length > 9) return; // a type nested in itself: expanded once
  for (const p of checker.getPropertiesOfType(t)) {
    const path = prefix ? `${prefix}.${p.name}` : p.name;
    const decl = p.valueDeclaration ?? p.declarations?.[0];
    const where = decl
      ? `${relative(client, decl.getSourceFile().fileName)}:${decl.getSourceFile().getLineAndCharacterOfPosition(decl.getStart()).line + 1}`
      : '';
    out.push([path, p.flags & ts.SymbolFlags.Optional ? 'optional' : 'required', where]);
    fields(checker.getTypeOfSymbolAtLocation(p, at), at, path, [...stack, t], out);
  }
}

const rows = [];
const seen = new Set();
for (const [, call, functions] of calls) {
  for (const fn of functions.split(/[,;]/).map((s) => s.trim())) {
    if (!/^\w+\.\w+$/.test(fn) || seen.has(`${call} ${fn}`)) continue;
    seen.add(`${call} ${fn}`);
    const answer = answerType(fn);
    if (!answer) continue;
    const out = [];
    fields(answer.type, answer.at, '', [], out);
    for (const [path, required, where] of out) rows.push([call, fn, path.replace(/^\[\]\./, '[].'), required, where]);
  }
}
const header = ['call', 'client function', 'field (its answer body)', 'in the client type', 'declared at'];
writeFileSync(join(root, 'test/family-client/declared-fields.tsv'), [header, ...rows].map((r) => r.join('\t')).join('\n') + '\n');
process.stdout.write(`${rows.length} declared fields of ${seen.size} request functions\n`);
