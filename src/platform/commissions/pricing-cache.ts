import { Injectable, OnModuleInit } from '@nestjs/common';
import { PRINCIPALS_CHANNEL } from '../auth/principal-cache';
import { remember } from '../common/bounded';
import { DatabaseNotifications } from '../database/notifications';
import { UnitOfWork } from '../database/unit-of-work';
import { WriteWatch } from '../database/write-watch';
import type { OperationFlow } from '../ledger/operation-types';
import { CommissionsRepository, PricedCoinRow, ProfileTermsRow } from './commissions.repository';

/** The channel the database announces changes to profiles, rules, conditions and limits on (migration 1763803700000). */
export const PRICING_CHANNEL = 'finapi_pricing';
const PRICING_TABLES = ['commission_profiles', 'commission_rules', 'commission_conditions', 'limit_profiles'] as const;
const MAX_COINS = 50_000;
const MAX_CONTRACTS = 50_000;
const MAX_PROFILES = 10_000;

/** What prices a flow between coins: the coins found, the first client coin (payer first; none: no fee) and its contract's profiles. */
export interface PricedSide {
  coins: PricedCoinRow[];
  side: PricedCoinRow | undefined;
  profiles: ProfileTermsRow[];
}

/**
 * The terms of a flow kept in memory, so pricing a movement between coins already seen runs no statement: a coin's
 * type, organization, issuer and currency (never change: kept for good, a missing coin never), an organization's
 * contract, and a contract's active profiles for a flow and issuer with their rules, conditions and limits (which
 * rule is in force, and each limit's period, are chosen at each call). The latter two are kept until a change: on
 * this node the moment it commits (WriteWatch), on the others when the database announces it (NOTIFY on
 * `finapi_pricing`, and `finapi_principals` for organizations). Nothing is served while the listening connection is
 * down; a load that started before a change never stores its (older) answer after it (the generation), and a load
 * inside a transaction stores it once that commits (its own writes, if any, then drop it). Pricing runs in READ
 * COMMITTED transactions only, whose statements see what committed before they began.
 */
@Injectable()
export class PricingCache implements OnModuleInit {
  private readonly coins = new Map<string, PricedCoinRow>();
  private readonly contracts = new Map<string, string | null>();
  private readonly profiles = new Map<string, ProfileTermsRow[]>();
  private generation = 0;

  constructor(
    private readonly repository: CommissionsRepository,
    private readonly notifications: DatabaseNotifications,
    private readonly writes: WriteWatch,
    private readonly uow: UnitOfWork,
  ) {}

  onModuleInit(): void {
    this.notifications.subscribe(PRICING_CHANNEL, { message: () => this.clear(), reset: () => this.clear() });
    this.notifications.subscribe(PRINCIPALS_CHANNEL, {
      message: (payload) => {
        if (payload.startsWith('organizations:')) this.moved(payload.slice('organizations:'.length));
      },
      reset: () => this.clear(),
    });
    this.writes.watch(PRICING_TABLES, () => this.clear(), { inserts: true });
    // A new organization has nothing cached: only its changes matter.
    this.writes.watch(['organizations'], () => this.moved());
  }

  /** What prices `flow` between `serials` (payer first): from memory when all of it is known, else read (and kept). */
  async terms(flow: OperationFlow, serials: string[]): Promise<PricedSide> {
    const live = this.notifications.live();
    const hit = live ? this.cached(flow, serials) : undefined;
    if (hit) return hit;
    const generation = this.generation;
    const row = await this.repository.terms(flow, serials);
    const bySerial = new Map(row.coins.map((c) => [c.serial, c]));
    const coins = serials.map((s) => bySerial.get(s)).filter((c): c is PricedCoinRow => !!c);
    const side = coins.find((c) => c.type === 'client');
    const store = () => {
      if (!live || !this.notifications.live()) return;
      for (const coin of row.coins) remember(this.coins, coin.serial, coin, MAX_COINS);
      if (side && generation === this.generation) {
        remember(this.contracts, side.organization_id!, row.contract_id, MAX_CONTRACTS);
        remember(this.profiles, keyOf(flow, row.contract_id, side.issuer_id), row.profiles, MAX_PROFILES);
      }
    };
    // Read in a transaction, it may hold rows of its own (a coin, a rule) that never commit: kept once it commits.
    const open = this.uow.current();
    if (open) open.onCommit.push(store);
    else store();
    return { coins, side, profiles: side ? row.profiles : [] };
  }

  /**
   * The coins with these serials, in order, when every one is kept (else undefined: read them). A coin's type,
   * organization, issuer and currency never change, so a kept coin holds even while the listening connection is down.
   */
  knownCoins(serials: string[]): PricedCoinRow[] | undefined {
    const coins: PricedCoinRow[] = [];
    for (const serial of serials) {
      const coin = this.coins.get(serial);
      if (!coin) return undefined;
      coins.push(coin);
    }
    return coins;
  }

  private cached(flow: OperationFlow, serials: string[]): PricedSide | undefined {
    const coins = this.knownCoins(serials);
    if (!coins) return undefined;
    const side = coins.find((c) => c.type === 'client');
    if (!side) return { coins, side, profiles: [] };
    const contract = this.contracts.get(side.organization_id!);
    if (contract === undefined) return undefined;
    const profiles = this.profiles.get(keyOf(flow, contract, side.issuer_id));
    return profiles && { coins, side, profiles };
  }

  /** An organization changed (its contract, perhaps): drop its contract (`id`), or every one. */
  private moved(id?: string): void {
    this.generation++;
    if (id === undefined) this.contracts.clear();
    else this.contracts.delete(id);
  }

  /** Coins never change: only what can is dropped. */
  private clear(): void {
    this.generation++;
    this.contracts.clear();
    this.profiles.clear();
  }
}

function keyOf(flow: OperationFlow, contractId: string | null, issuerId: string): string {
  return `${flow}/${contractId}/${issuerId}`;
}
