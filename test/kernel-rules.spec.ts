import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

interface LintMessage {
  ruleId: string | null;
  line: number;
  message: string;
}

/** Lints `file`'s text with the project's ESLint configuration as though it were the file `asPath` (relative to the root). */
function lintAs(file: string, asPath: string): LintMessage[] {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', asPath, '--format', 'json'],
    {
      cwd: ROOT,
      input: readFileSync(file, 'utf8'),
      encoding: 'utf8',
    },
  );
  if (run.status !== 0 && run.status !== 1) throw new Error(`eslint failed: ${run.stderr}`);
  return (JSON.parse(run.stdout) as Array<{ messages: LintMessage[] }>)[0].messages;
}

/** The lines of the fixture marked `// refused:` (each is followed by the statement it refuses). */
function refusedLines(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (line.includes('// refused:') ? [i + 2] : []));
}

describe('the kernel rules, enforced by the build (issue 29)', () => {
  const fixture = join(ROOT, 'test', 'fixtures', 'kernel-rules', 'money-writer.repository.ts');

  it('refuses, in any module of src/, SQL that writes balances, held amounts, ledger entries, holds or operations', () => {
    const messages = lintAs(fixture, 'src/money-in-out/payouts/payouts.repository.ts').filter((m) => m.ruleId === 'finapi/money-tables');
    // Each refused statement starts on the line after its marker, or one line further when the call wraps.
    const reported = messages.map((m) => m.line);
    const expected = refusedLines(fixture);
    expect(expected).toHaveLength(6);
    for (const line of expected) expect(reported.some((r) => r === line || r === line + 1)).toBe(true);
    expect(messages).toHaveLength(expected.length);
    expect(messages[0].message).toContain('LedgerService.execute');
  }, 30_000);

  it('lets the ledger kernel itself write them', () => {
    const messages = lintAs(fixture, 'src/platform/ledger/ledger.repository.ts').filter((m) => m.ruleId === 'finapi/money-tables');
    expect(messages).toEqual([]);
  }, 30_000);
});
