import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { AuditService } from './audit.service';
import * as dto from './dto/audit.dto';

const VIEWER = { access: ['USER_ACTION_VIEWER'] } as const;

/** The user action log for staff: what every user did and had done to them, and what each action touched. */
@Routes('', 'user-actions')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Every recorded action, newest first: actor, target user, action, address, details, time. */
  @Route('POST', 'users/view/actions', { ...VIEWER, summary: 'Search the user action log', status: 200 })
  searchUserActionLog(@Body() body: dto.UserActionViewDto): Promise<dto.UserActionRecordPageDto> {
    return this.audit.view(body);
  }

  /** The object marks of an action: the objects it created or changed, each with its state now, and whether it can be reversed. */
  @Route('GET', 'users/view/:actionId/action-reverse', {
    ...VIEWER,
    summary: 'The objects an action touched',
    errors: ['exception.user_action.not_found'],
  })
  async getUserActionMarks(@UuidParam('actionId') id: string): Promise<dto.ActionReverseDto> {
    return { status: 'ok', message: 'OK', ...(await this.audit.marks(id)) };
  }

  /** Reverses the money operation an action made (the ledger's linked reversal). */
  @Route('POST', 'users/view/:actionId/reverse', {
    summary: 'Reverse what an action did',
    access: ['USER_ACTION_REVERSER'],
    idempotent: true,
    errors: ['exception.user_action.not_found', 'exception.user_action.not_reversible', 'exception.transaction.already_reversed'],
  })
  async reverseUserAction(
    @UuidParam('actionId') id: string,
    @Body() body: dto.ReverseUserActionDto,
    @Caller() caller: Principal,
  ): Promise<dto.ReverseUserActionResultDto> {
    return { status: 'ok', message: 'Action reversed', actionId: id, process: await this.audit.reverse(caller, id, body) };
  }

  /** Verifies the action log's hash chain: each action carries the hash of the one before; an edited or removed row breaks it. */
  @Route('GET', 'actuator/audit-check', { summary: 'Verify the hash chain of the action log', access: ['AUDIT_CHECKER'] })
  async auditCheck(): Promise<dto.AuditCheckDto> {
    const result = await this.audit.check();
    return { status: 'ok', message: result.intact ? 'The action log is intact' : 'The action log was altered', ...result };
  }
}
