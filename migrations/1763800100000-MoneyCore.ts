import { MigrationInterface, QueryRunner } from 'typeorm';

export class MoneyCore1763800100000 implements MigrationInterface {
  name = 'MoneyCore1763800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE currencies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z][A-Z0-9]{1,9}$'),
        digital_code text UNIQUE CHECK (digital_code ~ '^[0-9]{3}$'),
        symbol text CHECK (length(symbol) <= 8),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        description text CHECK (length(description) <= 500),
        -- minor units per major unit: a power of ten from 1 to 10^18
        fraction bigint NOT NULL DEFAULT 100 CHECK (fraction::text ~ '^10{0,18}$'),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE SEQUENCE issuer_sn_seq START 1001`);
    await q.query(`
      CREATE TABLE issuers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sn bigint NOT NULL UNIQUE DEFAULT nextval('issuer_sn_seq'),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        description text CHECK (length(description) <= 500),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX issuers_currency_idx ON issuers (currency_id)`);
    await q.query(`CREATE SEQUENCE coin_serial_seq START 1000000001`);
    await q.query(`
      CREATE TABLE coins (
        serial bigint PRIMARY KEY DEFAULT nextval('coin_serial_seq'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        issuer_id uuid NOT NULL REFERENCES issuers(id),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        type text NOT NULL DEFAULT 'client' CHECK (type IN ('client', 'system')),
        system_kind text CHECK ((type = 'system') = (system_kind IS NOT NULL)),
        balance numeric(38, 18) NOT NULL DEFAULT 0,
        held numeric(38, 18) NOT NULL DEFAULT 0 CHECK (held >= 0),
        main boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        closed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- the database's own guard: a client coin never holds less than it has reserved
        CONSTRAINT coins_client_not_overdrawn CHECK (type = 'system' OR balance >= held),
        CONSTRAINT coins_closed_inactive CHECK (closed_at IS NULL OR (NOT active AND NOT main))
      )`);
    await q.query(`CREATE INDEX coins_organization_idx ON coins (organization_id, serial)`);
    await q.query(`CREATE UNIQUE INDEX coins_one_main_idx ON coins (organization_id, currency_id) WHERE main`);
    await q.query(`CREATE UNIQUE INDEX coins_system_kind_idx ON coins (issuer_id, system_kind) WHERE type = 'system'`);
    await q.query(`
      CREATE TABLE operations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        type text NOT NULL,
        status text NOT NULL,
        currency_id uuid NOT NULL REFERENCES currencies(id),
        amount numeric(38, 18) NOT NULL CHECK (amount >= 0),
        commission numeric(38, 18) NOT NULL DEFAULT 0 CHECK (commission >= 0),
        from_coin bigint REFERENCES coins(serial),
        to_coin bigint REFERENCES coins(serial),
        from_organization_id uuid REFERENCES organizations(id),
        to_organization_id uuid REFERENCES organizations(id),
        description text,
        custom_information text,
        request_identifier text,
        request_status text,
        created_by uuid REFERENCES users(id),
        reversal_of uuid UNIQUE REFERENCES operations(id),
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX operations_created_idx ON operations (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX operations_from_org_idx ON operations (from_organization_id, created_at DESC)`);
    await q.query(`CREATE INDEX operations_to_org_idx ON operations (to_organization_id, created_at DESC)`);
    await q.query(`CREATE INDEX operations_from_coin_idx ON operations (from_coin, created_at DESC)`);
    await q.query(`CREATE INDEX operations_to_coin_idx ON operations (to_coin, created_at DESC)`);
    await q.query(`CREATE INDEX operations_type_idx ON operations (type, created_at DESC)`);
    await q.query(`CREATE INDEX operations_status_idx ON operations (status, created_at DESC)`);
    await q.query(`CREATE INDEX operations_currency_idx ON operations (currency_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        operation_id uuid NOT NULL REFERENCES operations(id),
        coin_serial bigint NOT NULL REFERENCES coins(serial),
        currency_id uuid NOT NULL REFERENCES currencies(id),
        amount numeric(38, 18) NOT NULL CHECK (amount <> 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ledger_entries_operation_idx ON ledger_entries (operation_id)`);
    await q.query(`CREATE INDEX ledger_entries_coin_idx ON ledger_entries (coin_serial, id)`);
    await q.query(`
      CREATE TABLE idempotency_keys (
        user_id uuid NOT NULL REFERENCES users(id),
        key text NOT NULL,
        request_hash text NOT NULL,
        response_status integer NOT NULL,
        response_body jsonb NOT NULL,
        operation_id uuid REFERENCES operations(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys, ledger_entries, operations, coins, issuers, currencies`);
    await q.query(`DROP SEQUENCE coin_serial_seq; DROP SEQUENCE issuer_sn_seq`);
  }
}
