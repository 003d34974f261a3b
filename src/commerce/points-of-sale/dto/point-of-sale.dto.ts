import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { PageDto, PageRequestDto } from '../../../platform/common/paging.dto';
import { OptionalText } from '../../../platform/common/validators';

export class CreatePointOfSaleDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @OptionalText(500)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  address?: string | null;

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class UpdatePointOfSaleDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @OptionalText(500)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  address?: string | null;

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class PointOfSaleDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  merchantId: string;
  name: string;
  @ApiProperty({ type: String, nullable: true })
  address: string | null;
  active: boolean;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class PointOfSaleResponseDto {
  status: 'ok';
  message: string;
  pointOfSale: PointOfSaleDto;
}

export class PointOfSaleFilterDto {
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class PointOfSaleViewDto extends PageRequestDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PointOfSaleFilterDto)
  filter?: PointOfSaleFilterDto;
}

export class PointOfSalePageDto extends PageDto {
  records: PointOfSaleDto[];
}
