import { Injectable } from '@nestjs/common';
import { Page, pageOf, PageRequestDto, pageWindow } from '../common/paging.dto';
import { TransactionMeta, UnitOfWork } from '../database/unit-of-work';
import type { UserActionDto } from './dto/user-action.dto';
import type { UserAction } from './user-action.types';
import { UserActionsRepository } from './user-actions.repository';

/**
 * An action as recorded in a request: its details say the request's id and, when the request's principal is the one
 * who acted, the role and organization it acted as. What the details already say is kept (the ledger's `money_moved`
 * says each posting's own).
 */
function stamped(action: UserAction, meta: TransactionMeta): UserAction {
  const actor = action.actorUserId ?? action.userId;
  const stamp = {
    ...(meta.requestId ? { requestId: meta.requestId } : {}),
    ...(meta.actorUserId && actor === meta.actorUserId ? { actorRole: meta.actorRole, actorOrganizationId: meta.actorOrganizationId } : {}),
  };
  return Object.keys(stamp).length ? { ...action, details: { ...stamp, ...action.details } } : action;
}

/** Records what users do and what is done to them; every module that acts on a user calls it. */
@Injectable()
export class UserActionsService {
  constructor(
    private readonly actions: UserActionsRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Recorded inside the open transaction when there is one, so the actions and their effect commit together; several in one statement. */
  record(...actions: UserAction[]): Promise<void> {
    const meta = this.uow.meta();
    return this.actions.insert(actions.map((a) => stamped(a, meta)));
  }

  /**
   * Recorded as the open transaction's last statement, sent with its COMMIT (UnitOfWork.sendWithCommit): the chain's
   * end is read now, the rows leave with the COMMIT. The work sends nothing after it but such statements.
   */
  recordAtCommit(...actions: UserAction[]): Promise<void> {
    const meta = this.uow.meta();
    return this.actions.insert(
      actions.map((a) => stamped(a, meta)),
      true,
    );
  }

  async page(userId: string, request: PageRequestDto): Promise<Page<UserActionDto>> {
    const { offset, limit } = pageWindow(request);
    const { total, rows } = await this.actions.page(userId, offset, limit);
    return pageOf(
      request,
      total,
      rows.map((r) => ({
        id: r.id,
        action: r.action,
        login: r.login,
        address: r.address,
        actorUserId: r.actor_user_id,
        details: r.details,
        createdAt: r.created_at.toISOString(),
      })),
    );
  }
}
