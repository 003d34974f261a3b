import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { IdempotencyContext, IdempotencyService } from '../common/idempotency';
import { formatAmount, Money, parseAmount, scaleOf } from '../common/money';
import { query } from '../database/sql';
import { LedgerService, LockedCoin } from '../ledger/ledger.service';
import { OperationsReader } from '../transactions/operations.reader';
import { BankTopUpDto, OperationResultDto, TransferCalculationDto, TransferRequestDto } from './dto/transfer.dto';

/** What the rules of a transfer need of a coin; a locked coin carries it too. */
type CoinInfo = Pick<LockedCoin, 'serial' | 'organization_id' | 'issuer_id' | 'currency_id' | 'code' | 'fraction' | 'type'>;

/** Transfers between coins and bank top-ups: every movement goes through the ledger. */
@Injectable()
export class TransfersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly operations: OperationsReader,
  ) {}

  /** Reads coins on the caller's transaction when given one: a second pool connection per transaction starves the pool under load. */
  private async coins(serials: string[], m?: EntityManager): Promise<Map<string, CoinInfo>> {
    const rows = await query<CoinInfo>(
      m ?? this.dataSource,
      `SELECT c.serial::text AS serial, c.organization_id, c.issuer_id, c.currency_id, cu.code, cu.fraction::text AS fraction, c.type
         FROM coins c JOIN currencies cu ON cu.id = c.currency_id WHERE c.serial = ANY($1::bigint[])`,
      [serials],
    );
    return new Map(rows.map((r) => [r.serial, r]));
  }

  /** The rules of a transfer over the two coins as read (or locked): ownership, kinds, currency, amount. */
  private check(
    principal: Principal,
    dto: TransferRequestDto,
    coins: Map<string, CoinInfo>,
  ): { payer: CoinInfo; payee: CoinInfo; amount: Money } {
    const { srcValue, destValue } = dto.paymentTool;
    if (srcValue === destValue) throw ApiError.invalid('paymentTool.destValue', 'must be another coin than srcValue');
    const payer = coins.get(srcValue);
    if (!payer || payer.organization_id !== principal.organizationId)
      throw ApiError.notFound('exception.coin.not_found', `No coin ${srcValue}`);
    const payee = coins.get(destValue);
    if (!payee || payee.type !== 'client') throw ApiError.notFound('exception.coin.not_found', `No coin ${destValue}`);
    if (payer.type !== 'client') throw ApiError.invalid('paymentTool.srcValue', 'must not be a technical coin');
    if (payer.currency_id !== payee.currency_id)
      throw ApiError.invalid('paymentTool.destValue', 'must hold the same currency as the payer coin');
    const amount = parseAmount(dto.amount, scaleOf(payer.fraction));
    return { payer, payee, amount };
  }

  async calculate(principal: Principal, dto: TransferRequestDto): Promise<TransferCalculationDto> {
    const { srcValue, destValue } = dto.paymentTool;
    const { payer, amount } = this.check(principal, dto, await this.coins([srcValue, destValue]));
    const scale = scaleOf(payer.fraction);
    const commission = new Money(0);
    return {
      status: 'ok',
      message: 'OK',
      currency: payer.code,
      payerAmount: formatAmount(amount.plus(commission), scale),
      payeeAmount: formatAmount(amount, scale),
      commission: formatAmount(commission, scale),
    };
  }

  async transfer(principal: Principal, dto: TransferRequestDto, idem: IdempotencyContext): Promise<OperationResultDto> {
    return this.idempotency.run(
      principal.userId,
      idem,
      201,
      async (m) => {
        // Lock first and check the locked rows: one read, and the rules see the state the transfer will change.
        const locked = await this.ledger.lock(m, [dto.paymentTool.srcValue, dto.paymentTool.destValue]);
        const { payer, payee, amount } = this.check(principal, dto, locked);
        for (const coin of [payer, payee]) {
          if (!locked.get(coin.serial)?.usable)
            throw ApiError.conflict('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        }
        const posted = await this.ledger.post(
          m,
          {
            type: 'transfer',
            currencyId: payer.currency_id,
            amount,
            fromCoin: payer.serial,
            toCoin: payee.serial,
            description: dto.description ?? null,
            customInformation: dto.customInformation ?? null,
            requestIdentifier: idem.key ?? null,
            createdBy: principal.userId,
            entries: [
              { coin: payer.serial, amount: amount.negated() },
              { coin: payee.serial, amount },
            ],
          },
          locked,
        );
        return { status: 'ok' as const, message: 'Transfer completed', process: this.operations.describe(posted) };
      },
      (r) => r.process.id,
    );
  }

  /** Credits a coin from its issuer's bank-settlement coin (staff; request flows come later). */
  async bankTopUp(principal: Principal, dto: BankTopUpDto, idem: IdempotencyContext): Promise<OperationResultDto> {
    return this.idempotency.run(
      principal.userId,
      idem,
      201,
      async (m) => {
        const coin = (await this.coins([dto.coinSerial], m)).get(dto.coinSerial);
        if (!coin || coin.type !== 'client') throw ApiError.notFound('exception.coin.not_found', `No coin ${dto.coinSerial}`);
        const amount = parseAmount(dto.amount, scaleOf(coin.fraction));
        const settlement = await this.ledger.systemCoin(m, coin.issuer_id, 'bank_settlement');
        const locked = await this.ledger.lock(m, [coin.serial, settlement]);
        if (!locked.get(coin.serial)?.usable)
          throw ApiError.conflict('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        const posted = await this.ledger.post(
          m,
          {
            type: 'bank_top_up',
            currencyId: coin.currency_id,
            amount,
            fromCoin: settlement,
            toCoin: coin.serial,
            description: dto.description ?? null,
            customInformation: dto.customInformation ?? null,
            requestIdentifier: idem.key ?? null,
            createdBy: principal.userId,
            details: dto.bankAccountNumber ? { bankAccountNumber: dto.bankAccountNumber } : {},
            entries: [
              { coin: settlement, amount: amount.negated() },
              { coin: coin.serial, amount },
            ],
          },
          locked,
        );
        return { status: 'ok' as const, message: 'Bank top-up completed', process: this.operations.describe(posted) };
      },
      (r) => r.process.id,
    );
  }
}
