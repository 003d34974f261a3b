import { Injectable } from '@nestjs/common';
import { Money } from '../common/money';
import type { LockedCoin } from '../ledger/ledger.types';
import type { OperationType } from '../ledger/operation-types';

/** What a fee is asked for: the flow, the amount the payer asked to move, and the coins. */
export interface QuoteRequest {
  type: OperationType;
  amount: Money;
  payer?: Pick<LockedCoin, 'serial' | 'organization_id' | 'currency_id' | 'fraction'>;
  payee?: Pick<LockedCoin, 'serial' | 'organization_id' | 'currency_id' | 'fraction'>;
}

/** The price of a flow: what leaves the payer, what reaches the payee, and the operator's commission. */
export interface Quote {
  commission: Money;
  payerAmount: Money;
  payeeAmount: Money;
}

/**
 * Pricing has one home: every flow's `…/calculate` and its execution ask `quote()`, so what a
 * client is shown and what is posted can never drift. No commission rules exist yet: every quote
 * is free (the commission engine of the contracts issue fills this in).
 */
@Injectable()
export class CommissionsService {
  async quote(request: QuoteRequest): Promise<Quote> {
    const commission = new Money(0);
    return { commission, payerAmount: request.amount.plus(commission), payeeAmount: request.amount };
  }
}
