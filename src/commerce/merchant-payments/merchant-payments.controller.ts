import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
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
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import {
  CreateMerchantPaymentDto,
  MerchantPaymentPageDto,
  MerchantPaymentResponseDto,
  MerchantPaymentViewDto,
  MerchantPurchaseListDto,
} from './dto/merchant-payment.dto';
import { MerchantPaymentsService } from './merchant-payments.service';

@ApiTags('merchant-payments')
@Controller('merchant-payments')
export class MerchantPaymentsController {
  constructor(private readonly payments: MerchantPaymentsService) {}

  /** Pays a merchant (or at a point of sale) with the payer's coin, smart card or a voucher; an invalid method or value is a 400. */
  @Post()
  @RequirePermissions('MERCHANT_PAYMENT_CREATOR')
  @Idempotent({ groupCommit: true })
  @ApiOperation({ summary: 'Pay a merchant', operationId: 'createMerchantPayment' })
  @ApiCreatedResponse({ type: MerchantPaymentResponseDto })
  @ApiNotFoundResponse({
    description:
      'exception.merchant.not_found, exception.point_of_sale.not_found, exception.merchant_product.not_found, exception.coin.not_found, exception.payment_tool.not_found, exception.voucher.not_found',
    type: ErrorResponseDto,
  })
  @ApiConflictResponse({
    description: 'exception.coin.insufficient_funds, exception.coin.inactive, a voucher spent or blocked',
    type: ErrorResponseDto,
  })
  async pay(@Body() dto: CreateMerchantPaymentDto, @CurrentPrincipal() principal: Principal): Promise<MerchantPaymentResponseDto> {
    return { status: 'ok', message: 'Merchant paid', ...(await this.payments.pay(principal, dto)) };
  }

  /**
   * The merchant payments the caller's organization made or took, newest first; staff with TRANSACTION_AUDITOR see
   * every one. What a payment bought: `GET …/{identifier}/merchant-purchases`.
   */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('MERCHANT_PAYMENT_VIEWER')
  @ApiOperation({ summary: 'The merchant payments the organization took or made', operationId: 'viewMerchantPayments' })
  @ApiOkResponse({ type: MerchantPaymentPageDto })
  view(@Body() dto: MerchantPaymentViewDto, @CurrentPrincipal() principal: Principal): Promise<MerchantPaymentPageDto> {
    return this.payments.view(principal, dto);
  }

  /** What a payment bought; an invalid or unknown identifier is a 404 (section 7). */
  @Get(':identifier/merchant-purchases')
  @ApiParam({
    name: 'identifier',
    type: String,
    description: 'The payment id; any value that names none of the payments the caller may see, a malformed one included, answers 404',
    extensions: { 'x-malformed-is-not-found': true },
  })
  @RequirePermissions('MERCHANT_PAYMENT_VIEWER')
  @ApiOperation({ summary: 'The purchases of a merchant payment', operationId: 'listMerchantPurchases' })
  @ApiOkResponse({ type: MerchantPurchaseListDto })
  @ApiNotFoundResponse({ description: 'exception.merchant_payment.not_found', type: ErrorResponseDto })
  async purchases(@Param('identifier') identifier: string, @CurrentPrincipal() principal: Principal): Promise<MerchantPurchaseListDto> {
    return { status: 'ok', message: 'OK', records: await this.payments.purchases(principal, identifier) };
  }
}
