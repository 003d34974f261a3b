import { toOperationRecord } from '../../platform/ledger/operation-record';
import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { CoinsService } from '../../money-movement/coins/coins.service';
import { ApiError } from '../../platform/common/api-error';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { calculationOf } from '../../platform/commissions/calculation';
import { CommissionsService, Pricing, Quote } from '../../platform/commissions/commissions.service';
import { commissionDetails } from '../../platform/commissions/fee';
import type { Locked, LockedCoin } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OrganizationsService } from '../../platform/organizations/organizations.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { RequestCalculationDto, withClientNames } from '../bank-top-ups/dto/bank-calculation.dto';
import { CashDesksService } from './cash-desks.service';
import type { CashDeskWithdrawalProcessDto, CashDeskWithdrawalRequestDto } from './dto/cash-desk.dto';

/** Who may withdraw at a desk: the customers of cash desks (never a desk itself, nor the operator). */
const CUSTOMER_TYPES: readonly string[] = ['individual', 'merchant'];

interface Checked {
  payer: LockedCoin;
  amount: Money;
  quote: Quote;
}

/**
 * A customer's withdrawal at a cash desk (the family's withdrawal form): their coin pays the desk's cash coin of its
 * issuer at once (`cash_desk_redeem`, priced as the `cash_out` flow by the customer's contract), and the desk hands the
 * cash to `receiverName` when they come. Unlike a cashier's `cash_out` (CashDeskOperationsService), the customer asks
 * for it themselves, so their own request is the consent and nothing waits on the desk.
 */
@Injectable()
export class CashDeskWithdrawalsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    private readonly commissions: CommissionsService,
    private readonly desks: CashDesksService,
    private readonly coins: CoinsService,
    private readonly organizations: OrganizationsService,
  ) {}

  async calculate(principal: Principal, deskId: string, dto: CashDeskWithdrawalRequestDto): Promise<RequestCalculationDto> {
    const deskCoin = await this.deskCoin(principal, deskId, dto.coin);
    const { payer, amount, quote } = await this.check(principal, dto, { coins: await this.ledger.read([dto.coin, deskCoin]), holds: [] });
    return withClientNames(calculationOf(amount, quote, payer, { type: 'COIN', srcValue: dto.coin, destValue: deskCoin }));
  }

  /** Reads, then one grouped posting: without an Idempotency-Key, concurrent withdrawals commit together. */
  async withdraw(principal: Principal, deskId: string, dto: CashDeskWithdrawalRequestDto): Promise<CashDeskWithdrawalProcessDto> {
    const deskCoin = await this.deskCoin(principal, deskId, dto.coin);
    const pricing = await this.commissions.pricing('cash_out', dto.coin, null);
    const process = (await this.ledger.execute({
      type: 'cash_desk_redeem',
      coins: [dto.coin, deskCoin, ...this.commissions.collectors(pricing)],
      grouped: true,
      plan: async (locked) => {
        const { payer, amount, quote } = await this.check(principal, dto, locked, pricing);
        const desk = locked.coins.get(deskCoin)!;
        for (const coin of [payer, desk]) {
          if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        }
        return {
          legs: this.commissions.legs(quote, payer.serial, desk.serial, pricing),
          meta: {
            amount,
            commission: quote.commission,
            fromCoin: payer.serial,
            toCoin: desk.serial,
            description: null,
            customInformation: null,
            details: { ...commissionDetails(quote), cashDeskId: deskId, receiverName: dto.receiverName },
          },
        };
      },
    }))!;
    const [coin, owner] = await Promise.all([this.coins.get(principal, dto.coin), this.organizations.record(principal.organizationId)]);
    return {
      ...process,
      transaction: [toOperationRecord(process, { organizationId: principal.organizationId })],
      cashAmount: process.amount,
      cashDeskId: deskId,
      receiverName: dto.receiverName,
      clientCoin: {
        serial: coin.serial,
        name: coin.name,
        organizationId: principal.organizationId,
        organizationName: owner!.name,
        technical: false,
        type: coin.type,
        issuer: coin.issuer,
      },
    };
  }

  /**
   * The desk's cash coin for the customer's coin: the caller must be a desk's customer (403), the coin theirs (404;
   * technical: 400), the desk a cash desk (404) holding a cash coin of the coin's issuer (409).
   */
  private async deskCoin(principal: Principal, deskId: string, serial: string): Promise<string> {
    if (!CUSTOMER_TYPES.includes(principal.organizationType)) {
      throw new ApiError('exception.access.forbidden', 'Only an individual or a merchant withdraws cash at a cash desk');
    }
    const coin = this.tools.payer({ coins: await this.ledger.read([serial]), holds: [] }, serial, principal, 'coin');
    const desk = await this.organizations.find(deskId);
    if (!desk || desk.type !== 'cash_desk') throw new ApiError('exception.cash_desk.not_found', `No cash desk ${deskId}`);
    return this.desks.cashCoin(deskId, coin.issuer_id);
  }

  /** The rules over the coins as read (or locked): the payer is the caller's, the amount fits its currency, the price. */
  private async check(principal: Principal, dto: CashDeskWithdrawalRequestDto, locked: Locked, pricing?: Pricing): Promise<Checked> {
    const payer = this.tools.payer(locked, dto.coin, principal, 'coin');
    const amount = parseAmount(dto.amount, scaleOf(payer.fraction));
    const quote = await this.commissions.quote({ flow: 'cash_out', amount, payer, pricing });
    return { payer, amount, quote };
  }
}
