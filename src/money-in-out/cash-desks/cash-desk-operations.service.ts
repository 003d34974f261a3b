import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { Money, scaleOf } from '../../platform/common/money';
import { Page, pageOf } from '../../platform/common/paging.dto';
import type { CalculationDto } from '../../platform/commissions/dto/calculation.dto';
import { requestRecordEnd, requestSearchOf, RequestVisibility } from '../../platform/database/request-search';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import type { LockedCoin } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OrganizationsService } from '../../platform/organizations/organizations.service';
import { Movement, PendingOperationsService } from '../../platform/pending-operations/pending-operations.service';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { CashDeskOperationRow, CashDesksRepository } from './cash-desks.repository';
import { CashDesksService } from './cash-desks.service';
import { CashOutCodesService } from './cash-out-codes.service';
import type { CashDeskOperationRecordDto, CashDeskOperationRequestDto, CashDeskOperationViewDto } from './dto/cash-desk.dto';

type Outcome = { cashDeskOperation: CashDeskOperationRecordDto; process: OperationDto };
type Decision = 'confirmed' | 'completed' | 'declined';

/** Who may own the coin a cashier enters an operation for: never a cash desk (this one or another) nor the operator. */
const CUSTOMER_TYPES: readonly string[] = ['individual', 'merchant'];

/**
 * Cash paid in and out at a desk. A cashier enters the operation for a customer's coin with the
 * customer's full name and document; it is one `pending` operation holding what the payer will
 * pay — for `cash_in` the desk's cash coin (it credits the customer), for `cash_out` the customer's
 * coin (it pays the desk). The operation settles in place when the customer confirms it (`confirm`)
 * or the desk completes it (`complete`); declining releases the hold. A `cash_in` only spends the
 * desk's till, so its desk — or staff with CASH_DESK_SUPERVISOR — may complete it alone. A `cash_out`
 * debits the customer, so it settles only with their consent: their confirmation, or their one-time
 * cash-out code, which the desk presents (`authorize`) before it completes; supervisors only decline
 * one. The customer's contract prices both flows, whoever pays.
 */
@Injectable()
export class CashDeskOperationsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly pending: PendingOperationsService,
    private readonly operations: CashDesksRepository,
    private readonly desks: CashDesksService,
    private readonly codes: CashOutCodesService,
    private readonly organizations: OrganizationsService,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
  ) {}

  async calculate(principal: Principal, dto: CashDeskOperationRequestDto): Promise<CalculationDto> {
    const { movement } = await this.movement(principal, dto);
    return this.pending.calculate(movement, { srcValue: movement.payer, destValue: movement.payee });
  }

  /** Enters an operation at the caller's desk: the payer's amount (plus a sender's fee) is held until it is confirmed, completed or declined. */
  async create(principal: Principal, dto: CashDeskOperationRequestDto): Promise<Outcome> {
    return this.uow.run(async () => {
      const { movement, customer, deskCoin } = await this.movement(principal, dto);
      const process = await this.pending.hold(movement);
      const id = await this.operations.insert({
        cashDeskId: principal.organizationId,
        type: dto.type,
        operationId: process.id,
        coinSerial: customer.serial,
        customerOrganizationId: customer.organization_id,
        deskCoinSerial: deskCoin,
        amount: process.amount.text,
        commission: process.commission.text,
        fullName: dto.fullName,
        documentType: dto.document.documentType,
        documentNumber: dto.document.documentNumber,
        description: dto.description ?? null,
        customInformation: dto.customInformation ?? null,
        createdBy: principal.userId,
      });
      return { cashDeskOperation: toRecord((await this.operations.get(id))!), process };
    });
  }

  async get(principal: Principal, id: string): Promise<CashDeskOperationRecordDto> {
    const row = await this.operations.get(id, this.visibleTo(principal));
    if (!row) throw notFound(id);
    return toRecord(row);
  }

  async view(principal: Principal, dto: CashDeskOperationViewDto): Promise<Page<CashDeskOperationRecordDto>> {
    const { total, rows } = await this.operations.search(requestSearchOf(dto, this.visibleTo(principal)));
    return pageOf(dto, total, rows.map(toRecord));
  }

  /** The customer confirms an operation on their organization's coin (another organization's is a 404). */
  confirm(principal: Principal, id: string): Promise<Outcome> {
    return this.decide(principal, id, 'confirmed', { column: 'customer_organization_id', organizationId: principal.organizationId });
  }

  /**
   * The desk presents the code its customer read out for a pending `cash_out` of the desk: a live code of that
   * coin and that exact amount is used up and the desk may complete the operation. Any other code is a 403 that
   * moves nothing, and counts as a wrong try against the coin's live codes (CashOutCodesService); that count
   * and the refusal's record commit before the refusal is answered.
   */
  async authorize(principal: Principal, id: string, code: string): Promise<CashDeskOperationRecordDto> {
    const authorized = await this.uow.run(async () => {
      const row = await this.operations.get(id, { column: 'cash_desk_id', organizationId: principal.organizationId }, true);
      if (!row) throw notFound(id);
      if (row.type !== 'cash_out') throw new ApiError('exception.cash_desk_operation.not_cash_out');
      if (row.status !== 'pending') throw decided();
      if (row.cash_out_code_id) throw new ApiError('exception.cash_desk_operation.authorized');
      const codeId = await this.codes.redeem(row.coin_serial, new Money(row.amount), code);
      await this.actions.record({
        userId: principal.userId,
        action: codeId ? 'cash_desk_operation_authorized' : 'cash_out_code_refused',
        details: { cashDeskOperationId: id, coinSerial: row.coin_serial, ...(codeId ? { cashOutCodeId: codeId } : {}) },
      });
      if (!codeId) return null;
      await this.operations.authorize(id, codeId);
      return toRecord((await this.operations.get(id))!);
    });
    if (!authorized) {
      throw new ApiError(
        'exception.cash_out_code.invalid',
        'The cash-out code is wrong, expired, used or burnt, or was made for another coin or amount; nothing moved',
      );
    }
    return authorized;
  }

  /** The desk completes one of its operations (staff with CASH_DESK_SUPERVISOR: any desk's cash-in); a cash-out only after its code. */
  complete(principal: Principal, id: string): Promise<Outcome> {
    return this.decide(principal, id, 'completed', this.deskScope(principal));
  }

  /**
   * The customer refuses a pending operation on their organization's coin (another organization's is a 404): its
   * hold is released. A cash-out entered against a coin without its owner asking never keeps their money held
   * until a desk chooses to let it go.
   */
  refuse(principal: Principal, id: string, reason: string): Promise<Outcome> {
    return this.decide(principal, id, 'declined', { column: 'customer_organization_id', organizationId: principal.organizationId }, reason);
  }

  decline(principal: Principal, id: string, reason: string): Promise<Outcome> {
    return this.decide(principal, id, 'declined', this.deskScope(principal), reason);
  }

  /** Locks the row before its operation, so of racing decisions exactly one moves or releases the money; the others find it decided (409). */
  private decide(
    principal: Principal,
    id: string,
    decision: Decision,
    scope: { column: string; organizationId: string } | undefined,
    reason?: string,
  ): Promise<Outcome> {
    return this.uow.run(async () => {
      const row = await this.operations.get(id, scope, true);
      if (!row) throw notFound(id);
      if (row.status !== 'pending') throw decided();
      if (decision === 'completed' && row.type === 'cash_out' && !(row.cash_out_code_id && row.cash_desk_id === principal.organizationId)) {
        throw new ApiError('exception.cash_desk_operation.consent_required');
      }
      const process = await this.pending.settle(
        row.operation_id,
        row.type,
        { accept: decision !== 'declined', requestStatus: decision },
        decided,
        (payee) => {
          if (!payee.usable) throw new ApiError('exception.coin.inactive', `Coin ${payee.serial} is closed or inactive`);
        },
      );
      await this.operations.decide(id, { decision, reason, by: principal.userId });
      await this.actions.record({
        userId: principal.userId,
        action: `cash_desk_operation_${decision}`,
        details: { cashDeskOperationId: id, operationId: row.operation_id, ...(reason ? { reason } : {}) },
      });
      return { cashDeskOperation: toRecord((await this.operations.get(id))!), process };
    });
  }

  /**
   * The movement a cashier enters: only a member of a cash desk enters one (403 otherwise), for a
   * customer's client coin (404 unknown; 400 technical, or not an individual's or a merchant's: a cash
   * desk's, this one or another, or the operator's), against the desk's cash coin of the same issuer
   * (409 when the desk has none).
   */
  private async movement(principal: Principal, dto: CashDeskOperationRequestDto) {
    if (principal.organizationType !== 'cash_desk') {
      throw new ApiError('exception.cash_desk.not_member', 'Only a cashier of a cash desk enters cash desk operations');
    }
    const customer = (await this.ledger.read([dto.coinSerial])).get(dto.coinSerial);
    if (!customer) throw new ApiError('exception.coin.not_found', `No coin ${dto.coinSerial}`);
    if (customer.type !== 'client') throw ApiError.invalid('coinSerial', 'must not be a technical coin');
    const owner = await this.organizations.find(customer.organization_id);
    if (!owner || !CUSTOMER_TYPES.includes(owner.type)) {
      throw ApiError.invalid(
        'coinSerial',
        'must be a customer’s coin (an individual’s or a merchant’s), not a cash desk’s or the operator’s',
      );
    }
    const deskCoin = await this.desks.cashCoin(principal.organizationId, customer.issuer_id);
    const usable = (coin: LockedCoin) => {
      if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
    };
    const cashIn = dto.type === 'cash_in';
    const movement: Movement = {
      type: dto.type,
      payer: cashIn ? deskCoin : customer.serial,
      payee: cashIn ? customer.serial : deskCoin,
      priceBy: cashIn ? [null, customer.serial] : [customer.serial, null],
      amount: dto.amount,
      check: (payer, payee) => {
        usable(payer);
        usable(payee);
      },
      description: dto.description ?? null,
      customInformation: dto.customInformation ?? null,
      details: { cashDeskId: principal.organizationId, fullName: dto.fullName },
    };
    return { movement, customer, deskCoin };
  }

  /** Auditors see every desk's operations; a desk's members its own; customers those on their coins. */
  private visibleTo(principal: Principal): RequestVisibility | undefined {
    if (principal.permissions.has('TRANSACTION_AUDITOR')) return undefined;
    const column = principal.organizationType === 'cash_desk' ? 'cash_desk_id' : 'customer_organization_id';
    return { column, organizationId: principal.organizationId };
  }

  private deskScope(principal: Principal): RequestVisibility | undefined {
    return principal.permissions.has('CASH_DESK_SUPERVISOR')
      ? undefined
      : { column: 'cash_desk_id', organizationId: principal.organizationId };
  }
}

const notFound = (id: string) => new ApiError('exception.cash_desk_operation.not_found', `No cash desk operation ${id}`);
const decided = () => new ApiError('exception.cash_desk_operation.decided', 'The cash desk operation is already completed or declined');

function toRecord(row: CashDeskOperationRow): CashDeskOperationRecordDto {
  const scale = scaleOf(row.fraction);
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    decision: row.decision,
    cashOutCodeId: row.cash_out_code_id,
    cashDeskId: row.cash_desk_id,
    coinSerial: row.coin_serial,
    customerOrganizationId: row.customer_organization_id,
    deskCoinSerial: row.desk_coin_serial,
    amount: amountOf(row.amount, scale),
    commission: amountOf(row.commission, scale),
    currency: row.code,
    fullName: row.full_name,
    document: { documentType: row.document_type, documentNumber: row.document_number },
    ...requestRecordEnd(row),
  };
}
