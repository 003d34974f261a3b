import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { SERIAL_PATTERN } from '../../platform/common/validators';
import { CommissionsService } from '../../platform/commissions/commissions.service';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { OperationDto, OperationRecordDto } from '../../platform/ledger/dto/operation.dto';
import { LockedCoin, recordOf } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OperationsService } from '../../platform/ledger/operations.service';
import type { TransactionViewDto } from '../../money-movement/transactions/dto/transaction.dto';
import { TransactionsService } from '../../money-movement/transactions/transactions.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { PointsOfSaleService } from '../points-of-sale/points-of-sale.service';
import { VouchersService } from '../vouchers/vouchers.service';
import type { CreateMerchantPaymentDto, MerchantPaymentDto, MerchantPaymentViewDto, MerchantPurchaseDto } from './dto/merchant-payment.dto';
import { MerchantParties } from './merchant-parties';
import { MerchantPaymentsRepository, PaymentRecord, PaymentRow, PurchaseRow } from './merchant-payments.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VOUCHER_CODE = /^[0-9a-fA-F]{32}$/;

/** A kept merchant coin found, once locked, no longer to be the merchant's main open coin of the currency. */
class StaleMerchantCoin extends Error {
  constructor(
    readonly merchantId: string,
    readonly currencyId: string,
  ) {
    super('The merchant coin kept is no longer its main open coin of the currency');
  }
}

function toPayment(row: PaymentRow): MerchantPaymentDto {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    posId: row.pos_id,
    method: row.method,
    amount: amountOf(row.amount, scaleOf(row.fraction)),
    currency: row.currency,
    description: row.description,
    operationId: row.operation_id,
    createdAt: row.created_at.toISOString(),
  };
}

function toPurchase(row: PurchaseRow): MerchantPurchaseDto {
  const scale = scaleOf(row.fraction);
  return {
    id: row.id,
    productId: row.product_id,
    name: row.name,
    quantity: row.quantity,
    price: amountOf(row.price, scale),
    total: amountOf(row.total, scale),
  };
}

/**
 * Payments to a merchant, at a point of sale or not, for products of its catalogue (priced in the payer's currency)
 * or an amount. The payer pays with one of its coins or smart cards (the `merchant_payment` flow's fee applies), or
 * with a voucher spent whole. The money goes to the merchant's main coin of that currency; each purchase is kept.
 */
@Injectable()
export class MerchantPaymentsService {
  constructor(
    private readonly payments: MerchantPaymentsRepository,
    private readonly points: PointsOfSaleService,
    private readonly ledger: LedgerService,
    private readonly operations: OperationsService,
    private readonly commissions: CommissionsService,
    private readonly tools: PaymentToolsService,
    private readonly vouchers: VouchersService,
    private readonly uow: UnitOfWork,
    private readonly transactions: TransactionsService,
    private readonly parties: MerchantParties,
  ) {}

  async pay(
    principal: Principal,
    dto: CreateMerchantPaymentDto,
  ): Promise<{ payment: MerchantPaymentDto; purchases: MerchantPurchaseDto[]; process: OperationDto }> {
    if (!dto.merchantId === !dto.posId) throw ApiError.invalid('merchantId', 'give merchantId or posId, not both');
    if (!dto.items === (dto.amount === undefined)) throw ApiError.invalid('amount', 'give items or amount, not both');
    const { method, value } = dto.payer;
    if (method === 'coin' && !SERIAL_PATTERN.test(value)) throw ApiError.invalid('payer.value', 'must be a coin serial for method coin');
    if (method === 'smart_card' && !UUID.test(value))
      throw ApiError.invalid('payer.value', 'must be a smart card id for method smart_card');
    if (method === 'voucher' && !VOUCHER_CODE.test(value))
      throw ApiError.invalid('payer.value', 'must be a voucher code for method voucher');
    let merchantId = dto.merchantId;
    const posId = dto.posId ?? null;
    if (posId) {
      const pos = await this.points.forPayment(posId);
      if (!pos) throw new ApiError('exception.point_of_sale.not_found');
      merchantId = pos.organization_id;
    }
    // Paid with a coin, the merchant, the payer's coin and the merchant's coin are kept or read in one statement (parties).
    if (method !== 'coin' && !(await this.payments.isMerchant(merchantId!))) throw new ApiError('exception.merchant.not_found');
    // A voucher is claimed (locked) before it is spent: a unit of work of its own, outside the groups.
    if (method === 'voucher') return this.uow.run(() => this.payWithVoucher(principal, dto, merchantId!, posId));
    const payerSerial = method === 'coin' ? value : await this.tools.resolve('SMART_CARD', value, 'payer.value', principal.organizationId);
    try {
      return await this.payWithCoin(principal, dto, merchantId!, posId, payerSerial, true);
    } catch (error) {
      if (!(error instanceof StaleMerchantCoin)) throw error;
      this.parties.forget(error.merchantId, error.currencyId);
      return this.payWithCoin(principal, dto, merchantId!, posId, payerSerial, false);
    }
  }

  /**
   * A payment with a coin (or a smart card's): its parties kept or read (MerchantParties), then one grouped posting that
   * also writes the payment (Plan.records), so concurrent payments commit together. A kept merchant coin that no longer
   * holds once locked is a StaleMerchantCoin: the payment runs again over its parties read anew (`kept` false).
   */
  private async payWithCoin(
    principal: Principal,
    dto: CreateMerchantPaymentDto,
    merchantId: string,
    posId: string | null,
    payerSerial: string,
    kept: boolean,
  ) {
    const parties = kept
      ? await this.parties.of(merchantId, payerSerial)
      : { ...(await this.payments.parties(merchantId, payerSerial)), kept };
    const { isMerchant, payer: payerCoin, merchantCoin } = parties;
    if (!isMerchant) throw new ApiError('exception.merchant.not_found');
    if (!payerCoin || payerCoin.type !== 'client' || payerCoin.organization_id !== principal.organizationId) {
      throw new ApiError('exception.coin.not_found', 'No such coin of yours');
    }
    if (!merchantCoin || merchantCoin === payerSerial) throw new ApiError('exception.merchant.not_found');
    const { amount, purchases } = await this.priced(dto, merchantId, payerCoin);
    const pricing = await this.commissions.pricing('merchant_payment', payerSerial, merchantCoin);
    const record = this.recordOf(principal, dto, merchantId, posId, payerCoin.currency_id, amount, purchases);
    const process = (await this.ledger.execute({
      type: 'merchant_payment',
      coins: [payerSerial, merchantCoin, ...this.commissions.collectors(pricing)],
      grouped: true,
      plan: async (locked) => {
        const payer = this.tools.payer(locked, payerSerial, principal, 'payer.value');
        const payee = this.tools.payee(locked, merchantCoin, 'merchantId');
        if (parties.kept && !this.parties.holds(payee, merchantId, payerCoin.currency_id))
          throw new StaleMerchantCoin(merchantId, payerCoin.currency_id);
        for (const coin of [payer, payee])
          if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        const quote = await this.commissions.quote({ flow: 'merchant_payment', amount, payer, payee, pricing });
        return this.commissions.pricedPlan(quote, amount, payer.serial, payee.serial, pricing, {
          description: dto.description ?? null,
          details: { merchantId, posId, method: dto.payer.method },
          records: [recordOf(this.payments.records, record)],
        });
      },
    }))!;
    return this.answer(record, payerCoin, process);
  }

  /** The purchases of a payment, for its merchant, its payer and staff; an invalid or unknown identifier is a 404 (section 7). */
  async purchases(principal: Principal, identifier: string): Promise<MerchantPurchaseDto[]> {
    const payment = UUID.test(identifier) ? await this.payments.get(identifier) : undefined;
    const sees =
      payment &&
      (payment.merchant_id === principal.organizationId ||
        payment.payer_organization_id === principal.organizationId ||
        principal.permissions.has('TRANSACTION_AUDITOR'));
    if (!sees) throw new ApiError('exception.merchant_payment.not_found');
    return (await this.payments.purchases(identifier)).map(toPurchase);
  }

  async view(principal: Principal, dto: MerchantPaymentViewDto): Promise<Page<MerchantPaymentDto>> {
    const { offset, limit } = pageWindow(dto);
    const organizationId = principal.permissions.has('TRANSACTION_AUDITOR') ? undefined : principal.organizationId;
    const { total, rows } = await this.payments.page(organizationId, offset, limit);
    return pageOf(dto, total, rows.map(toPayment));
  }

  /**
   * A voucher is spent whole: its amount must be the price. No fee: its buyer paid it when buying the voucher. The
   * claim locks it for this transaction; the operation out of its reserve spends it.
   */
  private async payWithVoucher(principal: Principal, dto: CreateMerchantPaymentDto, merchantId: string, posId: string | null) {
    const voucher = await this.vouchers.claim(dto.payer.value);
    const merchantCoin = await this.payments.merchantCoin(merchantId, voucher.currencyId);
    if (!merchantCoin) throw new ApiError('exception.merchant.not_found');
    const { amount, purchases } = await this.priced(dto, merchantId, {
      currency_id: voucher.currencyId,
      fraction: voucher.fraction,
      code: voucher.currency,
    });
    if (!amount.eq(voucher.amount))
      throw ApiError.invalid('payer.value', `the voucher is worth ${voucher.amount.toFixed()}: it pays that price only`);
    const record = this.recordOf(principal, dto, merchantId, posId, voucher.currencyId, amount, purchases);
    const process = (await this.ledger.execute({
      type: 'merchant_payment',
      coins: [voucher.reserveCoin, merchantCoin],
      plan: (locked) => {
        const payee = this.tools.payee(locked, merchantCoin, 'merchantId');
        if (!payee.usable) throw new ApiError('exception.coin.inactive', `Coin ${payee.serial} is closed or inactive`);
        return {
          legs: [{ from: voucher.reserveCoin, to: merchantCoin, amount }],
          meta: {
            amount,
            fromCoin: voucher.reserveCoin,
            toCoin: merchantCoin,
            description: dto.description ?? null,
            details: { merchantId, posId, method: 'voucher', voucherId: voucher.id },
          },
          records: [recordOf(this.payments.records, record)],
        };
      },
    }))!;
    // The posting spent the voucher: it closed itself on hearing the operation (VouchersService.spent).
    return this.answer(record, { code: voucher.currency, fraction: voucher.fraction }, process);
  }

  /** The amount to pay: the items' prices in the payer's currency times their quantities, or the amount given. */
  private async priced(dto: CreateMerchantPaymentDto, merchantId: string, coin: Pick<LockedCoin, 'currency_id' | 'fraction' | 'code'>) {
    const scale = scaleOf(coin.fraction);
    if (!dto.items) return { amount: parseAmount(dto.amount, scale), purchases: [] };
    const products = new Map(
      (
        await this.payments.pricedProducts(
          merchantId,
          dto.items.map((i) => i.productId),
          coin.currency_id,
        )
      ).map((p) => [p.id, p]),
    );
    let amount = new Money(0);
    const purchases = dto.items.map((item, i) => {
      const product = products.get(item.productId);
      if (!product) throw new ApiError('exception.merchant_product.not_found', `No product ${item.productId} of this merchant`);
      if (!product.price) throw ApiError.invalid(`items[${i}].productId`, `has no price in ${coin.code}`);
      const total = new Money(product.price).times(item.quantity);
      amount = amount.plus(total);
      return { productId: product.id, name: product.name, quantity: item.quantity, price: product.price, total: total.toFixed() };
    });
    return { amount, purchases };
  }

  private recordOf(
    principal: Principal,
    dto: CreateMerchantPaymentDto,
    merchantId: string,
    posId: string | null,
    currencyId: string,
    amount: Money,
    purchases: PaymentRecord['purchases'],
  ): PaymentRecord {
    return {
      id: randomUUID(),
      merchantId,
      posId,
      payerOrganizationId: principal.organizationId,
      method: dto.payer.method,
      amount: amount.toFixed(),
      currencyId,
      description: dto.description ?? null,
      createdBy: principal.userId,
      purchases,
    };
  }

  /** The answer, from the payment as written with its operation (in its transaction: nothing to read back). */
  private answer(record: PaymentRecord, currency: Pick<LockedCoin, 'code' | 'fraction'>, process: OperationDto) {
    return {
      payment: toPayment({
        id: record.id,
        merchant_id: record.merchantId,
        pos_id: record.posId,
        payer_organization_id: record.payerOrganizationId,
        method: record.method,
        amount: record.amount,
        currency: currency.code,
        fraction: currency.fraction,
        description: record.description,
        operation_id: process.id,
        // Both rows took their transaction's now().
        created_at: new Date(process.createdAt),
      }),
      purchases: record.purchases.map((p, i) =>
        toPurchase({ ...p, id: record.purchaseIds![i], product_id: p.productId, fraction: currency.fraction }),
      ),
      process,
    };
  }

  /**
   * The operations of the payments taken at one of the merchant's own points of sale (another's, like a missing one, is
   * a 404), searched like `POST /transactions/view`: the newest POS_TRANSACTIONS_MAX payments there are searched.
   */
  async atPointOfSale(principal: Principal, posId: string, dto: TransactionViewDto): Promise<Page<OperationRecordDto>> {
    await this.points.get(principal, posId);
    const taken = await this.payments.operationsAt(posId, POS_TRANSACTIONS_MAX);
    const ids = dto.filter?.ids ? taken.filter((id) => dto.filter!.ids!.includes(id)) : taken;
    if (ids.length === 0) return pageOf(dto, 0, []);
    const key = (['status', 'type', 'createdAt'] as const).find((k) => dto.sort?.[k] !== undefined) ?? 'createdAt';
    const page = await this.operations.view(principal, dto, {
      ...(dto.filter ?? {}),
      ids,
      sort: { key, direction: (dto.sort?.[key] ?? 'desc') === 'asc' ? 'ASC' : 'DESC' },
    });
    return { ...page, records: await this.transactions.records(principal, page.records) };
  }
}

/** How many of a point of sale's payments, newest first, its transaction search covers. */
export const POS_TRANSACTIONS_MAX = 10_000;
