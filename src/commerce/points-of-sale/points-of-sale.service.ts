import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import type { CreatePointOfSaleDto, PointOfSaleDto, PointOfSaleViewDto, UpdatePointOfSaleDto } from './dto/point-of-sale.dto';
import { PointsOfSaleRepository, PosFields, PosRow } from './points-of-sale.repository';

function toPos(row: PosRow): PointOfSaleDto {
  return {
    id: row.id,
    merchantId: row.organization_id,
    posCompanyName: row.name,
    name: row.name,
    address: row.address,
    description: row.description,
    website: row.website,
    serverUrl: row.server_url,
    resultUrl: row.result_url,
    txCategoryId: row.category_id,
    txCategoryCode: row.category_name,
    trustAllCertificates: false,
    active: row.active,
    createdAt: row.created_at.toISOString(),
  };
}

/** A merchant's points of sale: its own only (another's, like a missing or deleted one, is a 404). */
@Injectable()
export class PointsOfSaleService {
  constructor(private readonly points: PointsOfSaleRepository) {}

  async create(principal: Principal, dto: CreatePointOfSaleDto): Promise<PointOfSaleDto> {
    const fields = await this.fieldsOf(principal, dto);
    return toPos(await this.points.insert(principal.organizationId, { ...fields, name: fields.name! }));
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
    const row = await this.points.update(id, principal.organizationId, await this.fieldsOf(principal, dto));
    if (!row) throw new ApiError('exception.point_of_sale.not_found');
    return toPos(row);
  }

  /** A missing or already deleted point is a 404, never a 200 (section 7). */
  async delete(principal: Principal, id: string): Promise<PointOfSaleDto> {
    const row = await this.points.delete(id, principal.organizationId);
    if (!row) throw new ApiError('exception.point_of_sale.not_found');
    return toPos(row);
  }

  /** The columns a request sets: its name in either vocabulary, and a category only of the caller's own. */
  private async fieldsOf(principal: Principal, dto: UpdatePointOfSaleDto): Promise<PosFields> {
    for (const field of ['posCompanyName', 'name', 'active'] as const) {
      if (dto[field] === null) throw ApiError.invalid(field, 'must not be null');
    }
    if (dto.name !== undefined && dto.posCompanyName !== undefined && dto.name !== dto.posCompanyName) {
      throw ApiError.invalid('name', 'must equal posCompanyName when both are sent');
    }
    if (dto.categoryId && !(await this.points.isOwnCategory(principal.userId, dto.categoryId))) {
      throw ApiError.invalid('categoryId', 'must be one of your transaction categories');
    }
    return {
      name: dto.posCompanyName ?? dto.name,
      address: dto.address,
      description: dto.description,
      website: dto.website,
      server_url: dto.serverUrl,
      result_url: dto.resultUrl,
      category_id: dto.categoryId,
      active: dto.active,
    };
  }

  /** An active point of sale of any merchant, for a payment there. */
  async forPayment(id: string): Promise<PosRow | undefined> {
    const row = await this.points.get(id);
    return row?.active ? row : undefined;
  }
}
