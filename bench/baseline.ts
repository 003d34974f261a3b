/**
 * The bare baseline of the benchmark: plain Fastify + `pg`, no Nest, no ORM, no logging, doing the
 * same database and CPU work as the service's two benchmarked routes:
 *
 * - `GET /api/v1/profiles/my`: the token looked up by its SHA-256 hash, answered in the service's JSON
 *   shape. With BASELINE_PROFILE_SQL=joined (the default) it runs the service's one query
 *   (AccessService.principalFor: auth_tokens ⋈ memberships ⋈ organizations ⋈ users); with
 *   `separate` it runs what the service ran before that query was widened: the token lookup
 *   (auth_tokens ⋈ memberships ⋈ organizations), then the user by id and the membership with its
 *   organization, those two in parallel.
 * - `POST /api/v1/authorization`: the user SELECTed by login and the password checked with
 *   `bcrypt.compare`; it issues nothing (it answers 200 or 401), so it is the floor of a login.
 *
 * Started by bench/run.ts as a child process with DATABASE_URL, PORT, HOST, DB_POOL_SIZE and
 * BASELINE_PROFILE_SQL.
 */
import { GRANTS } from '../src/platform/access/permissions';
import { compare } from 'bcrypt';
import Fastify from 'fastify';
import { PRINCIPAL_SQL, TOKEN_MISSING, createPool, runBaseline, serve, tokenHash } from './baseline-common';

interface TokenRow {
  token_id: string;
  user_id: string;
  membership_id: string;
  organization_id: string;
  organization_type: string;
  role: string;
  scope: string;
}

interface JoinedRow extends TokenRow {
  user_login: string;
  user_name: string;
  user_status: string;
  organization_name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
}

interface UserRow {
  id: string;
  login: string;
  name: string;
  password_hash: string;
  status: string;
}

interface MembershipRow {
  organization_id: string;
  organization_type: string;
  organization_name: string;
  identification_status: string;
  contract_id: string;
  person_type: string;
}

const TOKEN_SQL = `SELECT t.id AS token_id, t.user_id, t.membership_id, m.organization_id, o.type AS organization_type, m.role, t.scope
  FROM auth_tokens t
  JOIN memberships m ON m.id = t.membership_id
  JOIN organizations o ON o.id = m.organization_id
 WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`;
/** The service's one query per profile read. */
const JOINED_SQL = PRINCIPAL_SQL;
const USER_SQL = 'SELECT * FROM users WHERE id = $1';
const MEMBERSHIP_SQL = `SELECT m.id AS membership_id, m.user_id, m.role, o.id AS organization_id, o.type AS organization_type,
  o.name AS organization_name, o.identification_status, o.contract_id, o.person_type
  FROM memberships m JOIN organizations o ON o.id = m.organization_id WHERE m.id = $1`;
const LOGIN_SQL = 'SELECT * FROM users WHERE login = $1';

async function main(): Promise<void> {
  const pool = createPool('finapi-baseline');

  // The grants are the service's, in code (src/platform/access/permissions.ts), as the service answers them.
  const permissions = new Map<string, string[]>(Object.entries(GRANTS).map(([role, granted]) => [role, [...granted].sort()]));

  const mode = process.env.BASELINE_PROFILE_SQL ?? 'joined';
  if (mode !== 'joined' && mode !== 'separate') throw new Error(`BASELINE_PROFILE_SQL must be joined or separate, got ${mode}`);
  const joined = mode === 'joined';

  const app = Fastify({ logger: false });

  const profile = (principal: TokenRow, user: Pick<UserRow, 'id' | 'login' | 'name' | 'status'>, membership: MembershipRow): object => ({
    status: 'ok',
    message: 'OK',
    user: { id: user.id, login: user.login, name: user.name, status: user.status },
    role: principal.role,
    organization: {
      id: membership.organization_id,
      type: membership.organization_type,
      name: membership.organization_name,
      identificationStatus: membership.identification_status,
      contract_info: { id: membership.contract_id, personType: membership.person_type },
    },
    permissions: permissions.get(principal.role) ?? [],
  });
  const invalid = { status: 'error', code: 'exception.authorization.token_invalid' };

  app.get('/api/v1/profiles/my', async (request, reply) => {
    const hash = tokenHash(request.headers.authorization);
    if (!hash) return reply.code(401).send(TOKEN_MISSING);
    if (joined) {
      const row = (await pool.query<JoinedRow>(JOINED_SQL, [hash])).rows[0];
      if (!row) return reply.code(401).send(invalid);
      return profile(row, { id: row.user_id, login: row.user_login, name: row.user_name, status: row.user_status }, row);
    }
    const principal = (await pool.query<TokenRow>(TOKEN_SQL, [hash])).rows[0];
    if (!principal) return reply.code(401).send(invalid);
    const [users, memberships] = await Promise.all([
      pool.query<UserRow>(USER_SQL, [principal.user_id]),
      pool.query<MembershipRow>(MEMBERSHIP_SQL, [principal.membership_id]),
    ]);
    const user = users.rows[0];
    const membership = memberships.rows[0];
    if (!user || !membership) return reply.code(401).send(invalid);
    return profile(principal, user, membership);
  });

  app.post<{ Body: { login?: unknown; password?: unknown } }>('/api/v1/authorization', async (request, reply) => {
    const { login, password } = request.body ?? {};
    if (typeof login !== 'string' || typeof password !== 'string') return reply.code(400).send({ status: 'error' });
    const user = (await pool.query<UserRow>(LOGIN_SQL, [login.toLowerCase()])).rows[0];
    const valid = user ? await compare(password, user.password_hash) : false;
    if (!valid) return reply.code(401).send({ status: 'error', code: 'exception.authorization.invalid_credentials' });
    return { status: 'ok', message: 'Password accepted' };
  });

  await serve(app, pool, 3001, `baseline (${mode} profile SQL)`);
}

runBaseline('baseline', main);
