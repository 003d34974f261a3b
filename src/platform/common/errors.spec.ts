import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS, isErrorCode } from './errors';

const SRC = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The error table of docs/errors.md: code → status and message. */
function documentedErrors(): Record<string, { status: number; message: string }> {
  const lines = readFileSync(join(SRC, '..', 'docs', 'errors.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('| code | status | message |'));
  const table: Record<string, { status: number; message: string }> = {};
  if (start < 0) return table;
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [code, status, message] = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    table[code.replace(/`/g, '')] = { status: Number(status), message };
  }
  return table;
}

describe('the error catalogue', () => {
  it('holds every code the source can answer with', () => {
    const used = new Set(sources(SRC).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/'(exception\.[a-z_.]+)'/g)].map((m) => m[1])));
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((code) => !isErrorCode(code))).toEqual([]);
  });

  it('gives each code a 4xx or 5xx status and a message, in the dotted form clients translate', () => {
    for (const [code, { status, message }] of Object.entries(ERRORS)) {
      expect({ code, ok: /^exception(\.[a-z_]+)+$/.test(code) && status >= 400 && status < 600 && message.length > 0 }).toEqual({
        code,
        ok: true,
      });
    }
  });

  it('is what the error table of docs/errors.md says', () => {
    expect(documentedErrors()).toEqual(
      Object.fromEntries(Object.entries(ERRORS).map(([code, e]) => [code, { status: e.status, message: e.message }])),
    );
  });
});
