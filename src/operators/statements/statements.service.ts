import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { CsvColumn, csvHeader, csvRecord } from '../../platform/common/csv';
import { formatAmount, Money, scaleOf } from '../../platform/common/money';
import type { StatementQueryDto } from './dto/statement.dto';
import { StatementCoinRow, StatementEntryRow, StatementsRepository } from './statements.repository';

/** Entries read per page: the most a statement holds in memory at once. */
export const STATEMENT_PAGE = 1000;
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;
const asInstant = (value: string) => (PLAIN_DATE.test(value) ? `${value}T00:00:00Z` : value);

/** The CSV's columns: amounts and balances are numbers, everything else text (escaped against formulas by common/csv.ts). */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  { name: 'entryId', type: 'text' },
  { name: 'operationId', type: 'text' },
  { name: 'operationType', type: 'text' },
  { name: 'operationStatus', type: 'text' },
  { name: 'createdAt', type: 'text' },
  { name: 'description', type: 'text' },
  { name: 'amount', type: 'number' },
  { name: 'balance', type: 'number' },
  { name: 'counterpartySerial', type: 'text' },
  { name: 'counterpartyOrganizationId', type: 'text' },
];

/**
 * A statement line's cells after the coin's (CSV_COLUMNS): the entry, its operation (`type` as named by the caller),
 * the amount and the running balance after it, the counterparty. A statement's CSV and a data export share them.
 */
export function entryCells(row: StatementEntryRow, balance: Money, scale: number, type = row.type): Array<string | null> {
  return [
    row.id,
    row.operation_id,
    type,
    row.status,
    row.created_at.toISOString(),
    row.description,
    formatAmount(row.amount, scale),
    formatAmount(balance, scale),
    row.counterparty_serial,
    row.counterparty_organization_id,
  ];
}

/** What a statement's body is made of: the coin, its balance at the start, the range and the entries in it. */
interface StatementParts {
  coin: StatementCoinRow;
  opening: Money;
  from: string | null;
  to: string;
  rows: AsyncIterable<StatementEntryRow>;
}

/** A statement ready to stream: its chunks are produced page by page as the client reads. */
export interface Statement {
  serial: string;
  format: 'json' | 'csv';
  chunks: AsyncIterable<string>;
}

/**
 * Coin statements: the opening balance, each ledger entry with its operation, counterparty and the
 * running balance, and the closing balance. Read in keyset pages and streamed (JSON or CSV), so a
 * range of a million entries never sits in memory.
 */
@Injectable()
export class StatementsService {
  constructor(private readonly statements: StatementsRepository) {}

  /** The coin's organization (COIN_STATEMENT_VIEWER, checked by the route) and staff with COIN_VIEWER; anyone else gets a 404. */
  async statement(principal: Principal, serial: string, query: StatementQueryDto): Promise<Statement> {
    const coin = await this.statements.coin(serial);
    const owner = coin?.organization_id === principal.organizationId;
    if (!coin || !(owner || principal.permissions.has('COIN_VIEWER'))) throw new ApiError('exception.coin.not_found', `No coin ${serial}`);
    const to = query.dateTo === undefined ? new Date().toISOString() : asInstant(query.dateTo);
    const from = query.dateFrom === undefined ? null : asInstant(query.dateFrom);
    if (from !== null && Date.parse(to) <= Date.parse(from))
      throw ApiError.invalid('dateTo', 'must be later than dateFrom (dateTo defaults to now)');
    const opening = new Money(from === null ? '0' : await this.statements.balanceBefore(serial, from));
    const format = query.format ?? 'json';
    const parts = { coin, opening, from, to, rows: this.entries(serial, from ?? '-infinity', to) };
    return { serial, format, chunks: format === 'csv' ? csv(parts) : json(parts) };
  }

  private async *entries(serial: string, from: string, to: string): AsyncGenerator<StatementEntryRow> {
    let after = '0';
    for (;;) {
      const page = await this.statements.page(serial, from, to, after, STATEMENT_PAGE);
      yield* page;
      if (page.length < STATEMENT_PAGE) return;
      after = page[page.length - 1].id;
    }
  }
}

async function* json({ coin, opening, from, to, rows }: StatementParts): AsyncGenerator<string> {
  const scale = scaleOf(coin.fraction);
  const instant = (t: string | null) => (t === null ? 'null' : JSON.stringify(new Date(t).toISOString()));
  yield (
    `{"status":"ok","message":"OK","serial":${JSON.stringify(coin.serial)},"currency":${JSON.stringify(coin.code)},` +
    `"dateFrom":${instant(from)},"dateTo":${instant(to)},"openingBalance":${formatAmount(opening, scale)},"entries":[`
  );
  let balance = opening;
  let first = true;
  let chunk = '';
  for await (const row of rows) {
    balance = balance.plus(row.amount);
    const counterparty =
      row.counterparty_serial === null
        ? 'null'
        : `{"serial":${JSON.stringify(row.counterparty_serial)},"organizationId":${JSON.stringify(row.counterparty_organization_id)}}`;
    chunk +=
      `${first ? '' : ','}{"id":${JSON.stringify(row.id)},"operationId":${JSON.stringify(row.operation_id)},"operationType":${JSON.stringify(row.type)},` +
      `"operationStatus":${JSON.stringify(row.status)},"description":${JSON.stringify(row.description)},"createdAt":${JSON.stringify(row.created_at.toISOString())},` +
      `"amount":${formatAmount(row.amount, scale)},"balance":${formatAmount(balance, scale)},"counterparty":${counterparty}}`;
    first = false;
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}],"closingBalance":${formatAmount(balance, scale)}}`;
}

async function* csv({ coin, opening, from, to, rows }: StatementParts): AsyncGenerator<string> {
  const scale = scaleOf(coin.fraction);
  const line = (cells: Array<string | null>) => csvRecord(CSV_COLUMNS, cells);
  yield csvHeader(CSV_COLUMNS);
  yield line([
    '',
    '',
    'opening_balance',
    '',
    from === null ? '' : new Date(from).toISOString(),
    null,
    '',
    formatAmount(opening, scale),
    '',
    '',
  ]);
  let balance = opening;
  let chunk = '';
  for await (const row of rows) {
    balance = balance.plus(row.amount);
    chunk += line(entryCells(row, balance, scale));
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk + line(['', '', 'closing_balance', '', new Date(to).toISOString(), null, '', formatAmount(balance, scale), '', '']);
}
