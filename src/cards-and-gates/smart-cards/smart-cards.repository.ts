import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import type { CardStatus } from './dto/smart-card.dto';

export interface SmartCardRow {
  id: string;
  organization_id: string;
  name: string;
  last4: string;
  coin_serial: string;
  status: CardStatus;
  provider: string | null;
  created_at: Date;
  updated_at: Date;
  /** The last day the card pays, as text (YYYY-MM-DD). */
  expires_on: string;
  /** Whether that day has passed (by the database's clock). */
  expired: boolean;
  code: string;
  symbol: string | null;
}

export interface NewSmartCard {
  organizationId: string;
  coinSerial: string;
  name: string;
  last4: string;
  provider: string | null;
  providerReference: string | null;
  createdBy: string;
  /** The keyed hash of the card's number (card-number.ts), when the service knows it. */
  numberHash?: Buffer | null;
  status?: CardStatus;
}

const SELECT = `SELECT s.id, s.organization_id, s.name, s.last4, s.coin_serial::text AS coin_serial, s.status, s.provider, s.created_at, s.updated_at,
       s.expires_on::text AS expires_on, s.expires_on < current_date AS expired, cu.code, cu.symbol
  FROM smart_cards s JOIN coins c ON c.serial = s.coin_serial JOIN currencies cu ON cu.id = c.currency_id`;

/** smart_cards: cards of an organization, each standing for one of its coins. */
@Injectable()
export class SmartCardsRepository {
  constructor(private readonly db: Database) {}

  /** Inserts a card; undefined when its provider already has a card of this reference. */
  async insert(card: NewSmartCard): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO smart_cards (organization_id, coin_serial, name, last4, provider, provider_reference, created_by, number_hash, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (provider, provider_reference) WHERE provider IS NOT NULL DO NOTHING RETURNING id`,
      [
        card.organizationId,
        card.coinSerial,
        card.name,
        card.last4,
        card.provider,
        card.providerReference,
        card.createdBy,
        card.numberHash ?? null,
        card.status ?? 'active',
      ],
    );
    return row?.id;
  }

  /** The card a provider knows by its reference, with its organization. */
  async byProviderReference(provider: string, reference: string): Promise<SmartCardRow | undefined> {
    const [row] = await this.db.query<SmartCardRow>(`${SELECT} WHERE s.provider = $1 AND s.provider_reference = $2`, [provider, reference]);
    return row;
  }

  async own(organizationId: string, id: string): Promise<SmartCardRow | undefined> {
    const [row] = await this.db.query<SmartCardRow>(`${SELECT} WHERE s.id = $1 AND s.organization_id = $2`, [id, organizationId]);
    return row;
  }

  async list(organizationId: string): Promise<SmartCardRow[]> {
    return this.db.query<SmartCardRow>(`${SELECT} WHERE s.organization_id = $1 ORDER BY s.created_at DESC, s.id DESC`, [organizationId]);
  }

  /** Whether a card keeps this number hash already. */
  async numberTaken(numberHash: Buffer): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM smart_cards WHERE number_hash = $1`, [numberHash]);
    return rows.length > 0;
  }

  /** The ids of the organization's cards whose number ends with these four digits. */
  async idsByLast4(organizationId: string, last4: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(`SELECT id FROM smart_cards WHERE organization_id = $1 AND last4 = $2`, [
      organizationId,
      last4,
    ]);
    return rows.map((r) => r.id);
  }

  /** Renames a card; false when the organization has no such card. */
  async rename(organizationId: string, id: string, name: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE smart_cards SET name = $3, updated_at = now() WHERE id = $1 AND organization_id = $2 RETURNING id`,
      [id, organizationId, name],
    );
    return rows.length > 0;
  }

  /** Sets a card's status; false when the organization has no such card. */
  async setStatus(organizationId: string, id: string, status: CardStatus): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE smart_cards SET status = $3, updated_at = now() WHERE id = $1 AND organization_id = $2 RETURNING id`,
      [id, organizationId, status],
    );
    return rows.length > 0;
  }

  /**
   * The coin behind a card and its status, the row share-locked for the rest of the transaction so a
   * payment and a concurrent block are ordered; only the owner's card when `owner` is given.
   */
  async resolve(id: string, owner?: string): Promise<{ coin_serial: string; status: CardStatus } | undefined> {
    const [row] = await this.db.query<{ coin_serial: string; status: CardStatus }>(
      `SELECT coin_serial::text AS coin_serial, status FROM smart_cards WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2) FOR SHARE`,
      [id, owner ?? null],
    );
    return row;
  }

  /** The card of a number hash, as `resolve` does for an id (share-locked, the owner's only when `owner` is given). */
  async resolveByNumber(numberHash: Buffer, owner?: string): Promise<{ coin_serial: string; status: CardStatus } | undefined> {
    const [row] = await this.db.query<{ coin_serial: string; status: CardStatus }>(
      `SELECT coin_serial::text AS coin_serial, status FROM smart_cards
        WHERE number_hash = $1 AND ($2::uuid IS NULL OR organization_id = $2) FOR SHARE`,
      [numberHash, owner ?? null],
    );
    return row;
  }
}
