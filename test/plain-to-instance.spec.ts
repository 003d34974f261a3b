import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/**
 * Run by the built service's modules (dist/, in a Node process of its own), it gives every DTO class of the service
 * (every `*.dto.js`) many bodies made from its own metadata — its known keys and some it does not know, strings,
 * numbers, booleans, nulls, arrays and nested objects of the nested classes — and builds each with PlainToInstance
 * (the validation pipe's options) and with class-transformer's `plainToInstance`. It reports, per class, how many
 * bodies PlainToInstance decided and every one whose instance differed (its classes, keys, order or values).
 */
const SCRIPT = `
require('reflect-metadata');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { plainToInstance } = require('class-transformer');
const { defaultMetadataStorage } = require('class-transformer/cjs/storage');
const { getMetadataStorage } = require('class-validator');
const { PlainToInstance } = require('./dist/src/platform/common/plain-to-instance');

const OPTIONS = { enableImplicitConversion: false };
const files = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? files(path) : path.endsWith('.dto.js') ? [path] : [];
});
const classes = new Set();
for (const file of files(join(process.cwd(), 'dist/src'))) {
  for (const value of Object.values(require(file))) if (typeof value === 'function' && value.prototype) classes.add(value);
}

// A seeded generator: the same bodies every run.
let seed = 48;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (values) => values[Math.floor(random() * values.length)];
const PRIMITIVES = ['1000000001', '10.50', '', 'COIN', 'SMART_CARD', '2026-01-01T00:00:00Z', 0, 1.5, -3, true, false, null];
const knownKeys = (type) => Object.keys(getMetadataStorage().groupByPropertyName(
  getMetadataStorage().getTargetValidationMetadatas(type, '', false, false, undefined)));
const nestedType = (type, key) => {
  const metadata = defaultMetadataStorage.findTypeMetadata(type, key);
  if (!metadata || !metadata.typeFunction) return undefined;
  try { return metadata.typeFunction({}); } catch { return undefined; }
};
function value(type, key, depth) {
  const nested = type && nestedType(type, key);
  const roll = random();
  if (nested && roll < 0.6) return roll < 0.15 ? [body(nested, depth + 1), pick(PRIMITIVES)] : body(nested, depth + 1);
  if (roll < 0.7) return pick(PRIMITIVES);
  if (roll < 0.8) return [pick(PRIMITIVES), pick(PRIMITIVES)];
  if (roll < 0.85) return [];
  if (roll < 0.9 && depth < 3) return { [pick(['a', 'type', 'value'])]: pick(PRIMITIVES) };
  if (roll < 0.95 && depth < 3) return [[pick(PRIMITIVES)]];
  return pick(PRIMITIVES);
}
function body(type, depth = 0) {
  const known = type ? knownKeys(type) : [];
  const out = {};
  for (const key of known) if (random() < 0.8) out[key] = value(type, key, depth);
  if (random() < 0.1) out[pick(['extra', 'toString', 'valueOf', 'hasOwnProperty'])] = pick(PRIMITIVES);
  return out;
}

// What an instance is made of: its class, its own keys in order, and their values, all the way down.
const shape = (value) => {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return { array: value.constructor.name, items: value.map(shape) };
  return { class: value.constructor ? value.constructor.name : null, entries: Object.keys(value).map((k) => [k, shape(value[k])]) };
};

const builder = new PlainToInstance(OPTIONS);
const out = { classes: 0, bodies: 0, decided: 0, differing: [], refused: new PlainToInstance({ groups: ['x'] }).build(Object, {}) ?? null };
for (const type of classes) {
  if (!knownKeys(type).length) continue;
  out.classes++;
  for (let n = 0; n < 40; n++) {
    const plain = body(type);
    out.bodies++;
    const built = builder.build(type, plain);
    if (built === undefined) continue;
    out.decided++;
    const expected = JSON.stringify(shape(plainToInstance(type, plain, OPTIONS)));
    const actual = JSON.stringify(shape(built));
    if (actual !== expected) out.differing.push({ class: type.name, plain, expected, actual });
  }
}
process.stdout.write(JSON.stringify(out));
`;

describe('PlainToInstance: a request body’s instance built as class-transformer builds it (issue 48)', () => {
  let out: { classes: number; bodies: number; decided: number; differing: unknown[]; refused: unknown };

  beforeAll(() => {
    out = JSON.parse(execFileSync(process.execPath, ['-e', SCRIPT], { cwd: ROOT }).toString()) as typeof out;
  });

  it('builds every body it decides exactly as plainToInstance does, for every DTO class of the service', () => {
    expect(out.differing).toEqual([]);
    // The bodies are many, of many classes, and most are decided here (the rest: left to class-transformer).
    expect(out.classes).toBeGreaterThan(100);
    expect(out.decided).toBeGreaterThan(out.bodies / 3);
  });

  it('decides nothing under options other than the validation pipe’s', () => {
    expect(out.refused).toBeNull();
  });
});
