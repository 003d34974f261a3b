import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalText } from '../../common/validators';
import { CurrencyDto } from './currency.dto';

export class CreateIssuerDto {
  /** Code of the currency the issuer issues, e.g. `USD`. */
  @ApiProperty({ example: 'USD' })
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as USD' })
  currencyCode: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalText(500)
  @IsString()
  description?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class UpdateIssuerDto extends PartialType(PickType(CreateIssuerDto, ['name', 'description', 'active'] as const)) {}

export class IssuerDto {
  id: string;
  /** The issuer's serial number. */
  sn: number;
  name: string;
  description: string | null;
  active: boolean;
  currency: CurrencyDto;
}

export class IssuerResponseDto {
  status: 'ok';
  message: string;
  issuer: IssuerDto;
}

export class IssuerListDto {
  status: 'ok';
  message: string;
  issuers: IssuerDto[];
}
