import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import { containing, nameSortOrder } from '../../platform/database/search-sql';
import type { NameSort } from '../../platform/common/paging.dto';

/** An organization or a gate provider as the system operations screen lists it. */
export interface SystemOrganizationRow {
  id: string;
  type: string;
  name: string;
  identification_status: string;
  contract_id: string | null;
  person_type: string | null;
  /** The contract's name; null with no contract (a gate provider). */
  contract_name: string | null;
  active: boolean;
  created_at: Date;
}

/** The coin a system operation names by serial, with what decides which operations it takes. */
export interface ProviderCoinRow {
  serial: string;
  issuer_id: string;
  type: 'client' | 'system';
  system_kind: string | null;
  organization_type: string;
}

export interface SystemOrganizationFilter {
  types?: string[];
  identificationStatuses?: string[];
  name?: string;
  emitentId?: string;
}

/**
 * The organizations (never `system`) and the gate providers, as one list: gate providers are not organizations in
 * finapi, but the family's screens choose them among organizations of type `gate_provider`. `serves` ($1, an issuer or
 * null) keeps the organizations holding a client coin of it and the gate providers selling in its currency.
 */
const PARTIES = `(
  SELECT o.id, o.type, o.name, o.identification_status, o.contract_id, o.person_type, k.name AS contract_name, true AS active,
         o.created_at
    FROM organizations o
    LEFT JOIN contracts k ON k.id = o.contract_id
   WHERE o.type <> 'system'
     AND ($1::uuid IS NULL OR EXISTS (SELECT 1 FROM coins c WHERE c.organization_id = o.id AND c.type = 'client' AND c.issuer_id = $1::uuid))
  UNION ALL
  SELECT g.id, 'gate_provider', g.name, 'not_available', NULL, NULL, NULL, g.active, g.created_at
    FROM gate_providers g
   WHERE $1::uuid IS NULL
      OR EXISTS (SELECT 1 FROM gate_products p JOIN issuers i ON i.currency_id = p.currency_id WHERE p.gate_provider_id = g.id AND i.id = $1::uuid)
) t`;

@Injectable()
export class SystemOperationsRepository {
  constructor(private readonly db: Database) {}

  async organizations(
    filter: SystemOrganizationFilter,
    sort: NameSort,
    offset: number,
    limit: number,
  ): Promise<{ total: number; exact: boolean; rows: SystemOrganizationRow[] }> {
    const params: unknown[] = [filter.emitentId ?? null];
    const where: string[] = [];
    if (filter.types?.length) where.push(`t.type = ANY($${params.push(filter.types)}::text[])`);
    if (filter.identificationStatuses?.length)
      where.push(`t.identification_status = ANY($${params.push(filter.identificationStatuses)}::text[])`);
    if (filter.name) where.push(`t.name ILIKE $${params.push(containing(filter.name))}`);
    const clause = `FROM ${PARTIES}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const count = await this.db.countRows(clause, params);
    const rows = await this.db.query<SystemOrganizationRow>(
      `SELECT t.id, t.type, t.name, t.identification_status, t.contract_id, t.person_type, t.contract_name, t.active, t.created_at
       ${clause} ORDER BY ${nameSortOrder('t', sort)} LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: count.total, exact: count.exact, rows };
  }

  /** What `id` is: a cash desk or another organization (its type), a gate provider, or nothing. */
  async partyType(id: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ type: string }>(
      `SELECT type FROM organizations WHERE id = $1 UNION ALL SELECT 'gate_provider' FROM gate_providers WHERE id = $1`,
      [id],
    );
    return row?.type;
  }

  /** The issuers of the currencies a gate provider sells products in. */
  async gateProviderIssuers(providerId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT DISTINCT i.id FROM gate_products p JOIN issuers i ON i.currency_id = p.currency_id
        WHERE p.gate_provider_id = $1 ORDER BY i.id`,
      [providerId],
    );
    return rows.map((r) => r.id);
  }

  /** The coin of a serial with its kind and its organization's type, read without a lock. */
  async coin(serial: string): Promise<ProviderCoinRow | undefined> {
    const [row] = await this.db.query<ProviderCoinRow>(
      `SELECT c.serial::text AS serial, c.issuer_id, c.type, c.system_kind, o.type AS organization_type
         FROM coins c JOIN organizations o ON o.id = c.organization_id WHERE c.serial = $1`,
      [serial],
    );
    return row;
  }
}
