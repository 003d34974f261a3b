import { MigrationInterface, QueryRunner } from 'typeorm';

const PERMISSIONS: Record<string, string> = {
  USER_VIEWER: 'See users, their memberships and states',
  USER_MANAGER: 'Create users and memberships',
  USER_RELEASER: 'Release users On Hold with a temporary password',
  USER_ACTION_VIEWER: 'See the recorded actions of users (logins, holds, releases)',
  LEDGER_AUDITOR: 'Recompute and check the ledger',
  CURRENCY_VIEWER: 'See currencies',
  CURRENCY_MANAGER: 'Create and change currencies',
  ISSUER_VIEWER: 'See currency issuers',
  ISSUER_MANAGER: 'Create and change currency issuers',
  COIN_OWNER: "Open, see and rename the organization's own coins",
  COIN_VIEWER: 'See every coin',
  COIN_MAIN_STATUS_SETTER: 'Choose the main coin of a currency',
  COIN_CLOSURE: "Close the organization's own coins",
  TRANSFER_CREATOR: "Transfer money from the organization's own coins",
  TRANSACTION_VIEWER: "See operations that touch the organization's own coins",
  TRANSACTION_AUDITOR: 'See every operation',
  BANK_TOP_UP_MANAGER: 'Credit coins from bank settlement (bank top-ups)',
};

const CUSTOMER = [
  'CURRENCY_VIEWER',
  'ISSUER_VIEWER',
  'COIN_OWNER',
  'COIN_MAIN_STATUS_SETTER',
  'COIN_CLOSURE',
  'TRANSFER_CREATOR',
  'TRANSACTION_VIEWER',
];
const STAFF_READ = [
  'USER_VIEWER',
  'USER_ACTION_VIEWER',
  'CURRENCY_VIEWER',
  'ISSUER_VIEWER',
  'COIN_VIEWER',
  'TRANSACTION_VIEWER',
  'TRANSACTION_AUDITOR',
];

const GRANTS: Record<string, string[]> = {
  administrator: [
    ...STAFF_READ,
    'USER_MANAGER',
    'USER_RELEASER',
    'LEDGER_AUDITOR',
    'CURRENCY_MANAGER',
    'ISSUER_MANAGER',
    'BANK_TOP_UP_MANAGER',
  ],
  cfo: [...STAFF_READ, 'LEDGER_AUDITOR', 'CURRENCY_MANAGER', 'ISSUER_MANAGER'],
  accountant: [...STAFF_READ, 'LEDGER_AUDITOR', 'BANK_TOP_UP_MANAGER'],
  cashier: ['CURRENCY_VIEWER', 'ISSUER_VIEWER', 'COIN_VIEWER', 'TRANSACTION_VIEWER'],
  compliance_manager: [...STAFF_READ, 'USER_RELEASER'],
  compliance_specialist: [...STAFF_READ],
  customer_support: [...STAFF_READ, 'USER_RELEASER'],
  antifraud_specialist: [...STAFF_READ],
  individual: CUSTOMER,
  merchant: CUSTOMER,
};

export class Foundation1763800000000 implements MigrationInterface {
  name = 'Foundation1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        type text NOT NULL CHECK (type IN ('individual','merchant','support','cash_desk','system')),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        identification_status text NOT NULL DEFAULT 'none'
          CHECK (identification_status IN ('none','pending','approved','declined','review_required','not_available')),
        contract_id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        person_type text NOT NULL DEFAULT 'base' CHECK (person_type IN ('base','standard','gold','vip')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX organizations_type_idx ON organizations (type)`);
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        login text COLLATE "C" NOT NULL UNIQUE CHECK (login = lower(login)),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        password_hash text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active','on_hold')),
        failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
        password_change_required boolean NOT NULL DEFAULT false,
        temporary_password_expires_at timestamptz,
        temporary_password_used_at timestamptz,
        held_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX users_status_idx ON users (status, created_at)`);
    await q.query(`
      CREATE TABLE roles (name text PRIMARY KEY);
      CREATE TABLE permissions (name text PRIMARY KEY, description text NOT NULL);
      CREATE TABLE role_permissions (
        role text NOT NULL REFERENCES roles(name),
        permission text NOT NULL REFERENCES permissions(name),
        PRIMARY KEY (role, permission)
      )`);
    await q.query(`
      CREATE TABLE memberships (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        role text NOT NULL REFERENCES roles(name),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, organization_id)
      )`);
    await q.query(`CREATE INDEX memberships_organization_idx ON memberships (organization_id)`);
    await q.query(`CREATE INDEX memberships_role_idx ON memberships (role)`);
    await q.query(`
      CREATE TABLE auth_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash bytea NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES users(id),
        membership_id uuid NOT NULL REFERENCES memberships(id),
        scope text NOT NULL DEFAULT 'full' CHECK (scope IN ('full','password_change')),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX auth_tokens_user_live_idx ON auth_tokens (user_id) WHERE revoked_at IS NULL`);
    await q.query(`
      CREATE TABLE user_actions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid REFERENCES users(id),
        actor_user_id uuid REFERENCES users(id),
        action text NOT NULL,
        login text,
        address text,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX user_actions_user_idx ON user_actions (user_id, created_at DESC)`);

    for (const role of Object.keys(GRANTS)) await q.query(`INSERT INTO roles (name) VALUES ($1)`, [role]);
    for (const [name, description] of Object.entries(PERMISSIONS)) {
      await q.query(`INSERT INTO permissions (name, description) VALUES ($1, $2)`, [name, description]);
    }
    for (const [role, permissions] of Object.entries(GRANTS)) {
      for (const permission of new Set(permissions)) {
        await q.query(`INSERT INTO role_permissions (role, permission) VALUES ($1, $2)`, [role, permission]);
      }
    }
    // The operator's own organizations: staff belong to `support`; technical coins to `system`.
    await q.query(`
      INSERT INTO organizations (id, type, name, identification_status, person_type) VALUES
        ('00000000-0000-4000-8000-000000000001', 'support', 'Operator staff', 'not_available', 'base'),
        ('00000000-0000-4000-8000-000000000002', 'system', 'Operator system', 'not_available', 'base')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_actions, auth_tokens, memberships, role_permissions, permissions, roles, users, organizations`);
  }
}
