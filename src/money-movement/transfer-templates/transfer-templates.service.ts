import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { parseAmount, scaleOf } from '../../platform/common/money';
import { nameSortOf, Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { OperationsService } from '../../platform/ledger/operations.service';
import { CoinsService } from '../coins/coins.service';
import type { CoinDto } from '../coins/dto/coin.dto';
import { PayeeLookups } from '../coins/payee-lookups';
import { payeeDisplayName } from '../coins/payee-name';
import { TransfersService } from '../transfers/transfers.service';
import type { TransferRequestDto } from '../transfers/dto/transfer.dto';
import {
  TEMPLATE_LIST_MAX,
  type CreateTransferTemplateDto,
  type TemplateAmountDto,
  type TemplateCalculationDto,
  type TemplateFromOperationDto,
  type TransferTemplateDto,
  type TransferTemplateViewDto,
  type UpdateTransferTemplateDto,
} from './dto/transfer-template.dto';
import { TransferTemplateRow, TransferTemplatesRepository } from './transfer-templates.repository';

/**
 * Saved transfers. A template belongs to the user who saved it, for the organization they acted
 * for (whose coin pays); any other caller gets a 404. Templates only store: a transfer is the
 * client's `POST /transfers`, which checks funds and coins again.
 */
@Injectable()
export class TransferTemplatesService {
  constructor(
    private readonly templates: TransferTemplatesRepository,
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
    private readonly uow: UnitOfWork,
    private readonly transfers: TransfersService,
    private readonly operations: OperationsService,
    private readonly coins: CoinsService,
    private readonly lookups: PayeeLookups,
  ) {}

  /**
   * The rules of `POST /transfers` that do not depend on the moment: who pays, who receives, currency, decimals. The
   * payee coin is one the caller typed in, and the template answers its owner's display name: a payee lookup, counted
   * against the caller and `address` as `POST /coins/validate` is (PayeeLookups), so saving templates cannot walk the
   * customer directory.
   */
  async create(principal: Principal, dto: CreateTransferTemplateDto, address: string): Promise<TransferTemplateDto> {
    return this.save(principal, dto, address);
  }

  /** Saves a template; counts a payee lookup first when `address` is given (a payee the caller typed in). */
  private async save(principal: Principal, dto: CreateTransferTemplateDto, address?: string): Promise<TransferTemplateDto> {
    // The family's web client names the coins in a payment tool; payerCoin/payeeCoin win when both are sent.
    const payerCoin = dto.payerCoin ?? dto.paymentTool!.srcValue;
    const payeeCoin = dto.payeeCoin ?? dto.paymentTool!.destValue;
    if (payerCoin === payeeCoin) throw ApiError.invalid('payeeCoin', 'must be another coin than payerCoin');
    if (address !== undefined) await this.lookups.count(principal, address, `coin:${payeeCoin}`);
    const coins = await this.ledger.read([payerCoin, payeeCoin]);
    const locked = { coins, holds: [] };
    const payer = this.tools.payer(locked, payerCoin, principal, 'payerCoin');
    const payee = this.tools.payee(locked, payeeCoin, 'payeeCoin');
    for (const coin of [payer, payee]) {
      if (coin.closed_at) throw new ApiError('exception.coin.closed', `Coin ${coin.serial} is closed`);
    }
    if (payer.currency_id !== payee.currency_id) throw ApiError.invalid('payeeCoin', 'must hold the same currency as the payer coin');
    const amount = parseAmount(dto.amount, scaleOf(payer.fraction));
    return this.uow.run(async () => {
      const id = await this.templates.insert({
        userId: principal.userId,
        organizationId: principal.organizationId,
        name: dto.name,
        payerCoin: payer.serial,
        payeeCoin: payee.serial,
        amount: amount.toFixed(),
        description: dto.description ?? null,
        customInformation: dto.customInformation ?? null,
      });
      if (!id) throw new ApiError('exception.transfer_template.name_taken', `You already have a transfer template named "${dto.name}"`);
      return this.answer(principal, (await this.templates.own(principal.userId, principal.organizationId, id))!);
    });
  }

  async view(principal: Principal, dto: TransferTemplateViewDto): Promise<Page<TransferTemplateDto>> {
    const { rows, count } = await this.templates.search({
      userId: principal.userId,
      organizationId: principal.organizationId,
      ...(dto.filter ?? {}),
      sort: nameSortOf(dto.sort),
      ...pageWindow(dto),
    });
    return pageOf(dto, count.total, await this.answers(principal, rows), count.exact);
  }

  /**
   * Saves a transfer the caller's organization made (one it may see) as a template: its coins, and its amount unless
   * another is given. Any other kind of operation is a 400; one the caller may not see a 404.
   */
  async fromOperation(principal: Principal, operationId: string, dto: TemplateFromOperationDto): Promise<TransferTemplateDto> {
    const operation = await this.operations.getVisible(operationId, principal);
    if (operation.type !== 'client_transaction_transfer' || !operation.from || !operation.to) {
      throw ApiError.invalid('operationId', 'must be a transfer between coins');
    }
    // The payee is one the caller's organization paid: no lookup to count.
    return this.save(principal, {
      name: dto.name,
      payerCoin: operation.from.serial,
      payeeCoin: operation.to.serial,
      amount: dto.amount ?? operation.amount.toString(),
      ...(dto.description !== undefined ? { description: dto.description } : {}),
    });
  }

  /** Every template of the caller (for the organization they act for), by name, at most TEMPLATE_LIST_MAX. */
  async list(principal: Principal): Promise<TransferTemplateDto[]> {
    const { rows } = await this.templates.search({
      userId: principal.userId,
      organizationId: principal.organizationId,
      sort: nameSortOf(undefined),
      offset: 0,
      limit: TEMPLATE_LIST_MAX,
    });
    return this.answers(principal, rows);
  }

  /** Renames a template, or changes its amount or description; a name another of the caller's templates has is a 409. */
  async update(principal: Principal, id: string, dto: UpdateTransferTemplateDto): Promise<TransferTemplateDto> {
    return this.uow.run(async () => {
      const row = await this.own(principal, id);
      const amount = dto.amount === undefined ? undefined : parseAmount(dto.amount, scaleOf(row.fraction)).toFixed();
      if (dto.name !== undefined && dto.name.toLowerCase() !== row.name.toLowerCase()) {
        const { rows } = await this.templates.search({
          userId: principal.userId,
          organizationId: principal.organizationId,
          name: dto.name,
          sort: nameSortOf(undefined),
          offset: 0,
          limit: TEMPLATE_LIST_MAX,
        });
        if (rows.some((other) => other.name.toLowerCase() === dto.name!.toLowerCase())) {
          throw new ApiError('exception.transfer_template.name_taken', `You already have a transfer template named "${dto.name}"`);
        }
      }
      await this.templates.update(principal.userId, principal.organizationId, id, {
        name: dto.name,
        amount,
        description: dto.description,
      });
      return this.answer(principal, (await this.templates.own(principal.userId, principal.organizationId, id))!);
    });
  }

  /**
   * What executing the template would cost and deliver, as `POST /transfers/calculate` answers it, with the payer coin's
   * issuer in full and the template's paymentToolDetails (the payee's display name among them).
   */
  async calculate(principal: Principal, id: string, dto: TemplateAmountDto): Promise<TemplateCalculationDto> {
    const row = await this.own(principal, id);
    const price = await this.transfers.calculate(principal, transferOf(row, dto));
    return { ...price, issuer: payerIssuerOf(row), paymentToolDetails: paymentToolDetailsOf(row) };
  }

  /** Sends the template's transfer (its amount unless another is given), as `POST /transfers` does. */
  async execute(principal: Principal, id: string, dto: TemplateAmountDto): Promise<OperationDto> {
    return this.transfers.transfer(principal, transferOf(await this.own(principal, id), dto));
  }

  /** Templates as answered: each with its sender coin (the caller's organization's, read in one statement). */
  private async answers(principal: Principal, rows: TransferTemplateRow[]): Promise<TransferTemplateDto[]> {
    const payerCoins = rows.map((row) => row.payer_coin);
    const coins = await this.coins.ownAmong(principal.organizationId, payerCoins);
    return rows.map((row) => {
      const senderCoin = coins.get(row.payer_coin);
      // A template's payer coin was its organization's when it was saved, and a coin never changes organization.
      if (!senderCoin) throw new Error(`Transfer template ${row.id}: payer coin ${row.payer_coin} is not its organization's`);
      return toTemplate(row, senderCoin);
    });
  }

  private async answer(principal: Principal, row: TransferTemplateRow): Promise<TransferTemplateDto> {
    const [template] = await this.answers(principal, [row]);
    return template;
  }

  private async own(principal: Principal, id: string): Promise<TransferTemplateRow> {
    const row = await this.templates.own(principal.userId, principal.organizationId, id);
    if (!row) throw new ApiError('exception.transfer_template.not_found', 'No such transfer template');
    return row;
  }

  /** Deletes one of the caller's templates; answers what was deleted. */
  async delete(principal: Principal, id: string): Promise<TransferTemplateDto> {
    return this.uow.run(async () => {
      const row = await this.templates.own(principal.userId, principal.organizationId, id);
      if (!row || !(await this.templates.delete(principal.userId, principal.organizationId, id))) {
        throw new ApiError('exception.transfer_template.not_found', 'No such transfer template');
      }
      return this.answer(principal, row);
    });
  }
}

/** The transfer a template sends: `POST /transfers` with its values, and its amount unless `dto` gives another. */
function transferOf(row: TransferTemplateRow, dto: TemplateAmountDto): TransferRequestDto {
  return {
    paymentTool: { type: 'COIN', srcValue: row.payer_coin, destValue: row.payee_coin },
    amount: dto.amount ?? row.amount,
    ...(row.description ? { description: row.description } : {}),
    ...(row.custom_information ? { customInformation: row.custom_information } : {}),
  };
}

function payerIssuerOf(row: TransferTemplateRow): TemplateCalculationDto['issuer'] {
  return { id: row.issuer_id, sn: Number(row.issuer_sn), currency: row.code, symbol: row.symbol };
}

/** The template's coins as the family's web client reads them, and the payee as a payee check shows it. */
function paymentToolDetailsOf(row: TransferTemplateRow): TransferTemplateDto['paymentToolDetails'] {
  return {
    type: 'COIN',
    srcId: row.payer_coin,
    srcValue: row.payer_coin,
    destId: row.payee_coin,
    destValue: row.payee_coin,
    recipientFullName: payeeDisplayName(row.payee_type, row.payee_name),
    currency: row.code,
    symbol: row.symbol,
  };
}

function toTemplate(row: TransferTemplateRow, senderCoin: CoinDto): TransferTemplateDto {
  return {
    id: row.id,
    name: row.name,
    payerCoin: row.payer_coin,
    payeeCoin: row.payee_coin,
    amount: amountOf(row.amount, scaleOf(row.fraction)),
    currency: row.code,
    symbol: row.symbol,
    description: row.description,
    customInformation: row.custom_information,
    createdAt: row.created_at.toISOString(),
    type: 'TRANSFER',
    paymentToolDetails: paymentToolDetailsOf(row),
    senderCoin,
    // Only what a payment form needs of a coin that may be another organization's: no owner, balance or state.
    recipientCoin: {
      serial: row.payee_coin,
      issuer: { id: row.payee_issuer_id, sn: Number(row.payee_issuer_sn), currency: row.payee_code, symbol: row.payee_symbol },
      type: 'client',
    },
  };
}
