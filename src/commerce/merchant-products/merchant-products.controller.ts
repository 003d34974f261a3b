import { ApiParam, Body, Caller, NumericIdParam, Principal, Route, Routes } from '../../platform/http';
import * as dto from './dto/merchant-product.dto';
import { MerchantProductsService } from './merchant-products.service';

const MANAGER = { access: ['MERCHANT_PRODUCT_MANAGER'] } as const;
const NO_PRODUCT = ['exception.merchant_product.not_found', "no such product of the caller's"] as const;
const ONE = { ...MANAGER, errors: [NO_PRODUCT] } as const;
/** A numeric id: its pattern is the document's (finishDocument types only uuids and serials). */
const NumericId = (name: string) => ApiParam({ name, schema: { type: 'string', pattern: dto.PRODUCT_ID_PATTERN.source } });

/** A merchant's catalogue: products (numeric ids) and a price per currency. */
@Routes('merchant-products')
export class MerchantProductsController {
  constructor(private readonly products: MerchantProductsService) {}

  /** Active unless said otherwise; a payment buys it by `items` only in a currency it has a price in (`POST …/{productId}/prices`). */
  @Route('POST', '', { ...MANAGER, summary: 'Add a product to the catalogue' })
  async createMerchantProduct(
    @Body() body: dto.CreateMerchantProductDto,
    @Caller() caller: Principal,
  ): Promise<dto.MerchantProductResponseDto> {
    return { status: 'ok', message: 'Product added', product: await this.products.create(caller, body) };
  }

  /** The merchant's own products with their prices, by category, part of the name and active; removed ones are left out. */
  @Route('POST', 'view', { ...MANAGER, summary: "Search the merchant's products", status: 200 })
  viewMerchantProducts(@Body() body: dto.MerchantProductViewDto, @Caller() caller: Principal): Promise<dto.MerchantProductPageDto> {
    return this.products.view(caller, body);
  }

  /** The categories the merchant's own products use, alphabetically: to fill a filter. */
  @Route('GET', 'categories', { ...MANAGER, summary: "The catalogue's categories" })
  async listMerchantProductCategories(@Caller() caller: Principal): Promise<dto.MerchantCategoriesDto> {
    return { status: 'ok', message: 'OK', categories: await this.products.categories(caller) };
  }

  /** One of the merchant's own products with its prices; a removed one is a 404, as another merchant's. */
  @Route('GET', ':productId', { ...ONE, summary: 'A product with its prices' })
  @NumericId('productId')
  async getMerchantProduct(@NumericIdParam('productId') id: string, @Caller() caller: Principal): Promise<dto.MerchantProductResponseDto> {
    return { status: 'ok', message: 'OK', product: await this.products.get(caller, id) };
  }

  /** Changes the fields sent (null clears category or description); `active: false` takes the product off sale. */
  @Route('PATCH', ':productId', { ...ONE, summary: 'Change a product' })
  @NumericId('productId')
  async updateMerchantProduct(
    @NumericIdParam('productId') id: string,
    @Body() body: dto.UpdateMerchantProductDto,
    @Caller() caller: Principal,
  ): Promise<dto.MerchantProductResponseDto> {
    return { status: 'ok', message: 'Product changed', product: await this.products.update(caller, id, body) };
  }

  /** The product can no longer be bought, while payments that bought it keep their purchases; removing it again is a 404. */
  @Route('DELETE', ':productId', { ...ONE, summary: 'Remove a product from the catalogue' })
  @NumericId('productId')
  async deleteMerchantProduct(
    @NumericIdParam('productId') id: string,
    @Caller() caller: Principal,
  ): Promise<dto.MerchantProductResponseDto> {
    return { status: 'ok', message: 'Product removed', product: await this.products.delete(caller, id) };
  }

  /** The prices of one of the merchant's own products, one per currency. */
  @Route('GET', ':productId/prices', { ...ONE, summary: "A product's prices" })
  @NumericId('productId')
  async listMerchantProductPrices(
    @NumericIdParam('productId') id: string,
    @Caller() caller: Principal,
  ): Promise<dto.MerchantProductPriceListDto> {
    return { status: 'ok', message: 'OK', records: await this.products.prices(caller, id) };
  }

  /** One price per currency, exact to the currency's minor units. */
  @Route('POST', ':productId/prices', {
    ...MANAGER,
    summary: 'Price a product in a currency',
    errors: [NO_PRODUCT, 'exception.currency.not_found', 'exception.merchant_product_price.exists'],
  })
  @NumericId('productId')
  async createMerchantProductPrice(
    @NumericIdParam('productId') id: string,
    @Body() body: dto.CreateMerchantProductPriceDto,
    @Caller() caller: Principal,
  ): Promise<dto.MerchantProductPriceResponseDto> {
    return { status: 'ok', message: 'Price added', price: await this.products.addPrice(caller, id, body) };
  }

  /** Removes a product's price in a currency and answers it: the product can no longer be bought in that currency. */
  @Route('DELETE', ':productId/prices/:priceId', {
    ...MANAGER,
    summary: 'Remove a price',
    errors: [NO_PRODUCT, 'exception.merchant_product_price.not_found'],
  })
  @NumericId('productId')
  @NumericId('priceId')
  async deleteMerchantProductPrice(
    @NumericIdParam('productId') id: string,
    @NumericIdParam('priceId') priceId: string,
    @Caller() caller: Principal,
  ): Promise<dto.MerchantProductPriceResponseDto> {
    return { status: 'ok', message: 'Price removed', price: await this.products.deletePrice(caller, id, priceId) };
  }
}
