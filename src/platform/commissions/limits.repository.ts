import { Injectable } from '@nestjs/common';
import type { Money } from '../common/money';
import { Database } from '../database/database';
import type { RecordWriter } from '../ledger/ledger.types';
import type { OperationFlow } from '../ledger/operation-types';
import type { GateScope, LimitRow, UsageRow } from './limits';

/** The start of a limit's period in force, UTC, as text; null for a limit of one operation (in code: periodStart). */
const PERIOD_START = `CASE l.time_unit
    WHEN 'per_day' THEN date_trunc('day', now() AT TIME ZONE 'UTC')
    WHEN 'per_week' THEN date_trunc('week', now() AT TIME ZONE 'UTC')
    WHEN 'per_month' THEN date_trunc('month', now() AT TIME ZONE 'UTC')
    WHEN 'per_quarter' THEN date_trunc('quarter', now() AT TIME ZONE 'UTC')
    WHEN 'per_year' THEN date_trunc('year', now() AT TIME ZONE 'UTC')
    WHEN 'per_life' THEN timestamp '1970-01-01'
  END::text`;

/** What one posting added to the running sums of its organization's limits (LimitsRepository.addUsage). */
export interface Counted {
  organizationId: string;
  limits: LimitRow[];
  amount: Money;
}

/** The limits the kernel enforces on priced postings, their running sums, and what each operation counted in them. */
@Injectable()
export class LimitsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records what operations just written counted (a RecordWriter: the ledger calls it in their transaction, once for a
   * whole group), one row per operation, limit and period, beside the running sums it references.
   */
  readonly counted: RecordWriter<Counted> = {
    write: async (rows) => {
      const entries = rows.flatMap(({ row, operationId }) => row.limits.map((limit) => ({ operationId, limit, row })));
      await this.db.query(
        `INSERT INTO limit_usage_entries (operation_id, limit_profile_id, organization_id, period_start, amount, count)
         SELECT e.operation_id, e.limit_profile_id, e.organization_id, e.period_start, sum(e.amount), count(*)
           FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamp[], $5::numeric[])
                AS e(operation_id, limit_profile_id, organization_id, period_start, amount)
          GROUP BY 1, 2, 3, 4`,
        [
          entries.map((e) => e.operationId),
          entries.map((e) => e.limit.id),
          entries.map((e) => e.row.organizationId),
          entries.map((e) => e.limit.period_start),
          entries.map((e) => e.row.amount.toFixed()),
        ],
      );
    },
  };

  /**
   * One statement: the active limits of the profile that prices a flow between coins (the contract of the first
   * client coin of `serials`, payer first, its active profile for the flow and the coin's issuer) and, for a gate
   * flow, of the contract's active gate commission profile of the provider (and the coin's currency, or of any) for the
   * transaction type; with the period
   * each counts in. Usually none.
   */
  async inForce(flow: OperationFlow, serials: string[], gate: GateScope | undefined): Promise<LimitRow[]> {
    return this.db.query<LimitRow>(
      `WITH side AS (
         SELECT c.organization_id, c.issuer_id, c.currency_id, o.contract_id, cu.code, cu.fraction FROM coins c
           JOIN organizations o ON o.id = c.organization_id
           JOIN issuers i ON i.id = c.issuer_id
           JOIN currencies cu ON cu.id = i.currency_id
          WHERE c.type = 'client' AND c.serial = ANY($2::bigint[])
          ORDER BY array_position($2::bigint[], c.serial) LIMIT 1),
       limits AS (
         SELECT l.* FROM side
           JOIN commission_profiles p ON p.contract_id = side.contract_id AND p.flow = $1 AND p.issuer_id = side.issuer_id AND p.active
           JOIN limit_profiles l ON l.commission_profile_id = p.id AND l.active
         UNION ALL
         SELECT l.* FROM side
           JOIN gate_commission_profiles g ON g.contract_id = side.contract_id AND g.gate_provider_id = $3::uuid AND g.active
                AND (g.currency_id IS NULL OR g.currency_id = side.currency_id)
           JOIN limit_profiles l ON l.gate_commission_profile_id = g.id AND l.tx_type = $4 AND l.active)
       SELECT l.id, l.qualifier, l.time_unit, l.value::text, side.organization_id, ${PERIOD_START} AS period_start,
              side.code, side.fraction::text
         FROM limits l, side
        ORDER BY l.id`,
      [flow, serials, gate?.providerId ?? null, gate?.txType ?? null],
      { prepare: true },
    );
  }

  /**
   * The running sums of the limits in their periods for the organization, locked FOR UPDATE (created at zero when
   * the period has none yet), in the order of the limits' ids: whoever adds to them next waits for this transaction.
   */
  async lockUsage(organizationId: string, limits: LimitRow[]): Promise<UsageRow[]> {
    return this.db.query<UsageRow>(
      `INSERT INTO limit_usage (limit_profile_id, organization_id, period_start)
       SELECT u.id, $1, u.period_start FROM unnest($2::uuid[], $3::timestamp[]) AS u(id, period_start) ORDER BY u.id
       ON CONFLICT (limit_profile_id, organization_id, period_start) DO UPDATE SET amount = limit_usage.amount
       RETURNING limit_profile_id, amount::text, count`,
      [organizationId, limits.map((l) => l.id), limits.map((l) => l.period_start)],
    );
  }

  /** Adds one operation of `amount` to the (locked) running sums. */
  async addUsage(organizationId: string, limits: LimitRow[], amount: Money): Promise<void> {
    await this.db.query(
      `UPDATE limit_usage u SET amount = u.amount + $2::numeric, count = u.count + 1
         FROM unnest($3::uuid[], $4::timestamp[]) AS x(id, period_start)
        WHERE u.limit_profile_id = x.id AND u.organization_id = $1 AND u.period_start = x.period_start`,
      [organizationId, amount.toFixed(), limits.map((l) => l.id), limits.map((l) => l.period_start)],
    );
  }

  /**
   * Gives back what the operations counted and had not given back yet, each to the running sum of the period it was
   * counted in, and marks it given back: a second call for the same operation finds nothing. The sums are locked in
   * the order `lockUsage` takes them (by limit), so a give-back and a posting never wait for each other in a cycle.
   */
  async giveBack(operationIds: readonly string[]): Promise<void> {
    await this.db.query(
      `WITH back AS (
         UPDATE limit_usage_entries SET given_back_at = now()
          WHERE operation_id = ANY($1::uuid[]) AND given_back_at IS NULL
         RETURNING limit_profile_id, organization_id, period_start, amount, count),
       sums AS (
         SELECT limit_profile_id, organization_id, period_start, sum(amount) AS amount, sum(count)::int AS count
           FROM back GROUP BY 1, 2, 3),
       locked AS MATERIALIZED (
         SELECT u.limit_profile_id, u.organization_id, u.period_start
           FROM limit_usage u JOIN sums s USING (limit_profile_id, organization_id, period_start)
          ORDER BY u.limit_profile_id, u.period_start FOR UPDATE OF u)
       UPDATE limit_usage u SET amount = u.amount - s.amount, count = u.count - s.count
         FROM sums s JOIN locked l USING (limit_profile_id, organization_id, period_start)
        WHERE u.limit_profile_id = s.limit_profile_id AND u.organization_id = s.organization_id AND u.period_start = s.period_start`,
      [operationIds],
    );
  }
}
