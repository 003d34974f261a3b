import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf } from '../../platform/common/json-decimal';
import { parseAmount, scaleOf } from '../../platform/common/money';
import { nameSortOf, Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import type { CreateTransferTemplateDto, TransferTemplateDto, TransferTemplateViewDto } from './dto/transfer-template.dto';
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
  ) {}

  /** The rules of `POST /transfers` that do not depend on the moment: who pays, who receives, currency, decimals. */
  async create(principal: Principal, dto: CreateTransferTemplateDto): Promise<TransferTemplateDto> {
    if (dto.payerCoin === dto.payeeCoin) throw ApiError.invalid('payeeCoin', 'must be another coin than payerCoin');
    const coins = await this.ledger.read([dto.payerCoin, dto.payeeCoin]);
    const locked = { coins, holds: [] };
    const payer = this.tools.payer(locked, dto.payerCoin, principal, 'payerCoin');
    const payee = this.tools.payee(locked, dto.payeeCoin, 'payeeCoin');
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
      return toTemplate((await this.templates.own(principal.userId, principal.organizationId, id))!);
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
    return pageOf(dto, count.total, rows.map(toTemplate), count.exact);
  }

  /** Deletes one of the caller's templates; answers what was deleted. */
  async delete(principal: Principal, id: string): Promise<TransferTemplateDto> {
    return this.uow.run(async () => {
      const row = await this.templates.own(principal.userId, principal.organizationId, id);
      if (!row || !(await this.templates.delete(principal.userId, principal.organizationId, id))) {
        throw new ApiError('exception.transfer_template.not_found', 'No such transfer template');
      }
      return toTemplate(row);
    });
  }
}

function toTemplate(row: TransferTemplateRow): TransferTemplateDto {
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
  };
}
