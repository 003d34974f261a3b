import { ApiHideProperty, ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { IsRemoved } from '../../../platform/common/validators';
import { CurrencyDto } from './currency.dto';
import { ApiExample, ApiInteger, ApiUuid, Description, Name, OptionalFlag } from '../../../platform/common/dto-fields';

export class CreateIssuerDto {
  /** Code of the currency the issuer issues, e.g. `USD`. */
  @ApiExample('USD')
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'must be a currency code such as USD' })
  currencyCode: string;

  @Name(100)
  name: string;

  @Description(500)
  description?: string;

  @OptionalFlag(true)
  active?: boolean;

  /**
   * The issuer's serial number (`sn`), as the family's client names it: 1 to 15 digits, not starting with 0, not
   * another issuer's (409). Left out, the next free number is given.
   */
  @ApiPropertyOptional({ example: '2001', pattern: '^[1-9][0-9]{0,14}$' })
  @IsOptional()
  @IsString()
  @Matches(/^[1-9][0-9]{0,14}$/, { message: 'must be 1 to 15 digits, not starting with 0' })
  snPrefix?: string;

  /** Removed in release 4.10.0: sent as null it is ignored, any other value is refused. */
  @ApiHideProperty()
  @IsRemoved()
  orderNumber?: null;

  /** Removed in release 4.10.0: sent as null it is ignored, any other value is refused. */
  @ApiHideProperty()
  @IsRemoved()
  orderQuote?: null;
}

export class UpdateIssuerDto extends PartialType(PickType(CreateIssuerDto, ['name', 'description', 'active'] as const)) {}

export class IssuerDto {
  @ApiUuid()
  id: string;
  /** The issuer's serial number. */
  @ApiInteger()
  sn: number;
  /** The same serial number as text: the family's name for it (what `POST /issuers` takes as `snPrefix`). */
  @ApiProperty({ example: '2001', pattern: '^[1-9][0-9]{0,14}$' })
  snPrefix: string;
  /** The code of the currency it issues. */
  @ApiExample('USD')
  currencyCode: string;
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
  records: IssuerDto[];
}
