import { ApiParam, Body, Caller, Param, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { OperationRecordPageDto, TransactionViewDto } from '../../money-movement/transactions/dto/transaction.dto';
import * as dto from './dto/merchant-payment.dto';
import { MerchantPaymentsService } from './merchant-payments.service';

const VIEWER = { access: ['MERCHANT_PAYMENT_VIEWER'] } as const;

@Routes('merchant-payments')
export class MerchantPaymentsController {
  constructor(private readonly payments: MerchantPaymentsService) {}

  /** Pays a merchant (or at a point of sale) with the payer's coin, smart card or a voucher; an invalid method or value is a 400. */
  @Route('POST', '', {
    access: ['MERCHANT_PAYMENT_CREATOR'],
    summary: 'Pay a merchant',
    idempotent: { groupCommit: true },
    errors: [
      'exception.merchant.not_found',
      'exception.point_of_sale.not_found',
      'exception.merchant_product.not_found',
      'exception.coin.not_found',
      'exception.payment_tool.not_found',
      'exception.voucher.not_found',
      'exception.coin.insufficient_funds',
      'exception.coin.inactive',
      ['exception.voucher.redeemed', 'the voucher is spent'],
      'exception.voucher.blocked',
    ],
  })
  async createMerchantPayment(
    @Body() body: dto.CreateMerchantPaymentDto,
    @Caller() caller: Principal,
  ): Promise<dto.MerchantPaymentResponseDto> {
    return { status: 'ok', message: 'Merchant paid', ...(await this.payments.pay(caller, body)) };
  }

  /** The payments the caller's organization made or took, newest first; staff with TRANSACTION_AUDITOR see every one. */
  @Route('POST', 'view', { ...VIEWER, summary: 'The merchant payments the organization took or made', status: 200 })
  viewMerchantPayments(@Body() body: dto.MerchantPaymentViewDto, @Caller() caller: Principal): Promise<dto.MerchantPaymentPageDto> {
    return this.payments.view(caller, body);
  }

  /** What a payment bought, answered to the merchant and to the payer. */
  @Route('GET', ':identifier/merchant-purchases', {
    ...VIEWER,
    summary: 'The purchases of a merchant payment',
    errors: ['exception.merchant_payment.not_found'],
  })
  @ApiParam({
    name: 'identifier',
    type: String,
    description: 'The payment id; any value that names none of the payments the caller may see, a malformed one included, answers 404',
    extensions: { 'x-malformed-is-not-found': true },
  })
  async listMerchantPurchases(@Param('identifier') identifier: string, @Caller() caller: Principal): Promise<dto.MerchantPurchaseListDto> {
    return { status: 'ok', message: 'OK', records: await this.payments.purchases(caller, identifier) };
  }
}

/** The payments taken at a point of sale, under its path. */
@Routes('points-of-sale')
export class PosTransactionsController {
  constructor(private readonly payments: MerchantPaymentsService) {}

  /** The operations of payments at one of the merchant's points of sale (the newest 10,000), searched as `POST /transactions/view` is. */
  @Route('POST', ':posId/transactions/view', {
    access: ['POINT_OF_SALE_MANAGER'],
    summary: 'The transactions of a point of sale',
    status: 200,
    errors: [['exception.point_of_sale.not_found', "missing, deleted, or another merchant's"]],
  })
  viewPointOfSaleTransactions(
    @UuidParam('posId') posId: string,
    @Body() body: TransactionViewDto,
    @Caller() caller: Principal,
  ): Promise<OperationRecordPageDto> {
    return this.payments.atPointOfSale(caller, posId, body);
  }
}
