import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

/** What links to an operation of a page of history: the caller's category, the invoice it paid, its point of sale. */
export interface HistoryLinkRow {
  operation_id: string;
  category_name: string | null;
  category_image_link: string | null;
  invoice_id: string | null;
  pos_name: string | null;
}

/** What the history adds to a page of operations: the caller's categories, the invoices and points of sale. */
@Injectable()
export class TransactionsRepository {
  constructor(private readonly db: Database) {}

  /**
   * For each operation: the user's category tagged for the organization (the first by name), the invoice it paid and
   * the point of sale a merchant payment was taken at (its name).
   */
  async links(userId: string, organizationId: string, operationIds: string[]): Promise<HistoryLinkRow[]> {
    if (operationIds.length === 0) return [];
    return this.db.query<HistoryLinkRow>(
      `SELECT o.id AS operation_id, cat.name AS category_name, cat.image_link AS category_image_link,
              inv.id AS invoice_id, pos.name AS pos_name
         FROM unnest($3::uuid[]) AS o(id)
         LEFT JOIN LATERAL (
              SELECT c.name, c.image_link
                FROM transaction_category_operations t JOIN transaction_categories c ON c.id = t.category_id
               WHERE c.user_id = $1 AND t.organization_id = $2 AND t.operation_id = o.id
               ORDER BY lower(c.name), c.id LIMIT 1) cat ON true
         LEFT JOIN LATERAL (SELECT i.id FROM invoices i WHERE i.operation_id = o.id LIMIT 1) inv ON true
         LEFT JOIN LATERAL (
              SELECT p.name FROM merchant_payments m JOIN points_of_sale p ON p.id = m.pos_id
               WHERE m.operation_id = o.id LIMIT 1) pos ON true`,
      [userId, organizationId, operationIds],
    );
  }
}
