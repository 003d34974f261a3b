/**
 * The bare baseline of the money benchmark (bench/money.ts): plain Fastify + `pg`, no Nest, no ORM,
 * no validation layer, no logging, running per `POST /transfer` the same SQL shape as the service's
 * `POST /api/v1/transfers`:
 *
 * 1. the token looked up by its SHA-256 hash (AccessService.principalFor's query);
 * 2. in one transaction: the two coins locked in serial order
 *    (`SELECT … FROM coins … WHERE serial = ANY($1) ORDER BY serial FOR UPDATE`), the operation row
 *    inserted, its two ledger entries inserted, the two balances updated (LedgerService.post's
 *    statements), commit.
 *
 * Body: `{src, dest, amount}` (amount a decimal string). It checks that the payer coin is the
 * caller's and has the funds, and answers `201 {id}`. Started by bench/money.ts as a child process
 * with DATABASE_URL, PORT, HOST and DB_POOL_SIZE.
 */
import Fastify from 'fastify';
import { PoolClient } from 'pg';
import {
  NOT_A_TRANSFER,
  PRINCIPAL_SQL,
  TOKEN_MISSING,
  TransferBody,
  createPool,
  runBaseline,
  serve,
  tokenHash,
  transferOf,
} from './baseline-common';

interface PrincipalRow {
  token_id: string;
  user_id: string;
  membership_id: string;
  organization_id: string;
  role: string;
}

interface CoinRow {
  serial: string;
  organization_id: string;
  currency_id: string;
  type: string;
  /** balance − held, as text */
  available: string;
  usable: boolean;
}

const LOCK_SQL = `SELECT c.serial::text AS serial, c.organization_id, c.currency_id, c.type, (c.balance - c.held)::text AS available,
       (c.active AND c.closed_at IS NULL AND i.active AND cu.active) AS usable
  FROM coins c JOIN issuers i ON i.id = c.issuer_id JOIN currencies cu ON cu.id = c.currency_id
 WHERE c.serial = ANY($1::bigint[]) ORDER BY c.serial FOR UPDATE OF c`;
const OPERATION_SQL = `INSERT INTO operations (type, status, currency_id, amount, commission, from_coin, to_coin, from_organization_id, to_organization_id,
                        description, custom_information, request_identifier, request_status, created_by, reversal_of, details)
VALUES ('client_transaction_transfer', 'processed', $1, $2, 0, $3, $4, $5, $6, NULL, NULL, NULL, NULL, $7, NULL, '{}') RETURNING id`;
const ENTRIES_SQL = `INSERT INTO ledger_entries (operation_id, leg, coin_serial, currency_id, organization_id, amount)
SELECT $1, 0, unnest($2::bigint[]), $3, unnest($5::uuid[]), unnest($4::numeric[])`;
const BALANCES_SQL = `UPDATE coins c SET balance = c.balance + v.delta, updated_at = now()
  FROM (SELECT unnest($1::bigint[]) AS serial, unnest($2::numeric[]) AS delta) v WHERE c.serial = v.serial`;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/** Compares two non-negative decimal strings without floating point. */
function decimalLess(a: string, b: string): boolean {
  const [ai, af = ''] = a.replace(/^-/, '').split('.');
  const [bi, bf = ''] = b.split('.');
  if (a.startsWith('-')) return true;
  const width = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(width, '0'));
  const y = BigInt(bi + bf.padEnd(width, '0'));
  return x < y;
}

async function main(): Promise<void> {
  const pool = createPool('finapi-baseline-money');

  const transfer = async (client: PoolClient, principal: PrincipalRow, src: string, dest: string, amount: string): Promise<string> => {
    const serials = [src, dest].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const coins = new Map((await client.query<CoinRow>(LOCK_SQL, [serials])).rows.map((r) => [r.serial, r]));
    const payer = coins.get(src);
    const payee = coins.get(dest);
    if (!payer || payer.organization_id !== principal.organization_id || !payee || payee.type !== 'client') {
      throw new Refusal(404, 'exception.coin.not_found');
    }
    if (payer.currency_id !== payee.currency_id) throw new Refusal(400, 'exception.validation');
    if (!payer.usable || !payee.usable) throw new Refusal(409, 'exception.coin.inactive');
    if (decimalLess(payer.available, amount)) throw new Refusal(409, 'exception.coin.insufficient_funds');
    const operation = await client.query<{ id: string }>(OPERATION_SQL, [
      payer.currency_id,
      amount,
      src,
      dest,
      payer.organization_id,
      payee.organization_id,
      principal.user_id,
    ]);
    const id = operation.rows[0].id;
    await client.query(ENTRIES_SQL, [
      id,
      [src, dest],
      payer.currency_id,
      [`-${amount}`, amount],
      [payer.organization_id, payee.organization_id],
    ]);
    await client.query(BALANCES_SQL, [
      [src, dest],
      [`-${amount}`, amount],
    ]);
    return id;
  };

  const app = Fastify({ logger: false });

  app.post<{ Body: TransferBody }>('/transfer', async (request, reply) => {
    const hash = tokenHash(request.headers.authorization);
    if (!hash) return reply.code(401).send(TOKEN_MISSING);
    const body = transferOf(request.body);
    if (!body) return reply.code(400).send(NOT_A_TRANSFER);
    const { src, dest, amount } = body;
    const principal = (await pool.query<PrincipalRow>(PRINCIPAL_SQL, [hash])).rows[0];
    if (!principal) return reply.code(401).send({ status: 'error', code: 'exception.authorization.token_invalid' });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const id = await transfer(client, principal, src, dest, amount);
      await client.query('COMMIT');
      return reply.code(201).send({ status: 'ok', message: 'Transfer completed', id });
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (error instanceof Refusal) return reply.code(error.status).send({ status: 'error', code: error.code });
      throw error;
    } finally {
      client.release();
    }
  });

  await serve(app, pool, 3002, 'baseline-money');
}

runBaseline('baseline-money', main);
