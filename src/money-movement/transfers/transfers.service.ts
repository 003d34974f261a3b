import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { calculationOf } from '../../platform/commissions/calculation';
import { SERIAL_PATTERN } from '../../platform/common/validators';
import { CommissionsService, Pricing, Quote } from '../../platform/commissions/commissions.service';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import type { Locked, LockedCoin } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { CARD_NUMBER_PATTERN, PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import type { CalculationDto } from '../../platform/commissions/dto/calculation.dto';
import { OrganizationsService } from '../../platform/organizations/organizations.service';
import { PayeeLookups } from '../coins/payee-lookups';
import { payeeDisplayName } from '../coins/payee-name';
import type { TransferCalculationDto, TransferRequestDto } from './dto/transfer.dto';

/** A transfer's price without the payee's name: the tools as sent. */
export type TransferPrice = Omit<TransferCalculationDto, 'paymentToolDetails'> & Pick<CalculationDto, 'paymentToolDetails'>;

interface Checked {
  payer: LockedCoin;
  payee: LockedCoin;
  amount: Money;
  quote: Quote;
}

/** Transfers between client coins of one currency. */
@Injectable()
export class TransfersService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    private readonly commissions: CommissionsService,
    private readonly organizations: OrganizationsService,
    private readonly lookups: PayeeLookups,
  ) {}

  /** The price of a transfer: what `POST /transfers/calculate` answers but the payee's name (templates price so). */
  async calculate(principal: Principal, dto: TransferRequestDto): Promise<TransferPrice> {
    return (await this.priced(principal, dto)).price;
  }

  /**
   * `POST /transfers/calculate`: the price, and the tools as the payment form shows them, the receiving coin's owner by
   * the name a payee check gives. So it is a payee lookup, counted against the caller and `address` as
   * `POST /coins/validate` is (a 429 when none is left).
   */
  async calculateForPayer(principal: Principal, dto: TransferRequestDto, address: string): Promise<TransferCalculationDto> {
    // The payee as a payee check names it (`coin:<serial>`), so the form's check and calculation count once.
    await this.lookups.count(principal, address, `${dto.paymentTool.type === 'COIN' ? 'coin' : 'card'}:${dto.paymentTool.destValue}`);
    const { price, payer, payee } = await this.priced(principal, dto);
    const owner = await this.organizations.record(payee.organization_id);
    return {
      ...price,
      paymentToolDetails: {
        ...price.paymentToolDetails,
        srcId: payer.serial,
        destId: payee.serial,
        recipientFullName: payeeDisplayName(owner?.type ?? '', owner?.name ?? payee.organization_name),
      },
    };
  }

  private async priced(
    principal: Principal,
    dto: TransferRequestDto,
  ): Promise<{ price: TransferPrice; payer: LockedCoin; payee: LockedCoin }> {
    const [src, dst] = await this.coins(principal, dto);
    const { payer, payee, amount, quote } = await this.check(
      principal,
      dto,
      { coins: await this.ledger.read([src, dst]), holds: [] },
      src,
      dst,
    );
    const scale = scaleOf(payer.fraction);
    const price = {
      ...calculationOf(amount, quote, payer, { ...dto.paymentTool, destValue: answerable(dto.paymentTool.destValue) }),
      currency: payer.code,
      payerAmount: amountOf(quote.payerAmount, scale),
      payeeAmount: amountOf(quote.payeeAmount, scale),
      commission: amountOf(quote.commission, scale),
    };
    return { price, payer, payee };
  }

  /**
   * One code path for both tools: paid with a smart card, the operation is a `card_payment`, priced as a transfer.
   * Reads, then one grouped posting: without an Idempotency-Key, concurrent transfers commit together.
   */
  async transfer(principal: Principal, dto: TransferRequestDto): Promise<OperationDto> {
    const [src, dst] = await this.coins(principal, dto);
    // The fee's terms are read first, so the commission coin is locked with the two coins only when a rule applies.
    const pricing = await this.commissions.pricing('client_transaction_transfer', src, dst);
    const posted = await this.ledger.execute({
      type: dto.paymentTool.type === 'SMART_CARD' ? 'card_payment' : 'client_transaction_transfer',
      coins: [src, dst, ...this.commissions.collectors(pricing)],
      grouped: true,
      plan: async (locked) => {
        const { payer, payee, amount, quote } = await this.check(principal, dto, locked, src, dst, pricing);
        for (const coin of [payer, payee]) {
          if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        }
        return this.commissions.pricedPlan(quote, amount, payer.serial, payee.serial, pricing, {
          description: dto.description ?? null,
          customInformation: dto.customInformation ?? null,
        });
      },
    });
    return posted!;
  }

  /**
   * The coins behind the tools. The payer's tool must be the caller's (another organization's card is a 404); with
   * SMART_CARD, a payee given as a coin serial is a coin, as 16 digits a card's number, else a card's id (a blocked card
   * on either side is a 409).
   */
  private async coins(principal: Principal, dto: TransferRequestDto): Promise<[string, string]> {
    const { type, srcValue, destValue } = dto.paymentTool;
    const src = await this.tools.resolve(type, srcValue, 'paymentTool.srcValue', principal.organizationId);
    const destType = type === 'SMART_CARD' && SERIAL_PATTERN.test(destValue) && !CARD_NUMBER_PATTERN.test(destValue) ? 'COIN' : type;
    const dst = await this.tools.resolve(destType, destValue, 'paymentTool.destValue');
    if (src === dst) throw ApiError.invalid('paymentTool.destValue', 'must be another coin than srcValue');
    return [src, dst];
  }

  /** The rules of a transfer over the two coins as read (or locked): ownership, kinds, currency, amount, price. */
  private async check(
    principal: Principal,
    dto: TransferRequestDto,
    locked: Locked,
    src: string,
    dst: string,
    pricing?: Pricing,
  ): Promise<Checked> {
    const payer = this.tools.payer(locked, src, principal, 'paymentTool.srcValue');
    const payee = this.tools.payee(locked, dst, 'paymentTool.destValue');
    if (payer.currency_id !== payee.currency_id)
      throw ApiError.invalid('paymentTool.destValue', 'must hold the same currency as the payer coin');
    const amount = parseAmount(dto.amount, scaleOf(payer.fraction));
    const quote = await this.commissions.quote({ flow: 'client_transaction_transfer', amount, payer, payee, pricing });
    return { payer, payee, amount, quote };
  }
}

/** A tool's value as an answer may repeat it: a card number (16 digits) masked but for its last four digits. */
function answerable(value: string): string {
  return CARD_NUMBER_PATTERN.test(value) ? `**** **** **** ${value.slice(-4)}` : value;
}
