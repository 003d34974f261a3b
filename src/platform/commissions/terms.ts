import type { ProfileTermsRow, RuleTermsRow } from './commissions.repository';

/**
 * The rule that prices a flow at `now` (epoch ms), among the active profiles of the deciding contract for the flow and
 * the coin's issuer (CommissionsRepository.terms): a profile that names a destination issuer applies only when one
 * of the coins (`issuers`: of every coin of the movement) is of that issuer, and goes before the profile of the
 * issuer alone (an exchange's); within them, the rule whose [begin, end) holds `now`, the newest begin first.
 * Undefined: no fee.
 */
export function ruleInForce(profiles: readonly ProfileTermsRow[], issuers: readonly string[], now: number): RuleTermsRow | undefined {
  let best: { rule: RuleTermsRow; specific: boolean } | undefined;
  for (const profile of profiles) {
    const specific = profile.destination_issuer_id !== null;
    if (specific && !issuers.includes(profile.destination_issuer_id!)) continue;
    for (const rule of profile.rules) {
      if (rule.begin > now || (rule.end !== null && rule.end <= now)) continue;
      if (
        !best ||
        (specific && !best.specific) ||
        (specific === best.specific && (rule.begin > best.rule.begin || (rule.begin === best.rule.begin && rule.id < best.rule.id)))
      ) {
        best = { rule, specific };
      }
    }
  }
  return best?.rule;
}
