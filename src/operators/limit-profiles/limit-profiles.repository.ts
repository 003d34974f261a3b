import { Injectable } from '@nestjs/common';
import type { GateLimitTxType, LimitQualifier, LimitTimeUnit } from '../../platform/commissions/limits';
import { Database } from '../../platform/database/database';

/** Whose limits: a commission profile's, or a gate commission profile's. */
export type LimitOwner = { kind: 'commission'; profileId: string } | { kind: 'gate'; profileId: string };

export interface LimitProfileRow {
  id: string;
  commission_profile_id: string | null;
  gate_commission_profile_id: string | null;
  tx_type: GateLimitTxType | null;
  qualifier: LimitQualifier;
  time_unit: LimitTimeUnit;
  value: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A profile limits hang on, with the decimals of its currency (null: a gate profile's without a currency). */
export interface LimitedProfileRow {
  id: string;
  fraction: string | null;
}

const COLUMNS = `id, commission_profile_id, gate_commission_profile_id, tx_type, qualifier, time_unit, value::text, active, created_at, updated_at`;
const OWNER_COLUMN = { commission: 'commission_profile_id', gate: 'gate_commission_profile_id' } as const;

@Injectable()
export class LimitProfilesRepository {
  constructor(private readonly db: Database) {}

  async contractExists(id: string): Promise<boolean> {
    const [{ found }] = await this.db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM contracts WHERE id = $1) AS found', [id]);
    return found;
  }

  /** A commission profile of the contract, locked FOR UPDATE when `lock` (which serializes changes to its limits). */
  async commissionProfile(contractId: string, id: string, lock: boolean): Promise<LimitedProfileRow | undefined> {
    const [row] = await this.db.query<LimitedProfileRow>(
      `SELECT p.id, cu.fraction::text FROM commission_profiles p
         JOIN issuers i ON i.id = p.issuer_id JOIN currencies cu ON cu.id = i.currency_id
        WHERE p.id = $1 AND p.contract_id = $2${lock ? ' FOR UPDATE OF p' : ''}`,
      [id, contractId],
    );
    return row;
  }

  /** A gate commission profile of the contract, locked FOR UPDATE when `lock`. */
  async gateProfile(contractId: string, id: string, lock: boolean): Promise<LimitedProfileRow | undefined> {
    const [row] = await this.db.query<LimitedProfileRow>(
      `SELECT p.id, cu.fraction::text FROM gate_commission_profiles p LEFT JOIN currencies cu ON cu.id = p.currency_id
        WHERE p.id = $1 AND p.contract_id = $2${lock ? ' FOR UPDATE OF p' : ''}`,
      [id, contractId],
    );
    return row;
  }

  async list(owner: LimitOwner): Promise<LimitProfileRow[]> {
    return this.db.query<LimitProfileRow>(
      `SELECT ${COLUMNS} FROM limit_profiles WHERE ${OWNER_COLUMN[owner.kind]} = $1 ORDER BY created_at, id`,
      [owner.profileId],
    );
  }

  async find(owner: LimitOwner, id: string): Promise<LimitProfileRow | undefined> {
    const [row] = await this.db.query<LimitProfileRow>(
      `SELECT ${COLUMNS} FROM limit_profiles WHERE id = $1 AND ${OWNER_COLUMN[owner.kind]} = $2`,
      [id, owner.profileId],
    );
    return row;
  }

  /** The profile's limit of the same kind, if any. */
  async sameKind(owner: LimitOwner, txType: string | null, qualifier: string, timeUnit: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `SELECT id FROM limit_profiles
        WHERE ${OWNER_COLUMN[owner.kind]} = $1 AND tx_type IS NOT DISTINCT FROM $2 AND qualifier = $3 AND time_unit = $4`,
      [owner.profileId, txType, qualifier, timeUnit],
    );
    return row?.id;
  }

  async insert(
    owner: LimitOwner,
    values: { txType: string | null; qualifier: string; timeUnit: string; value: string; active: boolean },
  ): Promise<LimitProfileRow> {
    const [row] = await this.db.query<LimitProfileRow>(
      `INSERT INTO limit_profiles (${OWNER_COLUMN[owner.kind]}, tx_type, qualifier, time_unit, value, active)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [owner.profileId, values.txType, values.qualifier, values.timeUnit, values.value, values.active],
    );
    return row;
  }

  async update(id: string, value: string, active: boolean): Promise<LimitProfileRow> {
    const [row] = await this.db.query<LimitProfileRow>(
      `UPDATE limit_profiles SET value = $2, active = $3, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, value, active],
    );
    return row;
  }

  /**
   * Gives the commission profiles of contract `toContractId` the limits of their counterparts (same flow and issuer)
   * in `fromContractId`; answers how many.
   */
  async copyCommissionLimits(fromContractId: string, toContractId: string): Promise<number> {
    const [{ n }] = await this.db.query<{ n: number }>(
      `WITH copied AS (
         INSERT INTO limit_profiles (commission_profile_id, qualifier, time_unit, value, active)
         SELECT dst.id, l.qualifier, l.time_unit, l.value, l.active
           FROM limit_profiles l
           JOIN commission_profiles src ON src.id = l.commission_profile_id AND src.contract_id = $1
           JOIN commission_profiles dst ON dst.contract_id = $2 AND dst.flow = src.flow AND dst.issuer_id = src.issuer_id
         RETURNING 1)
       SELECT count(*)::int AS n FROM copied`,
      [fromContractId, toContractId],
    );
    return n;
  }
}
