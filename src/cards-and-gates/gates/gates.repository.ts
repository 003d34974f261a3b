import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database';
import type { FeeRounding } from '../../platform/commissions/fee';
import type { KnobChanges, ProviderSettings } from './providers';

export interface ProviderRow {
  id: string;
  name: string;
  type: string;
  active: boolean;
  settings: ProviderSettings;
  secret: string;
  created_at: Date;
  updated_at: Date;
}

export interface ProductField {
  name: string;
  type: 'string' | 'number' | 'enum';
  required: boolean;
  values?: string[];
}

export interface ProductRow {
  id: string;
  gate_provider_id: string;
  provider_name: string;
  provider_type: string;
  provider_active: boolean;
  name: string;
  currency_id: string;
  currency: string;
  min_amount: string;
  max_amount: string;
  active: boolean;
  fields: ProductField[];
  created_at: Date;
}

export interface GateTransactionRow {
  id: string;
  product_id: string;
  gate_provider_id: string;
  organization_id: string;
  coin_serial: string;
  type: 'payment' | 'payout' | 'card_issue' | 'TOPUP' | 'REDEEM';
  amount: string;
  commission: string;
  currency: string;
  symbol: string | null;
  issuer_id: string;
  fraction: string;
  /** The product's name (a method's way) and its provider's. */
  product_name: string;
  provider_name: string;
  /** Who pays the fee, as its operation was priced: `recipient` takes it from what reaches the payee. */
  fee_payer: string | null;
  fields: Record<string, unknown>;
  status: 'initiated' | 'provider_assigned' | 'pending' | 'processed' | 'failure';
  operation_id: string | null;
  provider_reference: string | null;
  provider_data: Record<string, unknown> | null;
  failure_reason: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** A gate transaction to write with the pending operation holding its amount and fee (GatesRepository.insertHeld). */
export interface HeldTransaction {
  id: string;
  productId: string;
  providerId: string;
  organizationId: string;
  coinSerial: string;
  type: GateTransactionRow['type'];
  amount: string;
  fields: Record<string, unknown>;
  /** `provider_assigned`: called once written; `initiated`: waiting for its payer's fields. */
  status: 'initiated' | 'provider_assigned';
  createdBy: string;
}

/** The statuses a gate transaction ends in; once in one, it never changes. */
export const FINAL_STATUSES: readonly GateTransactionRow['status'][] = ['processed', 'failure'];
/** The statuses of a transaction the provider has not finished. */
export const OPEN_STATUSES: readonly GateTransactionRow['status'][] = ['initiated', 'provider_assigned', 'pending'];

export interface GateProfileRow {
  id: string;
  contract_id: string;
  gate_provider_id: string;
  name: string | null;
  active: boolean;
  /** The currency it holds for; null: every currency. */
  currency_id: string | null;
  currency_code: string | null;
  currency_digital_code: string | null;
  currency_symbol: string | null;
  currency_name: string | null;
  currency_fraction: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A commission setting of a gate commission profile: per transaction type, the TOTAL or the PROVIDER commission. */
export interface GateSettingRow {
  id: string;
  profile_id: string;
  tx_type: 'TOPUP' | 'REDEEM';
  collector: 'TOTAL' | 'PROVIDER';
  type: string;
  value_percent: string | null;
  value_fixed: string | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface GateRuleRow {
  id: string;
  profile_id: string;
  kind: 'provider' | 'product';
  product_id: string | null;
  type: string;
  value_percent: string | null;
  value_fixed: string | null;
  rounding: FeeRounding;
  min_fee: string | null;
  collector: 'operator' | 'provider';
  begin_date: Date;
  end_date: Date | null;
  active: boolean;
  created_at: Date;
}

const PROVIDER = 'id, name, type, active, settings, secret, created_at, updated_at';
const PRODUCT = `p.id, p.gate_provider_id, g.name AS provider_name, g.type AS provider_type, g.active AS provider_active, p.name,
  p.currency_id, c.code AS currency, p.min_amount::text AS min_amount, p.max_amount::text AS max_amount, p.active, p.fields, p.created_at`;
const PRODUCTS = 'FROM gate_products p JOIN gate_providers g ON g.id = p.gate_provider_id JOIN currencies c ON c.id = p.currency_id';
const TRANSACTION = `t.id, t.product_id, t.gate_provider_id, t.organization_id, t.coin_serial::text AS coin_serial, t.type, t.amount::text AS amount,
  t.commission::text AS commission, c.code AS currency, c.symbol, co.issuer_id, c.fraction::text AS fraction, p.name AS product_name,
  g.name AS provider_name, o.details->'commission'->>'payer' AS fee_payer, t.fields, t.status, t.operation_id, t.provider_reference, t.provider_data, t.failure_reason, t.created_by,
  t.created_at, t.updated_at, t.finished_at`;
const TRANSACTIONS = `FROM gate_transactions t JOIN gate_products p ON p.id = t.product_id JOIN currencies c ON c.id = p.currency_id
  JOIN gate_providers g ON g.id = t.gate_provider_id JOIN coins co ON co.serial = t.coin_serial LEFT JOIN operations o ON o.id = t.operation_id`;
const PROFILE = `p.id, p.contract_id, p.gate_provider_id, p.name, p.active, p.currency_id, c.code AS currency_code,
  c.digital_code AS currency_digital_code, c.symbol AS currency_symbol, c.name AS currency_name, c.fraction::text AS currency_fraction,
  p.created_at, p.updated_at`;
const PROFILES = 'FROM gate_commission_profiles p LEFT JOIN currencies c ON c.id = p.currency_id';
const SETTING = `id, profile_id, tx_type, collector, type, value_percent::text AS value_percent, value_fixed::text AS value_fixed, active,
  created_at, updated_at`;
const RULE = `id, profile_id, kind, product_id, type, value_percent::text AS value_percent, value_fixed::text AS value_fixed, rounding,
  min_fee::text AS min_fee, collector, begin_date, end_date, active, created_at`;

/** Gate providers, products, transactions and gate commission profiles. */
@Injectable()
export class GatesRepository {
  constructor(private readonly db: Database) {}

  async insertProvider(values: {
    name: string;
    type: string;
    active: boolean;
    settings: KnobChanges;
    secret: string;
  }): Promise<ProviderRow | undefined> {
    const [row] = await this.db.query<ProviderRow>(
      `INSERT INTO gate_providers (name, type, active, settings, secret) VALUES ($1, $2, $3, jsonb_strip_nulls($4::jsonb), $5)
       ON CONFLICT (name) DO NOTHING RETURNING ${PROVIDER}`,
      [values.name, values.type, values.active, JSON.stringify(values.settings), values.secret],
    );
    return row;
  }

  async providers(): Promise<ProviderRow[]> {
    return this.db.query<ProviderRow>(`SELECT ${PROVIDER} FROM gate_providers ORDER BY name, id`);
  }

  async provider(id: string): Promise<ProviderRow | undefined> {
    const [row] = await this.db.query<ProviderRow>(`SELECT ${PROVIDER} FROM gate_providers WHERE id = $1`, [id]);
    return row;
  }

  /** Merges the settings given; a knob given as null is removed (the provider falls back to its default). */
  async updateProvider(id: string, settings: KnobChanges, secret: string | undefined): Promise<ProviderRow | undefined> {
    const [row] = await this.db.query<ProviderRow>(
      `UPDATE gate_providers SET settings = jsonb_strip_nulls(settings || $2::jsonb), secret = coalesce($3, secret), updated_at = now()
        WHERE id = $1 RETURNING ${PROVIDER}`,
      [id, JSON.stringify(settings), secret ?? null],
    );
    return row;
  }

  async insertProduct(values: {
    providerId: string;
    name: string;
    currencyId: string;
    minAmount: string;
    maxAmount: string;
    active: boolean;
    fields: ProductField[];
  }): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO gate_products (gate_provider_id, name, currency_id, min_amount, max_amount, active, fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (gate_provider_id, name) DO NOTHING RETURNING id`,
      [values.providerId, values.name, values.currencyId, values.minAmount, values.maxAmount, values.active, JSON.stringify(values.fields)],
    );
    return row?.id;
  }

  async product(id: string): Promise<ProductRow | undefined> {
    const [row] = await this.db.query<ProductRow>(`SELECT ${PRODUCT} ${PRODUCTS} WHERE p.id = $1`, [id]);
    return row;
  }

  /** Products, by provider and name: all of a provider, or only those on sale (active product of an active provider). */
  async products(filter: { providerId?: string; available: boolean }): Promise<ProductRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.providerId) where.push(`p.gate_provider_id = $${params.push(filter.providerId)}`);
    if (filter.available) where.push('p.active AND g.active');
    return this.db.query<ProductRow>(
      `SELECT ${PRODUCT} ${PRODUCTS} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY g.name, p.name, p.id`,
      params,
    );
  }

  /**
   * Provider methods: the products on sale (active, of an active provider) of providers of the given types, in a
   * currency; optionally of one provider, and one way (the product's name).
   */
  async methods(filter: {
    currencyId: string;
    providerTypes: readonly string[];
    providerId?: string;
    way?: string;
  }): Promise<ProductRow[]> {
    const params: unknown[] = [filter.currencyId, filter.providerTypes];
    const where = ['p.active AND g.active', 'p.currency_id = $1', 'g.type = ANY($2::text[])'];
    if (filter.providerId) where.push(`p.gate_provider_id = $${params.push(filter.providerId)}`);
    if (filter.way !== undefined) where.push(`p.name = $${params.push(filter.way)}`);
    return this.db.query<ProductRow>(`SELECT ${PRODUCT} ${PRODUCTS} WHERE ${where.join(' AND ')} ORDER BY g.name, p.name, p.id`, params);
  }

  async fraction(currencyId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ fraction: string }>(`SELECT fraction::text AS fraction FROM currencies WHERE id = $1`, [
      currencyId,
    ]);
    return row?.fraction;
  }

  async currencyId(code: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(`SELECT id FROM currencies WHERE code = $1`, [code]);
    return row?.id;
  }

  async insertTransaction(values: {
    productId: string;
    providerId: string;
    organizationId: string;
    coinSerial: string;
    type: string;
    amount: string;
    commission: string;
    fields: Record<string, unknown>;
    operationId: string;
    createdBy: string;
  }): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO gate_transactions (product_id, gate_provider_id, organization_id, coin_serial, type, amount, commission, fields, status, operation_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'initiated', $9, $10) RETURNING id`,
      [
        values.productId,
        values.providerId,
        values.organizationId,
        values.coinSerial,
        values.type,
        values.amount,
        values.commission,
        JSON.stringify(values.fields),
        values.operationId,
        values.createdBy,
      ],
    );
    return row.id;
  }

  /**
   * Writes transactions whose amount and fee their pending operations hold, each with its operation (whose fee it
   * records), in one statement; answers them as written. For GateTransactionsService's RecordWriter.
   */
  insertHeld(rows: { row: HeldTransaction; operationId: string }[]): Promise<GateTransactionRow[]> {
    return this.db.query<GateTransactionRow>(
      `WITH written AS (
         INSERT INTO gate_transactions (id, product_id, gate_provider_id, organization_id, coin_serial, type, amount, commission, fields, status, operation_id, created_by)
         SELECT h.id, h.product_id, h.gate_provider_id, h.organization_id, h.coin_serial, h.type, h.amount, o.commission, h.fields, h.status, h.operation_id, h.created_by
           FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::bigint[], $6::text[], $7::numeric[], $8::jsonb[], $9::text[], $10::uuid[], $11::uuid[])
                AS h(id, product_id, gate_provider_id, organization_id, coin_serial, type, amount, fields, status, operation_id, created_by)
           JOIN operations o ON o.id = h.operation_id
         RETURNING *
       )
       SELECT ${TRANSACTION} ${TRANSACTIONS.replace('FROM gate_transactions t', 'FROM written t')}`,
      [
        rows.map(({ row }) => row.id),
        rows.map(({ row }) => row.productId),
        rows.map(({ row }) => row.providerId),
        rows.map(({ row }) => row.organizationId),
        rows.map(({ row }) => row.coinSerial),
        rows.map(({ row }) => row.type),
        rows.map(({ row }) => row.amount),
        rows.map(({ row }) => JSON.stringify(row.fields)),
        rows.map(({ row }) => row.status),
        rows.map(({ operationId }) => operationId),
        rows.map(({ row }) => row.createdBy),
      ],
    );
  }

  /** A TOPUP's payer's fields, once: it leaves `initiated` for its provider. Answers whether it did. */
  async submit(id: string, fields: Record<string, unknown>): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE gate_transactions SET fields = $2, status = 'provider_assigned', updated_at = now() WHERE id = $1 AND status = 'initiated' RETURNING id`,
      [id, JSON.stringify(fields)],
    );
    return rows.length > 0;
  }

  async transaction(id: string, lock = false): Promise<GateTransactionRow | undefined> {
    const [row] = await this.db.query<GateTransactionRow>(
      `SELECT ${TRANSACTION} ${TRANSACTIONS} WHERE t.id = $1${lock ? ' FOR UPDATE OF t' : ''}`,
      [id],
    );
    return row;
  }

  async transactionByReference(providerId: string, reference: string): Promise<GateTransactionRow | undefined> {
    const [row] = await this.db.query<GateTransactionRow>(
      `SELECT ${TRANSACTION} ${TRANSACTIONS} WHERE t.gate_provider_id = $1 AND (t.provider_reference = $2 OR t.id::text = $2)`,
      [providerId, reference],
    );
    return row;
  }

  /**
   * Moves a transaction to `status`, only from one of the statuses `from` (by default any not final), in one
   * conditional UPDATE: whoever writes — the provider call's answer, a callback, the reconciler, on any instance —
   * a finished transaction is never taken back. Answers whether it moved (false: its status was not one of `from`).
   */
  async setStatus(
    id: string,
    status: GateTransactionRow['status'],
    extra: { providerReference?: string; providerData?: Record<string, unknown> | null; failureReason?: string | null } = {},
    from: readonly GateTransactionRow['status'][] = OPEN_STATUSES,
  ): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE gate_transactions SET status = $2, provider_reference = coalesce($3, provider_reference), provider_data = coalesce($4::jsonb, provider_data),
              failure_reason = coalesce($5, failure_reason), updated_at = now(),
              finished_at = CASE WHEN $2 IN ('processed', 'failure') THEN now() ELSE finished_at END
        WHERE id = $1 AND status = ANY($6::text[]) RETURNING id`,
      [
        id,
        status,
        extra.providerReference ?? null,
        extra.providerData ? JSON.stringify(extra.providerData) : null,
        extra.failureReason ?? null,
        from,
      ],
    );
    return rows.length > 0;
  }

  async transactions(
    filter: { organizationId?: string; statuses?: string[]; productIds?: string[] },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: GateTransactionRow[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.organizationId) where.push(`t.organization_id = $${params.push(filter.organizationId)}`);
    if (filter.statuses?.length) where.push(`t.status = ANY($${params.push(filter.statuses)}::text[])`);
    if (filter.productIds?.length) where.push(`t.product_id = ANY($${params.push(filter.productIds)}::uuid[])`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const count = await this.db.countRows(`FROM gate_transactions t ${clause}`, params);
    const rows = await this.db.query<GateTransactionRow>(
      `SELECT ${TRANSACTION} ${TRANSACTIONS} ${clause} ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { total: count.total, rows };
  }

  /** Transactions a provider has not finished, untouched for `olderThanSeconds`: the reconciler's work. */
  async unfinished(olderThanSeconds: number, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM gate_transactions WHERE status IN ('provider_assigned', 'pending') AND updated_at < now() - make_interval(secs => $1)
        ORDER BY updated_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
    return rows.map((r) => r.id);
  }

  async contractExists(id: string): Promise<boolean> {
    const [{ found }] = await this.db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM contracts WHERE id = $1) AS found`, [id]);
    return found;
  }

  /** A profile per contract, provider and currency (null: every currency); undefined when the contract has it already. */
  async insertProfile(values: {
    contractId: string;
    providerId: string;
    currencyId: string | null;
    name: string | null;
    active: boolean;
  }): Promise<GateProfileRow | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO gate_commission_profiles (contract_id, gate_provider_id, currency_id, name, active) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING id`,
      [values.contractId, values.providerId, values.currencyId, values.name, values.active],
    );
    return row && this.profile(values.contractId, row.id);
  }

  async profiles(contractId: string): Promise<GateProfileRow[]> {
    return this.db.query<GateProfileRow>(`SELECT ${PROFILE} ${PROFILES} WHERE p.contract_id = $1 ORDER BY p.created_at, p.id`, [
      contractId,
    ]);
  }

  async profile(contractId: string, id: string): Promise<GateProfileRow | undefined> {
    const [row] = await this.db.query<GateProfileRow>(`SELECT ${PROFILE} ${PROFILES} WHERE p.contract_id = $1 AND p.id = $2`, [
      contractId,
      id,
    ]);
    return row;
  }

  async deleteProfile(contractId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM gate_commission_profiles WHERE contract_id = $1 AND id = $2 RETURNING id`,
      [contractId, id],
    );
    return rows.length > 0;
  }

  async insertRule(values: {
    profileId: string;
    kind: 'provider' | 'product';
    productId: string | null;
    type: string;
    valuePercent: string | null;
    valueFixed: string | null;
    rounding: FeeRounding;
    minFee: string | null;
    collector: string;
    beginDate: string;
    endDate: string | null;
  }): Promise<GateRuleRow> {
    const [row] = await this.db.query<GateRuleRow>(
      `INSERT INTO gate_commission_rules (profile_id, kind, product_id, type, value_percent, value_fixed, rounding, min_fee, collector, begin_date, end_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${RULE}`,
      [
        values.profileId,
        values.kind,
        values.productId,
        values.type,
        values.valuePercent,
        values.valueFixed,
        values.rounding,
        values.minFee,
        values.collector,
        values.beginDate,
        values.endDate,
      ],
    );
    return row;
  }

  async rules(profileId: string, kind: 'provider' | 'product', productIds?: string[]): Promise<GateRuleRow[]> {
    const params: unknown[] = [profileId, kind];
    const only = productIds?.length ? ` AND product_id = ANY($${params.push(productIds)}::uuid[])` : '';
    return this.db.query<GateRuleRow>(
      `SELECT ${RULE} FROM gate_commission_rules WHERE profile_id = $1 AND kind = $2${only} ORDER BY begin_date DESC, id`,
      params,
    );
  }

  /**
   * The gate rule in force now for a payer organization's contract, a provider and a product: the product's own
   * rule if one holds now, else the provider's; a profile of the product's currency before one for every currency;
   * the latest begin date first.
   */
  async ruleInForce(organizationId: string, providerId: string, productId: string): Promise<GateRuleRow | undefined> {
    const [row] = await this.db.query<GateRuleRow>(
      `SELECT r.id, r.profile_id, r.kind, r.product_id, r.type, r.value_percent::text AS value_percent, r.value_fixed::text AS value_fixed,
              r.rounding, r.min_fee::text AS min_fee, r.collector, r.begin_date, r.end_date, r.active, r.created_at
         FROM organizations o
         JOIN gate_products gp ON gp.id = $3
         JOIN gate_commission_profiles p ON p.contract_id = o.contract_id AND p.gate_provider_id = $2 AND p.active
                                         AND (p.currency_id IS NULL OR p.currency_id = gp.currency_id)
         JOIN gate_commission_rules r ON r.profile_id = p.id AND r.active AND r.begin_date <= now() AND (r.end_date IS NULL OR r.end_date > now())
                                      AND (r.kind = 'provider' OR r.product_id = $3)
        WHERE o.id = $1
        ORDER BY (r.kind = 'product') DESC, (p.currency_id IS NOT NULL) DESC, r.begin_date DESC LIMIT 1`,
      [organizationId, providerId, productId],
    );
    return row;
  }

  /**
   * Sets a profile's commission settings of a transaction type (its TOTAL and PROVIDER commissions), replacing those
   * it had; a commission not given is removed.
   */
  async setUpSettings(
    profileId: string,
    txType: string,
    active: boolean,
    values: { collector: 'TOTAL' | 'PROVIDER'; type: string; valuePercent: string | null; valueFixed: string | null }[],
  ): Promise<void> {
    await this.db.query(
      `DELETE FROM gate_commission_settings WHERE profile_id = $1 AND tx_type = $2 AND NOT (collector = ANY($3::text[]))`,
      [profileId, txType, values.map((v) => v.collector)],
    );
    for (const v of values) {
      await this.db.query(
        `INSERT INTO gate_commission_settings (profile_id, tx_type, collector, type, value_percent, value_fixed, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (profile_id, tx_type, collector) DO UPDATE SET type = excluded.type, value_percent = excluded.value_percent,
           value_fixed = excluded.value_fixed, active = excluded.active, updated_at = now()`,
        [profileId, txType, v.collector, v.type, v.valuePercent, v.valueFixed, active],
      );
    }
    await this.db.query(`UPDATE gate_commission_profiles SET updated_at = now() WHERE id = $1`, [profileId]);
  }

  async settings(profileId: string, txType?: string): Promise<GateSettingRow[]> {
    const params: unknown[] = [profileId];
    const only = txType ? ` AND tx_type = $${params.push(txType)}` : '';
    return this.db.query<GateSettingRow>(
      `SELECT ${SETTING} FROM gate_commission_settings WHERE profile_id = $1${only} ORDER BY tx_type DESC, collector DESC`,
      params,
    );
  }

  /**
   * The TOTAL commission setting in force for a payer organization's contract, a provider, a product (its currency)
   * and a transaction type: active, of an active profile, the product's currency's profile before one for every
   * currency.
   */
  async settingInForce(organizationId: string, providerId: string, productId: string, txType: string): Promise<GateSettingRow | undefined> {
    const [row] = await this.db.query<GateSettingRow>(
      `SELECT s.id, s.profile_id, s.tx_type, s.collector, s.type, s.value_percent::text AS value_percent, s.value_fixed::text AS value_fixed,
              s.active, s.created_at, s.updated_at
         FROM organizations o
         JOIN gate_products gp ON gp.id = $3
         JOIN gate_commission_profiles p ON p.contract_id = o.contract_id AND p.gate_provider_id = $2 AND p.active
                                         AND (p.currency_id IS NULL OR p.currency_id = gp.currency_id)
         JOIN gate_commission_settings s ON s.profile_id = p.id AND s.tx_type = $4 AND s.collector = 'TOTAL' AND s.active
        WHERE o.id = $1
        ORDER BY (p.currency_id IS NOT NULL) DESC LIMIT 1`,
      [organizationId, providerId, productId, txType],
    );
    return row;
  }
}
