import type { ProfileTermsRow, RuleTermsRow } from './commissions.repository';
import { periodStart } from './limits';
import { ruleInForce } from './terms';

const at = (iso: string) => Date.parse(iso);
const rule = (id: string, begin: string, end: string | null = null): RuleTermsRow => ({
  id,
  payer: 'sender',
  begin: at(begin),
  end: end === null ? null : at(end),
  conditions: [],
});
const profile = (rules: RuleTermsRow[], destination: string | null = null): ProfileTermsRow => ({
  id: `p-${destination ?? 'any'}`,
  destination_issuer_id: destination,
  rules,
  limits: [],
});

describe('ruleInForce: the rule that prices a flow at a time', () => {
  it('answers none without a rule whose [begin, end) holds the time', () => {
    expect(ruleInForce([], [], at('2026-01-01T00:00:00Z'))).toBeUndefined();
    const p = profile([rule('r1', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z')]);
    expect(ruleInForce([p], [], at('2026-01-31T23:59:59.999Z'))).toBeUndefined();
    expect(ruleInForce([p], [], at('2026-03-01T00:00:00Z'))).toBeUndefined();
  });

  it('takes a rule from its begin date on, and up to (not at) its end date', () => {
    const p = profile([rule('r1', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z')]);
    expect(ruleInForce([p], [], at('2026-02-01T00:00:00Z'))?.id).toBe('r1');
    expect(ruleInForce([p], [], at('2026-02-28T23:59:59.999Z'))?.id).toBe('r1');
  });

  it('prefers the newest begin date among rules in force, whatever their order', () => {
    const old = rule('old', '2020-01-01T00:00:00Z');
    const recent = rule('recent', '2026-01-01T00:00:00Z');
    const future = rule('future', '2027-01-01T00:00:00Z');
    const now = at('2026-06-01T00:00:00Z');
    expect(ruleInForce([profile([old, recent, future])], [], now)?.id).toBe('recent');
    expect(ruleInForce([profile([future, recent, old])], [], now)?.id).toBe('recent');
    expect(ruleInForce([profile([future, recent, old])], [], at('2027-01-01T00:00:00Z'))?.id).toBe('future');
  });

  it('applies a destination profile only when a coin is of its issuer, and then before the profile of the issuer alone', () => {
    const plain = profile([rule('plain', '2026-01-01T00:00:00Z')]);
    const toB = profile([rule('to-b', '2020-01-01T00:00:00Z')], 'issuer-b');
    const now = at('2026-06-01T00:00:00Z');
    expect(ruleInForce([plain, toB], ['issuer-a', 'issuer-b'], now)?.id).toBe('to-b');
    expect(ruleInForce([toB, plain], ['issuer-a', 'issuer-b'], now)?.id).toBe('to-b');
    expect(ruleInForce([plain, toB], ['issuer-a', 'issuer-c'], now)?.id).toBe('plain');
    expect(ruleInForce([toB], ['issuer-a'], now)).toBeUndefined();
    // A destination profile without a rule in force leaves the issuer's own profile to price.
    const endedToB = profile([rule('ended', '2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z')], 'issuer-b');
    expect(ruleInForce([endedToB, plain], ['issuer-a', 'issuer-b'], now)?.id).toBe('plain');
  });
});

describe('periodStart: the period a limit counts in, as PostgreSQL writes a timestamp', () => {
  const now = new Date('2026-11-27T23:59:59.999Z'); // a Friday
  it.each([
    ['per_transaction', null],
    ['per_day', '2026-11-27 00:00:00'],
    ['per_week', '2026-11-23 00:00:00'],
    ['per_month', '2026-11-01 00:00:00'],
    ['per_quarter', '2026-10-01 00:00:00'],
    ['per_year', '2026-01-01 00:00:00'],
    ['per_life', '1970-01-01 00:00:00'],
  ] as const)('%s starts at %s', (unit, start) => {
    expect(periodStart(unit, now)).toBe(start);
  });

  it('starts ISO weeks on Monday, across a month and a year', () => {
    expect(periodStart('per_week', new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23 00:00:00');
    expect(periodStart('per_week', new Date('2026-11-22T23:59:59Z'))).toBe('2026-11-16 00:00:00');
    expect(periodStart('per_week', new Date('2027-01-02T12:00:00Z'))).toBe('2026-12-28 00:00:00');
    expect(periodStart('per_quarter', new Date('2026-03-31T23:59:59Z'))).toBe('2026-01-01 00:00:00');
    expect(periodStart('per_quarter', new Date('2026-04-01T00:00:00Z'))).toBe('2026-04-01 00:00:00');
  });
});
