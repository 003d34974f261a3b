import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto, SortOrder } from '../../../platform/common/paging.dto';
import { AsList, IsAfter, IsIsoDateTime, UuidList } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { ApiDateTime, ApiEnum, ApiTextOrNull, ApiUuid, ApiUuidOrNull, Nested } from '../../../platform/common/dto-fields';

/**
 * Where an action's request came from. finapi records the client's address only: `host`, `ip` and `userIp` all say
 * it, and the user agent is not recorded (null).
 */
export class RequestInfoDto {
  @ApiTextOrNull()
  host: string | null;
  @ApiTextOrNull()
  ip: string | null;
  @ApiTextOrNull()
  userIp: string | null;
  @ApiTextOrNull()
  userAgent: string | null;
}

export class UserActionRecordDto {
  @ApiUuid()
  id: string;
  /** The action's place in the log (the hash chain's order). */
  @ApiProperty({ pattern: '^[0-9]+$' })
  seq: string;
  /** The user the action is about (null for a failed login under an unknown login). */
  @ApiUuidOrNull()
  userId: string | null;
  /** Who did it, when not the user themself. */
  @ApiUuidOrNull()
  actorUserId: string | null;
  action: string;
  @ApiTextOrNull()
  login: string | null;
  /** The client address the request came from. */
  @ApiTextOrNull()
  address: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true })
  details: Record<string, unknown>;
  @ApiDateTime()
  createdAt: string;
  /** `id` under the family's name. */
  @ApiUuid()
  actionId: string;
  /** `createdAt` under the family's name. */
  @ApiDateTime()
  performedAt: string;
  /** What happened, in words (the action's kind, and the reason of a refusal). */
  comment: string;
  requestInfo: RequestInfoDto;
  /** The session the action ended, when it ended one. */
  @ApiTextOrNull()
  sessionId: string | null;
}

/** Each names the one order there is (by time, newest first unless `asc`): the family sends `dateCreated`. */
export class UserActionSortDto {
  @SortOrder()
  dateCreated?: 'asc' | 'desc';

  @SortOrder()
  createdAt?: 'asc' | 'desc';

  @SortOrder()
  performedAt?: 'asc' | 'desc';
}

/** A filter of up to 100 client addresses. */
function AddressList(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String] }),
    AsList(),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(100),
    IsString({ each: true }),
    MaxLength(64, { each: true }),
  );
}

export class UserActionFilterDto {
  @UuidList()
  userIds?: string[];

  @UuidList()
  actorUserIds?: string[];

  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  actions?: string[];

  @IsOptional()
  @IsIsoDateTime()
  createdAtFrom?: string;

  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('createdAtFrom')
  createdAtTo?: string;

  /** Actions by their ids. */
  @UuidList()
  actionIds?: string[];

  /** Actions whose request came from one of these client addresses. */
  @AddressList()
  userIps?: string[];

  /** The same as `userIps` (finapi records one address per action: the client's). */
  @AddressList()
  hosts?: string[];

  /** The family's names for `createdAtFrom` and `createdAtTo`. */
  @IsOptional()
  @IsIsoDateTime()
  performedAtFrom?: string;

  @IsOptional()
  @IsIsoDateTime()
  @IsAfter('performedAtFrom')
  performedAtTo?: string;
}

export class UserActionViewDto extends PageRequestDto {
  @Nested(() => UserActionFilterDto, 'optional')
  filter?: UserActionFilterDto;

  @Nested(() => UserActionSortDto, 'optional')
  sort?: UserActionSortDto;
}

export class UserActionRecordPageDto extends PageDto {
  records: UserActionRecordDto[];
}

export const MARK_TYPES = [
  'user',
  'operation',
  'bank_top_up_request',
  'bank_withdrawal',
  'cash_desk_operation',
  'reset_identification_request',
  'organization',
  'session',
  'profile_document',
  'contract',
  'gate_provider',
] as const;

/** An object an action created or changed, with its state now. */
export class ObjectMarkDto {
  @ApiEnum(MARK_TYPES)
  objectType: string;
  objectId: string;
  /** Its state now (`missing` when it no longer exists). */
  state: string;
}

/** An object an action touched, in the family's shape. */
export class ObjectOfActionDto {
  /** The object's id. */
  entityId: string;
  /** What kind of object it is, in words (`User`, `Operation`, …). */
  entityName: string;
  @ApiEnum(MARK_TYPES)
  type: string;
  /** The action's kind (`user_deactivated`, `bank_top_up_accepted`, …). */
  actionType: string;
  /** The role the actor acted as, when the action was made through a request. */
  role?: string;
  /** Its state now (`missing` when it no longer exists). */
  state: string;
}

export class ActionObjectsDto {
  @ApiUuid()
  actionId: string;
  objectsOfAction: ObjectOfActionDto[];
}

export class ActionReverseDto {
  status: 'ok';
  message: string;
  /** The family's shape of the marks: one record, the action's, with its objects. */
  records: ActionObjectsDto[];
  action: UserActionRecordDto;
  /** The objects the action created or changed, each with its state now. */
  marks: ObjectMarkDto[];
  /** Whether `POST /users/view/{actionId}/reverse` can undo it now (a processed money operation not reversed yet). */
  reversible: boolean;
  /** The operation that reversed the action's operation, once reversed. */
  @ApiUuidOrNull()
  reversedBy: string | null;
}

export class ReverseUserActionDto extends OperationTextDto {}

export class ReverseUserActionResultDto {
  status: 'ok';
  message: string;
  @ApiUuid()
  actionId: string;
  process: OperationDto;
}

export class AuditCheckBreakDto {
  @ApiUuid()
  id: string;
  @ApiProperty({ pattern: '^[0-9]+$' })
  seq: string;
  reason: string;
}

/** The last action of the chain: keep its seq and hash outside the database to tell later whether the log was rewritten. */
export class AuditChainHeadDto {
  @ApiProperty({ pattern: '^[0-9]+$' })
  seq: string;
  /** Its hash (hex HMAC-SHA256), which every earlier action's content and hash went into. */
  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  hash: string;
}

export class AuditCheckDto {
  status: 'ok';
  message: string;
  /** True when every action's hashes chain up to the last one. */
  intact: boolean;
  checkedActions: number;
  /** The chain's last action; null while the log is empty. */
  @ApiProperty({ type: () => AuditChainHeadDto, nullable: true })
  head: AuditChainHeadDto | null;
  /** The first seq whose hash is keyed (AUDIT_CHAIN_KEY); the actions before it were recorded before the key existed (plain SHA-256). */
  @ApiProperty({ pattern: '^[0-9]+$' })
  keyedFrom: string;
  /** The first action whose hashes do not match, when the log was edited. */
  @ApiPropertyOptional({ type: AuditCheckBreakDto })
  firstBroken?: AuditCheckBreakDto;
}
