import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { OperationTextDto } from '../../../platform/common/operation-text.dto';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { AsList, IsAfter, IsIsoDateTime, UuidList } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';

export class UserActionRecordDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** The action's place in the log (the hash chain's order). */
  @ApiProperty({ pattern: '^[0-9]+$' })
  seq: string;
  /** The user the action is about (null for a failed login under an unknown login). */
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  userId: string | null;
  /** Who did it, when not the user themself. */
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  actorUserId: string | null;
  action: string;
  @ApiProperty({ type: String, nullable: true })
  login: string | null;
  /** The client address the request came from. */
  @ApiProperty({ type: String, nullable: true })
  address: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true })
  details: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
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
}

export class UserActionViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UserActionFilterDto)
  filter?: UserActionFilterDto;
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
] as const;

/** An object an action created or changed, with its state now. */
export class ObjectMarkDto {
  @ApiProperty({ enum: MARK_TYPES })
  objectType: string;
  objectId: string;
  /** Its state now (`missing` when it no longer exists). */
  state: string;
}

export class ActionReverseDto {
  status: 'ok';
  message: string;
  action: UserActionRecordDto;
  /** The objects the action created or changed, each with its state now. */
  marks: ObjectMarkDto[];
  /** Whether `POST /users/view/{actionId}/reverse` can undo it now (a processed money operation not reversed yet). */
  reversible: boolean;
  /** The operation that reversed the action's operation, once reversed. */
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  reversedBy: string | null;
}

export class ReverseUserActionDto extends OperationTextDto {}

export class ReverseUserActionResultDto {
  status: 'ok';
  message: string;
  @ApiProperty({ format: 'uuid' })
  actionId: string;
  process: OperationDto;
}

export class AuditCheckBreakDto {
  @ApiProperty({ format: 'uuid' })
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
