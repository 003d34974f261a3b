import { Injectable, OnModuleInit } from '@nestjs/common';
import { remember } from '../../platform/common/bounded';
import { DatabaseNotifications } from '../../platform/database/notifications';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { WriteWatch } from '../../platform/database/write-watch';
import { ExchangeRateRow, ExchangeRatesRepository } from './exchange-rates.repository';

/** The channel the database announces changes to exchange rates on (migration 1763804550000). */
export const EXCHANGE_RATES_CHANNEL = 'finapi_exchange_rates';
const MAX_PAIRS = 10_000;

/** A pair's rate in force as read (none: undefined), kept until `until` (epoch ms; its successor takes effect then). */
interface Kept {
  row: ExchangeRateRow | undefined;
  until: number;
}

/**
 * The rate in force per ordered currency pair (codes), kept in memory so an exchange runs no statement for it, the way
 * PricingCache keeps the fee terms. A kept answer holds until the next rate known when it was read takes effect (a rate
 * valid from a future time), and until a change: on this instance the moment it commits (WriteWatch), on the others
 * when the database announces it (NOTIFY on `finapi_exchange_rates`). Nothing is served while the listening connection
 * is down; a load that started before a change never stores its (older) answer after it (the generation), and a load
 * inside a transaction stores it once that commits.
 */
@Injectable()
export class RatesInForce implements OnModuleInit {
  private readonly pairs = new Map<string, Kept>();
  private generation = 0;

  constructor(
    private readonly repository: ExchangeRatesRepository,
    private readonly notifications: DatabaseNotifications,
    private readonly writes: WriteWatch,
    private readonly uow: UnitOfWork,
  ) {}

  onModuleInit(): void {
    this.notifications.subscribe(EXCHANGE_RATES_CHANNEL, { message: () => this.clear(), reset: () => this.clear() });
    this.writes.watch(['exchange_rates'], () => this.clear(), { inserts: true });
  }

  /** The rate from→to (currency codes) in force now; undefined when the pair has none. */
  async rate(fromCode: string, toCode: string): Promise<ExchangeRateRow | undefined> {
    const key = `${fromCode}/${toCode}`;
    const live = this.notifications.live();
    const kept = live ? this.pairs.get(key) : undefined;
    if (kept && Date.now() < kept.until) return kept.row;
    const generation = this.generation;
    const { row, until } = await this.repository.inForceByCodes(fromCode, toCode);
    const store = () => {
      if (!live || !this.notifications.live() || generation !== this.generation) return;
      remember(this.pairs, key, { row, until: until ? until.getTime() : Infinity }, MAX_PAIRS);
    };
    // Read in a transaction, it may see a rate of its own that never commits: kept once it commits.
    const open = this.uow.current();
    if (open) open.onCommit.push(store);
    else store();
    return row;
  }

  private clear(): void {
    this.generation++;
    this.pairs.clear();
  }
}
