import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, scaleOf } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { CommissionsService, Pricing } from '../../platform/commissions/commissions.service';
import { commissionDetails } from '../../platform/commissions/fee';
import { toCurrency } from '../currencies/currency.mapper';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OrganizationsService } from '../../platform/organizations/organizations.service';
import { UsersService } from '../../platform/users/users.service';
import { CoinRow, CoinsRepository } from './coins.repository';
import { PayeeLookups } from './payee-lookups';
import { payeeDisplayName } from './payee-name';
import type { CloseCoinDto, CoinDto, CoinViewDto, CreateCoinDto, PayeeCoinDto, StaffCoinDto, UpdateCoinDto } from './dto/coin.dto';

/** Whose coins a payer may look up: customers' (a transfer pays only client coins; staff and desks are not payees to find). */
const PAYEE_ORGANIZATIONS = new Set(['individual', 'merchant']);

/** Coins (wallets) of the caller's organization. Another organization's coin is a 404. */
@Injectable()
export class CoinsService {
  constructor(
    private readonly coins: CoinsRepository,
    private readonly uow: UnitOfWork,
    private readonly ledger: LedgerService,
    private readonly commissions: CommissionsService,
    private readonly organizations: OrganizationsService,
    private readonly users: UsersService,
    private readonly lookups: PayeeLookups,
  ) {}

  async create(principal: Principal, dto: CreateCoinDto): Promise<CoinDto> {
    return this.open(principal.organizationId, dto.issuerId, dto.name);
  }

  /** Opens a coin of an issuer for an organization (a customer's own, or a cash desk's cash coin). */
  async open(organizationId: string, issuerId: string, name: string): Promise<CoinDto> {
    const serial = await this.uow.run(async () => {
      const issuer = await this.coins.issuer(issuerId);
      if (!issuer) throw new ApiError('exception.issuer.not_found', 'No such issuer');
      if (!issuer.usable) throw new ApiError('exception.issuer.inactive', 'The issuer or its currency is inactive');
      return this.coins.insert(name, organizationId, issuerId, issuer.currency_id);
    });
    return toCoin((await this.coins.own(organizationId, serial))!);
  }

  /** The coins of several organizations, grouped by organization. */
  async ofOrganizations(organizationIds: string[]): Promise<Map<string, CoinDto[]>> {
    const grouped = new Map<string, CoinDto[]>(organizationIds.map((id) => [id, []]));
    if (organizationIds.length === 0) return grouped;
    for (const row of await this.coins.ofOrganizations(organizationIds)) grouped.get(row.organization_id)?.push(toCoin(row));
    return grouped;
  }

  /** The organization's usable client coin of an issuer (its main one when it is of that issuer), if any. */
  usableOf(organizationId: string, issuerId: string): Promise<string | undefined> {
    return this.coins.usableOf(organizationId, issuerId);
  }

  async list(principal: Principal): Promise<CoinDto[]> {
    return (await this.coins.ofOrganization(principal.organizationId)).map(toCoin);
  }

  /** An organization's coins: for its members, or staff with COIN_VIEWER; anyone else a 404 (as for no such organization). */
  async ofOrganization(principal: Principal, organizationId: string): Promise<CoinDto[]> {
    const allowed = principal.organizationId === organizationId || principal.permissions.has('COIN_VIEWER');
    if (!allowed || !(await this.coins.organizationExists(organizationId))) throw new ApiError('exception.organization.not_found');
    return (await this.coins.ofOrganization(organizationId)).map(toCoin);
  }

  /** Staff search over every coin, technical ones included. */
  async view(dto: CoinViewDto): Promise<Page<StaffCoinDto>> {
    const { rows, count } = await this.coins.search({
      ...(dto.filter ?? {}),
      direction: (dto.sort?.serial ?? 'asc') === 'desc' ? 'DESC' : 'ASC',
      ...pageWindow(dto),
    });
    return pageOf(
      dto,
      count.total,
      rows.map((r) => ({ ...toCoin(r), organizationId: r.organization_id })),
      count.exact,
    );
  }

  /** The organization's coins among `serials`, as `GET /coins/{serial}` answers each, by serial; another organization's are left out. */
  async ownAmong(organizationId: string, serials: string[]): Promise<Map<string, CoinDto>> {
    if (serials.length === 0) return new Map();
    return new Map((await this.coins.ownAmong(organizationId, [...new Set(serials)])).map((row) => [row.serial, toCoin(row)]));
  }

  async get(principal: Principal, serial: string): Promise<CoinDto> {
    return toCoin(await this.own(principal, serial));
  }

  /**
   * Renames, deactivates or reactivates one of the organization's coins. Renaming never changes
   * whether the coin is active (the specification's section 9 fix); a closed coin changes no more.
   */
  async update(principal: Principal, serial: string, dto: UpdateCoinDto): Promise<CoinDto> {
    if (dto.name === undefined && dto.active === undefined) throw ApiError.invalid('body', 'must change name or active');
    return this.uow.run(async () => {
      const coin = await this.own(principal, serial, true);
      if (coin.closed_at) throw new ApiError('exception.coin.closed', 'The coin is closed');
      await this.coins.update(serial, dto.name ?? coin.name, dto.active ?? coin.active);
      return this.get(principal, serial);
    });
  }

  /** Makes the coin the main one of its currency for the organization; the previous main one stops being it. */
  async setMain(principal: Principal, serial: string): Promise<CoinDto> {
    return this.uow.run(async () => {
      const { currency } = await this.own(principal, serial);
      // Lock every coin of the organization in this currency, so racing set-mains queue up
      // instead of both clearing the old main coin and colliding on the one-main-coin index.
      await this.coins.lockCurrency(principal.organizationId, currency.id);
      const coin = await this.own(principal, serial);
      if (coin.closed_at || !coin.active) throw new ApiError('exception.coin.inactive', 'A closed or inactive coin cannot be the main one');
      await this.coins.setMain(principal.organizationId, coin.currency.id, serial);
      return this.get(principal, serial);
    });
  }

  /**
   * Closes a coin, moving what is left to `transferToCoinSerial`. A closed coin takes part in nothing more. To a
   * coin of the same organization the remainder moves free; to another organization's it is priced exactly as a
   * transfer of the whole remainder (`quote()`, flow client_transaction_transfer), and the fee is taken out of it
   * whoever the rule names as its payer: the coin ends at 0, the payee gets the remainder less the fee, the
   * commission coin the fee, in the one operation. A fee above the remainder is a 409 and nothing moves.
   */
  async close(principal: Principal, serial: string, dto: CloseCoinDto): Promise<{ coin: CoinDto; process: OperationDto | null }> {
    return this.uow.run(async () => {
      const own = await this.own(principal, serial); // 404 unless it is the caller's
      const target = dto.transferToCoinSerial || undefined;
      if (target === serial) throw ApiError.invalid('transferToCoinSerial', 'must be another coin');
      // The terms are read before the coins are locked (as a transfer reads them); a coin never changes organization.
      const payee = target ? (await this.ledger.read([target])).get(target) : undefined;
      const pricing: Pricing | undefined =
        payee?.type === 'client' && payee.organization_id !== own.organization_id
          ? await this.commissions.pricing('client_transaction_transfer', serial, target)
          : undefined;
      const process = await this.ledger.execute({
        type: 'coin_closure',
        coins: target ? [serial, target, ...(pricing ? this.commissions.collectors(pricing) : [])] : [serial],
        plan: async (locked) => {
          const self = locked.coins.get(serial)!;
          if (self.closed_at) throw new ApiError('exception.coin.closed', 'The coin is already closed');
          if (!new Money(self.held).isZero()) {
            throw new ApiError('exception.coin.pending_requests', 'The coin has amounts held by pending requests');
          }
          const balance = new Money(self.balance);
          if (balance.isZero()) return null;
          if (!target)
            throw new ApiError('exception.coin.not_empty', 'The coin is not empty: give transferToCoinSerial to receive its balance');
          const to = locked.coins.get(target);
          if (!to || (to.type === 'system' && to.organization_id !== principal.organizationId)) {
            throw new ApiError('exception.coin.not_found', `No coin ${target}`);
          }
          if (to.type !== 'client') throw ApiError.invalid('transferToCoinSerial', 'must not be a technical coin');
          if (to.currency_id !== self.currency_id) throw ApiError.invalid('transferToCoinSerial', 'must be a coin of the same currency');
          if (!to.usable) throw new ApiError('exception.coin.inactive', `Coin ${target} is closed or inactive`);
          const meta = { amount: balance, fromCoin: serial, toCoin: target, description: `Closure of coin ${serial}` };
          if (!pricing) return { legs: [{ from: serial, to: target, amount: balance }], meta };
          const quote = await this.commissions.quote({
            flow: 'client_transaction_transfer',
            amount: balance,
            payer: self,
            payee: to,
            pricing,
          });
          if (quote.commission.gt(balance)) {
            throw new ApiError(
              'exception.commission.exceeds_amount',
              `The transfer fee ${quote.commission.toFixed(scaleOf(self.fraction))} is larger than the ${balance.toFixed(scaleOf(self.fraction))} left on the coin`,
            );
          }
          const fee = { ...quote, payerAmount: balance, payeeAmount: balance.minus(quote.commission) };
          return {
            legs: this.commissions.legs(fee, serial, target, pricing),
            meta: { ...meta, commission: quote.commission, details: commissionDetails(quote) },
          };
        },
      });
      await this.coins.close(serial);
      return { coin: await this.get(principal, serial), process };
    });
  }

  /**
   * Checks a payee's coin before a transfer: the least a payment form needs, its owner's display name
   * (payeeDisplayName: `Alice L.`, a merchant's name, a login masked). Only an open, active client coin of an
   * individual or a merchant is found; any other serial, like an unknown one, is the same 404. A payee lookup: counted
   * against the caller and `address` (PayeeLookups), so the customer directory cannot be walked.
   */
  async validate(principal: Principal, address: string, serial: string): Promise<PayeeCoinDto> {
    await this.lookups.count(principal, address, `coin:${serial}`);
    const row = await this.coins.bySerial(serial);
    const owner =
      row && row.type === 'client' && row.active && !row.closed_at ? await this.organizations.record(row.organization_id) : undefined;
    if (!row || !owner || !PAYEE_ORGANIZATIONS.has(owner.type)) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    return { serial: row.serial, owner: { name: payeeDisplayName(owner.type, owner.name) } };
  }

  /**
   * The serial of the main coin in `currencyCode` of the customer whose login is `login` (an e-mail or a phone number),
   * for paying a contact. An unknown login, a staff user's, or a customer without such a coin are the same 404. A payee
   * lookup, counted as `validate` is. Any login may be looked up, not only the caller's contacts or past payees: the
   * family's transfer form pays an e-mail or a phone number typed in, and contacts cost nothing to add; the count
   * limits the walk, and the answer holds a serial, no name.
   */
  async serialOf(principal: Principal, address: string, login: string, currencyCode: string): Promise<string> {
    await this.lookups.count(principal, address, `login:${login.toLowerCase()}:${currencyCode}`);
    const serial = await this.mainSerialOf(login, currencyCode);
    if (!serial) throw new ApiError('exception.coin.not_found', `No ${currencyCode} coin for that login`);
    return serial;
  }

  /** `serialOf` without the 404: undefined for an unknown login, a staff user's, or a customer without such a coin. */
  async mainSerialOf(login: string, currencyCode: string): Promise<string | undefined> {
    const user = await this.users.findByLogin(login);
    const memberships = user ? await this.users.memberships(user.id) : [];
    const customers = memberships.filter((m) => PAYEE_ORGANIZATIONS.has(m.organization_type)).map((m) => m.organization_id);
    return customers.length ? (await this.coins.mainOf(customers, currencyCode))?.serial : undefined;
  }

  private async own(principal: Principal, serial: string, lock = false): Promise<CoinRow> {
    const row = await this.coins.own(principal.organizationId, serial, lock);
    if (!row) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    return row;
  }
}

export function toCoin(row: CoinRow): CoinDto {
  const scale = scaleOf(row.currency.fraction);
  const balance = new Money(row.balance);
  const available = amountOf(balance.minus(row.held), scale);
  return {
    serial: row.serial,
    name: row.name,
    amount: amountOf(balance, scale),
    availableAmount: available,
    heldAmount: amountOf(row.held, scale),
    futureAmount: available,
    creditLimit: amountOf('0', scale),
    issuer: { id: row.issuer_id, sn: Number(row.issuer_sn), currency: row.currency.code, symbol: row.currency.symbol },
    currency: toCurrency(row.currency),
    type: row.type,
    main: row.main,
    active: row.active,
    closedAt: row.closed_at ? row.closed_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}
