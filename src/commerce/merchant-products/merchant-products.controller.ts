import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { NumericIdParam } from '../../platform/common/validators';
import {
  CreateMerchantProductDto,
  CreateMerchantProductPriceDto,
  MerchantCategoriesDto,
  MerchantProductPageDto,
  MerchantProductPriceListDto,
  MerchantProductPriceResponseDto,
  MerchantProductResponseDto,
  MerchantProductViewDto,
  PRODUCT_ID_PATTERN,
  UpdateMerchantProductDto,
} from './dto/merchant-product.dto';
import { MerchantProductsService } from './merchant-products.service';

const PRODUCT_ID = { name: 'productId', schema: { type: 'string', pattern: PRODUCT_ID_PATTERN.source } } as const;
const PRICE_ID = { name: 'priceId', schema: { type: 'string', pattern: PRODUCT_ID_PATTERN.source } } as const;
const NO_PRODUCT = { description: "exception.merchant_product.not_found: no such product of the caller's", type: ErrorResponseDto };

/** A merchant's catalogue: products (numeric ids) and a price per currency. */
@ApiTags('merchant-products')
@Controller('merchant-products')
export class MerchantProductsController {
  constructor(private readonly products: MerchantProductsService) {}

  /**
   * A merchant adds a product to its own catalogue (active unless said otherwise). A payment buys it by `items` only in
   * a currency it has a price in (`POST …/{productId}/prices`).
   */
  @Post()
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: 'Add a product to the catalogue', operationId: 'createMerchantProduct' })
  @ApiCreatedResponse({ type: MerchantProductResponseDto })
  async create(@Body() dto: CreateMerchantProductDto, @CurrentPrincipal() principal: Principal): Promise<MerchantProductResponseDto> {
    return { status: 'ok', message: 'Product added', product: await this.products.create(principal, dto) };
  }

  /**
   * The merchant's own products with their prices, by category, part of the name and active; removed ones are left out.
   */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: "Search the merchant's products", operationId: 'viewMerchantProducts' })
  @ApiOkResponse({ type: MerchantProductPageDto })
  view(@Body() dto: MerchantProductViewDto, @CurrentPrincipal() principal: Principal): Promise<MerchantProductPageDto> {
    return this.products.view(principal, dto);
  }

  /** The categories the merchant's own products use, alphabetically: to fill a filter. */
  @Get('categories')
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: "The catalogue's categories", operationId: 'listMerchantProductCategories' })
  @ApiOkResponse({ type: MerchantCategoriesDto })
  async categories(@CurrentPrincipal() principal: Principal): Promise<MerchantCategoriesDto> {
    return { status: 'ok', message: 'OK', categories: await this.products.categories(principal) };
  }

  /**
   * One of the merchant's own products with its prices; another merchant's, like an unknown or removed one, is a 404 (a
   * productId that is not a number: 400).
   */
  @Get(':productId')
  @ApiParam(PRODUCT_ID)
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: 'A product with its prices', operationId: 'getMerchantProduct' })
  @ApiOkResponse({ type: MerchantProductResponseDto })
  @ApiNotFoundResponse(NO_PRODUCT)
  async get(@NumericIdParam('productId') id: string, @CurrentPrincipal() principal: Principal): Promise<MerchantProductResponseDto> {
    return { status: 'ok', message: 'OK', product: await this.products.get(principal, id) };
  }

  /**
   * Changes the fields sent of one of the merchant's own products (null clears category or description); `active:
   * false` takes it off sale. Another merchant's is a 404.
   */
  @Patch(':productId')
  @ApiParam(PRODUCT_ID)
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: 'Change a product', operationId: 'updateMerchantProduct' })
  @ApiOkResponse({ type: MerchantProductResponseDto })
  @ApiNotFoundResponse(NO_PRODUCT)
  async update(
    @NumericIdParam('productId') id: string,
    @Body() dto: UpdateMerchantProductDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MerchantProductResponseDto> {
    return { status: 'ok', message: 'Product changed', product: await this.products.update(principal, id, dto) };
  }

  /**
   * Removes one of the merchant's own products from the catalogue: it can no longer be bought, while payments that
   * bought it keep their purchases. A removed or another merchant's product is a 404.
   */
  @Delete(':productId')
  @ApiParam(PRODUCT_ID)
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: 'Remove a product from the catalogue', operationId: 'deleteMerchantProduct' })
  @ApiOkResponse({ type: MerchantProductResponseDto })
  @ApiNotFoundResponse(NO_PRODUCT)
  async delete(@NumericIdParam('productId') id: string, @CurrentPrincipal() principal: Principal): Promise<MerchantProductResponseDto> {
    return { status: 'ok', message: 'Product removed', product: await this.products.delete(principal, id) };
  }

  /**
   * The prices of one of the merchant's own products, one per currency. A productId that is not a number is a 400
   * (section 7); an unknown one a 404.
   */
  @Get(':productId/prices')
  @ApiParam(PRODUCT_ID)
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: "A product's prices", operationId: 'listMerchantProductPrices' })
  @ApiOkResponse({ type: MerchantProductPriceListDto })
  @ApiNotFoundResponse(NO_PRODUCT)
  async prices(@NumericIdParam('productId') id: string, @CurrentPrincipal() principal: Principal): Promise<MerchantProductPriceListDto> {
    return { status: 'ok', message: 'OK', records: await this.products.prices(principal, id) };
  }

  /**
   * Prices one of the merchant's own products in a currency: one price per currency (a second is a 409), exact to the
   * currency's minor units. An unknown currency is a 404.
   */
  @Post(':productId/prices')
  @ApiParam(PRODUCT_ID)
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: 'Price a product in a currency', operationId: 'createMerchantProductPrice' })
  @ApiCreatedResponse({ type: MerchantProductPriceResponseDto })
  @ApiNotFoundResponse({ description: 'exception.merchant_product.not_found, or exception.currency.not_found', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.merchant_product_price.exists', type: ErrorResponseDto })
  async addPrice(
    @NumericIdParam('productId') id: string,
    @Body() dto: CreateMerchantProductPriceDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MerchantProductPriceResponseDto> {
    return { status: 'ok', message: 'Price added', price: await this.products.addPrice(principal, id, dto) };
  }

  /**
   * Removes a product's price in a currency: the product can no longer be bought in it. Answers the removed price; an
   * unknown price is a 404.
   */
  @Delete(':productId/prices/:priceId')
  @ApiParam(PRODUCT_ID)
  @ApiParam(PRICE_ID)
  @RequirePermissions('MERCHANT_PRODUCT_MANAGER')
  @ApiOperation({ summary: 'Remove a price', operationId: 'deleteMerchantProductPrice' })
  @ApiOkResponse({ type: MerchantProductPriceResponseDto })
  @ApiNotFoundResponse({
    description: 'exception.merchant_product.not_found, or exception.merchant_product_price.not_found',
    type: ErrorResponseDto,
  })
  async deletePrice(
    @NumericIdParam('productId') id: string,
    @NumericIdParam('priceId') priceId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MerchantProductPriceResponseDto> {
    return { status: 'ok', message: 'Price removed', price: await this.products.deletePrice(principal, id, priceId) };
  }
}
