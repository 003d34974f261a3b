import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Releases (issue 33): the service's own semantic version in package.json is the newest release of CHANGELOG.md,
 * apart from the API release it implements; the release before it left its fixture for the upgrade test
 * (test/backups.e2e.spec.ts); README links the CHANGELOG and the LICENSE.
 */
const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The versions CHANGELOG.md releases, newest first: its `## [X.Y.Z] - YYYY-MM-DD` headings. */
function releases(): string[] {
  return [...read('CHANGELOG.md').matchAll(/^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/gm)].map((m) => m[1]);
}

describe('versions and releases', () => {
  const manifest = JSON.parse(read('package.json')) as { version: string };
  const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version?: string }> };

  it('package.json carries the newest release of CHANGELOG.md as a semantic version, and package-lock.json agrees', () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(releases()[0]).toBe(manifest.version);
    expect([lock.version, lock.packages[''].version]).toEqual([manifest.version, manifest.version]);
  });

  it('lists releases newest first, each once', () => {
    const list = releases();
    expect(list.length).toBeGreaterThanOrEqual(2);
    const order = (v: string) => v.split('.').map(Number);
    const sorted = [...list].sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
    });
    expect(list).toEqual(sorted);
    expect(new Set(list).size).toBe(list.length);
  });

  it('the service version is not the API release the service implements (4.10.0 of the specification)', () => {
    expect(manifest.version).not.toBe('4.10.0');
    expect(read('src/platform/actuator/actuator.service.ts')).toContain("export const API_VERSION = '4.10.0';");
  });

  it('the release before this one left its database for the upgrade test', () => {
    const previous = releases()[1];
    for (const file of [`v${previous}.sql.gz`, `v${previous}.json`]) {
      expect({ file, exists: existsSync(join(ROOT, 'test', 'fixtures', 'releases', file)) }).toEqual({ file, exists: true });
    }
  });

  it('README links CHANGELOG.md and LICENSE', () => {
    const readme = read('README.md');
    expect(readme).toContain('](CHANGELOG.md)');
    expect(readme).toContain('](LICENSE)');
    expect(read('LICENSE')).toMatch(/^MIT License/);
  });
});
