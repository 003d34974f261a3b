import { Body, Controller, HttpCode, Post } from '@nestjs/common';
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
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import {
  CreateVoucherDto,
  ExpireDueDto,
  ExpiredVouchersDto,
  RedeemVoucherDto,
  VoucherBlockedDto,
  VoucherCreatedDto,
  VoucherPageDto,
  VoucherRedeemedDto,
  VoucherViewDto,
} from './dto/voucher.dto';
import { VouchersService } from './vouchers.service';

@ApiTags('vouchers')
@Controller('vouchers')
export class VouchersController {
  constructor(private readonly vouchers: VouchersService) {}

  /** Buys a prepaid voucher from one of the caller's coins; the answer shows its code once. */
  @Post()
  @RequirePermissions('VOUCHER_OWNER')
  @ApiConflictResponse({
    description: 'exception.coin.insufficient_funds, exception.coin.inactive',
    type: ErrorResponseDto,
  })
  @Idempotent()
  @ApiOperation({ summary: 'Buy a prepaid voucher', operationId: 'createVoucher' })
  @ApiCreatedResponse({ type: VoucherCreatedDto })
  @ApiNotFoundResponse({ description: "exception.coin.not_found: the coin does not exist or is not the caller's", type: ErrorResponseDto })
  async create(@Body() dto: CreateVoucherDto, @CurrentPrincipal() principal: Principal): Promise<VoucherCreatedDto> {
    const { voucher, code, process } = await this.vouchers.create(principal, dto);
    return { status: 'ok', message: 'Voucher created', voucher, code, process };
  }

  /** The vouchers the caller's organization bought, newest first. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('VOUCHER_OWNER')
  @ApiOperation({ summary: "Search the caller's vouchers", operationId: 'viewVouchers' })
  @ApiOkResponse({ type: VoucherPageDto })
  view(@Body() dto: VoucherViewDto, @CurrentPrincipal() principal: Principal): Promise<VoucherPageDto> {
    return this.vouchers.view(principal, dto);
  }

  /** Credits a voucher's amount to one of the caller's coins in its currency, once (the code is the bearer secret). */
  @Post('redeem')
  @RequirePermissions('VOUCHER_REDEEMER')
  @ApiConflictResponse({
    description: 'exception.voucher.redeemed, exception.voucher.blocked, exception.voucher.expired: the voucher can no longer be redeemed',
    type: ErrorResponseDto,
  })
  @Idempotent({ groupCommit: true })
  @ApiOperation({ summary: 'Redeem a prepaid voucher', operationId: 'redeemVoucher' })
  @ApiCreatedResponse({ type: VoucherRedeemedDto })
  @ApiNotFoundResponse({
    description: "exception.voucher.not_found: no voucher has this code; exception.coin.not_found: the coin is not the caller's",
    type: ErrorResponseDto,
  })
  async redeem(@Body() dto: RedeemVoucherDto, @CurrentPrincipal() principal: Principal): Promise<VoucherRedeemedDto> {
    return { status: 'ok', message: 'Voucher redeemed', ...(await this.vouchers.redeem(principal, dto)) };
  }

  /** Returns the money of pending vouchers past their expiry to their creators now (each instance also does so periodically). */
  @Post('expire-due')
  @HttpCode(200)
  @RequirePermissions('VOUCHER_MANAGER')
  @Idempotent()
  @ApiOperation({ summary: 'Expire the vouchers past their expiry', operationId: 'expireDueVouchers' })
  @ApiOkResponse({ type: ExpiredVouchersDto })
  async expireDue(@Body() dto: ExpireDueDto): Promise<ExpiredVouchersDto> {
    return { status: 'ok', message: 'OK', expired: await this.vouchers.expireDue(dto.limit ?? 1000) };
  }

  /** Blocks one of the caller's pending vouchers: its amount returns to the creator's coin at once. */
  @Post(':id/block')
  @HttpCode(200)
  @RequirePermissions('VOUCHER_OWNER')
  @ApiConflictResponse({
    description:
      'exception.voucher.redeemed, exception.voucher.blocked, exception.voucher.expired: the voucher is no longer pending; ' +
      "exception.coin.closed: neither the creator's coin nor its main coin of the currency can receive the money",
    type: ErrorResponseDto,
  })
  @Idempotent()
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiOperation({ summary: 'Block a prepaid voucher', operationId: 'blockVoucher' })
  @ApiOkResponse({ type: VoucherBlockedDto })
  @ApiNotFoundResponse({ description: 'exception.voucher.not_found', type: ErrorResponseDto })
  async block(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<VoucherBlockedDto> {
    return { status: 'ok', message: 'Voucher blocked', ...(await this.vouchers.block(principal, id)) };
  }
}
