/**
 * The minimal transfer of the money benchmark (bench/money.ts): plain Fastify + `pg`, no Nest, no ORM,
 * no validation layer, no logging, no authentication, doing the least a transfer needs in one
 * transaction on its own two tables (`minimal_accounts`, `minimal_transfers`, created by bench/money.ts
 * in a database of its own on the same PostgreSQL server):
 *
 * 1. a conditional debit `UPDATE … SET balance = balance - $amount WHERE id = $src AND balance >= $amount`
 *    (no row: insufficient funds, 409);
 * 2. a credit `UPDATE` of the payee (the two updates in id order, so opposite transfers never deadlock);
 * 3. one `INSERT` of the transfer.
 *
 * Body: `{src, dest, amount}` (amount a decimal string); answers `201 {id}`. It is the floor the
 * service's `POST /api/v1/transfers` is compared with: what a transfer costs when nothing else is done.
 */
import Fastify from 'fastify';
import { createPool, NOT_A_TRANSFER, runBaseline, serve, TransferBody, transferOf } from './baseline-common';

const DEBIT_SQL = 'UPDATE minimal_accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2';
const CREDIT_SQL = 'UPDATE minimal_accounts SET balance = balance + $2 WHERE id = $1';
const INSERT_SQL = 'INSERT INTO minimal_transfers (src, dest, amount) VALUES ($1, $2, $3) RETURNING id';

async function main(): Promise<void> {
  const pool = createPool('finapi-baseline-minimal');
  const app = Fastify({ logger: false });

  app.post<{ Body: TransferBody }>('/transfer', async (request, reply) => {
    const body = transferOf(request.body);
    if (!body) return reply.code(400).send(NOT_A_TRANSFER);
    const { src, dest, amount } = body;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // The two rows in id order, as any transfer that locks two rows must: opposite transfers never deadlock.
      const debit = () => client.query(DEBIT_SQL, [src, amount]);
      const credit = () => client.query(CREDIT_SQL, [dest, amount]);
      const debitFirst = BigInt(src) < BigInt(dest);
      const first = await (debitFirst ? debit() : credit());
      const second = await (debitFirst ? credit() : debit());
      const [debited, credited] = debitFirst ? [first, second] : [second, first];
      if (debited.rowCount !== 1) {
        await client.query('ROLLBACK');
        return reply.code(409).send({ status: 'error', code: 'exception.coin.insufficient_funds' });
      }
      if (credited.rowCount !== 1) {
        await client.query('ROLLBACK');
        return reply.code(404).send({ status: 'error', code: 'exception.coin.not_found' });
      }
      const inserted = await client.query<{ id: string }>(INSERT_SQL, [src, dest, amount]);
      await client.query('COMMIT');
      return reply.code(201).send({ status: 'ok', message: 'Transfer completed', id: inserted.rows[0].id });
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  });

  await serve(app, pool, 3003, 'baseline-minimal');
}

runBaseline('baseline-minimal', main);
