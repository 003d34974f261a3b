import { MigrationInterface, QueryRunner } from 'typeorm';

export class ExchangeVouchersSmartCards1763801100000 implements MigrationInterface {
  name = 'ExchangeVouchersSmartCards1763801100000';

  async up(q: QueryRunner): Promise<void> {
    // A rate from→to: how many units of `to` one unit of `from` buys, from `valid_from` on. The rate in force
    // for a pair is the one with the latest valid_from not after now; rates are never updated, only added.
    await q.query(`
      CREATE TABLE exchange_rates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        from_currency_id uuid NOT NULL REFERENCES currencies(id),
        to_currency_id uuid NOT NULL REFERENCES currencies(id),
        rate numeric(38, 18) NOT NULL CHECK (rate > 0),
        valid_from timestamptz NOT NULL,
        created_by uuid REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (from_currency_id <> to_currency_id),
        UNIQUE (from_currency_id, to_currency_id, valid_from)
      )`);
    // The unique index above also finds the rate in force (latest valid_from ≤ now) and serves the view's pair filters.
    await q.query(`CREATE INDEX exchange_rates_valid_from_idx ON exchange_rates (valid_from DESC, id DESC)`);

    // Prepaid vouchers: the amount waits in the issuer's voucher_reserve coin until the bearer of the code redeems it,
    // or it goes back to the creator's coin (blocked, expired). The code itself is never stored: only its SHA-256.
    await q.query(`
      CREATE TABLE vouchers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code_hash text NOT NULL UNIQUE CHECK (code_hash ~ '^[0-9a-f]{64}$'),
        prepaid_name text NOT NULL CHECK (length(prepaid_name) BETWEEN 1 AND 100),
        amount numeric(38, 18) NOT NULL CHECK (amount > 0),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processed', 'blocked', 'expired')),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        reserve_coin bigint NOT NULL REFERENCES coins(serial),
        created_by uuid REFERENCES users(id),
        expires_at timestamptz,
        operation_id uuid NOT NULL REFERENCES operations(id),
        redeemed_coin bigint REFERENCES coins(serial),
        redeemed_at timestamptz,
        closing_operation_id uuid REFERENCES operations(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'processed') = (redeemed_at IS NOT NULL)),
        CHECK ((status = 'pending') = (closing_operation_id IS NULL))
      )`);
    // The creator's list, newest first, and the expiry sweep (pending vouchers by expiry).
    await q.query(`CREATE INDEX vouchers_organization_idx ON vouchers (organization_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX vouchers_due_idx ON vouchers (expires_at) WHERE status = 'pending' AND expires_at IS NOT NULL`);

    // Smart cards: a card stands for one coin of its organization. Only the last four digits of the generated
    // number are kept (answers show the masked form); a card issued by a card-issuing provider (a payment gate)
    // carries the provider's name and its reference of the card.
    await q.query(`
      CREATE TABLE smart_cards (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'blocked')),
        provider text CHECK (length(provider) BETWEEN 1 AND 100),
        provider_reference text CHECK (length(provider_reference) BETWEEN 1 AND 200),
        created_by uuid REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((provider IS NULL) = (provider_reference IS NULL))
      )`);
    // A provider's card is found by the provider's own reference (its callbacks name it), and names one card only.
    await q.query(`CREATE UNIQUE INDEX smart_cards_provider_idx ON smart_cards (provider, provider_reference) WHERE provider IS NOT NULL`);
    await q.query(`CREATE INDEX smart_cards_organization_idx ON smart_cards (organization_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE smart_cards, vouchers, exchange_rates`);
  }
}
