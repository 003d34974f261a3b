import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { amountOf, JsonDecimal } from '../../platform/common/json-decimal';
import { scaleOf } from '../../platform/common/money';
import { SerialParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import {
  CreatePrepaidCoinDto,
  PrepaidCoinActivatedDto,
  PrepaidCoinCalculationDto,
  PrepaidCoinCreatedDto,
  PrepaidCoinInfoDto,
  RedeemPrepaidCoinDto,
  VOUCHER_SERIAL,
  VoucherPageDto,
  VoucherViewDto,
} from './dto/voucher.dto';
import { issuerOf, RequestFields, VouchersService } from './vouchers.service';

const PREPAID_FIELDS: RequestFields = { coin: 'srcSerial', amount: 'prepaidAmount' };
const SERIAL = { name: 'serial', description: "The voucher's serial", schema: { type: 'string', pattern: VOUCHER_SERIAL.source } } as const;
const NO_VOUCHER = {
  description: 'exception.voucher.not_found: no voucher has this serial (and code); exception.coin.not_found: the coin is not the caller’s',
  type: ErrorResponseDto,
};
const SPENT = {
  description: 'exception.voucher.redeemed, exception.voucher.blocked, exception.voucher.expired: the voucher can no longer be redeemed',
  type: ErrorResponseDto,
};

/**
 * Prepaid vouchers as the family's web client calls them (`/prepaid-coins`): the same vouchers, money flows and rules
 * as `/vouchers`, addressed by their serial; the client's PIN is the voucher's code.
 */
@ApiTags('vouchers')
@Controller('prepaid-coins')
export class PrepaidCoinsController {
  constructor(private readonly vouchers: VouchersService) {}

  /** Buys a voucher from one of the caller's coins (as `POST /vouchers`); the answer shows its PIN once. */
  @Post()
  @RequirePermissions('VOUCHER_OWNER')
  @Idempotent()
  @ApiOperation({ summary: 'Buy a prepaid voucher (the client’s prepaid coin)', operationId: 'createPrepaidCoin' })
  @ApiCreatedResponse({ type: PrepaidCoinCreatedDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: the coin does not exist or is not the caller's", type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.coin.insufficient_funds, exception.coin.inactive', type: ErrorResponseDto })
  async create(@Body() dto: CreatePrepaidCoinDto, @CurrentPrincipal() principal: Principal): Promise<PrepaidCoinCreatedDto> {
    const { voucher, code, process } = await this.vouchers.create(
      principal,
      { coinSerial: dto.srcSerial, amount: dto.prepaidAmount },
      PREPAID_FIELDS,
    );
    return {
      status: 'ok',
      message: 'Voucher created',
      coin: {
        serial: voucher.serial,
        name: voucher.name,
        amount: voucher.amount,
        // A voucher's value is whole and free: nothing of it is held, and it can only be redeemed in full.
        availableAmount: voucher.amount,
        heldAmount: zeroLike(voucher.amount),
        futureAmount: voucher.amount,
        creditLimit: zeroLike(voucher.amount),
        issuer: voucher.issuer,
        active: true,
        type: 'prepaid',
        main: false,
      },
      pin: code,
      name: voucher.name,
      voucher,
      process,
    };
  }

  /** The price of buying a voucher of this amount from this coin: the `voucher` flow's fee, as the purchase would be charged. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('VOUCHER_OWNER')
  @ApiOperation({ summary: 'Price a prepaid voucher', operationId: 'calculatePrepaidCoin' })
  @ApiOkResponse({ type: PrepaidCoinCalculationDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: the coin does not exist or is not the caller's", type: ErrorResponseDto })
  @ApiConflictResponse({
    description: 'exception.commission.exceeds_amount: the fee would leave the voucher worth nothing',
    type: ErrorResponseDto,
  })
  calculate(@Body() dto: CreatePrepaidCoinDto, @CurrentPrincipal() principal: Principal): Promise<PrepaidCoinCalculationDto> {
    return this.vouchers.calculate(principal, dto.srcSerial, dto.prepaidAmount, PREPAID_FIELDS);
  }

  /** The vouchers the caller's organization bought, newest first (as `POST /vouchers/view`). */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('VOUCHER_OWNER')
  @ApiOperation({ summary: "Search the caller's prepaid vouchers", operationId: 'viewPrepaidCoins' })
  @ApiOkResponse({ type: VoucherPageDto })
  view(@Body() dto: VoucherViewDto, @CurrentPrincipal() principal: Principal): Promise<VoucherPageDto> {
    return this.vouchers.view(principal, dto);
  }

  /** A pending voucher's name, amount and issuer, from its serial, for whoever is about to redeem it. */
  @Get(':serial/view')
  @ApiParam(SERIAL)
  @RequirePermissions('VOUCHER_REDEEMER')
  @ApiOperation({ summary: 'A prepaid voucher, by its serial', operationId: 'getPrepaidCoin' })
  @ApiOkResponse({ type: PrepaidCoinInfoDto })
  @ApiNotFoundResponse({ description: 'exception.voucher.not_found: no voucher has this serial', type: ErrorResponseDto })
  @ApiConflictResponse(SPENT)
  async info(@SerialParam('serial') serial: string): Promise<PrepaidCoinInfoDto> {
    const voucher = await this.vouchers.info(serial);
    return {
      status: 'ok',
      message: 'OK',
      serial: voucher.serial,
      name: voucher.prepaid_name,
      amount: amountOf(voucher.amount, scaleOf(voucher.fraction)),
      issuer: issuerOf(voucher),
      createdAt: voucher.created_at.toISOString(),
      // A redeemed voucher is a 409 here: what this answers is never activated.
      activatedAt: null,
      expiresAt: voucher.expires_at?.toISOString() ?? null,
    };
  }

  /** The price of redeeming the voucher into the caller's coin: no fee, the coin receives its whole amount. */
  @Post(':serial/calculate')
  @HttpCode(200)
  @ApiParam(SERIAL)
  @RequirePermissions('VOUCHER_REDEEMER')
  @ApiOperation({ summary: 'Price the redemption of a prepaid voucher', operationId: 'calculatePrepaidCoinActivation' })
  @ApiOkResponse({ type: PrepaidCoinCalculationDto })
  @ApiNotFoundResponse(NO_VOUCHER)
  @ApiConflictResponse(SPENT)
  calculateActivation(
    @SerialParam('serial') serial: string,
    @Body() dto: RedeemPrepaidCoinDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PrepaidCoinCalculationDto> {
    return this.vouchers.calculateRedeem(principal, serial, dto.prepaidPin, dto.destSerial);
  }

  /** Redeems the voucher of this serial with its PIN into one of the caller's coins in its currency, once (as `POST /vouchers/redeem`). */
  @Post(':serial/activate')
  @ApiParam(SERIAL)
  @RequirePermissions('VOUCHER_REDEEMER')
  @Idempotent({ groupCommit: true })
  @ApiOperation({ summary: 'Redeem a prepaid voucher', operationId: 'activatePrepaidCoin' })
  @ApiCreatedResponse({ type: PrepaidCoinActivatedDto })
  @ApiNotFoundResponse(NO_VOUCHER)
  @ApiConflictResponse(SPENT)
  async activate(
    @SerialParam('serial') serial: string,
    @Body() dto: RedeemPrepaidCoinDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PrepaidCoinActivatedDto> {
    const redeemed = await this.vouchers.redeem(principal, { code: dto.prepaidPin, coinSerial: dto.destSerial }, serial);
    return { status: 'ok', message: 'Voucher redeemed', ...redeemed };
  }
}

/** Zero with as many decimals as `amount` (its currency's). */
function zeroLike(amount: JsonDecimal): JsonDecimal {
  return amountOf('0', amount.text.split('.')[1]?.length ?? 0);
}
