import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Equals, IsBoolean, IsOptional, IsString, IsUrl, IsUUID, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { OptionalText } from '../../../platform/common/validators';
import { ApiDateTime, ApiEnum, ApiTextOrNull, ApiUuid, ApiUuidOrNull, Nested } from '../../../platform/common/dto-fields';

/** An optional http(s) URL, up to 500 characters; null clears it. */
function OptionalUrl(): PropertyDecorator {
  return (target: object, property: string | symbol) => {
    OptionalText(500)(target, property);
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
      { message: `${String(property)} must be an http(s) URL` },
    )(target, property);
    ApiPropertyOptional({ type: String, nullable: true, format: 'uri', maxLength: 500 })(target, property);
  };
}

export class CreatePointOfSaleDto {
  /** The point of sale's name (the family's name for it), 1 to 200 characters; give it or `name`. */
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'Kiosk on the main square' })
  @ValidateIf((dto: CreatePointOfSaleDto) => dto.posCompanyName !== undefined || dto.name === undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  posCompanyName?: string;

  /** The same as `posCompanyName` (the service's first name for it); sent together, they must be equal. */
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @OptionalText(500)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  address?: string | null;

  @OptionalText(500)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  description?: string | null;

  /** The merchant's website, shown by the client. */
  @OptionalUrl()
  website?: string | null;

  /**
   * Where the merchant's server would hear of payments, as the family names it: stored and answered, but the
   * service calls no URL of a point of sale — a merchant hears of its payments through webhooks (`/webhooks`).
   */
  @OptionalUrl()
  serverUrl?: string | null;

  /** Where the merchant's shop would send a payer back after paying: stored and answered, the service redirects no one. */
  @OptionalUrl()
  resultUrl?: string | null;

  /** One of the caller's transaction categories, for the payments taken here; null clears it. */
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  categoryId?: string | null;

  /**
   * Accepted only as `false` (or null, or left out): the service never calls a point of sale's URLs, and would never
   * do so without checking the certificate — true is a 400.
   */
  @ApiPropertyOptional({ type: Boolean, nullable: true, enum: [false] })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Equals(false, { message: 'trustAllCertificates must be false: the service never skips TLS certificate checks' })
  trustAllCertificates?: boolean | null;

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

/** The fields sent change; those left out stay. */
export class UpdatePointOfSaleDto extends PartialType(CreatePointOfSaleDto) {}

export class PointOfSaleDto {
  @ApiUuid()
  id: string;
  @ApiUuid()
  merchantId: string;
  /** The point of sale's name. */
  posCompanyName: string;
  /** The same as posCompanyName. */
  name: string;
  @ApiTextOrNull()
  address: string | null;
  @ApiTextOrNull()
  description: string | null;
  @ApiTextOrNull()
  website: string | null;
  /** Stored and answered only: the service calls no URL of a point of sale. */
  @ApiTextOrNull()
  serverUrl: string | null;
  /** Stored and answered only: the service redirects no one. */
  @ApiTextOrNull()
  resultUrl: string | null;
  /** The transaction category (`categoryId` of the requests). */
  @ApiUuidOrNull()
  txCategoryId: string | null;
  /** The category's name. */
  @ApiTextOrNull()
  txCategoryCode: string | null;
  /** Always false: the service never skips TLS certificate checks. */
  @ApiEnum([false])
  trustAllCertificates: false;
  active: boolean;
  @ApiDateTime()
  createdAt: string;
}

export class PointOfSaleResponseDto {
  status: 'ok';
  message: string;
  /** The point of sale, as the family's client reads it. */
  pos: PointOfSaleDto;
  /** The same as pos. */
  pointOfSale: PointOfSaleDto;
}

export class PointOfSaleListDto {
  status: 'ok';
  message: string;
  /** Every point of sale of the merchant not deleted, by name (at most 1000). */
  records: PointOfSaleDto[];
}

export class PointOfSaleFilterDto {
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class PointOfSaleViewDto extends PageRequestDto {
  @Nested(() => PointOfSaleFilterDto, 'optional')
  filter?: PointOfSaleFilterDto;
}

export class PointOfSalePageDto extends PageDto {
  records: PointOfSaleDto[];
}
