import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The shape of the documentation (issue 30): README.md is a front door of at most 20 KB, the rest lives in
 * docs/ as guides docs/README.md names; every link to a local file or heading resolves; a long page starts
 * with a table of contents; and the ```bash blocks keep the runnable-docs conventions the doc test relies on
 * (one `json` helper, text everywhere the same, and no placeholder but the administrator's password).
 */
const ROOT = join(__dirname, '..');
const GUIDES = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', ...GUIDES];
const JSON_HELPER = `json() { node -pe "JSON.parse(require('fs').readFileSync(0, 'utf8'))$1"; }`;
const LONG_PAGE_LINES = 150;

const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** The lines of a page outside fenced blocks, with their numbers. */
function prose(text: string): { line: string; n: number }[] {
  let fenced = false;
  return text.split('\n').flatMap((line, i) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line, n: i + 1 }];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function headings(text: string): { level: number; text: string }[] {
  return prose(text).flatMap(({ line }) => {
    const m = /^(#{1,6}) (.+)$/.exec(line);
    return m ? [{ level: m[1].length, text: m[2] }] : [];
  });
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  return new Set(
    headings(text).map((h) => {
      const s = slug(h.text);
      const n = seen.get(s) ?? 0;
      seen.set(s, n + 1);
      return n ? `${s}-${n}` : s;
    }),
  );
}

const bashBlocks = (text: string) => [...text.matchAll(/^```bash\n([\s\S]*?)^```/gm)].map((m) => m[1]);

describe('the documentation', () => {
  it('keeps README.md a front door of at most 20 KB', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThanOrEqual(20 * 1024);
  });

  it('names every guide of docs/ in docs/README.md and README.md', () => {
    const linked = (page: string) =>
      new Set([...read(page).matchAll(/\]\(([^)#\s]+\.md)[)#]/g)].map((m) => resolve(ROOT, dirname(page), m[1])));
    const index = linked('docs/README.md');
    const front = linked('README.md');
    const missing = GUIDES.filter((g) => g !== 'docs/README.md').flatMap((g) => [
      ...(index.has(join(ROOT, g)) ? [] : [`docs/README.md misses ${g}`]),
      ...(front.has(join(ROOT, g)) ? [] : [`README.md misses ${g}`]),
    ]);
    expect(missing).toEqual([]);
  });

  it('has no link to a local file or heading that does not exist', () => {
    const broken = PAGES.flatMap((page) =>
      prose(read(page)).flatMap(({ line, n }) =>
        [...line.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, target]) => {
          if (/^[a-z]+:/.test(target)) return []; // https:, mailto:
          const [file, anchor] = target.split('#');
          const path = file ? resolve(ROOT, dirname(page), file) : join(ROOT, page);
          if (!existsSync(path)) return [`${page}:${n}: ${target} (no such file)`];
          if (anchor !== undefined && !anchors(readFileSync(path, 'utf8')).has(anchor))
            return [`${page}:${n}: ${target} (no such heading)`];
          return [];
        }),
      ),
    );
    expect(broken).toEqual([]);
  });

  it(`starts every page of more than ${LONG_PAGE_LINES} lines with a table of contents of its ## headings`, () => {
    const lacking = GUIDES.flatMap((page) => {
      const text = read(page);
      if (text.split('\n').length <= LONG_PAGE_LINES) return [];
      const sections = headings(text).filter((h) => h.level === 2);
      const lines = text.split('\n');
      const first = lines.findIndex((l, i) => i > 0 && l !== '');
      const toc = lines.slice(first, first + sections.length);
      const want = sections.map((h) => `(#${slug(h.text)})`);
      return toc.every((l, i) => l.startsWith('- [') && l.endsWith(want[i])) && sections.length > 1 ? [] : [page];
    });
    expect(lacking).toEqual([]);
  });

  it('keeps the runnable-docs conventions in every ```bash block: the json helper as written, no placeholder but the password', () => {
    const problems = PAGES.flatMap((page) => {
      const blocks = bashBlocks(read(page));
      const all = blocks.join('\n');
      return [
        ...[...all.matchAll(/<[^<>\n]+>/g)]
          .map((m) => m[0])
          .filter((p) => p !== '<the printed password>')
          .map((p) => `${page}: placeholder ${p}`),
        ...(/\bjson \./.test(all) && !blocks[0].includes(JSON_HELPER) ? [`${page}: uses json without defining it first`] : []),
        ...all
          .split('\n')
          .filter((l) => /^json\(\)/.test(l) && l !== JSON_HELPER)
          .map(() => `${page}: another json helper`),
        ...(all.includes('ADMIN_PASSWORD') && !blocks[0].includes('ADMIN_PASSWORD=<the printed password>')
          ? [`${page}: the password set later than the first block`]
          : []),
      ];
    });
    expect(problems).toEqual([]);
  });
});
