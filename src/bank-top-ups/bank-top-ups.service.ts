import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { parseAmount, scaleOf } from '../common/money';
import { calculationOf } from '../commissions/calculation';
import { CommissionsService } from '../commissions/commissions.service';
import type { CalculationDto } from '../commissions/dto/calculation.dto';
import { commissionDetails } from '../commissions/fee';
import type { OperationDto } from '../ledger/dto/operation.dto';
import type { LockedCoin } from '../ledger/ledger.types';
import { LedgerService } from '../ledger/ledger.service';
import type { BankTopUpDto } from './dto/bank-top-up.dto';

/** Money in from a bank: the issuer's bank-settlement coin credits a client coin. */
@Injectable()
export class BankTopUpsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly commissions: CommissionsService,
  ) {}

  /** What the coin would be credited and the fee, without moving money; the same quote() the top-up posts with. */
  async calculate(dto: BankTopUpDto): Promise<CalculationDto> {
    const coin = await this.target(dto.coinSerial);
    const amount = parseAmount(dto.amount, scaleOf(coin.fraction));
    const quote = await this.commissions.quote({ flow: 'bank_topup', amount, payee: coin });
    return calculationOf(amount, quote, coin, { type: 'COIN', srcValue: null, destValue: coin.serial });
  }

  /** Credits a coin at once (staff; the request flow with accept and decline comes with its issue). */
  async topUp(dto: BankTopUpDto): Promise<OperationDto> {
    const coin = await this.target(dto.coinSerial);
    const amount = parseAmount(dto.amount, scaleOf(coin.fraction));
    const settlement = await this.ledger.systemCoin(coin.issuer_id, 'bank_settlement');
    // The bank pays from outside the service: the contract of the credited coin's organization prices the top-up.
    const pricing = await this.commissions.pricing('bank_topup', settlement, coin.serial);
    const posted = await this.ledger.execute({
      type: 'bank_topup',
      coins: [coin.serial, settlement, ...this.commissions.collectors(pricing)],
      plan: async (locked) => {
        const target = locked.coins.get(coin.serial)!;
        if (!target.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        const source = locked.coins.get(settlement)!;
        const quote = await this.commissions.quote({ flow: 'bank_topup', amount, payer: source, payee: target, pricing });
        return {
          legs: this.commissions.legs(quote, settlement, coin.serial, pricing),
          meta: {
            amount,
            commission: quote.commission,
            fromCoin: settlement,
            toCoin: coin.serial,
            description: dto.description ?? null,
            customInformation: dto.customInformation ?? null,
            details: { ...(dto.bankAccountNumber ? { bankAccountNumber: dto.bankAccountNumber } : {}), ...commissionDetails(quote) },
          },
        };
      },
    });
    return posted!;
  }

  /** The credited coin: a client coin (404 unknown; a technical coin is a 400, as in every calculation). */
  private async target(serial: string): Promise<LockedCoin> {
    const coin = (await this.ledger.read([serial])).get(serial);
    if (!coin) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    if (coin.type !== 'client') throw ApiError.invalid('coinSerial', 'must not be a technical coin');
    return coin;
  }
}
