import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { parseAmount, scaleOf } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type {
  CreateMerchantProductDto,
  CreateMerchantProductPriceDto,
  MerchantProductDto,
  MerchantProductPriceDto,
  MerchantProductViewDto,
  UpdateMerchantProductDto,
} from './dto/merchant-product.dto';
import { MerchantProductsRepository, PriceRow, ProductRow } from './merchant-products.repository';

function toPrice(row: PriceRow): MerchantProductPriceDto {
  return {
    id: row.id,
    productId: row.product_id,
    currency: row.currency,
    price: amountOf(row.price, scaleOf(row.fraction)),
    createdAt: row.created_at.toISOString(),
  };
}

/** A merchant's catalogue: its own products only (another's, like an unknown one, is a 404), each with a price per currency. */
@Injectable()
export class MerchantProductsService {
  constructor(
    private readonly products: MerchantProductsRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async create(principal: Principal, dto: CreateMerchantProductDto): Promise<MerchantProductDto> {
    const row = await this.products.insert({
      organizationId: principal.organizationId,
      name: dto.name,
      category: dto.category ?? null,
      description: dto.description ?? null,
      active: dto.active ?? true,
    });
    return (await this.withPrices([row]))[0];
  }

  async get(principal: Principal, id: string): Promise<MerchantProductDto> {
    return (await this.withPrices([await this.own(principal, id)]))[0];
  }

  async view(principal: Principal, dto: MerchantProductViewDto): Promise<Page<MerchantProductDto>> {
    const { offset, limit } = pageWindow(dto);
    const { total, rows } = await this.products.page(principal.organizationId, dto.filter ?? {}, offset, limit);
    return pageOf(dto, total, await this.withPrices(rows));
  }

  categories(principal: Principal): Promise<string[]> {
    return this.products.categories(principal.organizationId);
  }

  async update(principal: Principal, id: string, dto: UpdateMerchantProductDto): Promise<MerchantProductDto> {
    const row = await this.products.update(id, principal.organizationId, dto);
    if (!row) throw new ApiError('exception.merchant_product.not_found');
    return (await this.withPrices([row]))[0];
  }

  async delete(principal: Principal, id: string): Promise<MerchantProductDto> {
    const row = await this.products.delete(id, principal.organizationId);
    if (!row) throw new ApiError('exception.merchant_product.not_found');
    return { ...(await this.withPrices([row]))[0] };
  }

  async prices(principal: Principal, productId: string): Promise<MerchantProductPriceDto[]> {
    await this.own(principal, productId);
    return (await this.products.prices([productId])).map(toPrice);
  }

  /** A price in a currency; one per currency (a second is a 409). */
  async addPrice(principal: Principal, productId: string, dto: CreateMerchantProductPriceDto): Promise<MerchantProductPriceDto> {
    return this.uow.run(async () => {
      await this.own(principal, productId);
      const currency = await this.products.currency(dto.currency);
      if (!currency) throw new ApiError('exception.currency.not_found');
      const price = parseAmount(dto.price, scaleOf(currency.fraction), 'price');
      const id = await this.products.insertPrice(productId, currency.id, price.toFixed());
      if (!id) throw new ApiError('exception.merchant_product_price.exists');
      return toPrice((await this.products.price(productId, id))!);
    });
  }

  async deletePrice(principal: Principal, productId: string, priceId: string): Promise<MerchantProductPriceDto> {
    return this.uow.run(async () => {
      await this.own(principal, productId);
      const row = await this.products.price(productId, priceId);
      if (!row || !(await this.products.deletePrice(productId, priceId))) throw new ApiError('exception.merchant_product_price.not_found');
      return toPrice(row);
    });
  }

  private async own(principal: Principal, id: string): Promise<ProductRow> {
    const row = await this.products.get(id, principal.organizationId);
    if (!row) throw new ApiError('exception.merchant_product.not_found');
    return row;
  }

  private async withPrices(rows: ProductRow[]): Promise<MerchantProductDto[]> {
    const prices = rows.length ? await this.products.prices(rows.map((r) => r.id)) : [];
    return rows.map((r) => ({
      id: r.id,
      merchantId: r.organization_id,
      name: r.name,
      category: r.category,
      description: r.description,
      active: r.active,
      prices: prices.filter((p) => p.product_id === r.id).map(toPrice),
      createdAt: r.created_at.toISOString(),
    }));
  }
}
