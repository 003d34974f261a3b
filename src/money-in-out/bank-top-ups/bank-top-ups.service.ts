import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { BankCatalogService } from '../bank-catalog/bank-catalog.service';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { Page, pageOf } from '../../platform/common/paging.dto';
import { calculationOf } from '../../platform/commissions/calculation';
import { CommissionsService } from '../../platform/commissions/commissions.service';
import { commissionDetails } from '../../platform/commissions/fee';
import { isRequestIdentifier } from '../../platform/common/request-view.dto';
import { clientCoinOf, requestRecordEnd, requestSearchOf, RequestVisibility } from '../../platform/database/request-search';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import type { LockedCoin } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { BankTopUpRequestRow, BankTopUpsRepository } from './bank-top-ups.repository';
import { RequestCalculationDto, withClientNames } from './dto/bank-calculation.dto';
import type { BankTopUpDto } from './dto/bank-top-up.dto';
import type { BankTopUpRequestDto, BankTopUpRequestRecordDto, BankTopUpRequestViewDto } from './dto/bank-top-up-request.dto';

/** What a bank top-up posts: the credited coin, the amount, and the text and details the operation keeps. */
interface TopUp {
  coinSerial: string;
  amount: Money;
  description: string | null;
  customInformation: string | null;
  details?: Record<string, unknown>;
}

/**
 * Money in from a bank: the issuer's bank-settlement coin credits a client coin. Staff post a
 * top-up at once (`POST /bank-top-ups`), or a request waits (`new`, nothing moved) until staff
 * accept it — which posts the same top-up and links it — or decline it.
 */
@Injectable()
export class BankTopUpsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly commissions: CommissionsService,
    private readonly requests: BankTopUpsRepository,
    private readonly catalog: BankCatalogService,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
    private readonly outbox: OutboxService,
  ) {}

  /** What the coin would be credited and the fee, without moving money; the same quote() the top-up posts with. */
  async calculate(principal: Principal, dto: BankTopUpDto): Promise<RequestCalculationDto> {
    const coin = await this.target(dto.coinSerial, principal);
    const amount = parseAmount(dto.amount, scaleOf(coin.fraction));
    const quote = await this.commissions.quote({ flow: 'bank_topup', amount, payee: coin });
    return withClientNames(calculationOf(amount, quote, coin, { type: 'COIN', srcValue: null, destValue: coin.serial }));
  }

  /** Credits a coin at once (staff). */
  async topUp(dto: BankTopUpDto): Promise<OperationDto> {
    const coin = await this.target(dto.coinSerial);
    return this.post({
      coinSerial: coin.serial,
      amount: parseAmount(dto.amount, scaleOf(coin.fraction)),
      description: dto.description ?? null,
      customInformation: dto.customInformation ?? null,
      details: dto.bankAccountNumber ? { bankAccountNumber: dto.bankAccountNumber } : {},
    });
  }

  /** Records a request for a top-up of one of the caller's coins (any client coin for BANK_TOP_UP_MANAGER); nothing moves yet. */
  async request(principal: Principal, dto: BankTopUpRequestDto): Promise<BankTopUpRequestRecordDto> {
    const coin = await this.target(dto.coinSerial, principal);
    if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
    const amount = parseAmount(dto.amount, scaleOf(coin.fraction));
    if (dto.bankId) await this.catalog.get(dto.bankId);
    const id = await this.requests.insert({
      coinSerial: coin.serial,
      organizationId: coin.organization_id,
      currencyId: coin.currency_id,
      amount: amount.toFixed(),
      bankAccountNumber: dto.bankAccountNumber ?? null,
      iban: dto.iban ?? null,
      bankId: dto.bankId ?? null,
      fullName: dto.fullName ?? null,
      description: dto.description ?? null,
      customInformation: dto.customInformation ?? null,
      createdBy: principal.userId,
    });
    return toRecord((await this.requests.get(id))!);
  }

  async get(principal: Principal, id: string): Promise<BankTopUpRequestRecordDto> {
    const row = await this.requests.get(id, this.visibleTo(principal));
    if (!row) throw notFound(id);
    return toRecord(row);
  }

  async view(principal: Principal, dto: BankTopUpRequestViewDto): Promise<Page<BankTopUpRequestRecordDto>> {
    const requestStatuses = dto.filter?.requestStatuses?.map((status) => (status === 'pending' ? 'new' : status));
    const search = requestSearchOf({ ...dto, filter: dto.filter && { ...dto.filter, requestStatuses } }, this.visibleTo(principal));
    const { total, rows } = await this.requests.search(search);
    return pageOf(dto, total, rows.map(toRecord));
  }

  /**
   * Accepts a `new` request: posts its top-up (the fee by the rule in force now) and links it. The
   * request row is locked first, so of two racing decisions one waits and then finds it decided (409).
   */
  async accept(principal: Principal, ref: string): Promise<{ bankTopUp: BankTopUpRequestRecordDto; process: OperationDto }> {
    return this.uow.run(async () => {
      const row = await this.undecided(ref);
      const id = row.id;
      const process = await this.post({
        coinSerial: row.coin_serial,
        amount: new Money(row.amount),
        description: row.description,
        customInformation: row.custom_information,
        details: {
          bankTopUpRequestId: row.id,
          ...Object.fromEntries(
            Object.entries({
              bankAccountNumber: row.bank_account_number,
              iban: row.iban,
              bankId: row.bank_id,
              fullName: row.full_name,
            }).filter(([, v]) => v !== null),
          ),
        },
      });
      await this.requests.decide(id, { status: 'processed', operationId: process.id, by: principal.userId });
      await this.actions.record({
        userId: principal.userId,
        action: 'bank_top_up_accepted',
        details: { bankTopUpRequestId: id, operationId: process.id, ...amountDetails(row) },
      });
      const bankTopUp = toRecord((await this.requests.get(id))!);
      await this.outbox.emit('bank_top_up.decided', [row.organization_id], bankTopUp);
      return { bankTopUp, process };
    });
  }

  /** Declines a `new` request, by its id or requestIdentifier; the reason may be left out. */
  async decline(principal: Principal, ref: string, reason: string | undefined): Promise<BankTopUpRequestRecordDto> {
    return this.uow.run(async () => {
      const row = await this.undecided(ref);
      const id = row.id;
      await this.requests.decide(id, { status: 'declined', reason, by: principal.userId });
      await this.actions.record({
        userId: principal.userId,
        action: 'bank_top_up_declined',
        details: { bankTopUpRequestId: id, ...(reason ? { reason } : {}), ...amountDetails(row) },
      });
      const bankTopUp = toRecord((await this.requests.get(id))!);
      await this.outbox.emit('bank_top_up.decided', [row.organization_id], bankTopUp);
      return bankTopUp;
    });
  }

  /** Posts a top-up: the settlement coin pays the coin its share and the commission coin the fee. */
  private async post(topUp: TopUp): Promise<OperationDto> {
    const coin = (await this.ledger.read([topUp.coinSerial])).get(topUp.coinSerial)!;
    const settlement = await this.ledger.systemCoin(coin.issuer_id, 'bank_settlement');
    // The bank pays from outside the service: the contract of the credited coin's organization prices the top-up.
    const pricing = await this.commissions.pricing('bank_topup', settlement, coin.serial);
    const posted = await this.ledger.execute({
      type: 'bank_topup',
      coins: [coin.serial, settlement, ...this.commissions.collectors(pricing)],
      plan: async (locked) => {
        const target = locked.coins.get(coin.serial)!;
        if (!target.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
        const source = locked.coins.get(settlement)!;
        const quote = await this.commissions.quote({ flow: 'bank_topup', amount: topUp.amount, payer: source, payee: target, pricing });
        return {
          legs: this.commissions.legs(quote, settlement, coin.serial, pricing),
          meta: {
            amount: topUp.amount,
            commission: quote.commission,
            fromCoin: settlement,
            toCoin: coin.serial,
            description: topUp.description,
            customInformation: topUp.customInformation,
            details: { ...(topUp.details ?? {}), ...commissionDetails(quote) },
          },
        };
      },
    });
    return posted!;
  }

  /** The request by its id or requestIdentifier, locked, still `new` (404 unknown, 409 decided). */
  private async undecided(ref: string): Promise<BankTopUpRequestRow> {
    const id = isRequestIdentifier(ref) ? await this.requests.idOf(ref) : ref;
    const row = id ? await this.requests.get(id, undefined, true) : undefined;
    if (!row) throw notFound(ref);
    if (row.status !== 'new') throw new ApiError('exception.bank_top_up.decided', `The bank top-up request is already ${row.status}`);
    return row;
  }

  /**
   * The credited coin: a client coin (404 unknown; a technical coin is a 400, as in every
   * calculation). With a principal lacking BANK_TOP_UP_MANAGER, only one of its organization's coins.
   */
  private async target(serial: string, principal?: Principal): Promise<LockedCoin> {
    const coin = (await this.ledger.read([serial])).get(serial);
    if (!coin || (principal && !principal.permissions.has('BANK_TOP_UP_MANAGER') && coin.organization_id !== principal.organizationId)) {
      throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    }
    if (coin.type !== 'client') throw ApiError.invalid('coinSerial', 'must not be a technical coin');
    return coin;
  }

  /** Auditors see every request; everyone else their organization's. */
  private visibleTo(principal: Principal): RequestVisibility | undefined {
    return principal.permissions.has('TRANSACTION_AUDITOR')
      ? undefined
      : { column: 'organization_id', organizationId: principal.organizationId };
  }
}

/** The amount a decision was about, for its recorded action (a decline moves no money: the action is its only record). */
function amountDetails(row: BankTopUpRequestRow): { amount: string; currency: string } {
  return { amount: amountOf(row.amount, scaleOf(row.fraction)).text, currency: row.code };
}

const notFound = (id: string) => new ApiError('exception.bank_top_up.not_found', `No bank top-up request ${id}`);

function toRecord(row: BankTopUpRequestRow): BankTopUpRequestRecordDto {
  const amount = amountOf(row.amount, scaleOf(row.fraction));
  return {
    id: row.id,
    requestIdentifier: Number(row.request_identifier),
    status: row.status,
    requestStatus: row.status === 'new' ? 'pending' : row.status,
    type: 'bank_topup',
    coinSerial: row.coin_serial,
    organizationId: row.organization_id,
    amount,
    cashAmount: amount,
    currency: row.code,
    bankAccountNumber: row.bank_account_number,
    iban: row.iban,
    bankId: row.bank_id,
    fullName: row.full_name,
    clientCoin: clientCoinOf(row),
    bankInfo: {
      name: row.bank_name,
      bic: row.bank_bic,
      swift: row.bank_swift,
      country: row.bank_country,
      city: row.bank_city,
      address: row.bank_address,
      zipCode: row.bank_zip_code,
    },
    ...requestRecordEnd(row),
  };
}
