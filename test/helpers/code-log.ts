import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the default sender (the log sender) wrote to ONE_TIME_CODE_LOG: one JSON line per message. A code's line has
 * its `purpose` and `code`; a notice's line (no secret) names its `notice` and carries `details`.
 */
export interface SentMessage {
  to: string;
  purpose?: string;
  code?: string;
  notice?: string;
  details?: Record<string, string>;
}

/** A file of its own for a suite's ONE_TIME_CODE_LOG. */
export function codeLogFile(name = 'codes.log'): string {
  return join(mkdtempSync(join(tmpdir(), 'finapi-codes-')), name);
}

/** Every message the sender wrote so far, oldest first. */
export function messagesSent(file: string): SentMessage[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SentMessage);
  } catch {
    return [];
  }
}

/** The `n`-th message (from 1) to `to` that `matches`, once the sender wrote it (it writes after the commit). */
export async function messageSent(
  file: string,
  to: string,
  matches: (m: SentMessage) => boolean,
  what: string,
  n = 1,
): Promise<SentMessage> {
  // Half a minute at most (under the test's own minute): on a loaded machine the sender's turn may come late; a message that never comes fails all the same.
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const sent = messagesSent(file).filter((m) => m.to === to && matches(m));
    if (sent.length >= n) return sent[n - 1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${what} #${n} was sent to ${to}`);
}

/** The `n`-th code of `purpose` sent to `to`. */
export async function codeSent(file: string, to: string, purpose: string, n = 1): Promise<string> {
  return (await messageSent(file, to, (m) => m.purpose === purpose, `${purpose} code`, n)).code!;
}

/** The `n`-th notice `notice` sent to `to`. */
export function noticeSent(file: string, to: string, notice: string, n = 1): Promise<SentMessage> {
  return messageSent(file, to, (m) => m.notice === notice, `${notice} notice`, n);
}
