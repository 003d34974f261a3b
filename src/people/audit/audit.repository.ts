import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import type { ChainedAction } from '../../platform/user-actions/action-chain';
import type { UserActionRow } from '../../platform/user-actions/user-actions.repository';

/** An action of the log with its place in the chain. */
export interface ActionRow extends UserActionRow {
  seq: string;
}

/** An action of the chain as audit-check walks it. */
export interface ChainRow extends ChainedAction {
  seq: string;
  prev_hash: string;
  hash: string;
}

export interface ActionSearch {
  userIds?: string[];
  actorUserIds?: string[];
  actions?: string[];
  createdAtFrom?: string;
  createdAtTo?: string;
  actionIds?: string[];
  addresses?: string[];
  /** Oldest first when true; newest first otherwise. */
  ascending?: boolean;
}

/** The objects an action can name in its details, and the table and column that tell each one's current state. */
export const MARKED_OBJECTS = {
  operationId: { type: 'operation', table: 'operations', state: 'status' },
  bankTopUpRequestId: { type: 'bank_top_up_request', table: 'bank_top_up_requests', state: 'status' },
  bankWithdrawalId: { type: 'bank_withdrawal', table: 'bank_withdrawals', state: 'status' },
  cashDeskOperationId: { type: 'cash_desk_operation', table: 'cash_desk_operations', state: 'status' },
  resetIdentificationRequestId: { type: 'reset_identification_request', table: 'reset_identification_requests', state: 'status' },
  organizationId: { type: 'organization', table: 'organizations', state: 'identification_status' },
  sessionId: { type: 'session', table: 'auth_tokens', state: "CASE WHEN revoked_at IS NULL THEN 'active' ELSE 'revoked' END" },
  profileDocumentId: { type: 'profile_document', table: 'profile_documents', state: 'status' },
  contractId: { type: 'contract', table: 'contracts', state: "CASE WHEN active THEN 'active' ELSE 'inactive' END" },
  gateProviderId: { type: 'gate_provider', table: 'gate_providers', state: "CASE WHEN active THEN 'active' ELSE 'inactive' END" },
} as const;
export type MarkKey = keyof typeof MARKED_OBJECTS;

const COLUMNS = 'id, seq::text AS seq, user_id, actor_user_id, action, login, address, details, created_at';

/** The action log as staff read it, and its hash chain. */
@Injectable()
export class AuditRepository {
  constructor(private readonly db: Database) {}

  async page(search: ActionSearch, offset: number, limit: number): Promise<{ total: number; exact: boolean; rows: ActionRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (search.userIds?.length) where.push(`user_id = ANY($${params.push(search.userIds)}::uuid[])`);
    if (search.actorUserIds?.length) where.push(`actor_user_id = ANY($${params.push(search.actorUserIds)}::uuid[])`);
    if (search.actions?.length) where.push(`action = ANY($${params.push(search.actions)}::text[])`);
    if (search.createdAtFrom) where.push(`created_at >= $${params.push(search.createdAtFrom)}::timestamptz`);
    if (search.createdAtTo) where.push(`created_at < $${params.push(search.createdAtTo)}::timestamptz`);
    if (search.actionIds?.length) where.push(`id = ANY($${params.push(search.actionIds)}::uuid[])`);
    if (search.addresses?.length) where.push(`address = ANY($${params.push(search.addresses)}::text[])`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const count = await this.db.countRows(`FROM user_actions ${clause}`, params);
    const direction = search.ascending ? 'ASC' : 'DESC';
    const rows = await this.db.query<ActionRow>(
      `SELECT ${COLUMNS} FROM user_actions ${clause} ORDER BY user_actions.created_at ${direction}, user_actions.seq ${direction} LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: count.total, exact: count.exact, rows };
  }

  async get(id: string): Promise<ActionRow | undefined> {
    const [row] = await this.db.query<ActionRow>(`SELECT ${COLUMNS} FROM user_actions WHERE id = $1`, [id]);
    return row;
  }

  /** The current state of the object `id` of a kind, or undefined when it does not exist (any more). */
  async stateOf(key: MarkKey, id: string): Promise<string | undefined> {
    const { table, state } = MARKED_OBJECTS[key];
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const [row] = await this.db.query<{ state: string }>(`SELECT ${state} AS state FROM ${table} WHERE id = $1`, [id]);
    return row?.state;
  }

  /** The state of a user, for actions about one: `deactivated`, else `active` or `on_hold`. */
  async userState(id: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ status: string }>(
      `SELECT CASE WHEN deactivated_at IS NULL THEN status ELSE 'deactivated' END AS status FROM users WHERE id = $1`,
      [id],
    );
    return row?.status;
  }

  /** The reversal of an operation, if any. */
  async reversalOf(operationId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(`SELECT id FROM operations WHERE reversal_of = $1`, [operationId]);
    return row?.id;
  }

  /** The first seq the chain's key covers: earlier actions were chained by plain SHA-256, before the key existed. */
  async keyedFrom(): Promise<string> {
    const [row] = await this.db.query<{ keyed_from: string }>(`SELECT keyed_from::text AS keyed_from FROM user_action_chain`);
    return row?.keyed_from ?? '1';
  }

  /** The chain after `afterSeq`, in order, `limit` actions: each with its stored hashes and its content as the hashes cover it. */
  async chainAfter(afterSeq: string, limit: number): Promise<ChainRow[]> {
    return this.db.query<ChainRow>(
      `SELECT id::text AS id, seq::text AS seq, prev_hash, hash, user_id::text AS user_id, actor_user_id::text AS actor_user_id, action,
              login, address, details::text AS details, (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros
         FROM user_actions a WHERE a.seq > $1::bigint ORDER BY a.seq LIMIT ${limit}`,
      [afterSeq],
    );
  }
}
