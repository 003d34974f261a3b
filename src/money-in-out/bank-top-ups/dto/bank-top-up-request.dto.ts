import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import type { JsonDecimal } from '../../../platform/common/json-decimal';
import { normalizeIban } from '../../../platform/common/iban';
import { ApiAmount } from '../../../platform/common/money-validators';
import { FULL_NAME_MAX } from '../../../platform/common/operation-text.dto';
import { PageDto } from '../../../platform/common/paging.dto';
import {
  BankInfoDto,
  ClientCoinDto,
  RequestFilterDto,
  RequestRecordDto,
  RequestStatuses,
  FAMILY_ONLY_REQUEST_STATUSES,
  RequestViewDto,
} from '../../../platform/common/request-view.dto';
import { EnumList, IsIban } from '../../../platform/common/validators';
import { OperationDto } from '../../../platform/ledger/dto/operation.dto';
import { BankTopUpDto } from './bank-top-up.dto';
import { ApiEnum, ApiExample, ApiOptionalUuid, ApiTextOrNull, ApiUuid, ApiUuidOrNull, Nested } from '../../../platform/common/dto-fields';

/** A request for a bank top-up: the shape clients of this API family send. No money moves until staff accept it. */
export class BankTopUpRequestDto extends BankTopUpDto {
  /** The IBAN the money comes from; its check digits are verified. */
  @ApiPropertyOptional({ example: 'DE89370400440532013000' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeIban(value) : value))
  @IsIban()
  iban?: string;

  /** The sending bank, from the catalog (`GET /bank-catalog`). */
  @ApiOptionalUuid()
  @IsOptional()
  @IsUUID()
  bankId?: string;

  /** Who sends the money, at most 255 characters. */
  @ApiPropertyOptional({ maxLength: FULL_NAME_MAX })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(FULL_NAME_MAX)
  fullName?: string;
}

export const BANK_TOP_UP_REQUEST_STATUSES = ['new', 'processed', 'declined'] as const;

export class BankTopUpRequestRecordDto extends RequestRecordDto {
  /** `new` until decided; `processed` (accepted: `operationId` is the top-up) or `declined`. */
  @ApiEnum(BANK_TOP_UP_REQUEST_STATUSES)
  status: string;
  /** The status in the family's words (`new` is `pending`), as its request screens show it. */
  @ApiEnum(['pending', 'processed', 'declined'])
  requestStatus: string;
  /** The operation type the request posts once accepted, as the family's request table shows it. */
  @ApiEnum(['bank_topup'])
  type: 'bank_topup';
  /** The request's business identifier: a number, also accepted in the decision routes' paths. */
  @ApiExample(1)
  requestIdentifier: number;
  @ApiUuid()
  organizationId: string;
  @ApiAmount(100)
  amount: JsonDecimal;
  @ApiAmount(100, 'The family’s name for amount')
  cashAmount: JsonDecimal;
  /** The credited coin, as the family's screens show it. */
  clientCoin: ClientCoinDto;
  /** The catalog's bank named by `bankId` (every field null without one). */
  bankInfo: BankInfoDto;
  @ApiTextOrNull()
  bankAccountNumber: string | null;
  @ApiTextOrNull()
  iban: string | null;
  @ApiUuidOrNull()
  bankId: string | null;
  @ApiTextOrNull()
  fullName: string | null;
  /** The bank top-up operation, once accepted. */
  @ApiUuidOrNull()
  operationId: string | null;
}

export class BankTopUpRequestResultDto {
  status: 'ok';
  message: string;
  bankTopUp: BankTopUpRequestRecordDto;
}

export class BankTopUpDecisionDto extends BankTopUpRequestResultDto {
  /** The bank top-up operation the acceptance posted. */
  process: OperationDto;
}

export class BankTopUpRequestFilterDto extends RequestFilterDto {
  @EnumList(BANK_TOP_UP_REQUEST_STATUSES)
  statuses?: string[];

  /**
   * The family's name for statuses; one status or a list, in the family's words too: `pending` is `new`, and `error` and
   * `rejected` (no request has them) match nothing.
   */
  @RequestStatuses([...BANK_TOP_UP_REQUEST_STATUSES, 'pending', ...FAMILY_ONLY_REQUEST_STATUSES])
  requestStatuses?: string[];
}

export class BankTopUpRequestViewDto extends RequestViewDto {
  @Nested(() => BankTopUpRequestFilterDto, 'optional')
  filter?: BankTopUpRequestFilterDto;
}

export class BankTopUpRequestPageDto extends PageDto {
  records: BankTopUpRequestRecordDto[];
}
