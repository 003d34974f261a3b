import type { OperationDto, OperationRecordDto } from '../../platform/ledger/dto/operation.dto';
import { toOperationRecord } from '../../platform/ledger/operation-record';
import type { HistoryLinkRow } from './transactions.repository';

/** What a page of history knows besides its operations. */
export interface HistoryContext {
  organizationId: string;
  /** The caller's category, the invoice paid and the point of sale of each operation that has one. */
  links: Map<string, HistoryLinkRow>;
}

/** An operation as the family's records show it to the caller: the kernel's record, with what links to it. */
export function toHistoryRecord(op: OperationDto, context: HistoryContext): OperationRecordDto {
  const link = context.links.get(op.id);
  return toOperationRecord(op, {
    organizationId: context.organizationId,
    category: link?.category_name ? { name: link.category_name, imageLink: link.category_image_link } : null,
    invoiceId: link?.invoice_id,
    posName: link?.pos_name,
  });
}
