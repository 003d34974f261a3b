import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashBlocks, DocService, markdownPages, planPage, report, ROOT, runPage, startDocService } from './helpers/docs';

// The walk-throughs of README.md and docs/ run as written (docs/writing-docs.md has the rules).
const pages = markdownPages().map((file) => ({ file, blocks: bashBlocks(readFileSync(join(ROOT, file), 'utf8')).length }));
const runnable = pages.filter((page) => page.blocks > 0);
const skipped = pages.filter((page) => page.blocks === 0).map((page) => page.file);

describe('the documentation runs as written', () => {
  // Each page gets its own service; the next one starts while a page runs, which hides most of a start.
  const services = new Map<number, Promise<DocService>>();
  const serviceFor = (index: number): Promise<DocService> => {
    if (!services.has(index)) services.set(index, startDocService());
    return services.get(index)!;
  };
  const stopped = new Set<number>();
  afterAll(async () => {
    // Services started ahead for pages a filter (-t) skipped.
    for (const [index, service] of services) if (!stopped.has(index)) await service.then((s) => s.server.stop()).catch(() => undefined);
  });

  it(`finds README.md and docs/, the README with a bash block (skipped, no bash block: ${skipped.join(', ') || 'none'})`, () => {
    expect(pages[0]).toEqual({ file: 'README.md', blocks: expect.any(Number) });
    expect(runnable.map((page) => page.file)).toContain('README.md');
    expect(execFileSync('curl', ['--version']).toString()).toMatch(/^curl \d/);
  });

  // Without a runnable page, the test above fails and says why (it.each of nothing would not).
  if (runnable.length)
    it.each(runnable.map((page, index) => ({ ...page, index })))(
      '$file: its $blocks bash block(s) in one shell on a fresh service',
      async ({ file, index }) => {
        const service = await serviceFor(index);
        if (index + 1 < runnable.length) serviceFor(index + 1).catch(() => undefined);
        stopped.add(index);
        const result = await runPage(file, service).catch(async (error: unknown) => {
          await service.server.stop().catch(() => undefined);
          throw error;
        });
        // A fault the service logged (a 5xx is a bug whatever the text expects) fails the page too.
        await service.server.stop().catch((fault: Error) => result.failures.push(`${file}: ${fault.message}`));
        if (result.failures.length) throw new Error(report(result));
        expect(result.exitCode).toBe(0);
      },
      180_000,
    );
});

describe('the doc test itself', () => {
  const FIXTURES = 'test/fixtures/docs';
  const lineOf = (name: string, text: string) =>
    readFileSync(join(ROOT, FIXTURES, name), 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1;

  describe('reading the Markdown', () => {
    const target = { port: 4321, password: 'pw-from-console' };

    it('takes only blocks fenced exactly `bash`, in list items too, with their Markdown lines', () => {
      const markdown = [
        '```bash',
        'echo 1',
        '```',
        '```sh',
        'echo 2',
        '```',
        '~~~bash',
        'echo 3',
        '~~~',
        '- a step:',
        '  ```bash',
        '  echo 4',
        '  ```',
      ];
      expect(bashBlocks(markdown.join('\n')).map((b) => b.lines)).toEqual([
        [{ text: 'echo 1', mdLine: 2 }],
        [{ text: 'echo 3', mdLine: 8 }],
        [{ text: 'echo 4', mdLine: 12 }],
      ]);
    });

    it('places each curl at the line its command starts, with the statuses its last line expects', () => {
      const plan = planPage(
        'page.md',
        [
          '```bash',
          'X=$(curl -s localhost:3000/a | json .x)',
          'curl -s -X POST localhost:3000/b \\',
          "  -d '{}' # expect 409 or 422",
          'for i in 1 2; do curl -s localhost:3000/c; done # expect 404',
          '```',
        ].join('\n'),
        target,
      );
      expect(plan.problems).toEqual([]);
      expect(plan.sites.map((s) => [s.mdLine, s.expect])).toEqual([
        [2, []],
        [3, [409, 422]],
        [5, [404]],
      ]);
      expect(plan.script).toContain('X=$(__doc_curl 1 -s 127.0.0.1:4321/a | json .x)');
      expect(plan.script).toContain('for i in 1 2; do __doc_curl 3 -s 127.0.0.1:4321/c; done');
    });

    it('fills the printed password and flags every other placeholder, but not redirections nor comments', () => {
      const plan = planPage(
        'page.md',
        [
          '```bash',
          'ADMIN_PASSWORD=<the printed password>',
          '# a comment may say <anything>',
          'cat < in.json > out.json 2>/dev/null',
          'curl -s localhost:3000/users/<user id>',
          '```',
        ].join('\n'),
        target,
      );
      expect(plan.script).toContain('ADMIN_PASSWORD=pw-from-console');
      expect(plan.problems).toEqual([expect.stringMatching(/^page\.md:5: the placeholder <user id> is left/)]);
    });

    it("flags `# expect` on a command without curl, and a json() that is not the conventions' text", () => {
      const plan = planPage('page.md', ['```bash', 'json() { jq "$1"; }', 'echo hi # expect 404', '```'].join('\n'), target);
      expect(plan.problems).toEqual([
        expect.stringMatching(/^page\.md:2: json\(\) is defined differently/),
        expect.stringMatching(/^page\.md:3: `# expect` on a command without curl/),
      ]);
    });
  });

  describe('running fixture pages (test/fixtures/docs)', () => {
    let service: DocService;
    beforeAll(async () => {
      service = await startDocService();
    });
    afterAll(() => service.server.stop());

    it('passes a page that runs: the password filled, variables kept across blocks, `# expect` honoured, sh blocks skipped', async () => {
      const result = await runPage(`${FIXTURES}/passes.md`, service);
      expect(result.failures).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.calls.map((c) => [c.site?.mdLine, c.status])).toEqual([
        [8, '200'],
        [21, '200'],
        [23, '404'],
        [24, '200'],
        [24, '200'],
        [25, '409'],
      ]);
    });

    it('fails a step that answers 404 unmarked, naming file, line, command and answer, and stops there', async () => {
      const result = await runPage(`${FIXTURES}/unmarked-404.md`, service);
      const line = lineOf('unmarked-404.md', 'api/v1/users/0000');
      expect(result.failures).toHaveLength(1);
      expect(result.failures[0]).toMatch(
        new RegExp(
          `^${FIXTURES}/unmarked-404\\.md:${line} \\(\`\`\`bash block 2\\): the answer was 404, not a 2xx, and the line does not say \`# expect 404\``,
        ),
      );
      expect(result.failures[0]).toContain('curl -s localhost:3000/api/v1/users/00000000-0000-4000-8000-000000000000');
      expect(result.failures[0]).toContain('"status":"error"');
      expect(result.calls.map((c) => c.status)).toEqual(['200', '404']);
      expect(report(result)).toContain(`${FIXTURES}/unmarked-404.md:6 → 200`);
    });

    it('fails a step marked `# expect 404` that answers 200', async () => {
      const result = await runPage(`${FIXTURES}/expected-404-answers-200.md`, service);
      expect(result.failures).toEqual([
        expect.stringMatching(
          new RegExp(
            `^${FIXTURES}/expected-404-answers-200\\.md:4 \\(\`\`\`bash block 1\\): the line says \`# expect 404\`, but the answer was 200\\.`,
          ),
        ),
      ]);
    });

    it('stops at a failing step even where set -e would not (inside "$(…)" as an argument)', async () => {
      const result = await runPage(`${FIXTURES}/hidden-failure.md`, service);
      expect(result.failures).toEqual([
        expect.stringMatching(new RegExp(`^${FIXTURES}/hidden-failure\\.md:4 \\(\`\`\`bash block 1\\): the answer was 404, not a 2xx`)),
      ]);
      expect(result.calls.map((c) => c.status)).toEqual(['404']);
    });

    it('fails a curl that gets no HTTP answer', async () => {
      const result = await runPage(`${FIXTURES}/no-answer.md`, service);
      expect(result.failures).toEqual([
        `${FIXTURES}/no-answer.md:4 (\`\`\`bash block 1): no HTTP answer (curl exited 7: could not connect).\n  the command:\n    curl -s 127.0.0.1:9/api/v1/actuator/health`,
      ]);
    });

    it('fails a page with a placeholder left, before running any of it', async () => {
      const result = await runPage(`${FIXTURES}/placeholder.md`, service);
      expect(result.failures).toEqual([
        expect.stringMatching(
          new RegExp(`^${FIXTURES}/placeholder\\.md:${lineOf('placeholder.md', '<user id>')}: the placeholder <user id> is left`),
        ),
      ]);
      expect(result.calls).toEqual([]);
    });

    it('fails a page whose command other than curl fails, naming its line and what it printed', async () => {
      const result = await runPage(`${FIXTURES}/failing-command.md`, service);
      expect(result.failures).toHaveLength(1);
      expect(result.failures[0]).toMatch(
        new RegExp(
          `^${FIXTURES}/failing-command\\.md:${lineOf('failing-command.md', 'CODE=')} \\(\`\`\`bash block 2\\): the command failed \\(exit 1\\)`,
        ),
      );
      expect(result.failures[0]).toContain("TypeError: Cannot read properties of undefined (reading 'there')");
      expect(result.calls).toHaveLength(1);
    });
  });
});
