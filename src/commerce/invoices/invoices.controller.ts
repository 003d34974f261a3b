import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/invoice.dto';
import { InvoicesService } from './invoices.service';

const ISSUER = { access: ['INVOICE_ISSUER'] } as const;
const PAYER = { access: ['INVOICE_PAYER'] } as const;
const ONE = { ...ISSUER, errors: ['exception.invoice.not_found'] } as const;
const RECIPIENT_COIN = ['exception.coin.not_found', "recipientCoin is not the caller's"] as const;
const PAYABLE = ['exception.invoice.not_found', ['exception.coin.not_found', "not the caller's"], 'exception.invoice.expired'] as const;
const TEMPLATE = { ...ISSUER } as const;
const NO_TEMPLATE = 'exception.invoice_template.not_found';
const DRAFT_COIN = ['exception.coin.not_found', "invoiceDraft.recipientCoin missing, or not the caller's"] as const;

/** Invoices: issued by a merchant or an individual into one of its coins, paid by any customer. */
@Routes('invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  /**
   * Bills into one of the organization's coins (`recipientCoin`, never a technical one); the amount equals the items' total when items are
   * given. Payable until paid, withdrawn or past `expiresAt`.
   */
  @Route('POST', '', { ...ISSUER, summary: 'Issue an invoice', errors: [RECIPIENT_COIN] })
  async createInvoice(@Body() body: dto.CreateInvoiceDto, @Caller() caller: Principal): Promise<dto.InvoiceResponseDto> {
    return { status: 'ok', message: 'Invoice issued', invoice: await this.invoices.create(caller, body) };
  }

  /**
   * What paying `amount` into `recipientCoin` would cost the payer, fee included: by the payer's terms when `payerContact` is a customer
   * with a main coin in the currency, else the recipient's. Nothing is stored; the payment prices it again.
   */
  @Route('POST', 'calculate', { ...ISSUER, summary: 'The price of an invoice before issuing it', status: 200, errors: [RECIPIENT_COIN] })
  estimateInvoice(@Body() body: dto.InvoiceEstimateDto, @Caller() caller: Principal): Promise<dto.InvoiceCalculationDto> {
    return this.invoices.estimate(caller, body);
  }

  /** Invoices the caller's organization issued, or those it pays (`filter.direction` INCOMING); auditors without a direction see all. */
  @Route('POST', 'view', { ...ISSUER, summary: "Search the caller's invoices", status: 200 })
  viewInvoices(@Body() body: dto.InvoiceViewDto, @Caller() caller: Principal): Promise<dto.InvoicePageDto> {
    return this.invoices.view(caller, body);
  }

  /** An invoice of the caller's organization (any for TRANSACTION_AUDITOR), read now: past its expiry it is `expired` at once. */
  @Route('GET', ':id', { ...ONE, summary: 'An invoice of the caller' })
  async getInvoice(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.InvoiceResponseDto> {
    return { status: 'ok', message: 'OK', invoice: await this.invoices.get(caller, id) };
  }

  /** Withdraws an unpaid invoice (its issuer) or rejects it (its payer: the caller whose login is its payerContact); it becomes `declined`. */
  @Route('DELETE', ':id', {
    ...ONE,
    summary: 'Withdraw or reject an unpaid invoice',
    errors: [...ONE.errors, ['exception.invoice.not_payable', 'paid, expired or withdrawn already']],
  })
  async deleteInvoice(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.InvoiceResponseDto> {
    return { status: 'ok', message: 'Invoice withdrawn', invoice: await this.invoices.delete(caller, id) };
  }

  /** What paying from one of the caller's coins would cost, fee included: a coin of the invoice's issuer, not its recipient coin (400). */
  @Route('POST', ':id/calculate', {
    ...PAYER,
    summary: 'The price of paying an invoice from a coin',
    status: 200,
    errors: [...PAYABLE, 'exception.invoice.not_payable'],
  })
  calculateInvoicePayment(
    @UuidParam('id') id: string,
    @Body() body: dto.PayInvoiceDto,
    @Caller() caller: Principal,
  ): Promise<dto.InvoiceCalculationDto> {
    return this.invoices.calculate(caller, id, body.payerCoin);
  }

  /** Pays an invoice from one of the caller's coins; two payers at once make one payment (the other: 409). */
  @Route('POST', ':id/pay', {
    ...PAYER,
    summary: 'Pay an invoice',
    idempotent: { groupCommit: true },
    errors: [...PAYABLE, ['exception.invoice.not_payable', 'paid already'], 'exception.coin.insufficient_funds'],
  })
  async payInvoice(
    @UuidParam('id') id: string,
    @Body() body: dto.PayInvoiceDto,
    @Caller() caller: Principal,
  ): Promise<dto.InvoicePaymentResponseDto> {
    return { status: 'ok', message: 'Invoice paid', ...(await this.invoices.pay(caller, id, body.payerCoin)) };
  }
}

/** Invoice templates: a draft to issue invoices from. */
@Routes('invoice-templates', 'invoices')
export class InvoiceTemplatesController {
  constructor(private readonly invoices: InvoicesService) {}

  /** A draft under a name, to issue invoices from (`POST …/{id}/invoices`); its recipientCoin is one of the organization's coins. */
  @Route('POST', '', { ...TEMPLATE, summary: 'Save an invoice template', errors: [DRAFT_COIN, 'exception.invoice_template.name_taken'] })
  async createInvoiceTemplate(
    @Body() body: dto.CreateInvoiceTemplateDto,
    @Caller() caller: Principal,
  ): Promise<dto.InvoiceTemplateResponseDto> {
    return { status: 'ok', message: 'Template saved', template: await this.invoices.createTemplate(caller, body) };
  }

  /** The invoice templates of the caller's organization, by name. */
  @Route('POST', 'view', { ...ISSUER, summary: "The caller's invoice templates", status: 200 })
  viewInvoiceTemplates(@Body() body: dto.InvoiceTemplateViewDto, @Caller() caller: Principal): Promise<dto.InvoiceTemplatePageDto> {
    return this.invoices.templates(caller, body);
  }

  /** Deletes one of the organization's templates and answers it; invoices issued from it stay. */
  @Route('DELETE', ':id', { ...TEMPLATE, summary: 'Delete an invoice template', errors: [NO_TEMPLATE] })
  async deleteInvoiceTemplate(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.InvoiceTemplateResponseDto> {
    return { status: 'ok', message: 'Template deleted', template: await this.invoices.deleteTemplate(caller, id) };
  }

  /** Renames and redrafts a template with its creation's body, checked alike; invoices issued from it keep what they were issued with. */
  @Route('PATCH', ':id', {
    ...TEMPLATE,
    summary: 'Update an invoice template',
    errors: [NO_TEMPLATE, DRAFT_COIN, 'exception.invoice_template.name_taken'],
  })
  async updateInvoiceTemplate(
    @UuidParam('id') id: string,
    @Body() body: dto.CreateInvoiceTemplateDto,
    @Caller() caller: Principal,
  ): Promise<dto.InvoiceTemplateResponseDto> {
    return { status: 'ok', message: 'Template updated', template: await this.invoices.updateTemplate(caller, id, body) };
  }

  /** As `POST /invoices` would, with the amount, payer contact and expiry given now where the template has none (no amount: 400). */
  @Route('POST', ':id/invoices', { ...ISSUER, summary: 'Issue an invoice from a template', errors: [NO_TEMPLATE] })
  async issueInvoiceFromTemplate(
    @UuidParam('id') id: string,
    @Body() body: dto.IssueFromTemplateDto,
    @Caller() caller: Principal,
  ): Promise<dto.InvoiceResponseDto> {
    return { status: 'ok', message: 'Invoice issued', invoice: await this.invoices.issueFromTemplate(caller, id, body) };
  }
}
