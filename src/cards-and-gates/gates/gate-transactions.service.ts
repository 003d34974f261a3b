import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { PeriodicTask } from '../../platform/common/periodic-task';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { PendingOperationsService } from '../../platform/pending-operations/pending-operations.service';
import { SmartCardsService } from '../smart-cards/smart-cards.service';
import { CoinsService } from '../../money-movement/coins/coins.service';
import { CommissionsService } from '../../platform/commissions/commissions.service';
import { commissionDetails } from '../../platform/commissions/fee';
import { Leg, LockedCoin, recordOf, RecordWriter } from '../../platform/ledger/ledger.types';
import type {
  CreateGateTransactionDto,
  GateCalculateDto,
  GateCalculationDto,
  GateCallbackDto,
  GateCurrencyDto,
  GateMethodDto,
  GateMethodsViewDto,
  GateOwnTransactionDto,
  GateTransactionDto,
  GateTransactionViewDto,
  PayerFieldDto,
  PayerFieldsOptionDto,
  PayerFieldValueDto,
  SubmitPayerDto,
} from './dto/gates.dto';
import { GateCommissionsService } from './gate-commissions.service';
import { FINAL_STATUSES, GateTransactionRow, GatesRepository, HeldTransaction, ProductField, ProductRow } from './gates.repository';
import { REDEEM_PROVIDER_TYPES, TOPUP_PROVIDER_TYPES } from './gates.service';
import { GateProvider, ProviderOutcome, ProviderRequest, SimulatedProvider } from './providers';
import { logFailure } from '../../platform/common/outage';

/** The provider types whose methods take a transaction type: acquirers a TOPUP, payout providers a REDEEM. */
function providerTypesOf(txType: string): readonly string[] {
  return txType === 'REDEEM' ? REDEEM_PROVIDER_TYPES : TOPUP_PROVIDER_TYPES;
}

/** A transaction to write with its hold (GateTransactionsService.held), and it as written, once it is. */
interface Held {
  transaction: HeldTransaction;
  written?: GateTransactionRow;
}

/** What a TOPUP's pending operation keeps, so its settlement moves exactly what was quoted. */
interface ChargeTerms {
  payeeAmount: string;
  commission: string;
  /** The coin the fee goes to; absent when the provider keeps it (or there is none). */
  collector?: string;
}

export function toTransaction(row: GateTransactionRow): GateTransactionDto {
  const scale = scaleOf(row.fraction);
  const amount = new Money(row.amount);
  const commission = new Money(row.commission);
  const recipientPays = row.fee_payer === 'recipient';
  const source = recipientPays ? amount : amount.plus(commission);
  const toSend = recipientPays ? amount.minus(commission) : amount;
  return {
    id: row.id,
    productId: row.product_id,
    gateProviderId: row.gate_provider_id,
    organizationId: row.organization_id,
    coinSerial: row.coin_serial,
    type: row.type,
    amount: amountOf(row.amount, scale),
    commission: amountOf(row.commission, scale),
    currency: row.currency,
    fields: row.fields,
    status: row.status,
    operationId: row.operation_id,
    providerReference: row.provider_reference,
    providerData: row.provider_data,
    failureReason: row.failure_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
    coin: { serial: row.coin_serial, issuer: { id: row.issuer_id, currency: row.currency, symbol: row.symbol } },
    paymentMethod: {
      gateProvider: { id: row.gate_provider_id, name: row.provider_name, gate: { name: row.provider_name } },
      way: row.product_name,
    },
    sourceAmount: amountOf(source, scale),
    amountToSend: amountOf(toSend, scale),
    finalAmount: amountOf(row.type === 'TOPUP' ? toSend : source, scale),
    processId: row.operation_id,
    payerData: row.fields,
  };
}

/** A product's fields as the payer fills them in: each with a pattern its value must match. */
function payerFieldsOf(fields: ProductField[]): PayerFieldDto[] {
  const escape = (v: string) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const patterns: Record<ProductField['type'], (f: ProductField) => string> = {
    string: () => '^[\\s\\S]{1,200}$',
    number: () => '^-?\\d+(\\.\\d+)?$',
    enum: (f) => `^(${(f.values ?? []).map(escape).join('|')})$`,
  };
  return fields.map((f) => ({
    name: f.name,
    label: f.name,
    optional: !f.required,
    onlineCheck: false,
    constraints: [{ type: 'regex', regex: patterns[f.type](f), errorMessageKey: `exception.validation.${f.type}` }],
  }));
}

/** The payer's field values as a form sends them: empty ones left out, a number field's digits as its number. */
function submittedFields(fields: ProductField[], given: PayerFieldValueDto[]): Record<string, unknown> {
  const types = new Map(fields.map((f) => [f.name, f.type]));
  const out: Record<string, unknown> = {};
  for (const { name, value } of given) {
    if (value === undefined || value === null || value === '') continue;
    if (Object.prototype.hasOwnProperty.call(out, name)) throw ApiError.invalid(`fields.${name}`, 'is given twice');
    out[name] = types.get(name) === 'number' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** The values of a product's fields, checked: required ones present, numbers numbers, enums one of their values, no others. */
function checkFields(fields: ProductField[], given: Record<string, unknown>): Record<string, unknown> {
  const known = new Map(fields.map((f) => [f.name, f]));
  for (const name of Object.keys(given)) if (!known.has(name)) throw ApiError.invalid(`fields.${name}`, 'is not a field of this product');
  for (const field of fields) {
    const value = given[field.name];
    if (value === undefined || value === null || value === '') {
      if (field.required) throw ApiError.invalid(`fields.${field.name}`, 'is required by this product');
      continue;
    }
    if (field.type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) {
      throw ApiError.invalid(`fields.${field.name}`, 'must be a number');
    }
    if (field.type === 'string' && (typeof value !== 'string' || value.length > 200)) {
      throw ApiError.invalid(`fields.${field.name}`, 'must be text of at most 200 characters');
    }
    if (field.type === 'enum' && !(typeof value === 'string' && field.values?.includes(value))) {
      throw ApiError.invalid(`fields.${field.name}`, `must be one of ${(field.values ?? []).join(', ')}`);
    }
  }
  return given;
}

/**
 * Gate transactions. The payer's amount and fee are held by a pending operation in the request's transaction;
 * the provider is called only after it commits (`UnitOfWork.afterCommit`), so a slow or hanging provider holds no
 * connection and no lock. Its outcome — at once, by a signed callback, or found by the reconciler after a crash —
 * settles the operation in place (the amount to the issuer's gate-settlement coin, the fee to its collector) or
 * releases the hold; a repeated outcome changes nothing.
 *
 * `processed` and `failure` are final: every status change is a conditional update that never leaves them, so a
 * provider call answering "pending" after a callback finished the transaction, or a reconciler run racing either,
 * changes nothing — the transaction, its operation and the hold stay as the first final outcome left them.
 */
@Injectable()
export class GateTransactionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(GateTransactionsService.name);
  private readonly provider: GateProvider = new SimulatedProvider();
  private readonly reconciler = new PeriodicTask(
    'The gate reconciler',
    () => this.uow.asJob('gate-reconciler', () => this.reconcileUnfinished()),
    this.logger,
  );

  constructor(
    private readonly gates: GatesRepository,
    private readonly commissions: GateCommissionsService,
    private readonly pending: PendingOperationsService,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly uow: UnitOfWork,
    private readonly smartCards: SmartCardsService,
    private readonly fees: CommissionsService,
    private readonly coins: CoinsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.reconciler.start(this.config.gateReconcileSeconds);
  }

  onModuleDestroy(): Promise<void> {
    return this.reconciler.stop();
  }

  /** Starts a transaction and answers it with the caller's coin whole (its balance once the hold, if any, is written). */
  async create(principal: Principal, dto: CreateGateTransactionDto): Promise<GateOwnTransactionDto> {
    return this.withCoin(await this.start(principal, dto));
  }

  /** The transaction with its coin as `GET /coins/{serial}` answers it: the caller's own, as creating and submitting show it. */
  private async withCoin(transaction: GateTransactionDto): Promise<GateOwnTransactionDto> {
    const coin = (await this.coins.ownAmong(transaction.organizationId, [transaction.coinSerial])).get(transaction.coinSerial);
    // The transaction's coin is its organization's: it was checked when the transaction was made, and coins never move.
    if (!coin) throw new Error(`Gate transaction ${transaction.id}: coin ${transaction.coinSerial} is not its organization's`);
    return { ...transaction, coin };
  }

  private async start(principal: Principal, dto: CreateGateTransactionDto): Promise<GateTransactionDto> {
    if (dto.type === 'TOPUP') return this.createTopUp(principal, dto);
    if (dto.type === 'REDEEM') return this.createRedeem(principal, dto);
    if (dto.method) throw ApiError.invalid('method', 'goes with type TOPUP or REDEEM; a payment names its productId');
    if (!dto.productId) throw ApiError.invalid('productId', 'is required');
    const productId = dto.productId;
    const product = await this.gates.product(productId);
    if (!product || !product.active || !product.provider_active) throw new ApiError('exception.gate_product.not_found');
    if ((dto.type === 'card_issue') !== (product.provider_type === 'card_issuing')) {
      throw ApiError.invalid(
        'type',
        product.provider_type === 'card_issuing' ? 'must be card_issue for this product' : 'card_issue needs a card-issuing provider',
      );
    }
    const fields = checkFields(product.fields, dto.fields ?? {});
    const coin = (await this.ledger.read([dto.coinSerial])).get(dto.coinSerial);
    if (!coin || coin.type !== 'client' || coin.organization_id !== principal.organizationId) {
      throw new ApiError('exception.coin.not_found', `No coin ${dto.coinSerial}`);
    }
    if (coin.currency_id !== product.currency_id)
      throw ApiError.invalid('coinSerial', `must hold ${product.currency}, the product's currency`);
    // The provider is assigned now and called once this commits: never inside the transaction.
    return this.holdPayment(principal, product, coin, dto.type, dto.amount, fields);
  }

  /**
   * A REDEEM (money out to a card through a payout provider's method) is a payout: its amount and fee are held from
   * the coin now, as a payment's are, and it waits in `initiated` for the payer's fields (`submit`), which send it to
   * the provider; the provider's refusal releases the hold.
   */
  private async createRedeem(principal: Principal, dto: CreateGateTransactionDto): Promise<GateTransactionDto> {
    if (!dto.method) throw ApiError.invalid('method', 'is required with type REDEEM');
    if (dto.productId) throw ApiError.invalid('productId', 'does not go with type REDEEM: name the method');
    const method = dto.method;
    const coin = await this.ownCoin(principal, dto.coinSerial);
    const product = await this.method(coin, 'REDEEM', method.gateProviderId, method.way, 'method.way');
    const fields = checkFields(
      product.fields.map((f) => ({ ...f, required: false })),
      dto.fields ?? {},
    );
    return this.holdPayment(principal, product, coin, 'REDEEM', dto.amount, fields);
  }

  /**
   * Holds a payment's amount and fee from the payer's coin (a pending gate_payment operation, priced by the gate's
   * terms) and records its transaction with it: reads, then one grouped posting (Plan.records, `held`), so concurrent
   * payments commit together. A REDEEM waits `initiated` for its payer's fields; any other goes to its provider
   * (`provider_assigned`) once written. Answers the transaction as written.
   */
  private async holdPayment(
    principal: Principal,
    product: ProductRow,
    coin: LockedCoin,
    type: CreateGateTransactionDto['type'],
    given: string | number,
    fields: Record<string, unknown>,
  ): Promise<GateTransactionDto> {
    const amount = parseAmount(given, scaleOf(coin.fraction));
    if (amount.lt(new Money(product.min_amount)) || amount.gt(new Money(product.max_amount))) {
      throw ApiError.invalid('amount', `must be from ${product.min_amount} to ${product.max_amount}`);
    }
    const settlement = await this.ledger.systemCoin(coin.issuer_id, 'gate_settlement');
    const pricing = await this.commissions.pricing(
      principal.organizationId,
      product.gate_provider_id,
      product.id,
      coin.issuer_id,
      settlement,
      type === 'REDEEM' ? type : undefined,
    );
    const transaction: HeldTransaction = {
      id: randomUUID(),
      productId: product.id,
      providerId: product.gate_provider_id,
      organizationId: principal.organizationId,
      coinSerial: coin.serial,
      type,
      amount: amount.toFixed(),
      fields,
      status: type === 'REDEEM' ? 'initiated' : 'provider_assigned',
      createdBy: principal.userId,
    };
    const held: Held = { transaction };
    await this.pending.hold({
      type: 'gate_payment',
      payer: coin.serial,
      payee: settlement,
      priceBy: [coin.serial, null],
      amount: given,
      pricing,
      check: (payer) => {
        if (!payer.usable) throw new ApiError('exception.coin.inactive', `Coin ${payer.serial} is closed or inactive`);
      },
      description: `${product.provider_name}: ${product.name}`,
      details: { gateProductId: product.id, gateProviderId: product.gate_provider_id },
      ...(type === 'REDEEM' ? { gate: { providerId: product.gate_provider_id, txType: 'REDEEM' as const } } : {}),
      grouped: true,
      records: [recordOf(this.held, held)],
    });
    return toTransaction(held.written!);
  }

  /**
   * Writes held transactions with their operations, in one statement (a RecordWriter: the ledger calls it in the
   * posting's transaction, once for a whole group), hands each back as written, and calls the provider of each
   * `provider_assigned` one once that transaction commits.
   */
  private readonly held: RecordWriter<Held> = {
    write: async (rows) => {
      const written = await this.gates.insertHeld(rows.map(({ row, operationId }) => ({ row: row.transaction, operationId })));
      const byId = new Map(written.map((w) => [w.id, w]));
      for (const { row } of rows) {
        const transaction = byId.get(row.transaction.id)!;
        row.written = transaction;
        if (transaction.status === 'provider_assigned') {
          this.uow.afterCommit(() => this.uow.asJob('gate-dispatch', () => this.dispatch(transaction.id)));
        }
      }
    },
  };

  /** The provider methods the caller's coin can use for a transaction type: products on sale in its currency. */
  async methods(principal: Principal, dto: GateMethodsViewDto): Promise<GateMethodDto[]> {
    const coin = await this.ownCoin(principal, dto.serial);
    const rows = await this.gates.methods({ currencyId: coin.currency_id, providerTypes: providerTypesOf(dto.txType) });
    return rows.map((row) => {
      const scale = scaleOf(coin.fraction);
      return {
        gateProvider: { id: row.gate_provider_id, name: row.provider_name, gate: { name: row.provider_name } },
        way: row.name,
        productId: row.id,
        currency: row.currency,
        minAmount: amountOf(row.min_amount, scale),
        maxAmount: amountOf(row.max_amount, scale),
      };
    });
  }

  /**
   * The price of a TOPUP or a REDEEM through a provider method, by the same terms and `quote()` as its execution;
   * moves nothing.
   */
  async calculate(principal: Principal, dto: GateCalculateDto): Promise<GateCalculationDto> {
    const coin = await this.ownCoin(principal, dto.serial);
    const product = await this.method(coin, dto.txType, dto.gateProviderId, dto.way, 'way');
    const { quote } = await this.price(principal, coin, product, dto.amount, dto.txType === 'REDEEM' ? 'REDEEM' : 'TOPUP');
    const scale = scaleOf(coin.fraction);
    return {
      status: 'ok',
      message: 'OK',
      sourceAmount: amountOf(quote.payerAmount, scale),
      amountToSend: amountOf(quote.payeeAmount, scale),
      commissionAmount: amountOf(quote.commission, scale),
      currency: await this.currencyOf(principal, coin),
      gateProviderId: product.gate_provider_id,
      way: product.name,
    };
  }

  /** The fields a transaction's payer fills in: its product's, as one option named `default`. */
  async payerFields(principal: Principal, id: string): Promise<PayerFieldsOptionDto[]> {
    const row = await this.get(principal, id);
    const product = (await this.gates.product(row.productId))!;
    return [{ name: 'default', fields: payerFieldsOf(product.fields) }];
  }

  /**
   * A TOPUP's payer's fields, checked against its product's: the transaction then goes to its provider (after the
   * commit, like a payment). Once only: a transaction that is not a TOPUP waiting for them is a 409.
   */
  async submit(principal: Principal, id: string, dto: SubmitPayerDto): Promise<GateOwnTransactionDto> {
    return this.uow.run(async () => {
      const row = await this.gates.transaction(id, true);
      if (!row || !this.sees(principal, row.organization_id)) throw new ApiError('exception.gate_transaction.not_found');
      if ((row.type !== 'TOPUP' && row.type !== 'REDEEM') || row.status !== 'initiated') {
        throw new ApiError('exception.gate_transaction.submitted');
      }
      const product = (await this.gates.product(row.product_id))!;
      const fields = checkFields(product.fields, submittedFields(product.fields, dto.fields));
      if (!(await this.gates.submit(id, fields))) throw new ApiError('exception.gate_transaction.submitted');
      this.uow.afterCommit(() => this.uow.asJob('gate-dispatch', () => this.dispatch(id)));
      return this.withCoin(toTransaction((await this.gates.transaction(id))!));
    });
  }

  /**
   * A TOPUP (money in through a provider method): priced now by the gate's terms and `quote()`, and recorded as a
   * `pending` gate_charge operation that moves nothing yet — the provider has not charged the card. It waits, in
   * `initiated`, for the payer's fields (`submit`); the provider's outcome then settles the operation in place
   * (the gate-settlement coin credits the coin, the fee goes to its collector) or ends it in `error`.
   */
  private async createTopUp(principal: Principal, dto: CreateGateTransactionDto): Promise<GateTransactionDto> {
    if (!dto.method) throw ApiError.invalid('method', 'is required with type TOPUP');
    if (dto.productId) throw ApiError.invalid('productId', 'does not go with type TOPUP: name the method');
    const method = dto.method;
    return this.uow.run(async () => {
      const coin = await this.ownCoin(principal, dto.coinSerial);
      const product = await this.method(coin, 'TOPUP', method.gateProviderId, method.way, 'method.way');
      const { amount, quote, pricing, settlement } = await this.price(principal, coin, product, dto.amount, 'TOPUP');
      const fields = checkFields(
        product.fields.map((f) => ({ ...f, required: false })),
        dto.fields ?? {},
      );
      const collector = pricing.collector && pricing.collector !== settlement ? pricing.collector : null;
      const charge: ChargeTerms = {
        payeeAmount: quote.payeeAmount.toFixed(),
        commission: quote.commission.toFixed(),
        ...(collector && quote.commission.gt(0) ? { collector } : {}),
      };
      const operation = await this.ledger.execute({
        type: 'gate_charge',
        coins: [coin.serial],
        plan: async (locked) => {
          const payee = locked.coins.get(coin.serial)!;
          if (!payee.usable) throw new ApiError('exception.coin.inactive', `Coin ${payee.serial} is closed or inactive`);
          // Priced before its plan: its limits are counted here, with the pending operation.
          await this.fees.limit({ flow: 'gate_payment', amount, payee, gate: { providerId: product.gate_provider_id, txType: 'TOPUP' } });
          return {
            legs: [],
            status: 'pending',
            meta: {
              amount,
              currencyId: payee.currency_id,
              commission: quote.commission,
              fromCoin: settlement,
              toCoin: payee.serial,
              description: `${product.provider_name}: ${product.name}`,
              details: {
                gateProductId: product.id,
                gateProviderId: product.gate_provider_id,
                ...(commissionDetails(quote) ?? {}),
                charge,
              },
            },
          };
        },
      });
      const id = await this.gates.insertTransaction({
        productId: product.id,
        providerId: product.gate_provider_id,
        organizationId: principal.organizationId,
        coinSerial: coin.serial,
        type: 'TOPUP',
        amount: amount.toFixed(),
        commission: quote.commission.toFixed(),
        fields,
        operationId: operation!.id,
        createdBy: principal.userId,
      });
      return toTransaction((await this.gates.transaction(id))!);
    });
  }

  /** The coin's currency as the top-up form reads it: its codes, symbol, name and description. */
  private async currencyOf(principal: Principal, coin: LockedCoin): Promise<GateCurrencyDto> {
    const whole = (await this.coins.ownAmong(principal.organizationId, [coin.serial])).get(coin.serial)!;
    const { code, symbol, digitalCode, name, description } = whole.currency;
    return { code, symbol, digitalCode, name, description };
  }

  /** A client coin of the caller's organization, read without a lock; any other is a 404. */
  private async ownCoin(principal: Principal, serial: string): Promise<LockedCoin> {
    const coin = (await this.ledger.read([serial])).get(serial);
    if (!coin || coin.type !== 'client' || coin.organization_id !== principal.organizationId) {
      throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    }
    return coin;
  }

  /**
   * A provider's TOPUP or REDEEM method for a coin: its product on sale in the coin's currency named `way`, or its only
   * one when no way is given (several: a 400 naming `parameter`). None is a 404.
   */
  private async method(
    coin: LockedCoin,
    txType: string,
    providerId: string,
    way: string | undefined,
    parameter: string,
  ): Promise<ProductRow> {
    const rows = await this.gates.methods({ currencyId: coin.currency_id, providerTypes: providerTypesOf(txType), providerId, way });
    if (!rows.length) {
      throw new ApiError(
        'exception.gate_product.not_found',
        `No ${txType} method of provider ${providerId}${way ? ` named ${way}` : ''} in ${coin.code}`,
      );
    }
    if (rows.length > 1)
      throw ApiError.invalid(parameter, `must name one of the provider's methods: ${rows.map((r) => r.name).join(', ')}`);
    return rows[0];
  }

  /**
   * A TOPUP's or a REDEEM's price, as its execution will quote it: the gate terms in force for the payer's contract, the
   * provider, the product and the type (see GateCommissionsService.pricing), else the contract's own gate_payment
   * commission. A TOPUP's payer is the gate-settlement coin (the provider charged the card) and its payee the caller's
   * coin; a REDEEM's the other way round. The amount must lie within the product's limits.
   */
  private async price(principal: Principal, coin: LockedCoin, product: ProductRow, given: unknown, type: 'TOPUP' | 'REDEEM') {
    const amount = parseAmount(given, scaleOf(coin.fraction));
    if (amount.lt(new Money(product.min_amount)) || amount.gt(new Money(product.max_amount))) {
      throw ApiError.invalid('amount', `must be from ${product.min_amount} to ${product.max_amount}`);
    }
    const settlement = await this.ledger.systemCoin(coin.issuer_id, 'gate_settlement');
    // The contract's own gate_payment commission, looked up by the coins it prices (a REDEEM's by its payer alone).
    const [payerSerial, payeeSerial] = type === 'TOPUP' ? [settlement, coin.serial] : [coin.serial, null];
    const pricing =
      (await this.commissions.pricing(principal.organizationId, product.gate_provider_id, product.id, coin.issuer_id, settlement, type)) ??
      (await this.fees.pricing('gate_payment', payerSerial, payeeSerial));
    const gate = (await this.ledger.read([settlement])).get(settlement)!;
    const [payer, payee] = type === 'TOPUP' ? [gate, coin] : [coin, gate];
    const quote = await this.fees.quote({ flow: 'gate_payment', amount, payer, payee, pricing });
    return { amount, quote, pricing, settlement };
  }

  async get(principal: Principal, id: string): Promise<GateTransactionDto> {
    const row = await this.gates.transaction(id);
    if (!row || !this.sees(principal, row.organization_id)) throw new ApiError('exception.gate_transaction.not_found');
    return toTransaction(row);
  }

  async view(principal: Principal, dto: GateTransactionViewDto): Promise<Page<GateTransactionDto>> {
    const { offset, limit } = pageWindow(dto);
    const organizationId = principal.permissions.has('TRANSACTION_AUDITOR') ? undefined : principal.organizationId;
    const { total, rows } = await this.gates.transactions({ ...(dto.filter ?? {}), organizationId }, offset, limit);
    return pageOf(dto, total, rows.map(toTransaction));
  }

  /**
   * A provider's asynchronous outcome. Authenticated by the provider's secret: X-Gate-Signature is the hex
   * HMAC-SHA256 of the raw body. Idempotent on the reference: a repeated outcome answers `applied: false`.
   */
  async callback(
    providerId: string,
    signature: string | undefined,
    rawBody: string,
    dto: GateCallbackDto,
  ): Promise<{ applied: boolean; transaction: GateTransactionDto }> {
    const provider = await this.gates.provider(providerId);
    if (!provider) throw new ApiError('exception.gate_provider.not_found');
    const expected = createHmac('sha256', provider.secret).update(rawBody, 'utf8').digest();
    const given = Buffer.from(/^[0-9a-f]{64}$/i.test(signature ?? '') ? signature! : '', 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ApiError('exception.gate.signature_invalid');
    const row = await this.gates.transactionByReference(providerId, dto.reference);
    if (!row) throw new ApiError('exception.gate_transaction.not_found');
    // The provider's outcome, applied once per transaction (not a user's request: no Idempotency-Key to honour).
    const applied = await this.uow.asJob('gate-callback', () =>
      this.finish(row.id, {
        status: dto.status,
        providerReference: row.provider_reference ?? dto.reference,
        ...(dto.reason ? { reason: dto.reason } : {}),
      }),
    );
    return { applied, transaction: toTransaction((await this.gates.transaction(row.id))!) };
  }

  /** Calls the provider for a transaction just committed (or found by the reconciler), outside any transaction. */
  async dispatch(id: string): Promise<void> {
    const row = await this.gates.transaction(id);
    if (!row || (row.status !== 'provider_assigned' && row.status !== 'pending')) return;
    // A callback (or another instance) may have moved it since it was read: then it is not this call's to make.
    if (row.status === 'provider_assigned' && !(await this.uow.run(() => this.gates.setStatus(id, 'pending', {}, ['provider_assigned'])))) {
      return;
    }
    let outcome: ProviderOutcome;
    try {
      outcome = await this.provider.pay(await this.requestOf(row));
    } catch (error) {
      // Unknown: the payment stays pending and the reconciler asks again.
      this.logger.warn(`Gate provider call for ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    await this.finish(id, outcome);
  }

  /** Asks providers about transactions they have not finished (a crash between the call and its outcome, a lost callback). */
  private async reconcileUnfinished(): Promise<void> {
    for (const id of await this.gates.unfinished(this.config.gateReconcileSeconds, 100)) {
      try {
        const row = await this.gates.transaction(id);
        if (!row) continue;
        if (row.status === 'provider_assigned') await this.dispatch(id);
        else if (row.status === 'pending') await this.finish(id, await this.provider.status(await this.requestOf(row)));
      } catch (error) {
        // Logged as a failed run was; but one transaction that cannot be finished now must not hold back the others.
        logFailure(
          this.logger,
          'the gate reconciliation',
          error,
          `Gate reconciliation of ${id} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  /**
   * Applies a provider's outcome once: settles or releases the held operation. Answers whether it finished the
   * transaction. "Pending" only notes the provider's reference, and never reopens a finished transaction; a final
   * outcome for a finished transaction changes nothing (the first one stands).
   */
  private async finish(id: string, outcome: ProviderOutcome): Promise<boolean> {
    if (outcome.status === 'pending') {
      await this.uow.run(() => this.gates.setStatus(id, 'pending', { providerReference: outcome.providerReference }));
      return false;
    }
    return this.uow.run(async () => {
      const row = await this.gates.transaction(id, true);
      if (!row) return false;
      if (FINAL_STATUSES.includes(row.status)) {
        if (row.status !== outcome.status) {
          this.logger.warn(`Gate transaction ${id} is ${row.status}; the provider's later outcome ${outcome.status} is ignored`);
        }
        return false;
      }
      const processed = outcome.status === 'processed';
      if (row.type === 'TOPUP') await this.settleCharge(row.operation_id!, processed);
      else
        await this.pending.settle(
          row.operation_id!,
          'gate_payment',
          processed ? { accept: true, requestStatus: 'processed' } : { accept: false, status: 'error', requestStatus: 'failure' },
          () => new ApiError('exception.gate_transaction.finished'),
        );
      let providerData = outcome.data ?? null;
      if (processed && row.type === 'card_issue') {
        providerData = { ...providerData, smartCardId: await this.recordCard(row, outcome) };
      }
      const moved = await this.gates.setStatus(id, processed ? 'processed' : 'failure', {
        providerReference: outcome.providerReference,
        providerData,
        failureReason: processed ? null : (outcome.reason ?? 'The provider refused the payment'),
      });
      // The row is locked and was open: not moving it now is a bug, and rolls the settlement back with it.
      if (!moved) throw new Error(`Gate transaction ${id} changed under its lock`);
      const finished = toTransaction((await this.gates.transaction(id))!);
      await this.outbox.emit('gate_transaction.finished', [row.organization_id], finished);
      return true;
    });
  }

  /**
   * Settles a TOPUP's pending gate_charge operation in place, with the terms quoted when it was created: the card was
   * charged — the gate-settlement coin credits the coin and pays the fee to its collector (a fee the provider collects
   * stays with the provider: no leg) — or it was not, and the operation ends in `error`, having moved nothing.
   */
  private async settleCharge(operationId: string, processed: boolean): Promise<void> {
    const held = await this.ledger.readOperation(operationId);
    const charge = held?.details.charge as ChargeTerms | undefined;
    if (!held || !charge || !held.from_coin || !held.to_coin) throw new ApiError('exception.gate_transaction.finished');
    const [settlement, payee] = [held.from_coin, held.to_coin];
    const coins = processed ? [settlement, payee, ...(charge.collector ? [charge.collector] : [])] : [];
    await this.ledger.execute({
      type: 'gate_charge',
      operationId,
      coins,
      plan: (locked) => {
        const operation = locked.operation!;
        if (operation.status !== 'pending') throw new ApiError('exception.gate_transaction.finished');
        const meta = { amount: new Money(operation.amount), requestStatus: processed ? 'processed' : 'failure' };
        if (!processed) return { legs: [], status: 'error', meta };
        const legs: Leg[] = [{ from: settlement, to: payee, amount: new Money(charge.payeeAmount) }];
        if (charge.collector) legs.push({ from: settlement, to: charge.collector, amount: new Money(charge.commission) });
        return { legs, status: 'processed', meta };
      },
    });
  }

  /**
   * The smart card a card-issuing provider issued, recorded for the transaction's coin: the provider's card id
   * (`virtualCardId`, else its reference of the transaction) and the last four digits of `maskedPan`. Named by the
   * transaction's `fields.cardName`, else the product's name. An outcome without a card number is a provider
   * error: the transaction is still processed (the provider has charged), with no card recorded (null).
   */
  private async recordCard(row: GateTransactionRow, outcome: ProviderOutcome): Promise<string | null> {
    const data = outcome.data ?? {};
    const last4 = typeof data.maskedPan === 'string' ? /(\d{4})\s*$/.exec(data.maskedPan)?.[1] : undefined;
    if (!last4) {
      this.logger.error(`Gate transaction ${row.id}: the card-issuing provider answered no card number; no smart card recorded`);
      return null;
    }
    const product = await this.gates.product(row.product_id);
    const cardName =
      typeof row.fields.cardName === 'string' && row.fields.cardName.trim() ? row.fields.cardName.trim().slice(0, 100) : null;
    return this.smartCards.recordIssued({
      organizationId: row.organization_id,
      coinSerial: row.coin_serial,
      name: cardName ?? (product as ProductRow).name.slice(0, 100),
      createdBy: row.created_by,
      issuedBy: {
        provider: row.gate_provider_id,
        reference: String(
          typeof data.virtualCardId === 'string' && data.virtualCardId ? data.virtualCardId : (outcome.providerReference ?? row.id),
        ).slice(0, 200),
        last4,
      },
    });
  }

  private async requestOf(row: GateTransactionRow): Promise<ProviderRequest> {
    const [provider, product] = await Promise.all([this.gates.provider(row.gate_provider_id), this.gates.product(row.product_id)]);
    return {
      reference: row.id,
      type: row.type,
      amount: row.amount,
      currency: row.currency,
      productName: (product as ProductRow).name,
      fields: row.fields,
      settings: provider!.settings,
    };
  }

  private sees(principal: Principal, organizationId: string): boolean {
    return principal.organizationId === organizationId || principal.permissions.has('TRANSACTION_AUDITOR');
  }
}
