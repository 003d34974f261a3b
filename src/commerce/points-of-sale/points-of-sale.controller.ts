import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import {
  CreatePointOfSaleDto,
  PointOfSaleDto,
  PointOfSalePageDto,
  PointOfSaleResponseDto,
  PointOfSaleViewDto,
  UpdatePointOfSaleDto,
} from './dto/point-of-sale.dto';
import { PointsOfSaleService } from './points-of-sale.service';

const POS_ID = { name: 'posId', schema: { type: 'string', format: 'uuid' } } as const;
/** The point of sale under the family's name (`pos`) and the service's first one (`pointOfSale`). */
const both = (pos: PointOfSaleDto) => ({ pos, pointOfSale: pos });
const NO_POS = { description: "exception.point_of_sale.not_found: missing, deleted, or another merchant's", type: ErrorResponseDto };

@ApiTags('points-of-sale')
@Controller('points-of-sale')
export class PointsOfSaleController {
  constructor(private readonly points: PointsOfSaleService) {}

  /** A merchant adds a point of sale (a shop, a till) where customers pay it: a payment may name it with `posId`. */
  @Post()
  @RequirePermissions('POINT_OF_SALE_MANAGER')
  @ApiOperation({ summary: 'Add a point of sale', operationId: 'createPointOfSale' })
  @ApiCreatedResponse({ type: PointOfSaleResponseDto })
  async create(@Body() dto: CreatePointOfSaleDto, @CurrentPrincipal() principal: Principal): Promise<PointOfSaleResponseDto> {
    return { status: 'ok', message: 'Point of sale added', ...both(await this.points.create(principal, dto)) };
  }

  /** The merchant's own points of sale; `filter.active` narrows them. Deleted ones are left out. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('POINT_OF_SALE_MANAGER')
  @ApiOperation({ summary: "The merchant's points of sale", operationId: 'viewPointsOfSale' })
  @ApiOkResponse({ type: PointOfSalePageDto })
  view(@Body() dto: PointOfSaleViewDto, @CurrentPrincipal() principal: Principal): Promise<PointOfSalePageDto> {
    return this.points.view(principal, dto);
  }

  /** Every point of sale of the merchant, by name, as the family's client lists them (at most 10,000; `truncated` says when more). */
  @Get()
  @RequirePermissions('POINT_OF_SALE_MANAGER')
  @ApiOperation({ summary: "The merchant's points of sale, all of them", operationId: 'listPointsOfSale' })
  @ApiOkResponse({ type: PointOfSalePageDto })
  list(@CurrentPrincipal() principal: Principal): Promise<PointOfSalePageDto> {
    return this.points.view(principal, { all: true });
  }

  /** One of the merchant's own points of sale; another merchant's, like a missing or deleted one, is a 404. */
  @Get(':posId')
  @ApiParam(POS_ID)
  @RequirePermissions('POINT_OF_SALE_MANAGER')
  @ApiOperation({ summary: 'A point of sale', operationId: 'getPointOfSale' })
  @ApiOkResponse({ type: PointOfSaleResponseDto })
  @ApiNotFoundResponse(NO_POS)
  async get(@UuidParam('posId') id: string, @CurrentPrincipal() principal: Principal): Promise<PointOfSaleResponseDto> {
    return { status: 'ok', message: 'OK', ...both(await this.points.get(principal, id)) };
  }

  /**
   * Changes the fields sent of one of the merchant's own points of sale; an inactive one takes no payments. Another
   * merchant's is a 404.
   */
  @Patch(':posId')
  @ApiParam(POS_ID)
  @RequirePermissions('POINT_OF_SALE_MANAGER')
  @ApiOperation({ summary: 'Change a point of sale', operationId: 'updatePointOfSale' })
  @ApiOkResponse({ type: PointOfSaleResponseDto })
  @ApiNotFoundResponse(NO_POS)
  async update(
    @UuidParam('posId') id: string,
    @Body() dto: UpdatePointOfSaleDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PointOfSaleResponseDto> {
    return { status: 'ok', message: 'Point of sale changed', ...both(await this.points.update(principal, id, dto)) };
  }

  /**
   * Deletes one of the merchant's points of sale: it takes no more payments, while those made there keep it. A missing
   * or already deleted point of sale is a 404, never a 200 (section 7).
   */
  @Delete(':posId')
  @ApiParam(POS_ID)
  @RequirePermissions('POINT_OF_SALE_MANAGER')
  @ApiOperation({ summary: 'Delete a point of sale', operationId: 'deletePointOfSale' })
  @ApiOkResponse({ type: PointOfSaleResponseDto })
  @ApiNotFoundResponse(NO_POS)
  async delete(@UuidParam('posId') id: string, @CurrentPrincipal() principal: Principal): Promise<PointOfSaleResponseDto> {
    return { status: 'ok', message: 'Point of sale deleted', ...both(await this.points.delete(principal, id)) };
  }
}
