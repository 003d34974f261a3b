import { Body, Caller, Principal, Route, Routes, SerialParam, UuidParam } from '../../platform/http';
import * as dto from './dto/voucher.dto';
import { PREPAID_FIELDS, VouchersService } from './vouchers.service';

const OWNER = { access: ['VOUCHER_OWNER'] } as const;
const REDEEMER = { access: ['VOUCHER_REDEEMER'] } as const;
const CALLERS_COIN = ['exception.coin.not_found', "the coin does not exist or is not the caller's"] as const;
const SPENT = ['exception.voucher.redeemed', 'exception.voucher.blocked', 'exception.voucher.expired'] as const;
/** Buying a voucher: from the caller's coin, paid at once. */
const BUY = { ...OWNER, idempotent: true, errors: [CALLERS_COIN, 'exception.coin.insufficient_funds', 'exception.coin.inactive'] } as const;
/** Redeeming a voucher by its code into the caller's coin. */
const REDEEM = { ...REDEEMER, errors: ['exception.voucher.not_found', CALLERS_COIN, ...SPENT] } as const;

/** Prepaid vouchers at `/vouchers`, and as the family's client calls them (`/prepaid-coins`: by serial, the PIN being the code). */
@Routes('', 'vouchers')
export class VouchersController {
  constructor(private readonly vouchers: VouchersService) {}

  /** Buys a prepaid voucher from one of the caller's coins; the answer shows its code once. */
  @Route('POST', 'vouchers', { ...BUY, summary: 'Buy a prepaid voucher' })
  async createVoucher(@Body() body: dto.CreateVoucherDto, @Caller() caller: Principal): Promise<dto.VoucherCreatedDto> {
    const { voucher, code, process } = await this.vouchers.create(caller, body);
    return { status: 'ok', message: 'Voucher created', voucher, code, process };
  }

  /** The vouchers the caller's organization bought, newest first. */
  @Route('POST', 'vouchers/view', {
    ...OWNER,
    summary: "Search the caller's vouchers",
    status: 200,
    aliases: { 'prepaid-coins/view': 'viewPrepaidCoins' },
  })
  viewVouchers(@Body() body: dto.VoucherViewDto, @Caller() caller: Principal): Promise<dto.VoucherPageDto> {
    return this.vouchers.view(caller, body);
  }

  /** Credits a voucher's amount to one of the caller's coins in its currency, once (the code is the bearer secret). */
  @Route('POST', 'vouchers/redeem', { ...REDEEM, idempotent: { groupCommit: true }, summary: 'Redeem a prepaid voucher' })
  async redeemVoucher(@Body() body: dto.RedeemVoucherDto, @Caller() caller: Principal): Promise<dto.VoucherRedeemedDto> {
    return { status: 'ok', message: 'Voucher redeemed', ...(await this.vouchers.redeem(caller, body)) };
  }

  /** Returns the money of pending vouchers past their expiry to their creators now (each instance also does so periodically). */
  @Route('POST', 'vouchers/expire-due', {
    access: ['VOUCHER_MANAGER'],
    summary: 'Expire the vouchers past their expiry',
    idempotent: true,
    status: 200,
  })
  async expireDueVouchers(@Body() body: dto.ExpireDueDto): Promise<dto.ExpiredVouchersDto> {
    return { status: 'ok', message: 'OK', expired: await this.vouchers.expireDue(body.limit ?? 1000) };
  }

  /** Blocks one of the caller's pending vouchers: its amount returns to the creator's coin at once. */
  @Route('POST', 'vouchers/:id/block', {
    ...OWNER,
    summary: 'Block a prepaid voucher',
    idempotent: true,
    status: 200,
    errors: [
      'exception.voucher.not_found',
      ...SPENT,
      ['exception.coin.closed', "neither the creator's coin nor its main coin of the currency can receive the money"],
    ],
  })
  async blockVoucher(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.VoucherBlockedDto> {
    return { status: 'ok', message: 'Voucher blocked', ...(await this.vouchers.block(caller, id)) };
  }

  /** Buys a voucher from one of the caller's coins (as `POST /vouchers`); the answer shows its PIN once. */
  @Route('POST', 'prepaid-coins', { ...BUY, summary: 'Buy a prepaid voucher (the client’s prepaid coin)' })
  async createPrepaidCoin(@Body() body: dto.CreatePrepaidCoinDto, @Caller() caller: Principal): Promise<dto.PrepaidCoinCreatedDto> {
    return { status: 'ok', message: 'Voucher created', ...(await this.vouchers.createPrepaid(caller, body)) };
  }

  /** The price of buying a voucher of this amount from this coin: the `voucher` flow's fee, as the purchase would be charged. */
  @Route('POST', 'prepaid-coins/calculate', {
    ...OWNER,
    summary: 'Price a prepaid voucher',
    status: 200,
    errors: [CALLERS_COIN, ['exception.commission.exceeds_amount', 'the fee would leave the voucher worth nothing']],
  })
  calculatePrepaidCoin(@Body() body: dto.CreatePrepaidCoinDto, @Caller() caller: Principal): Promise<dto.PrepaidCoinCalculationDto> {
    return this.vouchers.calculate(caller, body.srcSerial, body.prepaidAmount, PREPAID_FIELDS);
  }

  /** A pending voucher's name, amount and issuer, from its serial, for whoever is about to redeem it. */
  @Route('GET', 'prepaid-coins/:serial/view', {
    ...REDEEMER,
    summary: 'A prepaid voucher, by its serial',
    errors: ['exception.voucher.not_found', ...SPENT],
  })
  async getPrepaidCoin(@SerialParam('serial') serial: string): Promise<dto.PrepaidCoinInfoDto> {
    return { status: 'ok', message: 'OK', ...(await this.vouchers.info(serial)) };
  }

  /** The price of redeeming the voucher into the caller's coin: no fee, the coin receives its whole amount. */
  @Route('POST', 'prepaid-coins/:serial/calculate', { ...REDEEM, summary: 'Price the redemption of a prepaid voucher', status: 200 })
  calculatePrepaidCoinActivation(
    @SerialParam('serial') serial: string,
    @Body() body: dto.RedeemPrepaidCoinDto,
    @Caller() caller: Principal,
  ): Promise<dto.PrepaidCoinCalculationDto> {
    return this.vouchers.calculateRedeem(caller, serial, body.prepaidPin, body.destSerial);
  }

  /** Redeems the voucher of this serial with its PIN into one of the caller's coins in its currency, once (as `POST /vouchers/redeem`). */
  @Route('POST', 'prepaid-coins/:serial/activate', { ...REDEEM, summary: 'Redeem a prepaid voucher', idempotent: { groupCommit: true } })
  async activatePrepaidCoin(
    @SerialParam('serial') serial: string,
    @Body() body: dto.RedeemPrepaidCoinDto,
    @Caller() caller: Principal,
  ): Promise<dto.PrepaidCoinActivatedDto> {
    const redeemed = await this.vouchers.redeem(caller, { code: body.prepaidPin, coinSerial: body.destSerial }, serial);
    return { status: 'ok', message: 'Voucher redeemed', ...redeemed };
  }
}
