import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GRANTS, Permission, PERMISSIONS, Role, ROLES } from './permissions';

type Table = Record<string, { allows: string; roles: string[] }>;

/** The README's role table: per permission, what it allows and the roles ticked. */
function readmeTable(): Table {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| permission | what it allows |'));
  if (start < 0) return {};
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const roles = cells(lines[start]).slice(2);
  const table: Table = {};
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [permission, allows, ...ticks] = cells(line);
    table[permission.replace(/`/g, '')] = { allows, roles: roles.filter((_, i) => ticks[i] === '✓').sort() };
  }
  return table;
}

/** The same table from the grants in code. */
function codeTable(): Table {
  return Object.fromEntries(
    (Object.keys(PERMISSIONS) as Permission[]).map((p) => [
      p,
      { allows: PERMISSIONS[p], roles: ROLES.filter((r: Role) => GRANTS[r].includes(p)).sort() },
    ]),
  );
}

describe('grants in code', () => {
  it('grants only catalogued permissions, each to at least one role', () => {
    const granted = new Set(Object.values(GRANTS).flat());
    expect([...granted].filter((p) => !(p in PERMISSIONS))).toEqual([]);
    expect(Object.keys(PERMISSIONS).filter((p) => !granted.has(p as Permission))).toEqual([]);
    expect(Object.keys(GRANTS).sort()).toEqual([...ROLES].sort());
  });

  it('are what the README’s role table says', () => {
    expect(readmeTable()).toEqual(codeTable());
  });
});
