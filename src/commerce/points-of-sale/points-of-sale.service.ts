import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import type { CreatePointOfSaleDto, PointOfSaleDto, PointOfSaleViewDto, UpdatePointOfSaleDto } from './dto/point-of-sale.dto';
import { PointsOfSaleRepository, PosRow } from './points-of-sale.repository';

function toPos(row: PosRow): PointOfSaleDto {
  return {
    id: row.id,
    merchantId: row.organization_id,
    name: row.name,
    address: row.address,
    active: row.active,
    createdAt: row.created_at.toISOString(),
  };
}

/** A merchant's points of sale: its own only (another's, like a missing or deleted one, is a 404). */
@Injectable()
export class PointsOfSaleService {
  constructor(private readonly points: PointsOfSaleRepository) {}

  async create(principal: Principal, dto: CreatePointOfSaleDto): Promise<PointOfSaleDto> {
    return toPos(
      await this.points.insert({
        organizationId: principal.organizationId,
        name: dto.name,
        address: dto.address ?? null,
        active: dto.active ?? true,
      }),
    );
  }

  async get(principal: Principal, id: string): Promise<PointOfSaleDto> {
    const row = await this.points.get(id, principal.organizationId);
    if (!row) throw new ApiError('exception.point_of_sale.not_found');
    return toPos(row);
  }

  async view(principal: Principal, dto: PointOfSaleViewDto): Promise<Page<PointOfSaleDto>> {
    const { offset, limit } = pageWindow(dto);
    const { total, rows } = await this.points.page(principal.organizationId, dto.filter?.active, offset, limit);
    return pageOf(dto, total, rows.map(toPos));
  }

  async update(principal: Principal, id: string, dto: UpdatePointOfSaleDto): Promise<PointOfSaleDto> {
    const row = await this.points.update(id, principal.organizationId, dto);
    if (!row) throw new ApiError('exception.point_of_sale.not_found');
    return toPos(row);
  }

  /** A missing or already deleted point is a 404, never a 200 (section 7). */
  async delete(principal: Principal, id: string): Promise<PointOfSaleDto> {
    const row = await this.points.delete(id, principal.organizationId);
    if (!row) throw new ApiError('exception.point_of_sale.not_found');
    return toPos(row);
  }

  /** An active point of sale of any merchant, for a payment there. */
  async forPayment(id: string): Promise<PosRow | undefined> {
    const row = await this.points.get(id);
    return row?.active ? row : undefined;
  }
}
