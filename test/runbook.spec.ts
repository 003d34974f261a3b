import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runbookBlocks } from './helpers/runbook';

const ROOT = join(__dirname, '..');
const GUIDE = 'docs/operations.md';

/** The guide's ```sh blocks with the `##` section each is in. */
function shBlocks(): { section: string; line: number; first: string }[] {
  const lines = readFileSync(join(ROOT, GUIDE), 'utf8').split('\n');
  const blocks: { section: string; line: number; first: string }[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('## ')) section = lines[i].slice(3).trim();
    if (lines[i].trim() !== '```sh') continue;
    blocks.push({ section, line: i + 1, first: (lines[i + 1] ?? '').trim() });
    while (i + 1 < lines.length && lines[++i].trim() !== '```');
  }
  return blocks;
}

/** Every test file's text (test/ and its subfolders). */
function testSources(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testSources(path);
    return entry.name.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/**
 * The operations guide's commands that the doc test cannot run (```sh: clusters, PgBouncer, a production install) are
 * runbook blocks, each run by a test that reads it from the guide, so the guide and what is tested cannot drift.
 */
describe(`${GUIDE}: every command is a runbook block some test runs`, () => {
  it('names every ```sh block `# runbook: <name>`, each name once', () => {
    const unnamed = shBlocks()
      .filter((b) => !/^#\s*runbook:\s*[\w-]+\s*$/.test(b.first))
      .map((b) => `${GUIDE}:${b.line} (${b.section})`);
    expect(unnamed).toEqual([]);
    const names = runbookBlocks(GUIDE).map((b) => b.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  // runRunbook('<name>' …) runs a block as it is; runbookBlock('<name>') reads it for a test that runs it in parts.
  it("runs every runbook block in some test (runRunbook('<name>' …) or runbookBlock('<name>'))", () => {
    const sources = testSources().join('\n');
    const unrun = runbookBlocks(GUIDE)
      .map((b) => b.name)
      .filter((name) => !new RegExp(`(?:runRunbook|runbookBlock)\\(\\s*'${name}'`).test(sources));
    expect(unrun).toEqual([]);
  });
});
