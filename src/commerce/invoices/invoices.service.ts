import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { amountOf, JsonDecimal } from '../../platform/common/json-decimal';
import { Money, parseAmount, scaleOf } from '../../platform/common/money';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { PeriodicTask } from '../../platform/common/periodic-task';
import { calculationOf } from '../../platform/commissions/calculation';
import { CommissionsService } from '../../platform/commissions/commissions.service';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import type { OperationDto } from '../../platform/ledger/dto/operation.dto';
import { LockedCoin, recordOf, RecordWriter } from '../../platform/ledger/ledger.types';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { OutboxService } from '../../platform/outbox/outbox.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { CoinsService } from '../../money-movement/coins/coins.service';
import type {
  CreateInvoiceDto,
  CreateInvoiceTemplateDto,
  InvoiceCalculationDto,
  InvoiceDto,
  InvoiceItemDto,
  InvoiceTemplateDto,
  InvoiceTemplateViewDto,
  InvoiceViewDto,
  InvoiceEstimateDto,
  IssueFromTemplateDto,
} from './dto/invoice.dto';
import { FAMILY_INVOICE_STATUS, InvoiceStatus, statusesOf } from './invoice-statuses';
import { InvoiceItem, InvoicePayerRow, InvoiceRow, InvoicesRepository, TemplateRow } from './invoices.repository';

/** Who reads an invoice, which decides what they see of its creator and its payer. */
export interface InvoiceReader {
  /** Null for a webhook, which both sides of a payment receive alike. */
  organizationId: string | null;
  auditor: boolean;
}

const WEBHOOK: InvoiceReader = { organizationId: null, auditor: false };

function readerOf(principal: Principal): InvoiceReader {
  return { organizationId: principal.organizationId, auditor: principal.permissions.has('TRANSACTION_AUDITOR') };
}

/** The status as it stands now: one past its time is expired even before the sweep marks it. */
function statusNow(row: Pick<InvoiceRow, 'status' | 'expires_at'>): InvoiceStatus {
  return row.status === 'initiated' && row.expires_at && row.expires_at.getTime() <= Date.now() ? 'expired' : row.status;
}

/**
 * An invoice as `reader` sees it, its status in the family's words (`status`) and the service's (`serviceStatus`).
 * Its creator's name is for the issuing organization and auditors; its payer's identification status and contract for
 * the payer itself and auditors.
 */
export function toInvoice(row: InvoiceRow, reader: InvoiceReader): InvoiceDto {
  const scale = scaleOf(row.fraction);
  const status = statusNow(row);
  const issuerSees = reader.auditor || reader.organizationId === row.organization_id;
  const payer = row.payer;
  const payerSees = !!payer && (reader.auditor || reader.organizationId === payer.id);
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    recipientCoin: row.recipient_coin,
    identifier: row.id,
    issuerId: row.issuer_id,
    currency: row.currency,
    amount: amountOf(row.amount, scale),
    totalPrice: amountOf(row.amount, scale),
    issuer: { id: row.issuer_id, sn: row.issuer_sn, currency: row.currency, symbol: row.symbol },
    payerContact: row.payer_contact,
    items: row.items.map((i) => ({ name: i.name, quantity: i.quantity, price: amountOf(i.price, scale) })),
    data: row.data ?? {},
    status: FAMILY_INVOICE_STATUS[status],
    serviceStatus: status,
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    operationId: row.operation_id,
    paidByCoin: row.paid_by_coin,
    templateId: row.template_id,
    createdByUserId: row.created_by,
    createdByUser: { id: row.created_by, name: issuerSees ? row.created_by_name : null, profileOrganizationId: row.organization_id },
    merchantName: row.merchant_name,
    payer: payer && {
      id: payer.id,
      type: payer.type,
      name: payer.name,
      identificationStatus: payerSees ? payer.identification_status : null,
      contract_info: payerSees ? { id: payer.contract_id, personType: payer.person_type, name: payer.contract_name } : null,
    },
    paymentCode: row.operation_id,
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
  };
}

function toTemplate(row: TemplateRow): InvoiceTemplateDto {
  const draft = row.draft as {
    name?: string;
    amount?: string;
    recipientCoin?: string;
    payerContact?: string;
    expiresAt?: string | null;
    data?: Record<string, unknown>;
  };
  const data = draft.data ?? {};
  return {
    id: row.id,
    name: row.name,
    invoiceDraft: row.draft,
    amount: draft.amount === undefined ? null : new JsonDecimal(draft.amount),
    recipientCoin: draft.recipientCoin ?? null,
    payerContact: draft.payerContact ?? null,
    // Validated as an ISO date or date-time when saved ("2024-02-29" included): answered as the date-time it stands for.
    expiresAt: draft.expiresAt ? new Date(draft.expiresAt).toISOString() : null,
    createdAt: row.created_at.toISOString(),
    templateName: row.name,
    // The name issueFromTemplate gives its invoices.
    invoiceName: draft.name ?? row.name,
    data,
    description: typeof data.description === 'string' ? data.description : null,
    type: 'INVOICE',
    reusable: true,
    regular: false,
  };
}

/** An invoice being paid, to mark paid with its payment's operation (InvoicesService.paid). */
interface InvoicePayment {
  /** As read before the payment. */
  invoice: InvoiceRow;
  coin: string;
  payerOrganizationId: string;
  /** The paying organization, as the answer and the webhook show it. */
  payer: InvoicePayerRow | null;
}

/** The invoice as its payment marks it. */
function paidRow({ invoice, coin, payer }: InvoicePayment, operationId: string, paidAt: Date): InvoiceRow {
  return { ...invoice, status: 'paid', operation_id: operationId, paid_by_coin: coin, payer, paid_at: paidAt };
}

const SORT_KEYS = { createdAt: 'created_at', totalPrice: 'amount', status: 'status' } as const;

/**
 * Invoices: a merchant (or an individual) asks to be paid into one of its coins; any customer pays one from a coin
 * of the same currency, with the fee of the `invoice_payment` flow. The payment marks the invoice paid only while it is
 * unpaid, in its transaction, so two payers at once make one payment (the other gets a 409). Past `expiresAt` an invoice cannot be
 * paid (409), and a sweep marks it `expired`. Issuers see and withdraw only their own invoices (404 otherwise).
 */
@Injectable()
export class InvoicesService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(InvoicesService.name);
  private readonly expiry = new PeriodicTask(
    'The invoice expiry sweep',
    () => this.uow.asJob('invoice-expiry', () => this.expireDue()),
    this.logger,
  );

  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly ledger: LedgerService,
    private readonly commissions: CommissionsService,
    private readonly tools: PaymentToolsService,
    private readonly coins: CoinsService,
    private readonly outbox: OutboxService,
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.expiry.start(this.config.invoiceExpirySweepSeconds);
  }

  onModuleDestroy(): Promise<void> {
    return this.expiry.stop();
  }

  async create(principal: Principal, dto: CreateInvoiceDto, templateId: string | null = null): Promise<InvoiceDto> {
    return this.uow.run(async () => {
      const coin = await this.ownCoin(principal, dto.recipientCoin, 'recipientCoin');
      const scale = scaleOf(coin.fraction);
      const amount = parseAmount(dto.amount, scale);
      const items = this.items(dto.items ?? [], scale, amount);
      const expiresAt = dto.expiresAt ?? null;
      if (expiresAt && Date.parse(expiresAt) <= Date.now()) throw ApiError.invalid('expiresAt', 'must be in the future');
      const id = await this.invoices.insert({
        organizationId: principal.organizationId,
        name: dto.name,
        recipientCoin: coin.serial,
        issuerId: coin.issuer_id,
        amount: amount.toFixed(),
        payerContact: dto.payerContact ?? null,
        items,
        data: dto.data ?? null,
        expiresAt,
        templateId,
        createdBy: principal.userId,
      });
      return this.answer(principal, (await this.invoices.get(id))!);
    });
  }

  /**
   * The issuer's invoices (OUTGOING, the default; staff with TRANSACTION_AUDITOR see every one without a direction), or
   * those the caller pays (INCOMING). Statuses filter in the family's words or the service's (`initiated`), as they
   * stand now.
   */
  async view(principal: Principal, dto: InvoiceViewDto): Promise<Page<InvoiceDto>> {
    const { offset, limit } = pageWindow(dto);
    const filter = dto.filter ?? {};
    const auditor = principal.permissions.has('TRANSACTION_AUDITOR') && !filter.direction;
    const incoming = filter.direction === 'INCOMING';
    const sortKey = (Object.keys(SORT_KEYS) as (keyof typeof SORT_KEYS)[]).find((k) => dto.sort?.[k] !== undefined);
    const { count, rows } = await this.invoices.search(
      {
        organizationId: auditor || incoming ? undefined : principal.organizationId,
        payer: incoming ? { login: principal.user.login, organizationId: principal.organizationId } : undefined,
        id: filter.identifier,
        createdBy: filter.createdByUserId,
        statuses: filter.statuses && statusesOf(filter.statuses),
        issuerId: filter.totalPrice && 'issuerId' in filter.totalPrice ? filter.totalPrice.issuerId : undefined,
        amount: filter.totalPrice ? parseAmount(filter.totalPrice.amount, 18, 'filter.totalPrice.amount').toFixed() : undefined,
        createdAtFrom: filter.createdAtFrom,
        createdAtTo: filter.createdAtTo,
        sort: sortKey && { key: SORT_KEYS[sortKey], direction: dto.sort![sortKey] === 'asc' ? 'ASC' : 'DESC' },
      },
      offset,
      limit,
    );
    return pageOf(dto, count.total, await this.answers(principal, rows), count.exact);
  }

  /** An invoice by id, for its issuer (and staff with TRANSACTION_AUDITOR); a payer prices it with calculate and pays it. */
  async get(principal: Principal, id: string): Promise<InvoiceDto> {
    const row = await this.invoices.get(id);
    if (!row || (row.organization_id !== principal.organizationId && !principal.permissions.has('TRANSACTION_AUDITOR'))) {
      throw new ApiError('exception.invoice.not_found');
    }
    return this.answer(principal, row);
  }

  /**
   * Withdraws an unpaid invoice, by its issuer, or rejects it, by its payer (whose login is its payerContact): status
   * `declined` either way. A paid, expired or declined one is a 409; anyone else's a 404.
   */
  async delete(principal: Principal, id: string): Promise<InvoiceDto> {
    return this.uow.run(async () => {
      const row = await this.invoices.get(id, true);
      const payer = row?.payer_contact?.toLowerCase() === principal.user.login;
      if (!row || (row.organization_id !== principal.organizationId && !payer)) throw new ApiError('exception.invoice.not_found');
      if (row.status !== 'initiated')
        throw new ApiError('exception.invoice.not_payable', `The invoice is ${FAMILY_INVOICE_STATUS[row.status]}`);
      await this.invoices.setStatus(id, 'declined');
      return this.answer(principal, (await this.invoices.get(id))!);
    });
  }

  async calculate(principal: Principal, id: string, payerCoin: string): Promise<InvoiceCalculationDto> {
    const row = await this.invoices.get(id);
    if (!row) throw new ApiError('exception.invoice.not_found');
    this.payable(this.current(row));
    const coins = await this.ledger.read([payerCoin, row.recipient_coin]);
    const payer = this.payerOf(coins.get(payerCoin), principal, row);
    const quote = await this.commissions.quote({
      flow: 'invoice_payment',
      amount: new Money(row.amount),
      payer,
      payee: coins.get(row.recipient_coin),
    });
    return {
      ...calculationOf(new Money(row.amount), quote, payer, { type: 'COIN', srcValue: payerCoin, destValue: row.recipient_coin }),
      currency: row.currency,
    };
  }

  /**
   * Pays the invoice from one of the caller's coins: one payment, whoever else tries at the same moment. Reads, then one
   * grouped posting that also marks the invoice paid (Plan.records, `paid`): concurrent payments commit together.
   */
  async pay(principal: Principal, id: string, payerCoin: string): Promise<{ invoice: InvoiceDto; process: OperationDto }> {
    const row = await this.invoices.get(id);
    if (!row) throw new ApiError('exception.invoice.not_found');
    this.payable(row);
    const pricing = await this.commissions.pricing('invoice_payment', payerCoin, row.recipient_coin);
    const payerOrganization = (await this.invoices.payer(principal.organizationId)) ?? null;
    let payment!: InvoicePayment;
    const process = (await this.ledger.execute({
      type: 'invoice_payment',
      coins: [payerCoin, row.recipient_coin, ...this.commissions.collectors(pricing)],
      grouped: true,
      plan: async (locked) => {
        const payer = this.payerOf(locked.coins.get(payerCoin), principal, row);
        const payee = this.tools.payee(locked, row.recipient_coin, 'recipientCoin');
        if (!payee.usable) throw new ApiError('exception.coin.inactive', `Coin ${payee.serial} is closed or inactive`);
        const amount = new Money(row.amount);
        const quote = await this.commissions.quote({ flow: 'invoice_payment', amount, payer, payee, pricing });
        payment = { invoice: row, coin: payer.serial, payerOrganizationId: principal.organizationId, payer: payerOrganization };
        return this.commissions.pricedPlan(quote, amount, payer.serial, payee.serial, pricing, {
          description: `Invoice: ${row.name}`,
          details: { invoiceId: row.id },
          records: [recordOf(this.paid, payment)],
        });
      },
    }))!;
    // The invoice as the posting marked it (both rows took their transaction's now()): nothing to read back.
    return { invoice: toInvoice(paidRow(payment, process.id, new Date(process.createdAt)), readerOf(principal)), process };
  }

  /**
   * Marks invoices paid by their payments' operations, in one statement (a RecordWriter: the ledger calls it in the
   * payments' transaction, once for a whole group), and tells both sides. An invoice no longer payable — paid by a
   * concurrent payer, declined or expired since it was read — fails the transaction with its 409, so its payment is not
   * written; a group is then posted one by one, where only that payer's request fails.
   */
  private readonly paid: RecordWriter<InvoicePayment> = {
    write: async (rows) => {
      const marked = await this.invoices.markPaid(
        rows.map(({ row, operationId }) => ({ id: row.invoice.id, operationId, coin: row.coin })),
      );
      if (marked.length < rows.length)
        await this.unpayable(
          rows.map(({ row }) => row.invoice.id),
          marked.map((m) => m.id),
        );
      const paidAt = new Map(marked.map((m) => [m.id, m.paid_at]));
      for (const { row, operationId } of rows) {
        const invoice = toInvoice(paidRow(row, operationId, paidAt.get(row.invoice.id)!), WEBHOOK);
        await this.outbox.emit('invoice.paid', [row.invoice.organization_id, row.payerOrganizationId], invoice);
      }
    },
  };

  /** Throws why one of the invoices `given` (an id twice: paid twice) was not among those `marked` paid. */
  private async unpayable(given: string[], marked: string[]): Promise<never> {
    const left = [...marked];
    const missed = given.find((id) => {
      const i = left.indexOf(id);
      if (i >= 0) left.splice(i, 1);
      return i < 0;
    })!;
    const [now] = await this.invoices.statuses([missed]);
    if (now.status === 'initiated') throw new ApiError('exception.invoice.expired', 'The invoice expired');
    throw new ApiError('exception.invoice.not_payable', `The invoice is ${FAMILY_INVOICE_STATUS[now.status]}`);
  }

  /** Marks the invoices past their time as expired and tells their issuers' webhooks. */
  async expireDue(): Promise<number> {
    return this.uow.run(async () => {
      const expired = await this.invoices.expireDue(500);
      for (const row of expired) {
        await this.outbox.emit(
          'invoice.expired',
          [row.organization_id],
          toInvoice(row, { organizationId: row.organization_id, auditor: false }),
        );
      }
      return expired.length;
    });
  }

  /** A template: its draft's recipientCoin must be one of the caller's coins; without one, a 404 (section 7). */
  async createTemplate(principal: Principal, dto: CreateInvoiceTemplateDto): Promise<InvoiceTemplateDto> {
    return this.uow.run(async () => {
      const row = await this.invoices.insertTemplate({
        organizationId: principal.organizationId,
        name: dto.name,
        draft: await this.draftOf(principal, dto),
        createdBy: principal.userId,
      });
      if (!row) throw new ApiError('exception.invoice_template.name_taken');
      return toTemplate(row);
    });
  }

  /** Renames and redrafts a template of the caller's organization, checked as a new one is (another's: 404). */
  async updateTemplate(principal: Principal, id: string, dto: CreateInvoiceTemplateDto): Promise<InvoiceTemplateDto> {
    return this.uow.run(async () => {
      if (!(await this.invoices.template(principal.organizationId, id))) throw new ApiError('exception.invoice_template.not_found');
      const row = await this.invoices.updateTemplate(principal.organizationId, id, dto.name, await this.draftOf(principal, dto));
      if (row === 'name_taken') throw new ApiError('exception.invoice_template.name_taken');
      if (!row) throw new ApiError('exception.invoice_template.not_found');
      return toTemplate(row);
    });
  }

  /**
   * `POST /invoices/calculate`: what paying an invoice of this amount into `recipientCoin` would cost, before it is
   * issued. The payer's terms price it when `payerContact` is a customer with a main coin in the currency; else the
   * recipient's terms do. Payment itself prices it again. The payer's coin is not answered (`srcValue` is null): a
   * merchant needs the price, not its customer's serial, and answering it made this a lookup of any login's coin
   * that `POST /coins/serial`'s limit did not count (issue 43).
   */
  async estimate(principal: Principal, dto: InvoiceEstimateDto): Promise<InvoiceCalculationDto> {
    const payee = await this.ownCoin(principal, dto.recipientCoin, 'recipientCoin');
    const amount = parseAmount(dto.amount, scaleOf(payee.fraction), 'amount');
    const payerSerial = dto.payerContact ? await this.coins.mainSerialOf(dto.payerContact, payee.code) : undefined;
    const payer = payerSerial && payerSerial !== payee.serial ? (await this.ledger.read([payerSerial])).get(payerSerial) : undefined;
    const quote = await this.commissions.quote({ flow: 'invoice_payment', amount, payer, payee });
    return {
      ...calculationOf(amount, quote, payee, { type: 'COIN', srcValue: null, destValue: payee.serial }),
      currency: payee.code,
    };
  }

  /** A template's draft as stored: its recipientCoin one of the caller's coins, its amount exact in that coin's scale. */
  private async draftOf(principal: Principal, dto: CreateInvoiceTemplateDto): Promise<Record<string, unknown>> {
    const draft = dto.invoiceDraft;
    if (!draft.recipientCoin) throw new ApiError('exception.coin.not_found', 'invoiceDraft.recipientCoin names no coin');
    const coin = await this.ownCoin(principal, draft.recipientCoin, 'invoiceDraft.recipientCoin');
    const scale = scaleOf(coin.fraction);
    const amount =
      draft.amount === undefined || draft.amount === null ? undefined : parseAmount(draft.amount, scale, 'invoiceDraft.amount');
    if (draft.items?.length) this.items(draft.items, scale, amount);
    return JSON.parse(JSON.stringify({ ...draft, ...(amount ? { amount: amount.toFixed(scale) } : {}) })) as Record<string, unknown>;
  }

  async templates(principal: Principal, dto: InvoiceTemplateViewDto): Promise<Page<InvoiceTemplateDto>> {
    const { offset, limit } = pageWindow(dto);
    const { total, rows } = await this.invoices.templates(principal.organizationId, offset, limit);
    return pageOf(dto, total, rows.map(toTemplate));
  }

  async deleteTemplate(principal: Principal, id: string): Promise<InvoiceTemplateDto> {
    const row = await this.invoices.deleteTemplate(principal.organizationId, id);
    if (!row) throw new ApiError('exception.invoice_template.not_found');
    return toTemplate(row);
  }

  /** Issues an invoice from a template, with the amount, payer and expiry given now where the draft has none. */
  async issueFromTemplate(principal: Principal, id: string, dto: IssueFromTemplateDto): Promise<InvoiceDto> {
    const template = await this.invoices.template(principal.organizationId, id);
    if (!template) throw new ApiError('exception.invoice_template.not_found');
    const draft = template.draft as Partial<CreateInvoiceDto>;
    const amount = dto.amount ?? draft.amount;
    if (amount === undefined) throw ApiError.invalid('amount', 'is required: the template has none');
    return this.create(
      principal,
      {
        name: draft.name ?? template.name,
        recipientCoin: draft.recipientCoin!,
        amount,
        payerContact: dto.payerContact ?? draft.payerContact,
        items: draft.items,
        data: draft.data,
        expiresAt: dto.expiresAt ?? undefined,
      },
      template.id,
    );
  }

  /** An invoice read now: one past its time is expired even before the sweep marks it. */
  private current(row: InvoiceRow): InvoiceRow {
    return { ...row, status: statusNow(row) };
  }

  /** Invoices as the caller sees them: an unpaid one they pay (their login is its payerContact) has them as its payer. */
  private async answers(principal: Principal, rows: InvoiceRow[]): Promise<InvoiceDto[]> {
    const theirs = (row: InvoiceRow) => !row.payer && row.payer_contact?.toLowerCase() === principal.user.login;
    const payer = rows.some(theirs) ? ((await this.invoices.payer(principal.organizationId)) ?? null) : null;
    const reader = readerOf(principal);
    return rows.map((row) => toInvoice(theirs(row) ? { ...row, payer } : row, reader));
  }

  private async answer(principal: Principal, row: InvoiceRow): Promise<InvoiceDto> {
    return (await this.answers(principal, [row]))[0];
  }

  private payable(row: InvoiceRow): void {
    if (row.status === 'initiated' && row.expires_at && row.expires_at.getTime() <= Date.now()) {
      throw new ApiError('exception.invoice.expired', `The invoice expired at ${row.expires_at.toISOString()}`);
    }
    if (row.status === 'expired') throw new ApiError('exception.invoice.expired', 'The invoice expired');
    if (row.status !== 'initiated')
      throw new ApiError('exception.invoice.not_payable', `The invoice is ${FAMILY_INVOICE_STATUS[row.status]}`);
  }

  private payerOf(coin: LockedCoin | undefined, principal: Principal, row: InvoiceRow): LockedCoin {
    if (!coin || coin.type !== 'client' || coin.organization_id !== principal.organizationId) {
      throw new ApiError('exception.coin.not_found', 'No such coin of yours');
    }
    if (coin.serial === row.recipient_coin) throw ApiError.invalid('payerCoin', 'must not be the invoice’s recipient coin');
    if (coin.issuer_id !== row.issuer_id) throw ApiError.invalid('payerCoin', `must be a ${row.currency} coin of the invoice's issuer`);
    if (!coin.usable) throw new ApiError('exception.coin.inactive', `Coin ${coin.serial} is closed or inactive`);
    return coin;
  }

  private async ownCoin(principal: Principal, serial: string, parameter: string): Promise<LockedCoin> {
    const coin = (await this.ledger.read([serial])).get(serial);
    if (coin?.type === 'system') throw ApiError.invalid(parameter, 'must not be a technical coin');
    if (!coin || coin.organization_id !== principal.organizationId)
      throw new ApiError('exception.coin.not_found', `No coin ${serial} of yours`);
    return coin;
  }

  /** The items as stored; with an amount given, their sum must be it. */
  private items(items: InvoiceItemDto[], scale: number, amount: Money | undefined): InvoiceItem[] {
    let total = new Money(0);
    const out = items.map((item, i) => {
      const price = parseAmount(item.price, scale, `items[${i}].price`);
      total = total.plus(price.times(item.quantity));
      return { name: item.name, quantity: item.quantity, price: price.toFixed() };
    });
    if (items.length && amount && !total.eq(amount)) throw ApiError.invalid('amount', `must be the items' total, ${total.toFixed(scale)}`);
    return out;
  }
}
