import { Injectable } from '@nestjs/common';
import { remember } from '../../platform/common/bounded';
import { PricingCache } from '../../platform/commissions/pricing-cache';
import type { LockedCoin } from '../../platform/ledger/ledger.types';
import { MerchantPaymentsRepository, PayerCoin } from './merchant-payments.repository';

const MAX_MERCHANTS = 50_000;
const MAX_MAIN_COINS = 50_000;

/** Who a payment with a coin is between: MerchantPaymentsRepository.parties, and whether it was kept (`kept`) or read. */
export interface Parties {
  isMerchant: boolean;
  payer?: PayerCoin;
  merchantCoin?: string;
  kept: boolean;
}

/**
 * What a payment with a coin reads before its posting, kept so that a payment between parties already seen runs no
 * statement before its group: that an organization is a merchant (an organization's type never changes), the payer
 * coin's kind, owner and currency (PricingCache: a coin's never change), and the merchant's main open coin of a
 * currency. That one can change (another coin made main, the coin closed): the posting checks it on its locked row
 * (`holds`) and, when it no longer holds, MerchantPaymentsService forgets it and reads the parties again.
 */
@Injectable()
export class MerchantParties {
  /** Organizations known to be merchants (the value says nothing more). */
  private readonly merchants = new Map<string, true>();
  private readonly mainCoins = new Map<string, string>();

  constructor(
    private readonly payments: MerchantPaymentsRepository,
    private readonly coins: PricingCache,
  ) {}

  /** The parties from memory when all are kept, else read (and kept). */
  async of(merchantId: string, payerSerial: string): Promise<Parties> {
    const payer = this.merchants.has(merchantId) ? this.coins.knownCoins([payerSerial])?.[0] : undefined;
    const merchantCoin = payer && this.mainCoins.get(keyOf(merchantId, payer.currency_id));
    if (payer?.organization_id && merchantCoin) {
      const { type, organization_id, currency_id, code, fraction } = payer;
      return {
        isMerchant: true,
        payer: { type: type as PayerCoin['type'], organization_id, currency_id, code, fraction },
        merchantCoin,
        kept: true,
      };
    }
    const read = await this.payments.parties(merchantId, payerSerial);
    if (read.isMerchant) remember(this.merchants, merchantId, true, MAX_MERCHANTS);
    if (read.payer && read.merchantCoin)
      remember(this.mainCoins, keyOf(merchantId, read.payer.currency_id), read.merchantCoin, MAX_MAIN_COINS);
    return { ...read, kept: false };
  }

  /** Whether the locked coin is still the merchant's main open coin of the currency (as the parties' statement finds it). */
  holds(coin: LockedCoin, merchantId: string, currencyId: string): boolean {
    return (
      coin.type === 'client' &&
      coin.main &&
      coin.closed_at === null &&
      coin.organization_id === merchantId &&
      coin.currency_id === currencyId
    );
  }

  /** A kept main coin that no longer holds. */
  forget(merchantId: string, currencyId: string): void {
    this.mainCoins.delete(keyOf(merchantId, currencyId));
  }
}

function keyOf(merchantId: string, currencyId: string): string {
  return `${merchantId}/${currencyId}`;
}
