import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { parseAmount, scaleOf } from '../common/money';
import { CommissionsService } from '../commissions/commissions.service';
import type { OperationDto } from '../ledger/dto/operation.dto';
import { LedgerService } from '../ledger/ledger.service';
import type { BankTopUpDto } from './dto/bank-top-up.dto';

/** Money in from a bank: the issuer's bank-settlement coin credits a client coin. */
@Injectable()
export class BankTopUpsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly commissions: CommissionsService,
  ) {}

  /** Credits a coin at once (staff; the request flow with accept and decline comes with its issue). */
  async topUp(dto: BankTopUpDto): Promise<OperationDto> {
    const coin = (await this.ledger.read([dto.coinSerial])).get(dto.coinSerial);
    if (!coin || coin.type !== 'client') throw new ApiError('exception.coin.not_found', `No coin ${dto.coinSerial}`);
    const amount = parseAmount(dto.amount, scaleOf(coin.fraction));
    const settlement = await this.ledger.systemCoin(coin.issuer_id, 'bank_settlement');
    const posted = await this.ledger.execute({
      type: 'bank_topup',
      coins: [coin.serial, settlement],
      plan: async (locked) => {
        const target = locked.coins.get(coin.serial)!;
        if (!target.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        const quote = await this.commissions.quote({ type: 'bank_topup', amount, payee: target });
        return {
          legs: [{ from: settlement, to: coin.serial, amount: quote.payeeAmount }],
          meta: {
            amount,
            commission: quote.commission,
            fromCoin: settlement,
            toCoin: coin.serial,
            description: dto.description ?? null,
            customInformation: dto.customInformation ?? null,
            details: dto.bankAccountNumber ? { bankAccountNumber: dto.bankAccountNumber } : {},
          },
        };
      },
    });
    return posted!;
  }
}
