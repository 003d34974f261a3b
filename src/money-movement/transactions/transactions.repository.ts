import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';

export interface HistoryCategoryRow {
  operation_id: string;
  name: string;
  image_link: string | null;
}

/** What the history adds to a page of operations: the caller's categories. */
@Injectable()
export class TransactionsRepository {
  constructor(private readonly db: Database) {}

  /** The user's category of each operation tagged for the organization: the first by name. */
  async categories(userId: string, organizationId: string, operationIds: string[]): Promise<HistoryCategoryRow[]> {
    if (operationIds.length === 0) return [];
    return this.db.query<HistoryCategoryRow>(
      `SELECT DISTINCT ON (t.operation_id) t.operation_id, c.name, c.image_link
         FROM transaction_category_operations t JOIN transaction_categories c ON c.id = t.category_id
        WHERE c.user_id = $1 AND t.organization_id = $2 AND t.operation_id = ANY($3::uuid[])
        ORDER BY t.operation_id, lower(c.name), c.id`,
      [userId, organizationId, operationIds],
    );
  }
}
