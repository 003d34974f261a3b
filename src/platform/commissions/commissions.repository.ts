import { Injectable } from '@nestjs/common';
import type { Money } from '../common/money';
import { Database } from '../database/database';
import type { OperationFlow } from '../ledger/operation-types';
import type { RuleCriteria } from './commission-rules';
import type { CommissionPayer, CommissionType, FeeRounding } from './fee';
import type { LimitQualifier, LimitTimeUnit } from './limits';

/** A condition as the database answers it: amounts as exact text. */
export interface ConditionRow {
  id: string;
  beginAmount: string;
  endAmount: string | null;
  type: CommissionType;
  valuePercent: string | null;
  valueFixed: string | null;
  rounding: FeeRounding;
  minFee: string | null;
}

/** A coin as pricing needs it: none of this changes once the coin exists. */
export interface PricedCoinRow {
  serial: string;
  type: string;
  organization_id: string | null;
  issuer_id: string;
  currency_id: string;
  /** Its currency's code and fraction, which the limits answer in. */
  code: string;
  fraction: string;
}

/** An active rule of a profile that had not ended when read: [begin, end) in epoch milliseconds (null end: none). */
export interface RuleTermsRow {
  id: string;
  payer: CommissionPayer;
  begin: number;
  end: number | null;
  conditions: ConditionRow[];
}

/** An active limit of a profile (its period is counted from the time of the posting: periodStart). */
export interface LimitTermsRow {
  id: string;
  qualifier: LimitQualifier;
  time_unit: LimitTimeUnit;
  value: string;
}

/** An active commission profile for a flow, contract and issuer, with its active rules and limits. */
export interface ProfileTermsRow {
  id: string;
  destination_issuer_id: string | null;
  rules: RuleTermsRow[];
  limits: LimitTermsRow[];
}

/**
 * What a flow between coins is priced by, as read: the coins found (of `serials`), the contract of the organization
 * of the first client coin (payer first) and the active profiles of that contract for the flow and that coin's issuer.
 */
export interface TermsRow {
  coins: PricedCoinRow[];
  contract_id: string | null;
  profiles: ProfileTermsRow[];
}

export interface ProfileRow {
  id: string;
  contract_id: string;
  flow: OperationFlow;
  issuer_id: string;
  destination_issuer_id: string | null;
  name: string | null;
  description: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  issuer: IssuerJson;
  destination_issuer: IssuerJson | null;
}

interface IssuerJson {
  id: string;
  sn: string;
  code: string;
  symbol: string | null;
  fraction: string;
}

export interface RuleRow {
  id: string;
  profile_id: string;
  begin_date: Date;
  end_date: Date | null;
  payer: CommissionPayer;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  conditions: ConditionRow[];
}

export interface NewCondition {
  beginAmount: Money;
  endAmount: Money | null;
  type: CommissionType;
  valuePercent: Money | null;
  valueFixed: Money | null;
  rounding: FeeRounding;
  minFee: Money | null;
}

export interface ProfileSearch {
  contractId: string;
  flows?: string[];
  issuerIds?: string[];
  active?: boolean;
  offset: number;
  limit: number;
}

export interface RuleSearch {
  profileId: string;
  criteria: RuleCriteria;
  date: string;
  active?: boolean;
  payer?: string;
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const CONDITIONS_JSON = (rule: string) => `COALESCE((SELECT json_agg(json_build_object('id', cc.id, 'beginAmount', cc.begin_amount::text,
      'endAmount', cc.end_amount::text, 'type', cc.type, 'valuePercent', cc.value_percent::text, 'valueFixed', cc.value_fixed::text,
      'rounding', cc.rounding, 'minFee', cc.min_fee::text)
      ORDER BY cc.begin_amount) FROM commission_conditions cc WHERE cc.rule_id = ${rule}), '[]'::json)`;

const ISSUER_JSON = (issuer: string) => `(SELECT json_build_object('id', i.id, 'sn', i.sn::text, 'code', cu.code, 'symbol', cu.symbol,
       'fraction', cu.fraction::text) FROM issuers i JOIN currencies cu ON cu.id = i.currency_id WHERE i.id = ${issuer})`;

const SELECT_PROFILE = `SELECT p.id, p.contract_id, p.flow, p.issuer_id, p.destination_issuer_id, p.name, p.description, p.active,
       p.created_at, p.updated_at, ${ISSUER_JSON('p.issuer_id')} AS issuer, ${ISSUER_JSON('p.destination_issuer_id')} AS destination_issuer
  FROM commission_profiles p`;

const SELECT_RULE = `SELECT r.id, r.profile_id, r.begin_date, r.end_date, r.payer, r.active, r.created_at, r.updated_at,
       ${CONDITIONS_JSON('r.id')} AS conditions
  FROM commission_rules r`;

/** FOR_DATE: in force at the date; BEFORE_DATE: ended at or before it; FROM_DATE: beginning at or after it. */
const CRITERIA: Record<RuleCriteria, (date: string) => string> = {
  FOR_DATE: (d) => `r.begin_date <= ${d} AND (r.end_date IS NULL OR r.end_date > ${d})`,
  BEFORE_DATE: (d) => `r.end_date <= ${d}`,
  FROM_DATE: (d) => `r.begin_date >= ${d}`,
};

/** Commission profiles, their rules and the rules' conditions; and the terms a movement is priced by. */
@Injectable()
export class CommissionsRepository {
  constructor(private readonly db: Database) {}

  /**
   * One statement: the coins of `serials`; the contract of the organization of the first client coin (payer first);
   * and that contract's active profiles for the flow and the coin's issuer, each with its active rules not yet ended
   * (and their conditions) and its active limits. Which rule applies, and when, is chosen from them in code
   * (ruleInForce), so that what is read can be kept (PricingCache) until one of them changes.
   */
  async terms(flow: OperationFlow, serials: string[]): Promise<TermsRow> {
    const [row] = await this.db.query<TermsRow>(
      `WITH found AS (
         SELECT c.serial, c.type, c.organization_id, c.issuer_id, i.currency_id, cu.code, cu.fraction, o.contract_id FROM coins c
           JOIN issuers i ON i.id = c.issuer_id
           JOIN currencies cu ON cu.id = i.currency_id
           LEFT JOIN organizations o ON o.id = c.organization_id
          WHERE c.serial = ANY($2::bigint[])),
       side AS (SELECT * FROM found WHERE type = 'client' ORDER BY array_position($2::bigint[], serial) LIMIT 1)
       SELECT COALESCE((SELECT json_agg(json_build_object('serial', f.serial::text, 'type', f.type, 'organization_id', f.organization_id,
                'issuer_id', f.issuer_id, 'currency_id', f.currency_id, 'code', f.code, 'fraction', f.fraction::text)) FROM found f), '[]'::json) AS coins,
              side.contract_id,
              COALESCE((SELECT json_agg(json_build_object('id', p.id, 'destination_issuer_id', p.destination_issuer_id,
                'rules', COALESCE((SELECT json_agg(json_build_object('id', r.id, 'payer', r.payer,
                    'begin', extract(epoch FROM r.begin_date) * 1000, 'end', extract(epoch FROM r.end_date) * 1000,
                    'conditions', ${CONDITIONS_JSON('r.id')}) ORDER BY r.begin_date DESC, r.id)
                  FROM commission_rules r WHERE r.profile_id = p.id AND r.active AND (r.end_date IS NULL OR r.end_date > now())), '[]'::json),
                'limits', COALESCE((SELECT json_agg(json_build_object('id', l.id, 'qualifier', l.qualifier, 'time_unit', l.time_unit,
                    'value', l.value::text) ORDER BY l.id)
                  FROM limit_profiles l WHERE l.commission_profile_id = p.id AND l.active), '[]'::json)) ORDER BY p.id)
                FROM commission_profiles p
               WHERE p.contract_id = side.contract_id AND p.flow = $1 AND p.issuer_id = side.issuer_id AND p.active), '[]'::json) AS profiles
         FROM (VALUES (1)) AS one LEFT JOIN side ON true`,
      [flow, serials],
      { prepare: true },
    );
    return row;
  }

  async issuerExists(id: string): Promise<boolean> {
    const [{ found }] = await this.db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM issuers WHERE id = $1) AS found', [id]);
    return found;
  }

  /** Answers the new profile's id, or undefined when the contract has one for the flow and issuers already. */
  async insertProfile(values: {
    contractId: string;
    flow: OperationFlow;
    issuerId: string;
    destinationIssuerId: string | null;
    name: string | null;
    description: string | null;
    active: boolean;
  }): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO commission_profiles (contract_id, flow, issuer_id, destination_issuer_id, name, description, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [values.contractId, values.flow, values.issuerId, values.destinationIssuerId, values.name, values.description, values.active],
    );
    return row?.id;
  }

  /** A profile of a contract; `lock` takes it FOR UPDATE, which serializes every change to its rules. */
  async profile(contractId: string, id: string, lock = false): Promise<ProfileRow | undefined> {
    const [row] = await this.db.query<ProfileRow>(
      `${SELECT_PROFILE} WHERE p.id = $1 AND p.contract_id = $2${lock ? ' FOR UPDATE OF p' : ''}`,
      [id, contractId],
    );
    return row;
  }

  async searchProfiles(search: ProfileSearch): Promise<{ total: number; rows: ProfileRow[] }> {
    const params: unknown[] = [search.contractId];
    const where = ['p.contract_id = $1'];
    if (search.flows?.length) where.push(`p.flow = ANY($${params.push(search.flows)}::text[])`);
    if (search.issuerIds?.length) where.push(`p.issuer_id = ANY($${params.push(search.issuerIds)}::uuid[])`);
    if (search.active !== undefined) where.push(`p.active = $${params.push(search.active)}`);
    const clause = `WHERE ${where.join(' AND ')}`;
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM commission_profiles p ${clause}`, params);
    const rows = await this.db.query<ProfileRow>(
      `${SELECT_PROFILE} ${clause} ORDER BY p.flow, (SELECT sn FROM issuers WHERE id = p.issuer_id), p.destination_issuer_id NULLS FIRST, p.id
        LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { total: n, rows };
  }

  async updateProfile(id: string, name: string | null, description: string | null, active: boolean): Promise<void> {
    await this.db.query(`UPDATE commission_profiles SET name = $2, description = $3, active = $4, updated_at = now() WHERE id = $1`, [
      id,
      name,
      description,
      active,
    ]);
  }

  /** Deletes a profile with its rules and their conditions. */
  async deleteProfile(id: string): Promise<void> {
    await this.db.query(`DELETE FROM commission_profiles WHERE id = $1`, [id]);
  }

  /** Copies every profile of a contract, with its rules and conditions, to another contract; answers how many. */
  async copyProfiles(fromContractId: string, toContractId: string): Promise<number> {
    const [{ n }] = await this.db.query<{ n: number }>(
      `WITH src AS MATERIALIZED (SELECT p.*, gen_random_uuid() AS new_id FROM commission_profiles p WHERE p.contract_id = $1),
       profiles AS (
         INSERT INTO commission_profiles (id, contract_id, flow, issuer_id, destination_issuer_id, name, description, active)
         SELECT new_id, $2, flow, issuer_id, destination_issuer_id, name, description, active FROM src),
       rsrc AS MATERIALIZED (SELECT r.*, gen_random_uuid() AS new_id, src.new_id AS new_profile_id
                               FROM commission_rules r JOIN src ON src.id = r.profile_id),
       rules AS (
         INSERT INTO commission_rules (id, profile_id, begin_date, end_date, payer, active)
         SELECT new_id, new_profile_id, begin_date, end_date, payer, active FROM rsrc),
       conditions AS (
         INSERT INTO commission_conditions (rule_id, begin_amount, end_amount, type, value_percent, value_fixed, rounding, min_fee)
         SELECT rsrc.new_id, cc.begin_amount, cc.end_amount, cc.type, cc.value_percent, cc.value_fixed, cc.rounding, cc.min_fee
           FROM commission_conditions cc JOIN rsrc ON rsrc.id = cc.rule_id)
       SELECT count(*)::int AS n FROM src`,
      [fromContractId, toContractId],
    );
    return n;
  }

  async insertRule(
    profileId: string,
    values: { beginDate: string; endDate: string | null; payer: string; active: boolean },
  ): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO commission_rules (profile_id, begin_date, end_date, payer, active) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [profileId, values.beginDate, values.endDate, values.payer, values.active],
    );
    return row.id;
  }

  async rule(profileId: string, id: string): Promise<RuleRow | undefined> {
    const [row] = await this.db.query<RuleRow>(`${SELECT_RULE} WHERE r.id = $1 AND r.profile_id = $2`, [id, profileId]);
    return row;
  }

  async updateRule(id: string, values: { beginDate: Date; endDate: Date | null; payer: string; active: boolean }): Promise<void> {
    await this.db.query(
      `UPDATE commission_rules SET begin_date = $2, end_date = $3, payer = $4, active = $5, updated_at = now() WHERE id = $1`,
      [id, values.beginDate, values.endDate, values.payer, values.active],
    );
  }

  async deleteRule(id: string): Promise<void> {
    await this.db.query(`DELETE FROM commission_rules WHERE id = $1`, [id]);
  }

  /** Active rules of the profile, other than `exceptId`, whose [beginDate, endDate) meets [begin, end) (null end: no end). */
  async overlappingRules(profileId: string, begin: Date | string, end: Date | string | null, exceptId: string | null): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM commission_rules
        WHERE profile_id = $1 AND active AND ($4::uuid IS NULL OR id <> $4::uuid)
          AND begin_date < COALESCE($3::timestamptz, 'infinity') AND COALESCE(end_date, 'infinity') > $2::timestamptz`,
      [profileId, begin, end, exceptId],
    );
    return rows.map((r) => r.id);
  }

  async searchRules(search: RuleSearch): Promise<{ total: number; rows: RuleRow[] }> {
    const params: unknown[] = [search.profileId];
    const where = ['r.profile_id = $1', CRITERIA[search.criteria](`$${params.push(search.date)}::timestamptz`)];
    if (search.active !== undefined) where.push(`r.active = $${params.push(search.active)}`);
    if (search.payer !== undefined) where.push(`r.payer = $${params.push(search.payer)}`);
    const clause = `WHERE ${where.join(' AND ')}`;
    const [{ n }] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM commission_rules r ${clause}`, params);
    const rows = await this.db.query<RuleRow>(
      `${SELECT_RULE} ${clause} ORDER BY r.begin_date ${search.direction}, r.id LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { total: n, rows };
  }

  /** Inserts conditions of a rule; answers their ids. A condition replaced by `PUT` keeps its id (`keepId`). */
  async insertConditions(ruleId: string, conditions: NewCondition[], keepId: string | null = null): Promise<string[]> {
    if (!conditions.length) return [];
    const rows = await this.db.query<{ id: string }>(
      `INSERT INTO commission_conditions (id, rule_id, begin_amount, end_amount, type, value_percent, value_fixed, rounding, min_fee)
       SELECT COALESCE($9::uuid, gen_random_uuid()), $1, c.begin_amount, c.end_amount, c.type, c.value_percent, c.value_fixed, c.rounding, c.min_fee
         FROM unnest($2::numeric[], $3::numeric[], $4::text[], $5::numeric[], $6::numeric[], $7::text[], $8::numeric[])
           AS c(begin_amount, end_amount, type, value_percent, value_fixed, rounding, min_fee)
       RETURNING id`,
      [
        ruleId,
        conditions.map((c) => c.beginAmount.toFixed()),
        conditions.map((c) => c.endAmount?.toFixed() ?? null),
        conditions.map((c) => c.type),
        conditions.map((c) => c.valuePercent?.toFixed() ?? null),
        conditions.map((c) => c.valueFixed?.toFixed() ?? null),
        conditions.map((c) => c.rounding),
        conditions.map((c) => c.minFee?.toFixed() ?? null),
        keepId,
      ],
    );
    return rows.map((r) => r.id);
  }

  async deleteConditions(ruleId: string): Promise<void> {
    await this.db.query(`DELETE FROM commission_conditions WHERE rule_id = $1`, [ruleId]);
  }

  async deleteCondition(ruleId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(`DELETE FROM commission_conditions WHERE id = $1 AND rule_id = $2 RETURNING id`, [
      id,
      ruleId,
    ]);
    return rows.length > 0;
  }
}
