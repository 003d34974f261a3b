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
   * The caller's organization bills a payer: the invoice names one of its own coins to be paid into (`recipientCoin`, never a technical
   * coin) and the amount, which must equal the items' total when items are given. It is payable (`initiated`) until paid, withdrawn or past
   * `expiresAt`.
   */
  @Route('POST', '', { ...ISSUER, summary: 'Issue an invoice', errors: [RECIPIENT_COIN] })
  async createInvoice(@Body() body: dto.CreateInvoiceDto, @Caller() caller: Principal): Promise<dto.InvoiceResponseDto> {
    return { status: 'ok', message: 'Invoice issued', invoice: await this.invoices.create(caller, body) };
  }

  /**
   * Before issuing: what paying `amount` into `recipientCoin` (one of the caller's coins) would cost the payer, fee included, priced by the
   * payer's terms when `payerContact` is a customer with a main coin in the currency, else by the recipient's. Nothing is stored; the
   * payment prices it again.
   */
  @Route('POST', 'calculate', { ...ISSUER, summary: 'The price of an invoice before issuing it', status: 200, errors: [RECIPIENT_COIN] })
  estimateInvoice(@Body() body: dto.InvoiceEstimateDto, @Caller() caller: Principal): Promise<dto.InvoiceCalculationDto> {
    return this.invoices.estimate(caller, body);
  }

  /**
   * The caller's invoices: `filter.direction` OUTGOING (the default) those its organization issued (every one for auditors without a
   * direction), INCOMING those it pays (its login is their payerContact, or its coin paid them). `totalPrice` filters by issuer and amount
   * together, or by a bare amount; the status `approved` is `pending`. `sort` by one of createdAt (the default, newest first), totalPrice,
   * status.
   */
  @Route('POST', 'view', { ...ISSUER, summary: "Search the caller's invoices", status: 200 })
  viewInvoices(@Body() body: dto.InvoiceViewDto, @Caller() caller: Principal): Promise<dto.InvoicePageDto> {
    return this.invoices.view(caller, body);
  }

  /**
   * An invoice of the caller's organization (any invoice for staff with TRANSACTION_AUDITOR), read now: one past its expiry is `expired`
   * even before the sweep marks it. Another organization's is a 404; a payer prices an invoice with `POST …/{id}/calculate`.
   */
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

  /**
   * What paying the invoice from one of the caller's coins would cost, fee included, without moving money. The coin must be of the
   * invoice's issuer and not its recipient coin (400); an expired or no longer payable invoice is a 409.
   */
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

  /**
   * Saves an invoice draft under a name, to issue invoices from later (`POST /invoice-templates/{id}/invoices`). The draft's recipientCoin
   * must be one of the organization's coins: without one the template is refused with a 404 (section 7).
   */
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

  /**
   * Deletes one of the organization's invoice templates and answers it; invoices already issued from it stay. Another organization's is a
   * 404.
   */
  @Route('DELETE', ':id', { ...TEMPLATE, summary: 'Delete an invoice template', errors: [NO_TEMPLATE] })
  async deleteInvoiceTemplate(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.InvoiceTemplateResponseDto> {
    return { status: 'ok', message: 'Template deleted', template: await this.invoices.deleteTemplate(caller, id) };
  }

  /**
   * Renames and redrafts one of the organization's templates with the same body as its creation, checked the same way; invoices already
   * issued from it keep what they were issued with. Another organization's is a 404.
   */
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

  /**
   * Issues an invoice from one of the organization's templates, with the amount, payer contact and expiry given now where the template has
   * none (an amount nowhere is a 400). Checked as `POST /invoices` would.
   */
  @Route('POST', ':id/invoices', { ...ISSUER, summary: 'Issue an invoice from a template', errors: [NO_TEMPLATE] })
  async issueInvoiceFromTemplate(
    @UuidParam('id') id: string,
    @Body() body: dto.IssueFromTemplateDto,
    @Caller() caller: Principal,
  ): Promise<dto.InvoiceResponseDto> {
    return { status: 'ok', message: 'Invoice issued', invoice: await this.invoices.issueFromTemplate(caller, id, body) };
  }
}
