import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, TestServer } from './server';

/**
 * The doc test's machinery (docs/writing-docs.md states the rules): every ```bash block of a page
 * runs, in order, in one bash session against a fresh service, and every curl in it is checked.
 */

export const ROOT = join(__dirname, '..', '..');

/** The one placeholder the doc test fills. */
export const PASSWORD_PLACEHOLDER = '<the printed password>';
/** The capture helper every page defines in its first block, always this text. */
export const JSON_HELPER = `json() { node -pe "JSON.parse(require('fs').readFileSync(0, 'utf8'))$1"; }`;
const BODY_SHOWN = 600;

export interface BashBlock {
  /** 1-based, among the page's ```bash blocks. */
  index: number;
  /** The Markdown line of the opening fence. */
  fenceLine: number;
  lines: { text: string; mdLine: number }[];
}

/** README.md and docs/**\/*.md, as paths relative to `root`. */
export function markdownPages(root: string = ROOT): string[] {
  const pages = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return pages;
}

/**
 * The fenced blocks whose info string is exactly `bash` (CommonMark fences: ``` or ~~~, a closing fence
 * at least as long), at any indentation: a fence inside a list item counts too.
 */
export function bashBlocks(markdown: string): BashBlock[] {
  const blocks: BashBlock[] = [];
  const lines = markdown.split(/\r?\n/);
  let open: { fence: string; indent: number; block: BashBlock | null } | null = null;
  lines.forEach((line, i) => {
    const mdLine = i + 1;
    if (!open) {
      const start = /^( *)(`{3,}|~{3,})\s*([^`]*?)\s*$/.exec(line);
      if (!start) return;
      const isBash = start[3] === 'bash';
      open = {
        fence: start[2],
        indent: start[1].length,
        block: isBash ? { index: blocks.length + 1, fenceLine: mdLine, lines: [] } : null,
      };
      if (open.block) blocks.push(open.block);
      return;
    }
    const close = /^ *(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1][0] === open.fence[0] && close[1].length >= open.fence.length) {
      open = null;
      return;
    }
    // Content of an indented fence loses up to the fence's indentation.
    const text = line.replace(new RegExp(`^ {0,${open.indent}}`), '');
    open.block?.lines.push({ text, mdLine });
  });
  return blocks;
}

/** One curl as written in the Markdown: where it is, what it says, and the statuses its line expects. */
export interface CurlSite {
  id: number;
  file: string;
  block: number;
  /** The Markdown line where its command starts. */
  mdLine: number;
  /** The whole command as written, continuation lines included. */
  command: string;
  /** Statuses named by `# expect …`; empty: any 2xx. */
  expect: number[];
}

export interface PagePlan {
  file: string;
  /** Problems found in the text itself; a page with any is not run. */
  problems: string[];
  script: string;
  /** For each line of the script (index = line - 1): the block, Markdown line and command it came from. */
  origin: ({ block: number; mdLine: number; command: string } | null)[];
  sites: CurlSite[];
}

const EXPECT = /\s#\s*expect\s+(\d{3}(?:\s+or\s+\d{3})*)\s*$/;
/** `curl` where a command starts: line start, after ; & | ( { ` !, or after do/then/else/time. */
const CURL_COMMAND = /(^|[;&|({`!]|\b(?:do|then|else|time)\s)(\s*)curl(?=\s|$)/g;
/** `<words>` as a placeholder is written; not `< file`, `<<EOF`, `<(…)` nor `2>/dev/null`. */
const PLACEHOLDER = /<(?![<(\s])[^<>\n]*[^<>\s]>/g;

const isComment = (text: string) => /^\s*#/.test(text);
const continues = (text: string) => /(^|[^\\])(\\\\)*\\$/.test(text);

/**
 * Reads a page's ```bash blocks and writes the script that runs them: `localhost:3000` becomes the
 * service, the password placeholder its password, and every curl a call of the checking wrapper
 * with its site's id. Expectations come from the text, since bash drops the comments that carry them.
 */
export function planPage(file: string, markdown: string, target: { port: number; password: string }): PagePlan {
  const problems: string[] = [];
  const sites: CurlSite[] = [];
  const script: string[] = [];
  const origin: PagePlan['origin'] = [];
  for (const line of PREAMBLE.split('\n')) {
    script.push(line);
    origin.push(null);
  }
  for (const block of bashBlocks(markdown)) {
    // Logical lines: a command and its continuation lines, whose last one may carry `# expect`.
    const logical: { start: number; end: number }[] = [];
    for (let i = 0; i < block.lines.length; i++) {
      const start = i;
      while (!isComment(block.lines[i].text) && continues(block.lines[i].text) && i + 1 < block.lines.length) i++;
      logical.push({ start, end: i });
    }
    for (const { start, end } of logical) {
      const physical = block.lines.slice(start, end + 1);
      const command = physical.map((l) => l.text).join('\n');
      const mdLine = physical[0].mdLine;
      if (isComment(physical[0].text)) {
        script.push(physical[0].text);
        origin.push({ block: block.index, mdLine, command });
        continue;
      }
      const expectMatch = EXPECT.exec(physical[physical.length - 1].text);
      const expect = expectMatch ? expectMatch[1].split(/\s+or\s+/).map(Number) : [];
      const sitesBefore = sites.length;
      for (const { text, mdLine: line } of physical) {
        if (/^\s*json\s*\(\s*\)/.test(text) && text.trim() !== JSON_HELPER) {
          problems.push(`${file}:${line}: json() is defined differently from the conventions' text; write it as\n    ${JSON_HELPER}`);
        }
        for (const placeholder of text.replaceAll(PASSWORD_PLACEHOLDER, '').match(PLACEHOLDER) ?? []) {
          problems.push(
            `${file}:${line}: the placeholder ${placeholder} is left in a \`\`\`bash block (the doc test fills only ${PASSWORD_PLACEHOLDER}).`,
          );
        }
        const rewritten = text
          .replaceAll('localhost:3000', `127.0.0.1:${target.port}`)
          .replaceAll(PASSWORD_PLACEHOLDER, target.password)
          .replace(CURL_COMMAND, (_, before: string, space: string) => {
            const id = sites.length + 1;
            sites.push({ id, file, block: block.index, mdLine, command, expect });
            return `${before}${space}__doc_curl ${id}`;
          });
        script.push(rewritten);
        origin.push({ block: block.index, mdLine: line, command });
      }
      if (expectMatch && sites.length === sitesBefore) {
        problems.push(`${file}:${physical[physical.length - 1].mdLine}: \`# expect\` on a command without curl; it applies to curl only.`);
      }
    }
    // A block ends its last command even if the text forgot to.
    script.push('');
    origin.push(null);
  }
  const expectations = sites.map((s) => `'${s.expect.join(' ')}'`).join(' ');
  script[0] = `__doc_expect=('' ${expectations})`;
  return { file, problems, script: script.join('\n') + '\n', origin, sites };
}

/**
 * Runs before the page's text. `__doc_curl ID ARGS…` runs the real curl with the page's arguments,
 * passes the body through unchanged (so `$(curl … | json .x)` works), records (id, status, curl's
 * exit code, verdict, body file) and, on a status its line does not allow, stops the page.
 * A curl the rewrite missed still goes through the wrapper, as site 0 (no expectation: 2xx only).
 */
const PREAMBLE = `__doc_expect=()
set -Eeo pipefail
__doc_err() { printf 'err\\t%s\\t%s\\t%s\\t%s\\n' "$1" "$2" "$3" "\${4//[$'\\t\\n']/ }" >> "$__DOC_DIR/records"; }
trap '__doc_err $? $LINENO $BASH_SUBSHELL "$BASH_COMMAND"' ERR
trap 'exit 90' USR1
__doc_curl() {
  local id=$1 code=0 status verdict=ok out said
  shift
  out=$(mktemp "$__DOC_DIR/body.XXXXXX")
  command curl --max-time 30 "$@" --write-out '%{stderr}%{http_code}' > "$out" 2> "$out.err" || code=$?
  cat "$out"
  said=$(cat "$out.err")
  case "\${said: -3}" in
    [0-9][0-9][0-9]) status=\${said: -3} said=\${said:0:\${#said}-3} ;;
    *) status=000 ;;
  esac
  printf '%s' "$said" >&2
  if [ -n "\${__doc_expect[$id]}" ]; then
    case " \${__doc_expect[$id]} " in *" $status "*) ;; *) verdict=bad ;; esac
  else
    case "$status" in 2??) ;; *) verdict=bad ;; esac
  fi
  printf 'curl\\t%s\\t%s\\t%s\\t%s\\t%s\\n' "$id" "$status" "$code" "$verdict" "$out" >> "$__DOC_DIR/records"
  if [ "$verdict" = bad ]; then kill -USR1 $$; return 1; fi
}
curl() { __doc_curl 0 "$@"; }`;

export interface CurlCall {
  site: CurlSite | null;
  status: string;
  curlExit: number;
  ok: boolean;
  body: string;
}

export interface PageResult {
  file: string;
  /** What is wrong, each message naming the file and line; empty when the page passed. */
  failures: string[];
  calls: CurlCall[];
  exitCode: number | null;
  ms: number;
}

const CURL_EXITS: Record<number, string> = {
  2: 'an option it does not know',
  3: 'malformed URL',
  6: 'could not resolve the host',
  7: 'could not connect',
  28: 'timed out',
  52: 'empty reply',
  56: 'connection reset',
};

const indent = (text: string) => text.replace(/^/gm, '    ');
const shorten = (text: string, max = BODY_SHOWN) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

function describeCall(call: CurlCall): string {
  const site = call.site;
  const where = site ? `${site.file}:${site.mdLine} (\`\`\`bash block ${site.block})` : 'a curl the doc test could not place';
  const command = site ? `\n  the command:\n${indent(site.command)}` : '';
  const answer = call.body ? `\n  the answer (${call.status}):\n${indent(shorten(call.body))}` : '';
  if (call.status === '000') {
    const reason = CURL_EXITS[call.curlExit] ?? 'see curl(1), EXIT CODES';
    return `${where}: no HTTP answer (curl exited ${call.curlExit}: ${reason}).${command}`;
  }
  if (site?.expect.length) {
    const said = site.expect.join(' or ');
    return `${where}: the line says \`# expect ${said}\`, but the answer was ${call.status}.${command}${answer}`;
  }
  return (
    `${where}: the answer was ${call.status}, not a 2xx, and the line does not say \`# expect ${call.status}\`. ` +
    `Fix the step, or end its line with \`# expect ${call.status}\` if the guide means it.${command}${answer}`
  );
}

/** Runs a plan in bash; `timeoutMs` bounds the whole page; `env` is added to the shell's environment. */
export async function runPlan(plan: PagePlan, timeoutMs = 120_000, env: Record<string, string> = {}): Promise<PageResult> {
  const started = Date.now();
  if (plan.problems.length) return { file: plan.file, failures: plan.problems, calls: [], exitCode: null, ms: 0 };
  const dir = await mkdtemp(join(tmpdir(), 'finapi-docs-'));
  // The commands run where a reader stands, the clone's root (`-F file=@docs/…`), but write elsewhere.
  const cwd = join(dir, 'clone');
  await writeFile(join(dir, 'records'), '');
  await mkdir(cwd);
  for (const entry of readdirSync(ROOT)) if (entry !== '.git') await symlink(join(ROOT, entry), join(cwd, entry));
  const scriptPath = join(dir, 'page.sh');
  await writeFile(scriptPath, plan.script);
  const child = spawn('bash', [scriptPath], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, __DOC_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid!, 'SIGKILL');
  }, timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  clearTimeout(timer);

  const calls: CurlCall[] = [];
  const errors: { status: number; line: number; subshell: number; command: string }[] = [];
  for (const record of (await readFile(join(dir, 'records'), 'utf8')).split('\n').filter(Boolean)) {
    const fields = record.split('\t');
    if (fields[0] === 'curl') {
      const [, id, status, curlExit, verdict, bodyFile] = fields;
      const raw = await readFile(bodyFile, 'utf8').catch(() => '');
      calls.push({
        site: plan.sites[Number(id) - 1] ?? null,
        status,
        curlExit: Number(curlExit),
        ok: verdict === 'ok',
        body: raw,
      });
    } else {
      const [, status, line, subshell, command] = fields;
      errors.push({ status: Number(status), line: Number(line), subshell: Number(subshell), command });
    }
  }
  await rm(dir, { recursive: true, force: true });

  const failures: string[] = [];
  // bash names the script's lines (`page.sh: line 57:`); the reader needs the page's.
  const mdLineOf = (scriptLine: number) => plan.origin.slice(0, scriptLine).findLast((o) => o !== null)?.mdLine;
  const said = stderr
    .trim()
    .replace(/\S*page\.sh: line (\d+):/g, (whole, n: string) => (mdLineOf(Number(n)) ? `${plan.file}:${mdLineOf(Number(n))}:` : whole));
  const stderrTail = said ? `\n  its stderr (last lines):\n${indent(said.split('\n').slice(-12).join('\n'))}` : '';
  const badCall = calls.find((c) => !c.ok);
  if (badCall) failures.push(describeCall(badCall));
  else if (timedOut) {
    const last = calls[calls.length - 1]?.site;
    failures.push(
      `${plan.file}: the page did not finish in ${timeoutMs / 1000} s` +
        (last ? `; the last curl that answered is at ${last.file}:${last.mdLine}` : '') +
        `.${stderrTail}`,
    );
  } else if (exitCode !== 0) {
    // The main shell's record (subshell 0) names the line of the page's command, not of a function inside it.
    const error = [...errors].reverse().find((e) => e.subshell === 0) ?? errors[errors.length - 1];
    const from = error ? plan.origin[error.line - 1] : null;
    if (error && from) {
      failures.push(
        `${plan.file}:${from.mdLine} (\`\`\`bash block ${from.block}): the command failed (exit ${error.status}) and stopped the page.` +
          `\n  the command:\n${indent(from.command)}${stderrTail}`,
      );
    } else if (error) {
      failures.push(`${plan.file}: the page stopped at \`${error.command}\` (exit ${error.status}).${stderrTail}`);
    } else {
      failures.push(`${plan.file}: the page's shell exited ${String(exitCode)}.${stderrTail}`);
    }
  }
  return { file: plan.file, failures, calls, exitCode, ms: Date.now() - started };
}

export interface DocService {
  server: TestServer;
  port: number;
  /** What the service printed on its first start. */
  login: string;
  password: string;
  /** Where its log sender writes one-time codes (ONE_TIME_CODE_LOG, also given to the page's shell). */
  codeLog: string;
}

/**
 * A fresh service on a fresh database, started as a reader starts it: neither ADMIN_LOGIN nor
 * ADMIN_PASSWORD, so it creates its default administrator with a generated password and prints
 * both; the test reads the password from the console as the reader does.
 */
export async function startDocService(): Promise<DocService> {
  // A file of its own for the codes a page reads (sign-up, recovery), as a reader reads DATA_DIR/one-time-codes.log.
  const codeLog = join(await mkdtemp(join(tmpdir(), 'finapi-doc-codes-')), 'one-time-codes.log');
  const server = await startServer({ ADMIN_LOGIN: '', ADMIN_PASSWORD: '', ONE_TIME_CODE_LOG: codeLog });
  const printed = /First administrator created: login ([^ ,]+), password (\S+) \(set ADMIN_PASSWORD/;
  const line = await server.waitForLog('First administrator created');
  if (!line || !printed.test(line)) {
    await server.stop();
    throw new Error(`The service did not print the administrator's password on its first start:\n${server.logs.join('\n')}`);
  }
  const [, login, password] = printed.exec(line)!;
  return { server, port: Number(new URL(server.url).port), login, password, codeLog };
}

/** Runs one page (a path relative to ROOT) against `service`. */
export function runPage(file: string, service: DocService): Promise<PageResult> {
  const plan = planPage(file, readFileSync(join(ROOT, file), 'utf8'), { port: service.port, password: service.password });
  return runPlan(plan, undefined, { ONE_TIME_CODE_LOG: service.codeLog });
}

/** One message for a failed page: its failures, then the curls that ran before, so the reader sees where it stood. */
export function report(result: PageResult): string {
  const ran = result.calls
    .filter((c) => c.ok)
    .slice(-5)
    .map((c) => `    ${c.site ? `${c.site.file}:${c.site.mdLine}` : '?'} → ${c.status}`);
  const placeholders = result.failures.some((f) => f.includes(' placeholder <'));
  return [
    `${result.file} does not run as written (docs/writing-docs.md has the rules):`,
    ...result.failures.map((f) => `- ${f}`),
    ...(placeholders
      ? ['  Capture each value from an earlier answer (X=$(curl -s … | json .path.to.it)), or fence a block that must not run as ```sh.']
      : []),
    ...(ran.length ? ['  the last curls that passed before it:', ...ran] : []),
  ].join('\n');
}
