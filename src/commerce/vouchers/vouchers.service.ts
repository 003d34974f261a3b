import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf, JsonDecimal, OneTimeSecret } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { PeriodicTask } from '../../platform/common/periodic-task';
import { CommissionsService } from '../../platform/commissions/commissions.service';
import { calculationOf } from '../../platform/commissions/calculation';
import type { CalculationDto } from '../../platform/commissions/dto/calculation.dto';
import { commissionDetails, Quote } from '../../platform/commissions/fee';
import type { CoinIssuerDto } from '../../money-movement/coins/dto/coin.dto';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { recordOf, RecordWriter } from '../../platform/ledger/ledger.types';
import { DomainEvent, OnDomainEvent } from '../../platform/outbox/domain-events';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import type {
  CreatePrepaidCoinDto,
  CreateVoucherDto,
  PrepaidCoinCreatedDto,
  PrepaidCoinInfoDto,
  RedeemedVoucherDto,
  RedeemVoucherDto,
  VoucherDto,
  VoucherViewDto,
} from './dto/voucher.dto';
import { VoucherRow, VouchersRepository } from './vouchers.repository';

/** A pending voucher locked for the caller's transaction, as `VouchersService.claim` answers it. */
export interface ClaimedVoucher {
  id: string;
  serial: string;
  prepaidName: string;
  /** What the voucher is worth, exact: it is spent whole. */
  amount: Money;
  currencyId: string;
  /** The currency's code. */
  currency: string;
  /** The currency's fraction (minor units per major unit), as text. */
  fraction: string;
  /** The issuer's voucher_reserve coin holding the voucher's money: the coin that pays whatever spends it. */
  reserveCoin: string;
  /** The organization that bought the voucher. */
  organizationId: string;
}

/** The sweep returns at most this many vouchers per run in each instance. */
const SWEEP_BATCH = 100;

/** How a request names the paying coin and the amount. */
export interface RequestFields {
  coin: string;
  amount: string;
}
const VOUCHER_FIELDS: RequestFields = { coin: 'coinSerial', amount: 'amount' };
/** The family client's prepaid coin names them so. */
export const PREPAID_FIELDS: RequestFields = { coin: 'srcSerial', amount: 'prepaidAmount' };

const hashOf = (code: string) => createHash('sha256').update(code.toLowerCase()).digest('hex');

/**
 * Prepaid vouchers. Buying one moves its amount from the creator's coin to the issuer's
 * `voucher_reserve` coin (operation `voucher_create`, priced by the `voucher` flow); the answer
 * shows a code of 128 random bits once, and only its SHA-256 is kept. Whoever holds the code
 * redeems it once into a coin of their own in the same currency (`voucher_redeem`); a voucher
 * blocked by its creator, or past its expiry, returns its amount to the creator's coin
 * (`voucher_refund`). A block, a sweep or a claim locks the voucher's row first, then the coins; a redemption
 * (grouped) marks it redeemed only while it is pending, with its operation: so of parallel redemptions, blocks and
 * sweeps of one voucher only the first acts.
 *
 * For other modules (exported): a flow whose payer is a voucher (merchant payments) claims it with `claim(code)`
 * and pays its amount out of its reserve with its own ledger operation, in the same transaction; the voucher hears
 * that operation from the kernel (`operation.processed`) and closes itself (`spent`). A voucher is not a
 * `{type, value}` payment tool: it stands for no coin of its bearer, and its money sits in the issuer's reserve, a
 * technical coin no payer check accepts.
 */
@Injectable()
export class VouchersService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(VouchersService.name);
  /** The vouchers `claim` locked in each open transaction and no operation has spent yet; gone with the transaction. */
  private readonly claimed = new WeakMap<object, ClaimedVoucher[]>();
  private readonly sweep = new PeriodicTask(
    'The voucher expiry sweep',
    async () => {
      const expired = await this.uow.asJob('voucher-expiry', () => this.expireDue(SWEEP_BATCH));
      if (expired) this.logger.log(`Returned the money of ${expired} expired voucher(s)`);
    },
    this.logger,
  );

  constructor(
    private readonly vouchers: VouchersRepository,
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    private readonly commissions: CommissionsService,
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Each instance sweeps expired vouchers every VOUCHER_EXPIRY_SWEEP_SECONDS (0: never). */
  onApplicationBootstrap(): void {
    this.sweep.start(this.config.voucherExpirySweepSeconds);
  }

  onModuleDestroy(): Promise<void> {
    return this.sweep.stop();
  }

  /** Buys a voucher; `fields` names the coin and amount as the request did (`srcSerial`, `prepaidAmount` under /prepaid-coins). */
  async create(
    principal: Principal,
    dto: CreateVoucherDto,
    fields: RequestFields = VOUCHER_FIELDS,
  ): Promise<{ voucher: VoucherDto; code: OneTimeSecret; process: OperationDto }> {
    const read = this.tools.payer({ coins: await this.ledger.read([dto.coinSerial]), holds: [] }, dto.coinSerial, principal, fields.coin);
    const scale = scaleOf(read.fraction);
    const amount = parseAmount(dto.amount, scale, fields.amount);
    if (dto.expiresAt !== undefined && !(Date.parse(dto.expiresAt) > Date.now()))
      throw ApiError.invalid('expiresAt', 'must be in the future');
    const prepaidName = dto.prepaidName ?? `Voucher ${amount.toFixed(scale)} ${read.code}`;
    const id = randomUUID();
    const code = randomBytes(16).toString('hex');
    return this.uow.run(async () => {
      const reserve = await this.ledger.systemCoin(read.issuer_id, 'voucher_reserve');
      const pricing = await this.commissions.pricing('voucher', dto.coinSerial, reserve);
      let value = amount;
      const posted = await this.ledger.execute({
        type: 'voucher_create',
        coins: [dto.coinSerial, reserve, ...this.commissions.collectors(pricing)],
        plan: async (locked) => {
          const payer = this.tools.payer(locked, dto.coinSerial, principal, fields.coin);
          if (!payer.usable) throw new ApiError('exception.coin.inactive', `Coin ${payer.serial} is closed or inactive`);
          const quote = await this.commissions.quote({ flow: 'voucher', amount, payer, pricing });
          // A fee the recipient bears comes out of the voucher's value: the reserve holds what the voucher is worth.
          value = worthOf(quote);
          return {
            legs: this.commissions.legs(quote, payer.serial, reserve, pricing),
            meta: {
              amount,
              commission: quote.commission,
              fromCoin: payer.serial,
              toCoin: reserve,
              description: dto.description ?? `Voucher ${prepaidName}`,
              customInformation: dto.customInformation ?? null,
              details: { voucher: { id, prepaidName }, ...commissionDetails(quote) },
            },
          };
        },
      });
      await this.vouchers.insert({
        id,
        codeHash: hashOf(code),
        prepaidName,
        amount: value.toFixed(),
        currencyId: read.currency_id,
        organizationId: principal.organizationId,
        coinSerial: read.serial,
        reserveCoin: reserve,
        createdBy: principal.userId,
        expiresAt: dto.expiresAt ?? null,
        operationId: posted!.id,
      });
      return { voucher: toVoucherDto((await this.vouchers.byId(id))!), code: new OneTimeSecret(code), process: posted! };
    });
  }

  /** The price of buying a voucher, as `create` would quote it now (the `voucher` flow's fee). */
  async calculate(principal: Principal, coinSerial: string, value: string | number, fields: RequestFields): Promise<CalculationDto> {
    const read = this.tools.payer({ coins: await this.ledger.read([coinSerial]), holds: [] }, coinSerial, principal, fields.coin);
    const amount = parseAmount(value, scaleOf(read.fraction), fields.amount);
    const reserve = await this.ledger.systemCoin(read.issuer_id, 'voucher_reserve');
    const pricing = await this.commissions.pricing('voucher', coinSerial, reserve);
    const quote = await this.commissions.quote({ flow: 'voucher', amount, payer: read, pricing });
    worthOf(quote);
    return calculationOf(amount, quote, read, { type: 'COIN', srcValue: coinSerial, destValue: null });
  }

  /**
   * What a redeemer learns of a voucher from its serial alone: a pending voucher's name, amount and issuer; a
   * redeemed, blocked or expired one is a 409, an unknown serial a 404.
   */
  async info(serial: string): Promise<PrepaidCoinInfo> {
    const voucher = await this.vouchers.bySerial(serial);
    if (!voucher) throw new ApiError('exception.voucher.not_found', 'No voucher has this serial');
    assertRedeemable(voucher);
    return {
      serial: voucher.serial,
      name: voucher.prepaid_name,
      amount: amountOf(voucher.amount, scaleOf(voucher.fraction)),
      issuer: issuerOf(voucher),
      createdAt: voucher.created_at.toISOString(),
      // A redeemed voucher is a 409 here: what this answers is never activated.
      activatedAt: null,
      expiresAt: voucher.expires_at?.toISOString() ?? null,
    };
  }

  /** A voucher bought as the family client's prepaid coin: the voucher as a coin of its own, its code as the PIN (shown once). */
  async createPrepaid(principal: Principal, request: CreatePrepaidCoinDto): Promise<PrepaidCoinCreated> {
    const bought = { coinSerial: request.srcSerial, amount: request.prepaidAmount };
    const { voucher, code, process } = await this.create(principal, bought, PREPAID_FIELDS);
    const { serial, name, amount, issuer } = voucher;
    // A voucher's value is whole and free: nothing of it is held, and it can only be redeemed in full.
    const [availableAmount, futureAmount, heldAmount, creditLimit] = [amount, amount, zeroLike(amount), zeroLike(amount)];
    const coin = { serial, name, amount, availableAmount, heldAmount, futureAmount, creditLimit, issuer };
    return { coin: { ...coin, active: true, type: 'prepaid', main: false }, pin: code, name, voucher, process };
  }

  /**
   * The price of redeeming the voucher of `serial` with its code into the caller's coin: no flow prices a redemption,
   * so the coin receives the voucher's whole amount. A code that is not this voucher's is a 404, as at redemption.
   */
  async calculateRedeem(principal: Principal, serial: string, code: string, coinSerial: string): Promise<CalculationDto> {
    const voucher = await this.vouchers.bySerial(serial);
    if (!voucher || voucher.code_hash !== hashOf(code))
      throw new ApiError('exception.voucher.not_found', 'No voucher has this serial and code');
    assertRedeemable(voucher);
    const target = this.tools.payer({ coins: await this.ledger.read([coinSerial]), holds: [] }, coinSerial, principal, 'destSerial');
    if (target.currency_id !== voucher.currency_id)
      throw ApiError.invalid('destSerial', `must hold the voucher's currency (${voucher.code})`);
    const amount = new Money(voucher.amount);
    const free: Quote = {
      commission: new Money('0'),
      payerAmount: amount,
      payeeAmount: amount,
      payer: 'sender',
      ruleId: null,
      conditionId: null,
    };
    return calculationOf(amount, free, voucher, { type: 'VOUCHER', srcValue: serial, destValue: coinSerial });
  }

  async view(principal: Principal, dto: VoucherViewDto): Promise<Page<VoucherDto>> {
    const { rows, count } = await this.vouchers.search({
      organizationId: principal.organizationId,
      statuses: dto.filter?.statuses,
      ids: dto.filter?.ids,
      coinSerials: dto.filter?.coinSerials,
      activated: dto.filter?.activated,
      createdAtFrom: dto.filter?.createdAtFrom,
      createdAtTo: dto.filter?.createdAtTo,
      activatedAtFrom: dto.filter?.activatedAtFrom,
      activatedAtTo: dto.filter?.activatedAtTo,
      direction: dto.sort?.createdAt === 'asc' ? 'ASC' : 'DESC',
      ...pageWindow(dto),
    });
    return pageOf(dto, count.total, rows.map(toVoucherDto), count.exact);
  }

  /**
   * Credits the voucher's amount to one of the caller's coins, once. Reads, then one grouped posting that also marks the
   * voucher redeemed (Plan.records, `redeemed`): concurrent redemptions commit together, and of parallel redemptions of
   * one voucher (or a redemption racing its block or expiry) only the first to mark it acts.
   */
  async redeem(
    principal: Principal,
    dto: RedeemVoucherDto,
    serial?: string,
  ): Promise<{ voucher: RedeemedVoucherDto; process: OperationDto }> {
    const coinField = serial === undefined ? 'coinSerial' : 'destSerial';
    const voucher = await this.vouchers.byCodeHash(hashOf(dto.code));
    if (!voucher) throw new ApiError('exception.voucher.not_found', 'No voucher has this code');
    assertRedeemable(voucher);
    // Under /prepaid-coins/{serial} the code must be that voucher's: another's is as unknown as a wrong one.
    if (serial !== undefined && voucher.serial !== serial)
      throw new ApiError('exception.voucher.not_found', 'No voucher has this serial and code');
    const amount = new Money(voucher.amount);
    const posted = (await this.ledger.execute({
      type: 'voucher_redeem',
      coins: [voucher.reserve_coin, dto.coinSerial],
      grouped: true,
      plan: (locked) => {
        const target = this.tools.payer(locked, dto.coinSerial, principal, coinField);
        if (target.currency_id !== voucher.currency_id) {
          throw ApiError.invalid(coinField, `must hold the voucher's currency (${voucher.code})`);
        }
        if (!target.usable) throw new ApiError('exception.coin.inactive', `Coin ${target.serial} is closed or inactive`);
        return {
          legs: [{ from: voucher.reserve_coin, to: target.serial, amount }],
          meta: {
            amount,
            fromCoin: voucher.reserve_coin,
            toCoin: target.serial,
            description: `Voucher ${voucher.prepaid_name} redeemed`,
            details: { voucher: { id: voucher.id } },
          },
          records: [recordOf(this.redeemed, { voucher, coinSerial: target.serial })],
        };
      },
    }))!;
    return {
      voucher: {
        id: voucher.id,
        prepaidName: voucher.prepaid_name,
        amount: amountOf(voucher.amount, scaleOf(voucher.fraction)),
        currency: voucher.code,
        symbol: voucher.symbol,
        status: 'processed',
        // The voucher took its operation's transaction's now().
        redeemedAt: new Date(posted.createdAt).toISOString(),
      },
      process: posted,
    };
  }

  /**
   * Marks vouchers redeemed by their operations, in one statement (a RecordWriter: the ledger calls it in the
   * redemptions' transaction, once for a whole group). A voucher no longer pending — redeemed by a concurrent bearer,
   * blocked or expired since it was read — fails the transaction with its 409, so its redemption is not written; a
   * group is then posted one by one, where only that bearer's request fails. (The coins are locked before the voucher
   * here, after it when a voucher is claimed, blocked or swept: should the two meet, PostgreSQL breaks the deadlock,
   * the group is posted again one by one, or the other side's unit of work retried.)
   */
  private readonly redeemed: RecordWriter<{ voucher: VoucherRow; coinSerial: string }> = {
    write: async (rows) => {
      const marked = await this.vouchers.markRedeemed(
        rows.map(({ row, operationId }) => ({ id: row.voucher.id, coinSerial: row.coinSerial, operationId })),
      );
      if (marked.length === rows.length) return;
      const left = [...marked];
      const missed = rows.find(({ row }) => {
        const i = left.indexOf(row.voucher.id);
        if (i >= 0) left.splice(i, 1);
        return i < 0;
      })!;
      assertRedeemable((await this.vouchers.byId(missed.row.voucher.id))!);
      throw new Error(`Voucher ${missed.row.voucher.id} is pending but was not marked redeemed`);
    },
  };

  /**
   * For a flow that spends a voucher (a merchant payment whose payer is a voucher): inside the caller's open
   * transaction (`UnitOfWork.run`), locks the voucher of `code` until that transaction ends and answers it when it
   * can be spent; else `404 exception.voucher.not_found`, or a 409 (`exception.voucher.redeemed`, `.blocked`,
   * `.expired`). The flow then moves the voucher's whole `amount` out of its `reserveCoin` through the ledger kernel
   * (naming the reserve coin among the coins it locks), in the same transaction: that operation spends the voucher
   * (`spent`), the flow says nothing more. Parallel claims of one code wait for each other: the first spends it, the
   * others get 409.
   */
  async claim(code: string): Promise<ClaimedVoucher> {
    const transaction = this.uow.current();
    if (!transaction) throw new Error('VouchersService.claim runs inside UnitOfWork.run: the lock lasts as long as the transaction');
    const voucher = await this.vouchers.lockByCodeHash(hashOf(code));
    if (!voucher) throw new ApiError('exception.voucher.not_found', 'No voucher has this code');
    assertPending(voucher);
    if (voucher.due) throw new ApiError('exception.voucher.expired', `The voucher expired at ${voucher.expires_at!.toISOString()}`);
    const claimed: ClaimedVoucher = {
      id: voucher.id,
      serial: voucher.serial,
      prepaidName: voucher.prepaid_name,
      amount: new Money(voucher.amount),
      currencyId: voucher.currency_id,
      currency: voucher.code,
      fraction: voucher.fraction,
      reserveCoin: voucher.reserve_coin,
      organizationId: voucher.organization_id,
    };
    this.claimed.set(transaction, [...(this.claimed.get(transaction) ?? []), claimed]);
    return claimed;
  }

  /**
   * A voucher claimed in this transaction is spent by the operation that pays out of its reserve — a redemption, a
   * merchant payment, whichever flow claimed it: closed as `processed` by that operation, crediting its `to` coin,
   * with it or not at all. Its amount must be the voucher's whole amount; else the flow is wrong, and the change fails.
   */
  @OnDomainEvent('operation.processed', { phase: 'in-transaction' })
  spent({ data: operation }: DomainEvent<OperationDto>): Promise<void> | undefined {
    const claimed = this.claimed.get(this.uow.current()!);
    const voucher = claimed?.find((v) => v.reserveCoin === operation.from?.serial);
    // Nothing claimed by this payment (every operation but a voucher's): nothing to wait for.
    if (!claimed || !voucher) return undefined;
    claimed.splice(claimed.indexOf(voucher), 1);
    return this.closeSpent(voucher, operation);
  }

  /** Closes `voucher` as spent by `operation` (`spent`), which must pay its whole amount to a coin. */
  private async closeSpent(voucher: ClaimedVoucher, operation: OperationDto): Promise<void> {
    if (!voucher.amount.eq(new Money(operation.amount.text)) || !operation.to) {
      throw new Error(
        `Operation ${operation.id} pays ${operation.amount.text} out of voucher ${voucher.id}: a voucher is spent whole, to a coin`,
      );
    }
    if (!(await this.vouchers.markRedeemed([{ id: voucher.id, coinSerial: operation.to.serial, operationId: operation.id }])).length) {
      throw new Error(`Voucher ${voucher.id} is not pending: it was claimed, so nothing else could close it`);
    }
  }

  /**
   * A reversal of a voucher's operation, in its transaction. A purchase reversed while its voucher is pending has
   * returned the voucher's money: the voucher is blocked with the reversal as its closing operation, so no block, expiry
   * or redemption pays it a second time. Any other (the purchase of a voucher redeemed, blocked or expired, whose money
   * left the reserve already; the operation that redeemed or returned it) is refused: the voucher cannot be opened again.
   */
  @OnDomainEvent('operation.reversed', { phase: 'in-transaction' })
  async reversed({ data }: DomainEvent<{ operationId: string; reversal: OperationDto }>): Promise<void> {
    const voucher = await this.vouchers.lockByOperation(data.operationId);
    if (!voucher) return;
    if (!voucher.bought || voucher.status !== 'pending') {
      throw new ApiError(
        'exception.transaction.not_reversible',
        `Operation ${data.operationId} ${voucher.bought ? 'bought' : 'closed'} voucher ${voucher.id}, which is ${voucher.status}: it cannot be reversed`,
      );
    }
    await this.vouchers.markReturned(voucher.id, 'blocked', data.reversal.id);
  }

  /** The creator blocks a pending voucher: its amount returns to the creator's coin at once. */
  async block(principal: Principal, id: string): Promise<{ voucher: VoucherDto; process: OperationDto }> {
    return this.uow.run(async () => {
      const voucher = await this.vouchers.lockOwn(principal.organizationId, id);
      if (!voucher) throw new ApiError('exception.voucher.not_found', 'No such voucher');
      assertPending(voucher);
      const target = await this.vouchers.returnCoin(voucher);
      if (!target) {
        throw new ApiError(
          'exception.coin.closed',
          `Coin ${voucher.coin_serial} is closed and the organization has no open main ${voucher.code} coin to receive the voucher's amount`,
        );
      }
      const process = await this.giveBack(voucher, target, 'blocked');
      return { voucher: toVoucherDto((await this.vouchers.byId(id))!), process };
    });
  }

  /**
   * Returns the money of up to `limit` pending vouchers past their expiry, each in its own transaction (or in the
   * caller's, for the staff route). A voucher whose creator can no longer receive (its coin and main coin closed)
   * is left pending — it can no longer be redeemed — and logged.
   */
  async expireDue(limit: number): Promise<number> {
    let expired = 0;
    let after: { expiresAt: Date; id: string } | undefined;
    for (let i = 0; i < limit; i++) {
      const outcome = await this.uow.run(async () => {
        const voucher = await this.vouchers.lockNextDue(after);
        if (!voucher) return 'none';
        after = { expiresAt: voucher.expires_at!, id: voucher.id };
        const target = await this.vouchers.returnCoin(voucher);
        if (!target) {
          this.logger.warn(`Voucher ${voucher.id} expired but no open coin of its creator can receive its amount; it stays pending`);
          return 'skipped';
        }
        await this.giveBack(voucher, target, 'expired');
        return 'expired';
      });
      if (outcome === 'none') break;
      if (outcome === 'expired') expired++;
    }
    return expired;
  }

  /**
   * The reserve pays the voucher's amount back to the creator's side (operation `voucher_refund`); the voucher closes.
   * The refund undoes its purchase (ExecuteRequest.undoes): what the purchase counted against the voucher flow's limits
   * is given back.
   */
  private async giveBack(voucher: VoucherRow, target: string, status: 'blocked' | 'expired'): Promise<OperationDto> {
    const posted = await this.ledger.execute({
      type: 'voucher_refund',
      coins: [voucher.reserve_coin, target],
      undoes: voucher.operation_id,
      plan: () => ({
        legs: [{ from: voucher.reserve_coin, to: target, amount: parse(voucher) }],
        meta: {
          amount: parse(voucher),
          fromCoin: voucher.reserve_coin,
          toCoin: target,
          description: `Voucher ${voucher.prepaid_name} ${status}`,
          details: { voucher: { id: voucher.id, status } },
        },
      }),
    });
    await this.vouchers.markReturned(voucher.id, status, posted!.id);
    return posted!;
  }
}

/** A voucher's amount, exact. */
function parse(voucher: VoucherRow): Money {
  return new Money(voucher.amount);
}

function assertPending(voucher: VoucherRow): void {
  if (voucher.status === 'processed') throw new ApiError('exception.voucher.redeemed', 'The voucher was already redeemed');
  if (voucher.status === 'blocked') throw new ApiError('exception.voucher.blocked', 'The voucher is blocked');
  if (voucher.status === 'expired') throw new ApiError('exception.voucher.expired', 'The voucher has expired');
}

/** What a voucher bought at this quote is worth (a fee the recipient bears comes out of it); nothing is a 409. */
function worthOf(quote: Quote): Money {
  if (!quote.payeeAmount.gt(0)) {
    throw new ApiError('exception.commission.exceeds_amount', 'The commission would leave the voucher worth nothing');
  }
  return quote.payeeAmount;
}

/** Pending and not past its expiry. */
function assertRedeemable(voucher: VoucherRow): void {
  assertPending(voucher);
  if (voucher.due) throw new ApiError('exception.voucher.expired', `The voucher expired at ${voucher.expires_at!.toISOString()}`);
}

/** Answers without their envelope (the controller's). */
type PrepaidCoinInfo = Omit<PrepaidCoinInfoDto, 'status' | 'message'>;
type PrepaidCoinCreated = Omit<PrepaidCoinCreatedDto, 'status' | 'message'>;

/** Zero with as many decimals as `amount` (its currency's). */
function zeroLike(amount: JsonDecimal): JsonDecimal {
  return amountOf('0', amount.text.split('.')[1]?.length ?? 0);
}

export function issuerOf(row: VoucherRow): CoinIssuerDto {
  return { id: row.issuer_id, sn: Number(row.issuer_sn), currency: row.code, symbol: row.symbol };
}

function toVoucherDto(row: VoucherRow): VoucherDto {
  return {
    id: row.id,
    serial: row.serial,
    name: row.prepaid_name,
    issuer: issuerOf(row),
    activatedAt: row.redeemed_at?.toISOString() ?? null,
    prepaidName: row.prepaid_name,
    amount: amountOf(row.amount, scaleOf(row.fraction)),
    currency: row.code,
    symbol: row.symbol,
    status: row.status,
    coinSerial: row.coin_serial,
    expiresAt: row.expires_at?.toISOString() ?? null,
    redeemedAt: row.redeemed_at?.toISOString() ?? null,
    operationId: row.operation_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
