import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/point-of-sale.dto';
import { PointsOfSaleService } from './points-of-sale.service';

/** The point of sale under the family's name (`pos`) and the service's first one (`pointOfSale`). */
const both = (pos: dto.PointOfSaleDto) => ({ pos, pointOfSale: pos });
const MANAGER = { access: ['POINT_OF_SALE_MANAGER'] } as const;
const ONE = { ...MANAGER, errors: ['exception.point_of_sale.not_found'] } as const;

@Routes('points-of-sale')
export class PointsOfSaleController {
  constructor(private readonly points: PointsOfSaleService) {}

  /** A merchant adds a point of sale (a shop, a till) where customers pay it: a payment may name it with `posId`. */
  @Route('POST', '', { ...MANAGER, summary: 'Add a point of sale' })
  async createPointOfSale(@Body() body: dto.CreatePointOfSaleDto, @Caller() caller: Principal): Promise<dto.PointOfSaleResponseDto> {
    return { status: 'ok', message: 'Point of sale added', ...both(await this.points.create(caller, body)) };
  }

  /** The merchant's own points of sale; `filter.active` narrows them. Deleted ones are left out. */
  @Route('POST', 'view', { ...MANAGER, summary: "The merchant's points of sale", status: 200 })
  viewPointsOfSale(@Body() body: dto.PointOfSaleViewDto, @Caller() caller: Principal): Promise<dto.PointOfSalePageDto> {
    return this.points.view(caller, body);
  }

  /** Every point of sale of the merchant, by name, as the family's client lists them (at most 10,000; `truncated` says when more). */
  @Route('GET', '', { ...MANAGER, summary: "The merchant's points of sale, all of them" })
  listPointsOfSale(@Caller() caller: Principal): Promise<dto.PointOfSalePageDto> {
    return this.points.view(caller, { all: true });
  }

  /** One of the merchant's own points of sale; a deleted one is a 404, as another merchant's. */
  @Route('GET', ':posId', { ...ONE, summary: 'A point of sale' })
  async getPointOfSale(@UuidParam('posId') id: string, @Caller() caller: Principal): Promise<dto.PointOfSaleResponseDto> {
    return { status: 'ok', message: 'OK', ...both(await this.points.get(caller, id)) };
  }

  /** Changes the fields sent of one of the merchant's own points of sale; an inactive one takes no payments. */
  @Route('PATCH', ':posId', { ...ONE, summary: 'Change a point of sale' })
  async updatePointOfSale(
    @UuidParam('posId') id: string,
    @Body() body: dto.UpdatePointOfSaleDto,
    @Caller() caller: Principal,
  ): Promise<dto.PointOfSaleResponseDto> {
    return { status: 'ok', message: 'Point of sale changed', ...both(await this.points.update(caller, id, body)) };
  }

  /** A deleted point of sale takes no more payments, those made there keep it; deleting it again is a 404, never a 200 (section 7). */
  @Route('DELETE', ':posId', { ...ONE, summary: 'Delete a point of sale' })
  async deletePointOfSale(@UuidParam('posId') id: string, @Caller() caller: Principal): Promise<dto.PointOfSaleResponseDto> {
    return { status: 'ok', message: 'Point of sale deleted', ...both(await this.points.delete(caller, id)) };
  }
}
