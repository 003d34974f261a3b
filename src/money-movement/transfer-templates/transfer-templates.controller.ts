import { Body, Caller, ClientAddress, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { PAYEE_LOOKUP_LIMIT } from '../coins/payee-lookups';
import * as dto from './dto/transfer-template.dto';
import { TransferTemplatesService } from './transfer-templates.service';

const OWNER = { access: ['TRANSFER_TEMPLATE_OWNER'] } as const;
/** One of the caller's templates, answered; another user's is a 404. */
const ONE = { ...OWNER, errors: ['exception.transfer_template.not_found'] } as const;
const SAVED = { ...OWNER } as const;
const TEMPLATE_OR_COIN_GONE = ['exception.transfer_template.not_found', 'or a coin gone'] as const;

/** The caller's saved transfers. Executing one is `POST /transfers` with its values, checked and priced again. */
@Routes('templates/transfer', 'transfer-templates')
export class TransferTemplatesController {
  constructor(private readonly templates: TransferTemplatesService) {}

  /** Saves a transfer from a coin of the caller's, checked as `POST /transfers` would but for funds; naming the payee is a payee lookup. */
  @Route('POST', '', {
    ...SAVED,
    summary: 'Save a transfer template',
    errors: [
      ['exception.coin.not_found', "the payer coin is not the caller's, or the payee coin is not a client coin"],
      'exception.transfer_template.name_taken',
      'exception.coin.closed',
      PAYEE_LOOKUP_LIMIT,
    ],
  })
  async createTransferTemplate(
    @Body() body: dto.CreateTransferTemplateDto,
    @Caller() caller: Principal,
    @ClientAddress() address: string,
  ): Promise<dto.TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template saved', template: await this.templates.create(caller, body, address) };
  }

  /** Saves a transfer the caller's organization made as a template: its coins, and its amount unless `amount` is given. */
  @Route('POST', 'operation/:operationId', {
    ...SAVED,
    summary: 'Save a done transfer as a template',
    errors: [
      ['exception.transaction.not_found', 'no such operation the caller may see'],
      'exception.transfer_template.name_taken',
      'exception.coin.closed',
    ],
  })
  async createTransferTemplateFromOperation(
    @UuidParam('operationId') operationId: string,
    @Body() body: dto.TemplateFromOperationDto,
    @Caller() caller: Principal,
  ): Promise<dto.TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template saved', template: await this.templates.fromOperation(caller, operationId, body) };
  }

  /** Every template of the caller (for the organization they act for), by name, at most 1,000: the family's web client's list. */
  @Route('GET', '', { ...OWNER, summary: "The caller's transfer templates" })
  async listTransferTemplates(@Caller() caller: Principal): Promise<dto.TransferTemplateListDto> {
    return { status: 'ok', message: 'OK', transferTemplates: await this.templates.list(caller) };
  }

  /** Renames a template, or changes its amount or description; its coins stay. */
  @Route('PATCH', ':id', {
    ...ONE,
    summary: 'Change a transfer template',
    errors: [...ONE.errors, 'exception.transfer_template.name_taken'],
  })
  async updateTransferTemplate(
    @UuidParam('id') id: string,
    @Body() body: dto.UpdateTransferTemplateDto,
    @Caller() caller: Principal,
  ): Promise<dto.TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template updated', template: await this.templates.update(caller, id, body) };
  }

  /** What executing the template (with its amount, or `amount`) would cost and deliver, as `POST /transfers/calculate` answers. */
  @Route('POST', ':id/calculate', { ...OWNER, summary: 'Price a transfer template', status: 200, errors: [TEMPLATE_OR_COIN_GONE] })
  calculateTransferTemplate(
    @UuidParam('id') id: string,
    @Body() body: dto.TemplateAmountDto,
    @Caller() caller: Principal,
  ): Promise<dto.TemplateCalculationDto> {
    return this.templates.calculate(caller, id, body);
  }

  /** Sends the template's transfer (its amount, or `amount`), exactly as `POST /transfers` with its values. */
  @Route('POST', ':id/execute', {
    access: ['TRANSFER_TEMPLATE_OWNER', 'TRANSFER_CREATOR'],
    idempotent: true,
    summary: 'Execute a transfer template',
    errors: [TEMPLATE_OR_COIN_GONE, 'exception.coin.insufficient_funds', 'exception.coin.inactive'],
  })
  async executeTransferTemplate(
    @UuidParam('id') id: string,
    @Body() body: dto.TemplateAmountDto,
    @Caller() caller: Principal,
  ): Promise<dto.TemplateExecutionDto> {
    const process = await this.templates.execute(caller, id, body);
    const business = { businessProcessId: process.id, businessProcessStatus: process.status, templateId: id };
    return { status: 'ok', message: 'Transfer completed', process, ...business };
  }

  /** The caller's templates (for the organization they act for), by name unless sorted otherwise. */
  @Route('POST', 'view', { ...OWNER, summary: "Search the caller's transfer templates", status: 200 })
  viewTransferTemplates(@Body() body: dto.TransferTemplateViewDto, @Caller() caller: Principal): Promise<dto.TransferTemplatePageDto> {
    return this.templates.view(caller, body);
  }

  /** Deletes one of the caller's transfer templates and answers it as it was. */
  @Route('DELETE', ':id', { ...ONE, summary: 'Delete a transfer template' })
  async deleteTransferTemplate(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template deleted', template: await this.templates.delete(caller, id) };
  }
}
