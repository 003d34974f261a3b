import { Body, Caller, ClientAddress, Principal, Route, Routes, SerialParam, UuidParam } from '../../platform/http';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { CoinsService } from './coins.service';
import { PAYEE_LOOKUP_LIMIT } from './payee-lookups';
import * as dto from './dto/coin.dto';

const OWNER = { access: ['COIN_OWNER'] } as const;
/** One of the caller's coins; another organization's, like an unknown one, is a 404. */
const ONE = { ...OWNER, errors: ['exception.coin.not_found'] } as const;
/** A payee lookup (see PayeeLookups): a payee not found, or the caller out of lookups. */
const LOOKUP = { ...OWNER, status: 200, errors: ['exception.coin.not_found', PAYEE_LOOKUP_LIMIT] } as const;
const CLOSURE = { access: ['COIN_CLOSURE'], idempotent: true, errors: ['exception.coin.not_found'] } as const;
const NOT_EMPTY = ['exception.coin.not_empty', 'exception.coin.closed', 'exception.coin.pending_requests'] as const;

@Routes('', 'coins')
export class CoinsController {
  constructor(
    private readonly coins: CoinsService,
    private readonly tools: PaymentToolsService,
  ) {}

  /** Opens a coin for the caller's organization; the first coin of a currency becomes its main one. */
  @Route('POST', 'coins', { ...ONE, summary: 'Open a coin', errors: ['exception.issuer.not_found', 'exception.issuer.inactive'] })
  async createCoin(@Body() body: dto.CreateCoinDto, @Caller() caller: Principal): Promise<dto.CoinResponseDto> {
    return { status: 'ok', message: 'Coin created', coin: await this.coins.create(caller, body) };
  }

  /** Every coin of the caller's organization, closed ones included, by serial, with the smart cards standing for it (numbers masked). */
  @Route('GET', 'coins', { ...OWNER, summary: "The organization's coins" })
  async listCoins(@Caller() caller: Principal): Promise<dto.MyCoinListDto> {
    const [coins, cards] = await Promise.all([this.coins.list(caller), this.tools.listed('SMART_CARD', caller.organizationId)]);
    const bySerial = new Map<string, dto.CoinSmartCardDto[]>();
    for (const { coinSerial, ...card } of cards) {
      bySerial.set(coinSerial, [...(bySerial.get(coinSerial) ?? []), card as unknown as dto.CoinSmartCardDto]);
    }
    return { status: 'ok', message: 'OK', coins: coins.map((coin) => ({ ...coin, smartCards: bySerial.get(coin.serial) ?? [] })) };
  }

  /** An organization's coins: its members, or staff with COIN_VIEWER (ORGANIZATION_VIEWER is every role's; the scope is checked). */
  @Route('GET', 'organizations/:organizationId/coins', {
    access: ['ORGANIZATION_VIEWER'],
    summary: "An organization's coins",
    errors: ['exception.organization.not_found'],
  })
  async listOrganizationCoins(@UuidParam('organizationId') organizationId: string, @Caller() caller: Principal): Promise<dto.CoinListDto> {
    return { status: 'ok', message: 'OK', coins: await this.coins.ofOrganization(caller, organizationId) };
  }

  /** Staff search over every organization's coins, technical coins included. */
  @Route('POST', 'coins/view', { access: ['COIN_VIEWER'], summary: 'Search all coins (staff)', status: 200 })
  viewCoins(@Body() body: dto.CoinViewDto): Promise<dto.CoinPageDto> {
    return this.coins.view(body);
  }

  /** Checks a payee's coin before paying it: its owner's display name (`Alice L.`). Only an open, active coin of a customer is found. */
  @Route('POST', 'coins/validate', { ...LOOKUP, summary: "Check a payee's coin" })
  async validateCoin(
    @Body() body: dto.ValidateCoinDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.ValidateCoinResponseDto> {
    return { status: 'ok', message: 'OK', ...(await this.coins.validate(caller, address, body.serial)) };
  }

  /** The serial of the main coin in a currency of the customer with that login, to pay a contact; a staff login is not found. */
  @Route('POST', 'coins/serial', { ...LOOKUP, summary: "A contact's coin by login" })
  async coinSerialByLogin(
    @Body() body: dto.CoinSerialRequestDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.CoinSerialResponseDto> {
    const serial = await this.coins.serialOf(caller, address, body.login, body.currencyCode);
    return { status: 'ok', message: 'OK', serial };
  }

  /** Chooses the main coin of a currency (release 4.10.0: COIN_MAIN_STATUS_SETTER). */
  @Route('POST', 'coins/set-main', {
    ...ONE,
    access: ['COIN_MAIN_STATUS_SETTER'],
    summary: 'Make a coin the main one of its currency',
    status: 200,
    errors: [...ONE.errors, 'exception.coin.inactive'],
  })
  async setMainCoin(@Body() body: dto.SetMainCoinDto, @Caller() caller: Principal): Promise<dto.CoinResponseDto> {
    return { status: 'ok', message: 'Main coin set', coin: await this.coins.setMain(caller, body.serial) };
  }

  /** One coin of the caller's organization with its balance, held and available amounts. */
  @Route('GET', 'coins/:serial', { ...ONE, summary: 'One of the organization’s coins' })
  async getCoin(@SerialParam() serial: string, @Caller() caller: Principal): Promise<dto.CoinResponseDto> {
    return { status: 'ok', message: 'OK', coin: await this.coins.get(caller, serial) };
  }

  /** Renames a coin, or deactivates or reactivates it; a renaming alone leaves it as active as it was. */
  @Route('PATCH', 'coins/:serial', {
    ...ONE,
    summary: 'Rename, deactivate or reactivate a coin',
    errors: [...ONE.errors, 'exception.coin.closed'],
  })
  async updateCoin(
    @SerialParam() serial: string,
    @Body() body: dto.UpdateCoinDto,
    @Caller() caller: Principal,
  ): Promise<dto.CoinResponseDto> {
    return { status: 'ok', message: 'Coin updated', coin: await this.coins.update(caller, serial, body) };
  }

  /** Closes a coin (release 4.10.0: COIN_CLOSURE replaces COIN_OWNER here). A non-empty coin needs transferToCoinSerial. */
  @Route('POST', 'close/coin/:serial', { ...CLOSURE, summary: 'Close a coin', status: 200 })
  async closeCoin(
    @SerialParam() serial: string,
    @Body() body: dto.CloseCoinDto,
    @Caller() caller: Principal,
  ): Promise<dto.CloseCoinResponseDto> {
    return { status: 'ok', message: 'Coin closed', ...(await this.coins.close(caller, serial, body)) };
  }

  /** Deletes (closes) an empty coin: `POST /close/coin/{serial}` without a coin to receive a balance. */
  @Route('DELETE', 'coins/:serial', { ...CLOSURE, summary: 'Delete an empty coin', errors: [...CLOSURE.errors, ...NOT_EMPTY] })
  deleteCoin(@SerialParam() serial: string, @Caller() caller: Principal): Promise<dto.CloseCoinResponseDto> {
    return this.closeCoin(serial, {}, caller);
  }

  /** The same as `POST /close/coin/{serial}`: existing clients send PUT (another method, so another handler). */
  @Route('PUT', 'close/coin/:serial', { ...CLOSURE, summary: 'Close a coin (PUT)' })
  closeCoinPut(
    @SerialParam() serial: string,
    @Body() body: dto.CloseCoinDto,
    @Caller() caller: Principal,
  ): Promise<dto.CloseCoinResponseDto> {
    return this.closeCoin(serial, body, caller);
  }
}
