import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { ActionChain } from '../../platform/user-actions/action-chain';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { ActionRow, AuditRepository, MARKED_OBJECTS, MarkKey } from './audit.repository';
import type {
  ActionReverseDto,
  AuditCheckDto,
  ObjectMarkDto,
  ReverseUserActionDto,
  UserActionRecordDto,
  UserActionViewDto,
} from './dto/audit.dto';

/** Actions audit-check reads at a time. */
const CHAIN_PAGE = 5_000;

/** Actions about a user themself (the `user` mark is the target). */
const ABOUT_THE_USER = new Set([
  'user_created',
  'user_held',
  'user_released',
  'password_changed',
  'sessions_ended',
  'profile_changed',
  'login_change_requested',
  'login_restored',
  'contact_verified',
  'user_registered',
  'password_recovered',
  'login_changed',
  'one_time_codes_locked',
  'user_activated',
  'user_deactivated',
]);

/** What each kind of marked object is called in the family's `objectsOfAction[].entityName`. */
const ENTITY_NAMES: Record<string, string> = {
  user: 'User',
  operation: 'Operation',
  bank_top_up_request: 'Bank top-up request',
  bank_withdrawal: 'Bank withdrawal',
  cash_desk_operation: 'Cash desk operation',
  reset_identification_request: 'Identification reset request',
  organization: 'Organization',
  session: 'Session',
  profile_document: 'Identity document',
  contract: 'Contract',
  gate_provider: 'Gate provider',
};

/** The action in words: its kind, and the reason a refusal gives (`Login failed: deactivated`). */
function commentOf(row: ActionRow): string {
  const words = row.action.replace(/_/g, ' ');
  const reason = typeof row.details.reason === 'string' ? `: ${row.details.reason.replace(/_/g, ' ')}` : '';
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}${reason}`;
}

function toRecord(row: ActionRow): UserActionRecordDto {
  return {
    id: row.id,
    seq: row.seq,
    userId: row.user_id,
    actorUserId: row.actor_user_id,
    action: row.action,
    login: row.login,
    address: row.address,
    details: row.details,
    createdAt: row.created_at.toISOString(),
    actionId: row.id,
    performedAt: row.created_at.toISOString(),
    comment: commentOf(row),
    requestInfo: { host: row.address, ip: row.address, userIp: row.address, userAgent: null },
    sessionId: typeof row.details.sessionId === 'string' ? row.details.sessionId : null,
  };
}

/** The action log for staff: every action, the objects each touched (and their state now), reversal, and the hash chain's check. */
@Injectable()
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly ledger: LedgerService,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
    private readonly chain: ActionChain,
  ) {}

  async view(dto: UserActionViewDto): Promise<Page<UserActionRecordDto>> {
    const { offset, limit } = pageWindow(dto);
    const { performedAtFrom, performedAtTo, userIps, hosts, ...filter } = dto.filter ?? {};
    const addresses = [...(userIps ?? []), ...(hosts ?? [])];
    const sort = dto.sort?.dateCreated ?? dto.sort?.createdAt ?? dto.sort?.performedAt;
    const search = {
      ...filter,
      createdAtFrom: filter.createdAtFrom ?? performedAtFrom,
      createdAtTo: filter.createdAtTo ?? performedAtTo,
      ...(addresses.length ? { addresses } : {}),
      ascending: sort === 'asc',
    };
    const { total, exact, rows } = await this.audit.page(search, offset, limit);
    return pageOf(dto, total, rows.map(toRecord), exact);
  }

  /** The action with its object marks: the objects it created or changed, each with its current state. */
  async marks(id: string): Promise<Omit<ActionReverseDto, 'status' | 'message'>> {
    const row = await this.audit.get(id);
    if (!row) throw new ApiError('exception.user_action.not_found');
    const marks: ObjectMarkDto[] = [];
    if (row.user_id && ABOUT_THE_USER.has(row.action)) {
      marks.push({ objectType: 'user', objectId: row.user_id, state: (await this.audit.userState(row.user_id)) ?? 'missing' });
    }
    for (const key of Object.keys(MARKED_OBJECTS) as MarkKey[]) {
      const value = row.details[key];
      if (typeof value !== 'string') continue;
      marks.push({ objectType: MARKED_OBJECTS[key].type, objectId: value, state: (await this.audit.stateOf(key, value)) ?? 'missing' });
    }
    const operation = marks.find((m) => m.objectType === 'operation');
    const reversedBy = operation ? ((await this.audit.reversalOf(operation.objectId)) ?? null) : null;
    const role = typeof row.details.actorRole === 'string' ? { role: row.details.actorRole } : {};
    const objectsOfAction = marks.map((m) => ({
      entityId: m.objectId,
      entityName: ENTITY_NAMES[m.objectType] ?? m.objectType,
      type: m.objectType,
      actionType: row.action,
      ...role,
      state: m.state,
    }));
    return {
      records: [{ actionId: row.id, objectsOfAction }],
      action: toRecord(row),
      marks,
      reversible: operation?.state === 'processed' && !reversedBy,
      reversedBy,
    };
  }

  /** Undoes what an action did: the money operation it made is reversed by the ledger's linked reversal (once). */
  async reverse(principal: Principal, id: string, text: ReverseUserActionDto): Promise<OperationDto> {
    return this.uow.run(async () => {
      const row = await this.audit.get(id);
      if (!row) throw new ApiError('exception.user_action.not_found');
      const operationId = row.details.operationId;
      if (typeof operationId !== 'string') throw new ApiError('exception.user_action.not_reversible');
      const reversal = await this.ledger.reverse(operationId, text);
      await this.actions.record({
        userId: principal.userId,
        action: 'user_action_reversed',
        details: { userActionId: id, operationId: reversal.id, reversedOperationId: operationId },
      });
      return reversal;
    });
  }

  /**
   * Walks the whole chain in seq order, on one snapshot: each action's prev_hash must be the hash of the action before
   * it, and its hash the HMAC of its content under the key (plain SHA-256 below `keyedFrom`). Answers the first action
   * that fails, and the chain's head — the last seq and hash, for operators to keep elsewhere: whoever rewrote the
   * whole log with the key could not reproduce a head kept out of their reach.
   */
  async check(): Promise<Omit<AuditCheckDto, 'status' | 'message'>> {
    return this.uow.run(
      async () => {
        const keyedFrom = await this.audit.keyedFrom();
        let checked = 0;
        let prev = '';
        let head: { seq: string; hash: string } | null = null;
        let broken: AuditCheckDto['firstBroken'];
        for (let after = '0'; ;) {
          const rows = await this.audit.chainAfter(after, CHAIN_PAGE);
          for (const row of rows) {
            checked++;
            if (!broken) {
              const expected =
                BigInt(row.seq) >= BigInt(keyedFrom) ? this.chain.hash(row.prev_hash, row) : ActionChain.plainHash(row.prev_hash, row);
              if (row.prev_hash !== prev) broken = { id: row.id, seq: row.seq, reason: 'prev_hash does not match the previous action' };
              else if (row.hash !== expected) broken = { id: row.id, seq: row.seq, reason: 'hash does not match the action' };
            }
            prev = row.hash;
            head = { seq: row.seq, hash: row.hash };
          }
          if (rows.length < CHAIN_PAGE) break;
          after = rows[rows.length - 1].seq;
        }
        return { intact: !broken, checkedActions: checked, head, keyedFrom, ...(broken ? { firstBroken: broken } : {}) };
      },
      { isolation: 'REPEATABLE READ' },
    );
  }
}
