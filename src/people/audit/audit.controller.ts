import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { AuditService } from './audit.service';
import {
  ActionReverseDto,
  AuditCheckDto,
  ReverseUserActionDto,
  ReverseUserActionResultDto,
  UserActionRecordPageDto,
  UserActionViewDto,
} from './dto/audit.dto';

const ACTION_ID = { name: 'actionId', schema: { type: 'string', format: 'uuid' } } as const;

/** The user action log for staff: what every user did and had done to them, and what each action touched. */
@ApiTags('user-actions')
@Controller()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Every recorded action, newest first: actor, target user, action, address, details, time. */
  @Post('users/view/actions')
  @HttpCode(200)
  @RequirePermissions('USER_ACTION_VIEWER')
  @ApiOperation({ summary: 'Search the user action log', operationId: 'searchUserActionLog' })
  @ApiOkResponse({ type: UserActionRecordPageDto })
  view(@Body() dto: UserActionViewDto): Promise<UserActionRecordPageDto> {
    return this.audit.view(dto);
  }

  /** The object marks of an action: the objects it created or changed, each with its state now, and whether it can be reversed. */
  @Get('users/view/:actionId/action-reverse')
  @ApiParam(ACTION_ID)
  @RequirePermissions('USER_ACTION_VIEWER')
  @ApiOperation({ summary: 'The objects an action touched', operationId: 'getUserActionMarks' })
  @ApiOkResponse({ type: ActionReverseDto })
  @ApiNotFoundResponse({ description: 'exception.user_action.not_found', type: ErrorResponseDto })
  async marks(@UuidParam('actionId') id: string): Promise<ActionReverseDto> {
    return { status: 'ok', message: 'OK', ...(await this.audit.marks(id)) };
  }

  /** Reverses the money operation an action made (the ledger's linked reversal); a second reversal is a 409. */
  @Post('users/view/:actionId/reverse')
  @ApiParam(ACTION_ID)
  @RequirePermissions('USER_ACTION_REVERSER')
  @Idempotent()
  @ApiOperation({ summary: 'Reverse what an action did', operationId: 'reverseUserAction' })
  @ApiCreatedResponse({ type: ReverseUserActionResultDto })
  @ApiNotFoundResponse({ description: 'exception.user_action.not_found', type: ErrorResponseDto })
  @ApiConflictResponse({
    description: 'exception.user_action.not_reversible (no money moved), or the operation is already reversed',
    type: ErrorResponseDto,
  })
  async reverse(
    @UuidParam('actionId') id: string,
    @Body() dto: ReverseUserActionDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ReverseUserActionResultDto> {
    return { status: 'ok', message: 'Action reversed', actionId: id, process: await this.audit.reverse(principal, id, dto) };
  }

  /** Verifies the action log's hash chain: each action carries the hash of the one before; an edited or removed row breaks it. */
  @Get('actuator/audit-check')
  @RequirePermissions('AUDIT_CHECKER')
  @ApiOperation({ summary: 'Verify the hash chain of the action log', operationId: 'auditCheck' })
  @ApiOkResponse({ type: AuditCheckDto })
  async check(): Promise<AuditCheckDto> {
    const result = await this.audit.check();
    return { status: 'ok', message: result.intact ? 'The action log is intact' : 'The action log was altered', ...result };
  }
}
