import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { CsvColumn, csvHeader, csvRecord } from '../../platform/common/csv';
import { Money, scaleOf } from '../../platform/common/money';
import { FileSourcesService } from '../../platform/files/file-sources.service';
import { FAMILY_STATUS_NAMES, familyTypeOf, serviceTypesOf } from '../../platform/ledger/operation-types';
import type { DataExportInfoDto, DataExportRequestDto } from './dto/data-export.dto';
import { CSV_COLUMNS, entryCells, STATEMENT_PAGE } from './statements.service';
import { DataExportFilter, DataExportRow, DataExportsRepository, StatementCoinRow, StatementsRepository } from './statements.repository';

/** The export's columns: the coin, then a statement's. */
export const EXPORT_COLUMNS: readonly CsvColumn[] = [
  { name: 'coinSerial', type: 'text' },
  { name: 'currency', type: 'text' },
  ...CSV_COLUMNS,
];

/**
 * Exports of a user's history, built on statements: the statement entries of each of the organization's coins the
 * filter covers, in one CSV. Starting one records what it covers (its end fixed at that moment); the file is written
 * as it is fetched, page by page, so it is ready at once and never held in memory.
 */
@Injectable()
export class DataExportService implements OnModuleInit {
  constructor(
    private readonly exports: DataExportsRepository,
    private readonly statements: StatementsRepository,
    private readonly sources: FileSourcesService,
  ) {}

  /** The family's client fetches an export's file where it fetches every file: `GET /media-files/{fileId}/…`. */
  onModuleInit(): void {
    this.sources.register(async (principal, id) => {
      if (!principal.permissions.has('COIN_STATEMENT_VIEWER')) return undefined;
      const row = await this.exports.own(id, principal.userId, principal.organizationId);
      if (!row) return undefined;
      return { name: `history-${id}.csv`, mediaType: 'text/csv; charset=utf-8', content: await this.file(principal, id) };
    });
  }

  async start(principal: Principal, dto: DataExportRequestDto): Promise<string> {
    const filter: DataExportFilter = {
      ...dto,
      types: dto.types?.length ? serviceTypesOf(dto.types) : undefined,
      statuses: dto.statuses?.map((s) => FAMILY_STATUS_NAMES[s] ?? s),
      createdAtTo: dto.createdAtTo ?? new Date().toISOString(),
    };
    if (dto.createdAtFrom !== undefined && Date.parse(filter.createdAtTo) <= Date.parse(dto.createdAtFrom)) {
      throw ApiError.invalid('createdAtFrom', 'must be in the past (createdAtTo defaults to now)');
    }
    return (await this.exports.insert(principal.userId, principal.organizationId, filter)).id;
  }

  async info(principal: Principal, id: string): Promise<DataExportInfoDto> {
    const row = await this.own(principal, id);
    return {
      status: 'ok',
      message: 'OK',
      exportInfo: {
        exportStatus: 'COMPLETE',
        fileId: row.id,
        fileLink: `/api/v1/data-export/${row.id}/file`,
        createdAt: row.created_at.toISOString(),
      },
    };
  }

  /** The export's CSV, produced as it is read. */
  async file(principal: Principal, id: string): Promise<AsyncIterable<string>> {
    const row = await this.own(principal, id);
    const coins = await this.exports.coins(principal.organizationId, row.filter.coinSerials, row.filter.currencyCodes);
    return this.csv(row.filter, coins);
  }

  private async own(principal: Principal, id: string): Promise<DataExportRow> {
    const row = await this.exports.own(id, principal.userId, principal.organizationId);
    if (!row) throw new ApiError('exception.data_export.not_found', `No export ${id}`);
    return row;
  }

  private async *csv(filter: DataExportFilter, coins: StatementCoinRow[]): AsyncGenerator<string> {
    yield csvHeader(EXPORT_COLUMNS);
    const from = filter.createdAtFrom ?? '-infinity';
    const keep = (e: { operation_id: string; type: string; status: string }) =>
      (!filter.ids?.length || filter.ids.includes(e.operation_id)) &&
      (filter.types === undefined || filter.types.includes(e.type)) &&
      (!filter.statuses?.length || filter.statuses.includes(e.status));
    for (const coin of coins) {
      const scale = scaleOf(coin.fraction);
      // The running balance counts every entry of the coin, also those the filter leaves out of the file.
      let balance = new Money(filter.createdAtFrom === undefined ? '0' : await this.statements.balanceBefore(coin.serial, from));
      let after = '0';
      let chunk = '';
      for (;;) {
        const page = await this.statements.page(coin.serial, from, filter.createdAtTo, after, STATEMENT_PAGE);
        for (const e of page) {
          balance = balance.plus(e.amount);
          if (!keep(e)) continue;
          chunk += csvRecord(EXPORT_COLUMNS, [coin.serial, coin.code, ...entryCells(e, balance, scale, familyTypeOf(e.type))]);
        }
        if (chunk.length > 64 * 1024 || page.length < STATEMENT_PAGE) {
          yield chunk;
          chunk = '';
        }
        if (page.length < STATEMENT_PAGE) break;
        after = page[page.length - 1].id;
      }
    }
  }
}
