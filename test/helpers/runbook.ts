import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** A runbook block: a ```sh block of an operations guide whose first line is `# runbook: <name>`. */
export interface RunbookBlock {
  name: string;
  /** The block's text, its first line included. */
  script: string;
  /** 1-based line of the block's opening fence. */
  line: number;
}

/**
 * The ```sh blocks of `file` (relative to the repository) that name themselves `# runbook: <name>`: commands for a
 * PostgreSQL cluster, PgBouncer, a container or a production install, which the doc test (a fresh service, ```bash
 * blocks) cannot run. Each is run by the test of what it sets up, read from the guide so that the two cannot drift.
 */
export function runbookBlocks(file = 'docs/operations.md'): RunbookBlock[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: RunbookBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```sh') continue;
    const start = i;
    // A block inside a list item is indented as its fence is: its lines are read without that indentation.
    const indent = lines[i].length - lines[i].trimStart().length;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++)
      body.push(lines[i].slice(Math.min(indent, lines[i].length - lines[i].trimStart().length)));
    const named = /^#\s*runbook:\s*([\w-]+)\s*$/.exec(body[0] ?? '');
    if (named) blocks.push({ name: named[1], script: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

/** The block called `name` in `file`; throws when the guide has none (a renamed or removed step). */
export function runbookBlock(name: string, file = 'docs/operations.md'): RunbookBlock {
  const block = runbookBlocks(file).find((b) => b.name === name);
  if (!block) throw new Error(`${file} has no \`\`\`sh block starting "# runbook: ${name}"`);
  return block;
}

export interface RunbookResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the block called `name` with `bash -euo pipefail` (a failing command fails the step) in `cwd` (the repository
 * by default), with `env` on top of PATH and HOME: the variables the guide's text names ($PGBIN, $PRIMARY_PORT …).
 * Rejects with the block's output when it exits non-zero, unless `allowFailure`. `osUser`: run it as that OS user
 * when we are root (the steps a guide gives to the database server's user `postgres`), from a directory it can enter.
 */
export function runRunbook(
  name: string,
  env: Record<string, string> = {},
  options: { cwd?: string; file?: string; timeoutMs?: number; allowFailure?: boolean; osUser?: string } = {},
): Promise<RunbookResult> {
  const block = runbookBlock(name, options.file);
  const asUser = options.osUser && process.getuid?.() === 0 ? options.osUser : undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, asUser!], { encoding: 'utf8' }).trim());
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', block.script], {
      ...(asUser ? { uid: id('-u'), gid: id('-g') } : {}),
      cwd: options.cwd ?? (asUser ? tmpdir() : ROOT),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      if (code !== 0 && !options.allowFailure) {
        reject(
          new Error(`runbook "${name}" (${options.file ?? 'docs/operations.md'}:${block.line}) exited ${code}:\n${stdout}\n${stderr}`),
        );
      } else resolve(result);
    });
  });
}
