import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_CALLS } from './calls';

/**
 * The family client's calls of the finished issues each have an e2e test named by the call (`it('POST /x/{} — …')`),
 * which replays the client's body and checks what its screen reads. A call still open says why.
 */
const OPEN: Record<string, string> = {};
const FINISHED_ISSUES = new Set([31, 32]);

const normalize = (call: string) => call.replace(/\{[^}]*\}/g, '{}').replace(/\/$/, '');

/** Every call named in a test or describe title of test/family-client (a title may name more than one: "POST /a — …; GET /a reads …"). */
function testedCalls(): Set<string> {
  const titles = new Set<string>();
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.e2e.spec.ts'))) {
    const text = readFileSync(join(__dirname, file), 'utf8');
    for (const [, , title] of text.matchAll(/\b(?:it|describe)\(\s*(['"`])(.*?)\1/g)) {
      for (const [call] of title.matchAll(/\b(?:GET|POST|PATCH|PUT|DELETE) \/[^\s,;]*/g)) titles.add(normalize(call));
    }
  }
  return titles;
}

describe('the family client’s calls (issue 31: individuals and merchants; issue 32: staff)', () => {
  const tested = testedCalls();
  const mine = CLIENT_CALLS.filter((c) => FINISHED_ISSUES.has(c.issue));

  it('lists every reachable call once', () => {
    expect(CLIENT_CALLS).toHaveLength(162);
    expect(new Set(CLIENT_CALLS.map((c) => c.call)).size).toBe(CLIENT_CALLS.length);
  });

  it('has a replay test for every call of a finished issue, except those marked open with a reason', () => {
    const untested = mine
      .filter((c) => !OPEN[c.call])
      .map((c) => c.call)
      .filter((call) => !tested.has(normalize(call)) && !tested.has(normalize(call.split('?')[0])));
    expect(untested).toEqual([]);
  });
});
