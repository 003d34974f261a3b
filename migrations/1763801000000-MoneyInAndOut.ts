import { MigrationInterface, QueryRunner } from 'typeorm';

const BIC = `'^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$'`;
const TIMESTAMPS = `created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()`;

/**
 * Money in and out through banks and cash desks (issue 12): the bank catalog, organizations' bank
 * accounts, bank top-up requests (no money moves until accepted), bank withdrawals (a request is a
 * pending operation holding the amount), and cash desk operations (pending operations with holds).
 */
export class MoneyInAndOut1763801000000 implements MigrationInterface {
  name = 'MoneyInAndOut1763801000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE bank_catalog (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        bic text NOT NULL UNIQUE CHECK (bic ~ ${BIC}),
        swift_code text CHECK (swift_code ~ ${BIC}),
        address text CHECK (length(address) <= 300),
        city text CHECK (length(city) <= 100),
        zip_code text CHECK (length(zip_code) <= 20),
        country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
        phone_number text CHECK (length(phone_number) <= 30),
        website text CHECK (length(website) <= 200),
        ${TIMESTAMPS}
      )`);
    await q.query(`CREATE INDEX bank_catalog_name_idx ON bank_catalog (name, id)`);
    await q.query(`CREATE INDEX bank_catalog_country_idx ON bank_catalog (country, name, id)`);

    await q.query(`
      CREATE TABLE bank_accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        name text CHECK (length(name) <= 100),
        iban text NOT NULL CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
        bic text CHECK (bic ~ ${BIC}),
        account_holder text NOT NULL CHECK (length(account_holder) BETWEEN 1 AND 200),
        bank_name text CHECK (length(bank_name) <= 200),
        bank_id uuid REFERENCES bank_catalog(id) ON DELETE SET NULL,
        ${TIMESTAMPS},
        UNIQUE (organization_id, iban)
      )`);
    await q.query(`CREATE INDEX bank_accounts_organization_idx ON bank_accounts (organization_id, created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE bank_top_up_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        amount numeric(38, 18) NOT NULL CHECK (amount > 0),
        bank_account_number text CHECK (length(bank_account_number) <= 34),
        iban text CHECK (length(iban) <= 34),
        bank_id uuid REFERENCES bank_catalog(id) ON DELETE SET NULL,
        full_name text CHECK (length(full_name) <= 255),
        description text CHECK (length(description) <= 500),
        custom_information text CHECK (length(custom_information) <= 1000),
        status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'processed', 'declined')),
        decline_reason text CHECK (length(decline_reason) <= 500),
        operation_id uuid UNIQUE REFERENCES operations(id),
        created_by uuid REFERENCES users(id),
        decided_by uuid REFERENCES users(id),
        decided_at timestamptz,
        ${TIMESTAMPS},
        CHECK ((status = 'processed') = (operation_id IS NOT NULL)),
        CHECK ((status = 'new') = (decided_at IS NULL))
      )`);
    await q.query(`CREATE INDEX bank_top_up_requests_created_idx ON bank_top_up_requests (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX bank_top_up_requests_organization_idx ON bank_top_up_requests (organization_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX bank_top_up_requests_status_idx ON bank_top_up_requests (status, created_at DESC)`);
    await q.query(`CREATE INDEX bank_top_up_requests_coin_idx ON bank_top_up_requests (coin_serial, created_at DESC)`);

    await q.query(`
      CREATE TABLE bank_withdrawals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL CHECK (kind IN ('direct', 'request')),
        operation_id uuid NOT NULL UNIQUE REFERENCES operations(id),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        amount numeric(38, 18) NOT NULL CHECK (amount > 0),
        commission numeric(38, 18) NOT NULL DEFAULT 0 CHECK (commission >= 0),
        bank_account_id uuid REFERENCES bank_accounts(id) ON DELETE SET NULL,
        iban text NOT NULL CHECK (length(iban) <= 34),
        bic text CHECK (bic ~ ${BIC}),
        account_holder text NOT NULL CHECK (length(account_holder) BETWEEN 1 AND 200),
        bank_name text CHECK (length(bank_name) <= 200),
        description text CHECK (length(description) <= 500),
        custom_information text CHECK (length(custom_information) <= 1000),
        status text NOT NULL CHECK (status IN ('pending', 'processed', 'declined')),
        decline_reason text CHECK (length(decline_reason) <= 500),
        created_by uuid REFERENCES users(id),
        decided_by uuid REFERENCES users(id),
        decided_at timestamptz,
        ${TIMESTAMPS},
        CHECK (kind = 'request' OR status = 'processed')
      )`);
    await q.query(`CREATE INDEX bank_withdrawals_created_idx ON bank_withdrawals (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX bank_withdrawals_organization_idx ON bank_withdrawals (organization_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX bank_withdrawals_status_idx ON bank_withdrawals (status, created_at DESC)`);
    await q.query(`CREATE INDEX bank_withdrawals_coin_idx ON bank_withdrawals (coin_serial, created_at DESC)`);

    await q.query(`
      CREATE TABLE cash_desk_operations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cash_desk_id uuid NOT NULL REFERENCES organizations(id),
        type text NOT NULL CHECK (type IN ('cash_in', 'cash_out')),
        operation_id uuid NOT NULL UNIQUE REFERENCES operations(id),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        customer_organization_id uuid NOT NULL REFERENCES organizations(id),
        desk_coin_serial bigint NOT NULL REFERENCES coins(serial),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        amount numeric(38, 18) NOT NULL CHECK (amount > 0),
        commission numeric(38, 18) NOT NULL DEFAULT 0 CHECK (commission >= 0),
        -- bounded (specification 2.3): longer is a validation error of the request, never of the database
        full_name text NOT NULL CHECK (length(full_name) BETWEEN 1 AND 255),
        document_type text NOT NULL CHECK (document_type IN ('passport', 'id_card', 'driving_license', 'residence_permit', 'other')),
        document_number text NOT NULL CHECK (length(document_number) BETWEEN 1 AND 50),
        description text CHECK (length(description) <= 500),
        custom_information text CHECK (length(custom_information) <= 1000),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processed', 'declined')),
        decision text CHECK (decision IN ('confirmed', 'completed', 'declined')),
        decline_reason text CHECK (length(decline_reason) <= 500),
        created_by uuid REFERENCES users(id),
        decided_by uuid REFERENCES users(id),
        decided_at timestamptz,
        ${TIMESTAMPS},
        CHECK ((status = 'pending') = (decision IS NULL))
      )`);
    await q.query(`CREATE INDEX cash_desk_operations_created_idx ON cash_desk_operations (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX cash_desk_operations_desk_idx ON cash_desk_operations (cash_desk_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX cash_desk_operations_customer_idx ON cash_desk_operations (customer_organization_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX cash_desk_operations_status_idx ON cash_desk_operations (status, created_at DESC)`);
    await q.query(`CREATE INDEX cash_desk_operations_coin_idx ON cash_desk_operations (coin_serial, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE cash_desk_operations, bank_withdrawals, bank_top_up_requests, bank_accounts, bank_catalog`);
  }
}
