import { ApiParam, Body, Caller, Principal, Route, Routes, StreamableFile, UuidParam } from '../../platform/http';
import { ApiOkResponse } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import { DataExportService } from './data-export.service';
import * as dto from './dto/data-export.dto';

const VIEWER = { access: ['COIN_STATEMENT_VIEWER'] } as const;
const ONE = { ...VIEWER, errors: [['exception.data_export.not_found', 'not an export of the caller']] } as const;

/** Exports of the caller's history as a CSV file, as the family's dashboard asks for them. */
@Routes('data-export', 'statements')
export class DataExportController {
  constructor(private readonly exports: DataExportService) {}

  /** Starts an export of the caller's organization's history: the statement entries of its coins the filter covers. */
  @Route('POST', 'init', { ...VIEWER, summary: "Start an export of the caller's history" })
  async startDataExport(@Body() body: dto.DataExportRequestDto, @Caller() caller: Principal): Promise<dto.DataExportStartedDto> {
    return { status: 'ok', message: 'Export started', id: await this.exports.start(caller, body) };
  }

  /** The state of one of the caller's exports and where to fetch its file. */
  @ApiParam({ name: 'id', description: 'The id `POST /data-export/init` answered' })
  @Route('GET', 'info/:id', { ...ONE, summary: 'The state of an export' })
  getDataExportInfo(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.DataExportInfoDto> {
    return this.exports.info(caller, id);
  }

  /** The export's file: a CSV with the coin, then a statement's columns (operation types in the family's names). */
  @ApiOkResponse({ description: 'The CSV', content: { 'text/csv': { schema: { type: 'string' } } } })
  @Route('GET', ':id/file', { ...ONE, summary: "An export's CSV file" })
  async getDataExportFile(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<StreamableFile> {
    const chunks = await this.exports.file(caller, id);
    return new StreamableFile(Readable.from(chunks), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="history-${id}.csv"`,
    });
  }
}
