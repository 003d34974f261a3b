import { Injectable } from '@nestjs/common';
import type { NameSort } from '../../platform/common/paging.dto';
import { Database, RowCount } from '../../platform/database/database';
import { containing, nameSortOrder } from '../../platform/database/search-sql';

export interface TransactionCategoryRow {
  id: string;
  name: string;
  color: string | null;
  icon: string | null;
  image_link: string | null;
  created_at: Date;
}

export interface CategorySearch {
  userId: string;
  name?: string;
  operationIds?: string[];
  sort: NameSort;
  offset: number;
  limit: number;
}

export interface TaggedSearch {
  categoryId: string;
  organizationId: string;
  createdAtFrom?: string;
  createdAtTo?: string;
  direction: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

const COLUMNS = 'id, name, color, icon, image_link, created_at';

/** A user's transaction categories and the operations tagged with them. */
@Injectable()
export class TransactionCategoriesRepository {
  constructor(private readonly db: Database) {}

  /** Inserts a category; undefined when the user already has one of this name (whatever its case). */
  async insert(
    userId: string,
    category: { name: string; color: string | null; icon: string | null; imageLink: string | null },
  ): Promise<TransactionCategoryRow | undefined> {
    const [row] = await this.db.query<TransactionCategoryRow>(
      `INSERT INTO transaction_categories (user_id, name, color, icon, image_link) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, lower(name)) DO NOTHING RETURNING ${COLUMNS}`,
      [userId, category.name, category.color, category.icon, category.imageLink],
    );
    return row;
  }

  async own(userId: string, id: string): Promise<TransactionCategoryRow | undefined> {
    const [row] = await this.db.query<TransactionCategoryRow>(
      `SELECT ${COLUMNS} FROM transaction_categories WHERE id = $1 AND user_id = $2`,
      [id, userId],
    );
    return row;
  }

  /** Deletes one of the user's categories with its tags; answers what was deleted. */
  async delete(userId: string, id: string): Promise<TransactionCategoryRow | undefined> {
    const [row] = await this.db.query<TransactionCategoryRow>(
      `DELETE FROM transaction_categories WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      [id, userId],
    );
    return row;
  }

  async search(search: CategorySearch): Promise<{ rows: TransactionCategoryRow[]; count: RowCount }> {
    const params: unknown[] = [search.userId];
    const where = ['c.user_id = $1'];
    if (search.name) where.push(`c.name ILIKE $${params.push(containing(search.name))}`);
    if (search.operationIds?.length) {
      where.push(
        `EXISTS (SELECT 1 FROM transaction_category_operations t WHERE t.category_id = c.id AND t.operation_id = ANY($${params.push(search.operationIds)}::uuid[]))`,
      );
    }
    const clause = `WHERE ${where.join(' AND ')}`;
    const count = await this.db.countRows(`FROM transaction_categories c ${clause}`, params);
    const rows = await this.db.query<TransactionCategoryRow>(
      `SELECT c.id, c.name, c.color, c.icon, c.image_link, c.created_at FROM transaction_categories c ${clause}
        ORDER BY ${nameSortOrder('c', search.sort)} LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { rows, count };
  }

  /** Tags an operation; tagging it again changes nothing. */
  async tag(categoryId: string, operationId: string, organizationId: string, operationCreatedAt: string): Promise<void> {
    await this.db.query(
      `INSERT INTO transaction_category_operations (category_id, operation_id, organization_id, operation_created_at)
       VALUES ($1, $2, $3, $4::timestamptz) ON CONFLICT (category_id, operation_id) DO NOTHING`,
      [categoryId, operationId, organizationId, operationCreatedAt],
    );
  }

  /** Removes a tag placed for the organization; false when there was none. */
  async untag(categoryId: string, operationId: string, organizationId: string): Promise<boolean> {
    const rows = await this.db.query<{ operation_id: string }>(
      `DELETE FROM transaction_category_operations WHERE category_id = $1 AND operation_id = $2 AND organization_id = $3
       RETURNING operation_id`,
      [categoryId, operationId, organizationId],
    );
    return rows.length > 0;
  }

  /** A page of the operations tagged with a category for the organization, by the operations' dates. */
  async tagged(search: TaggedSearch): Promise<{ operationIds: string[]; count: RowCount }> {
    const params: unknown[] = [search.categoryId, search.organizationId];
    const where = ['t.category_id = $1', 't.organization_id = $2'];
    if (search.createdAtFrom) where.push(`t.operation_created_at >= $${params.push(search.createdAtFrom)}::timestamptz`);
    if (search.createdAtTo) where.push(`t.operation_created_at < $${params.push(search.createdAtTo)}::timestamptz`);
    const clause = `WHERE ${where.join(' AND ')}`;
    const count = await this.db.countRows(`FROM transaction_category_operations t ${clause}`, params);
    const rows = await this.db.query<{ operation_id: string }>(
      `SELECT t.operation_id FROM transaction_category_operations t ${clause}
        ORDER BY t.operation_created_at ${search.direction}, t.operation_id ${search.direction} LIMIT ${search.limit} OFFSET ${search.offset}`,
      params,
    );
    return { operationIds: rows.map((r) => r.operation_id), count };
  }
}
