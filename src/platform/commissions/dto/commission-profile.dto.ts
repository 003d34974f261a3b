import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { PageDto, PageRequestDto } from '../../common/paging.dto';
import { AsList, OptionalText, UuidList } from '../../common/validators';
import { OPERATION_FLOW_NAMES, OperationFlow } from '../../ledger/operation-types';

export class CreateCommissionProfileDto {
  /** The operation flow the profile prices (`GET /operation-flows`). */
  @ApiProperty({ enum: OPERATION_FLOW_NAMES, example: 'client_transaction_transfer' })
  @IsIn(OPERATION_FLOW_NAMES)
  flow: OperationFlow;

  /** The issuer (currency) whose coins the profile prices; one profile per contract, flow and issuer. */
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  issuerId: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalText(200)
  @IsString()
  name?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalText(500)
  @IsString()
  description?: string;

  /** An inactive profile charges nothing. Default true. */
  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

/** The flow and the issuer of a profile are fixed; delete it and create another to change them. */
export class UpdateCommissionProfileDto extends PartialType(
  PickType(CreateCommissionProfileDto, ['name', 'description', 'active'] as const),
) {}

/** The issuer of a profile, with its currency. */
export class ProfileIssuerDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ type: 'integer', example: 1001 })
  sn: number;
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ type: String, nullable: true, example: '$' })
  symbol: string | null;
  /** Minor units per major unit of the currency: amounts of the profile's rules have its decimals. */
  @ApiProperty({ example: 100 })
  fraction: number;
}

export class CommissionProfileDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  contractId: string;
  @ApiProperty({ enum: OPERATION_FLOW_NAMES })
  flow: string;
  issuer: ProfileIssuerDto;
  @ApiProperty({ type: String, nullable: true })
  name: string | null;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  active: boolean;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class CommissionProfileResponseDto {
  status: 'ok';
  message: string;
  profile: CommissionProfileDto;
}

export class CommissionProfileFilterDto {
  @ApiPropertyOptional({ enum: OPERATION_FLOW_NAMES, isArray: true })
  @IsOptional()
  @AsList()
  @IsArray()
  @ArrayMaxSize(20)
  @IsIn(OPERATION_FLOW_NAMES, { each: true })
  flows?: string[];

  @UuidList()
  issuerIds?: string[];

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class CommissionProfileViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CommissionProfileFilterDto)
  filter?: CommissionProfileFilterDto;
}

export class CommissionProfilePageDto extends PageDto {
  records: CommissionProfileDto[];
}

/** The answer of a deletion. */
export class DeletedDto {
  status: 'ok';
  message: string;
  @ApiProperty({ format: 'uuid' })
  id: string;
}
