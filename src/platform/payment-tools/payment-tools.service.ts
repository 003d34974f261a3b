import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { SERIAL_PATTERN } from '../common/validators';
import type { Locked, LockedCoin } from '../ledger/ledger.types';

/** How money is addressed in a request: a coin by its serial, or (with their modules) a smart card or a voucher. */
export const PAYMENT_TOOL_TYPES = ['COIN', 'SMART_CARD', 'VOUCHER'] as const;
export type PaymentToolType = (typeof PAYMENT_TOOL_TYPES)[number];

/**
 * Turns a tool's value into the serial of the coin behind it; undefined when there is none, or when
 * `owner` is given and the tool is not that organization's (so another's tool is a 404, like an unknown one).
 * It may refuse a tool that exists but cannot pay or receive (a blocked card: 409).
 */
export type PaymentToolResolver = (value: string, owner?: string) => Promise<string | undefined>;

/** A smart card's number: 16 digits (a SMART_CARD payee given so is a card, never a coin serial). */
export const CARD_NUMBER_PATTERN = /^[0-9]{16}$/;

/** A tool as listed beside the coin it stands for (GET /coins shows each coin's smart cards). */
export interface ListedTool {
  coinSerial: string;
  [field: string]: unknown;
}
export type PaymentToolLister = (organizationId: string) => Promise<ListedTool[]>;

/**
 * Payment tools resolved once, for every module: `{type, value}` becomes a coin serial, and the
 * locked coin is checked as a payer (the caller's own client coin) or a payee (any client coin).
 * A module that brings a tool (smart cards, vouchers) registers its resolver at start.
 */
@Injectable()
export class PaymentToolsService {
  private readonly resolvers = new Map<PaymentToolType, PaymentToolResolver>();
  private readonly listers = new Map<PaymentToolType, PaymentToolLister>();

  register(type: Exclude<PaymentToolType, 'COIN'>, resolver: PaymentToolResolver, lister?: PaymentToolLister): void {
    this.resolvers.set(type, resolver);
    if (lister) this.listers.set(type, lister);
  }

  /** An organization's tools of a type, each with the serial of its coin; none when no module lists that type. */
  async listed(type: Exclude<PaymentToolType, 'COIN'>, organizationId: string): Promise<ListedTool[]> {
    return (await this.listers.get(type)?.(organizationId)) ?? [];
  }

  /**
   * The coin serial a tool stands for; `parameter` names the field in errors (404 when nothing stands behind it).
   * `owner`: the tool must be this organization's (the payer's side), else it is a 404 too.
   */
  async resolve(type: PaymentToolType, value: string, parameter: string, owner?: string): Promise<string> {
    if (type === 'COIN') {
      if (!SERIAL_PATTERN.test(value)) throw ApiError.invalid(parameter, 'must be a coin serial (digits)');
      return value;
    }
    const resolver = this.resolvers.get(type);
    if (!resolver) throw ApiError.invalid(parameter, `payment tool ${type} is not available`);
    const serial = await resolver(value, owner);
    if (!serial) throw new ApiError('exception.payment_tool.not_found', `No ${type} ${value}`);
    return serial;
  }

  /**
   * The payer's coin: one of the caller's organization's client coins, else 404. A technical
   * (system) coin is a 400 on either side (specification section 7: calculations refuse them, and
   * the movement they price refuses them alike).
   */
  payer(locked: Locked, serial: string, principal: Principal, parameter: string): LockedCoin {
    const coin = locked.coins.get(serial);
    if (coin?.type === 'system') throw ApiError.invalid(parameter, 'must not be a technical coin');
    if (!coin || coin.organization_id !== principal.organizationId) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    return coin;
  }

  /** The payee's coin: any client coin, else 404; a technical coin is a 400. */
  payee(locked: Locked, serial: string, parameter: string): LockedCoin {
    const coin = locked.coins.get(serial);
    if (coin?.type === 'system') throw ApiError.invalid(parameter, 'must not be a technical coin');
    if (!coin) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    return coin;
  }
}
