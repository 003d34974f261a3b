import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import type { ExpirationType, SubscriptionStatus, SubscriptionType } from './dto/subscription.dto';

export interface SubscriptionRow {
  id: string;
  user_id: string;
  organization_id: string;
  template_id: string;
  name: string;
  period: SubscriptionType;
  frequency: number;
  start_date: string;
  expiration_type: ExpirationType;
  end_date: string | null;
  max_count: number | null;
  max_amount: string | null;
  status: SubscriptionStatus;
  occurrence: number;
  next_due: string;
  runs: number;
  paid: string;
  created_at: Date;
  /** The template's, with its payer coin's currency. */
  template_name: string;
  amount: string;
  description: string | null;
  custom_information: string | null;
  payer_coin: string;
  payee_coin: string;
  code: string;
  fraction: string;
}

export interface NewSubscription {
  userId: string;
  organizationId: string;
  templateId: string;
  name: string;
  period: SubscriptionType;
  frequency: number;
  startDate: string;
  expirationType: ExpirationType;
  endDate: string | null;
  maxCount: number | null;
  maxAmount: string | null;
}

/** The subscription's own columns, then its template's, from `subscriptions s`. */
const SELECT = `SELECT s.id, s.user_id::text AS user_id, s.organization_id::text AS organization_id, s.template_id::text AS template_id,
       s.name, s.period, s.frequency, to_char(s.start_date, 'YYYY-MM-DD') AS start_date, s.expiration_type,
       to_char(s.end_date, 'YYYY-MM-DD') AS end_date, s.max_count, s.max_amount::text AS max_amount, s.status, s.occurrence,
       to_char(s.next_due, 'YYYY-MM-DD') AS next_due, s.runs, s.paid::text AS paid, s.created_at,
       t.name AS template_name, t.amount::text AS amount, t.description, t.custom_information,
       t.payer_coin::text AS payer_coin, t.payee_coin::text AS payee_coin, cu.code, cu.fraction::text AS fraction
  FROM subscriptions s JOIN transfer_templates t ON t.id = s.template_id
  JOIN coins c ON c.serial = t.payer_coin JOIN currencies cu ON cu.id = c.currency_id`;

/** At most this many subscriptions in `GET /subscriptions` (a user keeps far fewer). */
export const SUBSCRIPTION_LIST_MAX = 1000;

/** Subscriptions of a user, for the organization they acted for. */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly db: Database) {}

  async insert(s: NewSubscription): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO subscriptions (user_id, organization_id, template_id, name, period, frequency, start_date, expiration_type,
                                  end_date, max_count, max_amount, next_due)
       VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8, $9::date, $10, $11::numeric, $7::date) RETURNING id`,
      [
        s.userId,
        s.organizationId,
        s.templateId,
        s.name,
        s.period,
        s.frequency,
        s.startDate,
        s.expirationType,
        s.endDate,
        s.maxCount,
        s.maxAmount,
      ],
    );
    return row.id;
  }

  /** One of the owner's subscriptions; `lock`: FOR UPDATE, in the open transaction. */
  async own(userId: string, organizationId: string, id: string, lock = false): Promise<SubscriptionRow | undefined> {
    const [row] = await this.db.query<SubscriptionRow>(
      `${SELECT} WHERE s.id = $1 AND s.user_id = $2 AND s.organization_id = $3${lock ? ' FOR UPDATE OF s' : ''}`,
      [id, userId, organizationId],
    );
    return row;
  }

  async list(userId: string, organizationId: string): Promise<SubscriptionRow[]> {
    return this.db.query<SubscriptionRow>(
      `${SELECT} WHERE s.user_id = $1 AND s.organization_id = $2 ORDER BY s.created_at, s.id LIMIT ${SUBSCRIPTION_LIST_MAX}`,
      [userId, organizationId],
    );
  }

  /** Active subscriptions due on or before `today`, the longest due first. */
  async due(today: string, limit: number): Promise<Array<{ id: string; next_due: string }>> {
    return this.db.query(
      `SELECT id::text AS id, to_char(next_due, 'YYYY-MM-DD') AS next_due FROM subscriptions
        WHERE status = 'ACTIVE' AND next_due <= $1::date ORDER BY next_due, id LIMIT ${limit}`,
      [today],
    );
  }

  /** The owner's role in the organization the subscription pays for, when they are still a member. */
  async ownerRole(id: string): Promise<{ user_id: string; organization_id: string; role: string | null } | undefined> {
    const [row] = await this.db.query<{ user_id: string; organization_id: string; role: string | null }>(
      `SELECT s.user_id::text AS user_id, s.organization_id::text AS organization_id, m.role
         FROM subscriptions s LEFT JOIN memberships m ON m.user_id = s.user_id AND m.organization_id = s.organization_id
        WHERE s.id = $1`,
      [id],
    );
    return row;
  }

  /**
   * Locks the subscription when `dueDate` is still its next due date and it is active; undefined otherwise. `skipLocked`:
   * a subscription another instance is running is passed over rather than waited for.
   */
  async lockDue(id: string, dueDate: string, skipLocked: boolean): Promise<SubscriptionRow | undefined> {
    const [row] = await this.db.query<SubscriptionRow>(
      `${SELECT} WHERE s.id = $1 AND s.status = 'ACTIVE' AND s.next_due = $2::date FOR UPDATE OF s${skipLocked ? ' SKIP LOCKED' : ''}`,
      [id, dueDate],
    );
    return row;
  }

  /** Moves a subscription on to its occurrence `occurrence` (due `nextDue`), counting a run and what it paid. */
  async advance(
    id: string,
    change: { occurrence: number; nextDue: string; ran: boolean; paid: string; status: SubscriptionStatus },
  ): Promise<void> {
    await this.db.query(
      `UPDATE subscriptions SET occurrence = $2, next_due = $3::date, runs = runs + $4, paid = paid + $5::numeric, status = $6,
              updated_at = now() WHERE id = $1`,
      [id, change.occurrence, change.nextDue, change.ran ? 1 : 0, change.paid, change.status],
    );
  }

  /** One of the owner's transfer templates, with its payer coin's currency decimals. */
  async templateOf(userId: string, organizationId: string, id: string): Promise<Array<{ fraction: string }>> {
    return this.db.query(
      `SELECT cu.fraction::text AS fraction FROM transfer_templates t JOIN coins c ON c.serial = t.payer_coin
         JOIN currencies cu ON cu.id = c.currency_id WHERE t.id = $1 AND t.user_id = $2 AND t.organization_id = $3 FOR SHARE OF t`,
      [id, userId, organizationId],
    );
  }

  async delete(id: string): Promise<void> {
    await this.db.query('DELETE FROM subscriptions WHERE id = $1', [id]);
  }
}
