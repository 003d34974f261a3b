/**
 * An invoice's status, in the two vocabularies (issue 45). The service keeps its own lifecycle: `initiated` (issued,
 * payable) → `pending` (being paid; no flow sets it today) → `paid` | `declined` | `expired`. The family's clients
 * call an invoice awaiting payment `pending` — their invoice screens show the pay form, the issuer's withdraw button
 * and the "unpaid invoices" banner for `pending` only — and one being paid `approved`. So answers give the family's
 * name in `status` and the service's in `serviceStatus`, and filters take either name.
 */
export const INVOICE_STATUSES = ['initiated', 'pending', 'paid', 'declined', 'expired'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The family's name of each of the service's statuses. */
export const FAMILY_INVOICE_STATUS: Record<InvoiceStatus, string> = {
  initiated: 'pending',
  pending: 'approved',
  paid: 'paid',
  declined: 'declined',
  expired: 'expired',
};
export const FAMILY_INVOICE_STATUSES = INVOICE_STATUSES.map((s) => FAMILY_INVOICE_STATUS[s]);

/**
 * What a status filter's name means: each family name, and the service's `initiated`, which integrations written
 * before issue 45 send. `pending` is the family's (awaiting payment); the service's `pending` is `approved`.
 */
const FILTER_STATUS: Record<string, InvoiceStatus> = {
  ...Object.fromEntries(INVOICE_STATUSES.map((s) => [FAMILY_INVOICE_STATUS[s], s])),
  initiated: 'initiated',
};
export const INVOICE_FILTER_STATUSES = Object.keys(FILTER_STATUS);

/** The service's statuses a status filter names (validated against INVOICE_FILTER_STATUSES). */
export function statusesOf(names: readonly string[]): InvoiceStatus[] {
  return [...new Set(names.map((name) => FILTER_STATUS[name]))];
}
