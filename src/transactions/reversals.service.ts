import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ApiError } from '../common/api-error';
import { IdempotencyContext, IdempotencyService } from '../common/idempotency';
import { Money } from '../common/money';
import { query } from '../database/sql';
import { LedgerService } from '../ledger/ledger.service';
import { OperationResultDto } from '../transfers/dto/transfer.dto';
import { ReverseOperationDto } from './dto/transaction.dto';
import { OperationsReader } from './operations.reader';

interface OriginalRow {
  id: string;
  type: string;
  status: string;
  currency_id: string;
  amount: string;
  from_coin: string | null;
  to_coin: string | null;
  reversal_of: string | null;
}

/**
 * Reverses a completed operation with a new, linked operation whose entries are the original's
 * negated. The original becomes `reversed`; the unique `reversal_of` makes a second reversal
 * impossible even when two race.
 */
@Injectable()
export class ReversalsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly operations: OperationsReader,
  ) {}

  async reverse(principal: Principal, id: string, dto: ReverseOperationDto, idem: IdempotencyContext): Promise<OperationResultDto> {
    return this.idempotency.run(
      principal.userId,
      idem,
      201,
      async (m) => {
        const [original] = await query<OriginalRow>(
          m,
          `SELECT id, type, status, currency_id, amount::text AS amount, from_coin::text AS from_coin, to_coin::text AS to_coin, reversal_of
             FROM operations WHERE id = $1 FOR UPDATE`,
          [id],
        );
        if (!original) throw ApiError.notFound('exception.transaction.not_found', 'No such transaction');
        if (original.reversal_of) throw ApiError.conflict('exception.transaction.is_reversal', 'A reversal cannot be reversed');
        if (original.status === 'reversed')
          throw ApiError.conflict('exception.transaction.already_reversed', 'The operation is already reversed');
        if (original.status !== 'completed')
          throw ApiError.conflict('exception.transaction.not_completed', 'Only a completed operation can be reversed');
        const entries = await query<{ coin_serial: string; amount: string }>(
          m,
          'SELECT coin_serial::text AS coin_serial, amount::text AS amount FROM ledger_entries WHERE operation_id = $1 ORDER BY id',
          [id],
        );
        const locked = await this.ledger.lock(
          m,
          entries.map((e) => e.coin_serial),
        );
        for (const coin of locked.values()) {
          if (coin.type === 'client' && coin.closed_at) throw ApiError.conflict('exception.coin.closed', `Coin ${coin.serial} is closed`);
        }
        const posted = await this.ledger.post(
          m,
          {
            type: 'reversal',
            currencyId: original.currency_id,
            amount: new Money(original.amount),
            fromCoin: original.to_coin,
            toCoin: original.from_coin,
            description: dto.description ?? `Reversal of ${original.type} ${original.id}`,
            customInformation: dto.customInformation ?? null,
            requestIdentifier: idem.key ?? null,
            createdBy: principal.userId,
            reversalOf: original.id,
            entries: entries.map((e) => ({ coin: e.coin_serial, amount: new Money(e.amount).negated() })),
          },
          locked,
        );
        await query(m, `UPDATE operations SET status = 'reversed', updated_at = now() WHERE id = $1`, [original.id]);
        return { status: 'ok' as const, message: 'Operation reversed', process: this.operations.describe(posted) };
      },
      (r) => r.process.id,
    );
  }
}
