import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { BankAccountsService, BankDetails } from '../bank-accounts/bank-accounts.service';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { scaleOf } from '../../platform/common/money';
import { Page, pageOf } from '../../platform/common/paging.dto';
import { isRequestIdentifier } from '../../platform/common/request-view.dto';
import { clientCoinOf, requestRecordEnd, requestSearchOf, RequestVisibility } from '../../platform/database/request-search';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { OutboxService } from '../../platform/outbox/outbox.service';
import type { OperationCoinDto, OperationDto } from '../../platform/ledger/dto/operation.dto';
import type { LockedCoin } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { Movement, PendingOperationsService } from '../../platform/pending-operations/pending-operations.service';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { familyTypeOf } from '../../platform/ledger/operation-types';
import {
  BankWithdrawalRow,
  BankWithdrawalsRepository,
  BankWithdrawalTransactionRow,
  TransactionCoinRow,
} from './bank-withdrawals.repository';
import { RequestCalculationDto, withClientNames } from '../bank-top-ups/dto/bank-calculation.dto';
import type {
  BankWithdrawalCreatedDto,
  BankWithdrawalDto,
  BankWithdrawalRecordDto,
  BankWithdrawalTransactionDto,
  BankWithdrawalViewDto,
} from './dto/bank-withdrawal.dto';

type Outcome = { bankWithdrawal: BankWithdrawalRecordDto; process: OperationDto };

/**
 * Money out to a bank: a client coin pays its issuer's bank-settlement coin (and the fee to the
 * commission coin). Staff pay out at once; a request holds the amount plus the fee on the coin
 * (a `pending` operation) until staff accept it — the same operation settles, capturing the hold —
 * or decline it, releasing the hold.
 */
@Injectable()
export class BankWithdrawalsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly pending: PendingOperationsService,
    private readonly withdrawals: BankWithdrawalsRepository,
    private readonly accounts: BankAccountsService,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
    private readonly outbox: OutboxService,
  ) {}

  /** The fee and what leaves the coin, without moving money. */
  async calculate(principal: Principal, dto: BankWithdrawalDto): Promise<RequestCalculationDto> {
    const movement = await this.movement(principal, dto);
    return withClientNames(await this.pending.calculate(movement, { srcValue: dto.coinSerial, destValue: null }));
  }

  /**
   * `POST /bank-withdrawals`: staff (BANK_WITHDRAWAL_MANAGER) pay out at once; any other requester — the family's
   * wallet screen, a customer's — makes a request, held until staff decide, as `create-request` does. The process
   * carries what the family's success screen reads of the withdrawal.
   */
  async create(principal: Principal, dto: BankWithdrawalDto): Promise<Omit<BankWithdrawalCreatedDto, 'status' | 'message'>> {
    const { bankWithdrawal, process } = principal.permissions.has('BANK_WITHDRAWAL_MANAGER')
      ? await this.direct(principal, dto)
      : await this.request(principal, dto);
    const { cashAmount, clientCoin, fullName, bankInfo, iban } = bankWithdrawal;
    return { bankWithdrawal, process: { ...process, cashAmount, clientCoin, fullName, bankInfo: { ...bankInfo, fullName, iban } } };
  }

  /** Pays out at once (staff): the operation is `processed` when answered. */
  async direct(principal: Principal, dto: BankWithdrawalDto): Promise<Outcome> {
    return this.uow.run(async () => {
      const { movement, bank, coin } = await this.prepare(principal, dto);
      const process = await this.pending.move(movement);
      return this.record('direct', process, coin, bank, dto, principal);
    });
  }

  /** Holds the amount plus the fee on the coin until staff decide; the operation is `pending`. */
  async request(principal: Principal, dto: BankWithdrawalDto): Promise<Outcome> {
    return this.uow.run(async () => {
      const { movement, bank, coin } = await this.prepare(principal, dto);
      const process = await this.pending.hold(movement);
      return this.record('request', process, coin, bank, dto, principal);
    });
  }

  async get(principal: Principal, id: string): Promise<BankWithdrawalRecordDto> {
    const row = await this.withdrawals.get(id, this.visibleTo(principal));
    if (!row) throw notFound(id);
    return this.recordOf(row.id);
  }

  async view(principal: Principal, dto: BankWithdrawalViewDto): Promise<Page<BankWithdrawalRecordDto>> {
    const { total, rows } = await this.withdrawals.search(requestSearchOf(dto, this.visibleTo(principal)));
    return pageOf(dto, total, await this.records(rows));
  }

  /** Pays out a pending request: its operation settles in place (to the bank-settlement coin, the fee to the commission coin). */
  accept(principal: Principal, ref: string): Promise<Outcome> {
    return this.decide(principal, ref, { accept: true });
  }

  /** Declines a pending request: the hold is released, nothing moves. The reason may be left out. */
  decline(principal: Principal, ref: string, reason: string | undefined): Promise<Outcome> {
    return this.decide(principal, ref, { accept: false, reason });
  }

  /**
   * The request row is locked before its operation, so of two racing decisions the second waits,
   * then finds the request decided (409) — exactly one of them moves or releases the money.
   */
  private decide(principal: Principal, ref: string, decision: { accept: boolean; reason?: string }): Promise<Outcome> {
    return this.uow.run(async () => {
      const id = isRequestIdentifier(ref) ? await this.withdrawals.idOf(ref) : ref;
      const row = id ? await this.withdrawals.get(id, undefined, true) : undefined;
      if (!row) throw notFound(ref);
      if (row.status !== 'pending') throw decided(row.status);
      const process = await this.pending.settle(row.operation_id, 'bank_withdrawal', decision, () => decided(row.status));
      await this.withdrawals.decide(row.id, {
        status: decision.accept ? 'processed' : 'declined',
        reason: decision.reason,
        by: principal.userId,
      });
      await this.actions.record({
        userId: principal.userId,
        action: decision.accept ? 'bank_withdrawal_accepted' : 'bank_withdrawal_declined',
        details: { bankWithdrawalId: row.id, operationId: row.operation_id, ...(decision.reason ? { reason: decision.reason } : {}) },
      });
      const bankWithdrawal = await this.recordOf(row.id);
      await this.outbox.emit('bank_withdrawal.decided', [row.organization_id], bankWithdrawal);
      return { bankWithdrawal, process };
    });
  }

  private async prepare(principal: Principal, dto: BankWithdrawalDto) {
    const movement = await this.movement(principal, dto);
    const coin = (await this.ledger.read([dto.coinSerial])).get(dto.coinSerial)!;
    const bank = await this.destination(coin.organization_id, dto);
    return { movement, bank, coin };
  }

  /** The movement: coin → its issuer's bank-settlement coin, priced by the coin's organization's contract. */
  private async movement(principal: Principal, dto: BankWithdrawalDto): Promise<Movement> {
    const coin = (await this.ledger.read([dto.coinSerial])).get(dto.coinSerial);
    const anyCoin = principal.permissions.has('BANK_WITHDRAWAL_MANAGER');
    if (!coin || (!anyCoin && coin.organization_id !== principal.organizationId)) {
      throw new ApiError('exception.coin.not_found', `No coin ${dto.coinSerial}`);
    }
    if (coin.type !== 'client') throw ApiError.invalid('coinSerial', 'must not be a technical coin');
    const settlement = await this.ledger.systemCoin(coin.issuer_id, 'bank_settlement');
    return {
      type: 'bank_withdrawal',
      payer: coin.serial,
      payee: settlement,
      priceBy: [coin.serial, null],
      amount: dto.amount,
      check: (payer: LockedCoin) => {
        if (!payer.usable) throw new ApiError('exception.coin.inactive', `Coin ${payer.serial} is closed or inactive`);
      },
      description: dto.description ?? null,
      customInformation: dto.customInformation ?? null,
    };
  }

  /** Where the money goes: a saved account of the coin's organization, or the details given (exactly one of the two). */
  private async destination(organizationId: string, dto: BankWithdrawalDto): Promise<BankDetails & { id: string | null }> {
    if (dto.bankAccountId && dto.bankDetails) throw ApiError.invalid('bankDetails', 'must not be given with bankAccountId');
    if (dto.bankAccountId) return this.accounts.detailsOf(organizationId, dto.bankAccountId);
    if (!dto.bankDetails) throw ApiError.invalid('bankAccountId', 'or bankDetails must be given');
    const { iban, bic, accountHolder, bankName } = dto.bankDetails;
    return this.accounts.typedIn(organizationId, { iban, bic: bic ?? null, accountHolder, bankName: bankName ?? null });
  }

  private async record(
    kind: 'direct' | 'request',
    process: OperationDto,
    coin: LockedCoin,
    bank: BankDetails & { id: string | null },
    dto: BankWithdrawalDto,
    principal: Principal,
  ): Promise<Outcome> {
    const id = await this.withdrawals.insert({
      kind,
      status: kind === 'direct' ? 'processed' : 'pending',
      operationId: process.id,
      coinSerial: coin.serial,
      organizationId: coin.organization_id,
      currencyId: coin.currency_id,
      amount: process.amount.text,
      commission: process.commission.text,
      bankAccountId: bank.id,
      iban: bank.iban,
      bic: bank.bic,
      accountHolder: bank.accountHolder,
      bankName: bank.bankName,
      description: dto.description ?? null,
      customInformation: dto.customInformation ?? null,
      createdBy: principal.userId,
    });
    return { bankWithdrawal: await this.recordOf(id), process };
  }

  /** The withdrawal as answered, read again (it exists). */
  private async recordOf(id: string): Promise<BankWithdrawalRecordDto> {
    const [record] = await this.records([(await this.withdrawals.get(id))!]);
    return record;
  }

  /** The withdrawals as answered, with their operations' transactions (read in one query). */
  private async records(rows: BankWithdrawalRow[]): Promise<BankWithdrawalRecordDto[]> {
    const transactions = new Map<string, BankWithdrawalTransactionDto[]>();
    for (const t of await this.withdrawals.transactionsOf(rows.map((r) => r.id))) {
      transactions.set(t.operation_id, [...(transactions.get(t.operation_id) ?? []), toTransaction(t)]);
    }
    return rows.map((row) => toRecord(row, transactions.get(row.operation_id) ?? []));
  }

  /** Auditors see every withdrawal; everyone else their organization's. */
  private visibleTo(principal: Principal): RequestVisibility | undefined {
    return principal.permissions.has('TRANSACTION_AUDITOR')
      ? undefined
      : { column: 'organization_id', organizationId: principal.organizationId };
  }
}

const notFound = (id: string) => new ApiError('exception.bank_withdrawal.not_found', `No bank withdrawal ${id}`);
const decided = (status: string) => new ApiError('exception.bank_withdrawal.decided', `The bank withdrawal is already ${status}`);

function coinOf(coin: TransactionCoinRow): OperationCoinDto {
  return {
    serial: coin.serial,
    name: coin.name,
    organizationId: coin.organizationId,
    organizationName: coin.organizationName,
    technical: coin.type !== 'client',
    type: coin.type === 'client' ? 'client' : 'system',
    issuer: { id: coin.issuerId, sn: Number(coin.issuerSn), currency: coin.code, symbol: coin.symbol },
  };
}

function toTransaction(t: BankWithdrawalTransactionRow): BankWithdrawalTransactionDto {
  const from = coinOf(t.from_coin);
  return {
    id: t.id,
    type: t.type,
    amount: amountOf(t.amount, scaleOf(t.from_coin.fraction)),
    issuer: from.issuer,
    from,
    to: coinOf(t.to_coin),
    createdAt: new Date(t.created_at).toISOString(),
    performedAt: new Date(t.performed_at).toISOString(),
    updatedAt: new Date(t.updated_at).toISOString(),
  };
}

function toRecord(row: BankWithdrawalRow, transactions: BankWithdrawalTransactionDto[]): BankWithdrawalRecordDto {
  const scale = scaleOf(row.fraction);
  const amount = amountOf(row.amount, scale);
  return {
    id: row.id,
    requestIdentifier: Number(row.request_identifier),
    kind: row.kind,
    status: row.status,
    requestStatus: row.status,
    coinSerial: row.coin_serial,
    organizationId: row.organization_id,
    amount,
    cashAmount: amount,
    fullName: row.account_holder,
    clientCoin: clientCoinOf(row),
    bankInfo: { name: row.bank_name, bic: row.bic, swift: row.bic, country: null, city: null, address: null, zipCode: null },
    commission: amountOf(row.commission, scale),
    currency: row.code,
    bankAccountId: row.bank_account_id,
    bankDetails: { iban: row.iban, bic: row.bic, accountHolder: row.account_holder, bankName: row.bank_name },
    ...requestRecordEnd(row),
    type: familyTypeOf('bank_withdrawal'),
    iban: row.iban,
    transactions,
    children: [],
  };
}
