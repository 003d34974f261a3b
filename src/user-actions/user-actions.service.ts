import { Injectable } from '@nestjs/common';
import { Page, pageOf, PageRequestDto, pageWindow } from '../common/paging.dto';
import type { UserActionDto } from './dto/user-action.dto';
import type { UserAction } from './user-action.types';
import { UserActionsRepository } from './user-actions.repository';

/** Records what users do and what is done to them; every module that acts on a user calls it. */
@Injectable()
export class UserActionsService {
  constructor(private readonly actions: UserActionsRepository) {}

  /** Recorded inside the open transaction when there is one, so the actions and their effect commit together; several in one statement. */
  record(...actions: UserAction[]): Promise<void> {
    return this.actions.insert(actions);
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
