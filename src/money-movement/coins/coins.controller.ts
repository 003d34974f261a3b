import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { clientAddress } from '../../platform/common/http';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { SerialParam, UuidParam } from '../../platform/common/validators';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { CoinsService } from './coins.service';
import { PAYEE_LOOKUPS_LIMITED } from './payee-lookups';
import {
  CloseCoinDto,
  CloseCoinResponseDto,
  CoinListDto,
  CoinSmartCardDto,
  MyCoinListDto,
  CoinPageDto,
  CoinViewDto,
  CoinResponseDto,
  CoinSerialRequestDto,
  CoinSerialResponseDto,
  CreateCoinDto,
  ValidateCoinDto,
  ValidateCoinResponseDto,
  UpdateCoinDto,
  SetMainCoinDto,
} from './dto/coin.dto';

@ApiTags('coins')
@Controller()
export class CoinsController {
  constructor(
    private readonly coins: CoinsService,
    private readonly tools: PaymentToolsService,
  ) {}

  /** Opens a coin for the caller's organization; the first coin of a currency becomes its main one. */
  @Post('coins')
  @RequirePermissions('COIN_OWNER')
  @ApiOperation({ summary: 'Open a coin', operationId: 'createCoin' })
  @ApiCreatedResponse({ type: CoinResponseDto })
  @ApiNotFoundResponse({ description: 'No such issuer', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'The issuer or currency is inactive', type: ErrorResponseDto })
  async create(@Body() dto: CreateCoinDto, @CurrentPrincipal() principal: Principal): Promise<CoinResponseDto> {
    return { status: 'ok', message: 'Coin created', coin: await this.coins.create(principal, dto) };
  }

  /**
   * Every coin of the caller's organization, closed ones included, by serial: balance, held and available amounts,
   * currency, whether it is the main one, and the smart cards standing for it (`smartCards`, their numbers masked).
   */
  @Get('coins')
  @RequirePermissions('COIN_OWNER')
  @ApiOperation({ summary: "The organization's coins", operationId: 'listCoins' })
  @ApiOkResponse({ type: MyCoinListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<MyCoinListDto> {
    const [coins, cards] = await Promise.all([this.coins.list(principal), this.tools.listed('SMART_CARD', principal.organizationId)]);
    const bySerial = new Map<string, CoinSmartCardDto[]>();
    for (const { coinSerial, ...card } of cards) {
      bySerial.set(coinSerial, [...(bySerial.get(coinSerial) ?? []), card as unknown as CoinSmartCardDto]);
    }
    return { status: 'ok', message: 'OK', coins: coins.map((coin) => ({ ...coin, smartCards: bySerial.get(coin.serial) ?? [] })) };
  }

  /** An organization's coins: its members, or staff with COIN_VIEWER (ORGANIZATION_VIEWER is every role's; the scope is checked). */
  @Get('organizations/:organizationId/coins')
  @ApiParam({ name: 'organizationId', schema: { type: 'string', format: 'uuid' } })
  @RequirePermissions('ORGANIZATION_VIEWER')
  @ApiOperation({ summary: "An organization's coins", operationId: 'listOrganizationCoins' })
  @ApiOkResponse({ type: CoinListDto })
  @ApiNotFoundResponse({
    description: 'exception.organization.not_found: no such organization, or not one the caller may see',
    type: ErrorResponseDto,
  })
  async ofOrganization(
    @UuidParam('organizationId') organizationId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CoinListDto> {
    return { status: 'ok', message: 'OK', coins: await this.coins.ofOrganization(principal, organizationId) };
  }

  /** Staff search over every organization's coins, technical coins included. */
  @Post('coins/view')
  @HttpCode(200)
  @RequirePermissions('COIN_VIEWER')
  @ApiOperation({ summary: 'Search all coins (staff)', operationId: 'viewCoins' })
  @ApiOkResponse({ type: CoinPageDto })
  view(@Body() dto: CoinViewDto): Promise<CoinPageDto> {
    return this.coins.view(dto);
  }

  /**
   * Checks a payee's coin before paying it: its owner's display name (`Alice L.`, a merchant's name, a login masked),
   * what the payment form shows. Only an open, active coin of an individual or a merchant is found; any other serial is
   * the same 404. A payee lookup: at most PAYEE_LOOKUPS_PER_HOUR per user and PAYEE_LOOKUPS_PER_ADDRESS_PER_HOUR per
   * client address, then a 429.
   */
  @Post('coins/validate')
  @HttpCode(200)
  @RequirePermissions('COIN_OWNER')
  @ApiOperation({ summary: "Check a payee's coin", operationId: 'validateCoin' })
  @ApiOkResponse({ type: ValidateCoinResponseDto })
  @ApiNotFoundResponse({ description: 'exception.coin.not_found: no payee coin with that serial', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse(PAYEE_LOOKUPS_LIMITED)
  async validate(
    @Body() dto: ValidateCoinDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<ValidateCoinResponseDto> {
    return { status: 'ok', message: 'OK', ...(await this.coins.validate(principal, clientAddress(request), dto.serial)) };
  }

  /**
   * The serial of the main coin in a currency of the customer with that login (an e-mail or a phone number), to pay a
   * contact. An unknown login, a staff login, or no such coin are the same 404. A payee lookup, limited as
   * `POST /coins/validate` is.
   */
  @Post('coins/serial')
  @HttpCode(200)
  @RequirePermissions('COIN_OWNER')
  @ApiOperation({ summary: "A contact's coin by login", operationId: 'coinSerialByLogin' })
  @ApiOkResponse({ type: CoinSerialResponseDto })
  @ApiNotFoundResponse({ description: 'exception.coin.not_found: no such coin for that login', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse(PAYEE_LOOKUPS_LIMITED)
  async serialOf(
    @Body() dto: CoinSerialRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<CoinSerialResponseDto> {
    return {
      status: 'ok',
      message: 'OK',
      serial: await this.coins.serialOf(principal, clientAddress(request), dto.login, dto.currencyCode),
    };
  }

  /** Chooses the main coin of a currency (release 4.10.0: COIN_MAIN_STATUS_SETTER). */
  @Post('coins/set-main')
  @HttpCode(200)
  @RequirePermissions('COIN_MAIN_STATUS_SETTER')
  @ApiOperation({ summary: 'Make a coin the main one of its currency', operationId: 'setMainCoin' })
  @ApiOkResponse({ type: CoinResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'The coin is closed or inactive', type: ErrorResponseDto })
  async setMain(@Body() dto: SetMainCoinDto, @CurrentPrincipal() principal: Principal): Promise<CoinResponseDto> {
    return { status: 'ok', message: 'Main coin set', coin: await this.coins.setMain(principal, dto.serial) };
  }

  /**
   * One coin of the caller's organization with its balance, held and available amounts; another organization's, like an
   * unknown one, is a 404.
   */
  @Get('coins/:serial')
  @RequirePermissions('COIN_OWNER')
  @ApiOperation({ summary: 'One of the organization’s coins', operationId: 'getCoin' })
  @ApiOkResponse({ type: CoinResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@SerialParam() serial: string, @CurrentPrincipal() principal: Principal): Promise<CoinResponseDto> {
    return { status: 'ok', message: 'OK', coin: await this.coins.get(principal, serial) };
  }

  /** Renames a coin, or deactivates or reactivates it; a renaming alone leaves it as active as it was. */
  @Patch('coins/:serial')
  @RequirePermissions('COIN_OWNER')
  @ApiOperation({ summary: 'Rename, deactivate or reactivate a coin', operationId: 'updateCoin' })
  @ApiOkResponse({ type: CoinResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'The coin is closed', type: ErrorResponseDto })
  async update(
    @SerialParam() serial: string,
    @Body() dto: UpdateCoinDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CoinResponseDto> {
    return { status: 'ok', message: 'Coin updated', coin: await this.coins.update(principal, serial, dto) };
  }

  /** Closes a coin (release 4.10.0: COIN_CLOSURE replaces COIN_OWNER here). A non-empty coin needs transferToCoinSerial. */
  @Post('close/coin/:serial')
  @HttpCode(200)
  @RequirePermissions('COIN_CLOSURE')
  @Idempotent()
  @ApiOperation({ summary: 'Close a coin', operationId: 'closeCoin' })
  @ApiOkResponse({ type: CloseCoinResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async close(
    @SerialParam() serial: string,
    @Body() dto: CloseCoinDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CloseCoinResponseDto> {
    return { status: 'ok', message: 'Coin closed', ...(await this.coins.close(principal, serial, dto)) };
  }

  /**
   * Deletes (closes) an empty coin: `POST /close/coin/{serial}` without a coin to receive a balance. A coin with money
   * on it is a 409 (`exception.coin.not_empty`): close it with `transferToCoinSerial` instead.
   */
  @Delete('coins/:serial')
  @RequirePermissions('COIN_CLOSURE')
  @Idempotent()
  @ApiOperation({ summary: 'Delete an empty coin', operationId: 'deleteCoin' })
  @ApiOkResponse({ type: CloseCoinResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'The coin is not empty, already closed, or holds amounts', type: ErrorResponseDto })
  remove(@SerialParam() serial: string, @CurrentPrincipal() principal: Principal): Promise<CloseCoinResponseDto> {
    return this.close(serial, {}, principal);
  }

  /** The same as `POST /close/coin/{serial}`: existing clients send PUT. */
  @Put('close/coin/:serial')
  @HttpCode(200)
  @RequirePermissions('COIN_CLOSURE')
  @Idempotent()
  @ApiOperation({ summary: 'Close a coin (PUT)', operationId: 'closeCoinPut' })
  @ApiOkResponse({ type: CloseCoinResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  closePut(
    @SerialParam() serial: string,
    @Body() dto: CloseCoinDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CloseCoinResponseDto> {
    return this.close(serial, dto, principal);
  }
}
