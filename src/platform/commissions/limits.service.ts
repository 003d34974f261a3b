import { Injectable } from '@nestjs/common';
import { Money, scaleOf } from '../common/money';
import { LedgerService } from '../ledger/ledger.service';
import { FlowRecord, recordOf } from '../ledger/ledger.types';
import type { OperationFlow } from '../ledger/operation-types';
import { GateScope, limitExceeded, LimitRow } from './limits';
import { LimitsRepository } from './limits.repository';

/** A priced posting as the limits see it: its flow, the amount asked, and its coins (the first client coin's organization counts). */
export interface LimitedPosting {
  flow: OperationFlow;
  amount: Money;
  serials: string[];
  gate?: GateScope;
  /** Its limits as read already (with the flow's terms, CommissionsService.pricing); else they are read here. */
  limits?: LimitRow[];
}

/**
 * The kernel's limits: every posting priced by `quote()` answers to the limit profiles of the commission profile that
 * prices it, for the organization whose contract decides. A limit of one operation is checked at once; a limit of a
 * period adds the posting to a running sum (limit_usage) locked FOR UPDATE, once the ledger has checked the plan and
 * in its transaction (LedgerService.whenPlanned): two postings of one organization wait for each other there, so they
 * can never pass a limit together, and a posting refused for another reason counts nothing. A calculation is never
 * refused.
 *
 * A limit counts what was moved. What each operation added to which sums, in which period, is recorded with it
 * (limit_usage_entries, written after the operation by the ledger, grouped postings too); when the ledger undoes an
 * operation — a pending one declined, refused or failed, a processed one reversed, a voucher's money returned — that is
 * given back, in the same transaction, to the period it was counted in (however long ago: a `per_life` limit never
 * rolls over), once.
 */
@Injectable()
export class LimitsService {
  constructor(
    private readonly limits: LimitsRepository,
    private readonly ledger: LedgerService,
  ) {
    ledger.onUndone((operationIds) => this.limits.giveBack(operationIds));
  }

  async enforce(posting: LimitedPosting): Promise<void> {
    if (!this.ledger.planning() || !posting.serials.length) return;
    const limits = posting.limits ?? (await this.limits.inForce(posting.flow, posting.serials, posting.gate));
    if (!limits.length) return;
    const scale = scaleOf(limits[0].fraction);
    for (const limit of limits) {
      if (limit.time_unit === 'per_transaction' && posting.amount.gt(limit.value)) throw limitExceeded(limit, scale, posting.amount, null);
    }
    const periodic = limits.filter((l) => l.period_start !== null);
    if (!periodic.length) return;
    this.ledger.whenPlanned(() => this.count(periodic, posting.amount, scale));
  }

  /**
   * Adds the posting to its running sums, or refuses it (409) when it would pass one, changing nothing; answers the
   * record of what it added, which the ledger writes with the operation.
   */
  private async count(limits: LimitRow[], amount: Money, scale: number): Promise<FlowRecord[]> {
    const organizationId = limits[0].organization_id;
    const usage = new Map((await this.limits.lockUsage(organizationId, limits)).map((u) => [u.limit_profile_id, u]));
    for (const limit of limits) {
      const used = usage.get(limit.id)!;
      if (limit.qualifier === 'quantity' && used.count + 1 > Number(limit.value)) throw limitExceeded(limit, scale, amount, used.count);
      if (limit.qualifier === 'amount' && new Money(used.amount).plus(amount).gt(limit.value)) {
        throw limitExceeded(limit, scale, amount, new Money(used.amount));
      }
    }
    await this.limits.addUsage(organizationId, limits, amount);
    return [recordOf(this.limits.counted, { organizationId, limits, amount })];
  }
}
