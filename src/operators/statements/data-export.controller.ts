import { Body, Controller, Get, Post, StreamableFile } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { DataExportService } from './data-export.service';
import { DataExportInfoDto, DataExportRequestDto, DataExportStartedDto } from './dto/data-export.dto';

const NOT_FOUND = { description: 'exception.data_export.not_found: not an export of the caller', type: ErrorResponseDto };

/** Exports of the caller's history as a CSV file, as the family's dashboard asks for them. */
@ApiTags('statements')
@Controller('data-export')
export class DataExportController {
  constructor(private readonly exports: DataExportService) {}

  /** Starts an export of the caller's organization's history: the statement entries of its coins the filter covers. */
  @Post('init')
  @RequirePermissions('COIN_STATEMENT_VIEWER')
  @ApiOperation({ summary: "Start an export of the caller's history", operationId: 'startDataExport' })
  @ApiCreatedResponse({ type: DataExportStartedDto })
  async init(@Body() dto: DataExportRequestDto, @CurrentPrincipal() principal: Principal): Promise<DataExportStartedDto> {
    return { status: 'ok', message: 'Export started', id: await this.exports.start(principal, dto) };
  }

  /** The state of one of the caller's exports and where to fetch its file. */
  @Get('info/:id')
  @ApiParam({ name: 'id', description: 'The id `POST /data-export/init` answered' })
  @RequirePermissions('COIN_STATEMENT_VIEWER')
  @ApiOperation({ summary: 'The state of an export', operationId: 'getDataExportInfo' })
  @ApiOkResponse({ type: DataExportInfoDto })
  @ApiNotFoundResponse(NOT_FOUND)
  info(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<DataExportInfoDto> {
    return this.exports.info(principal, id);
  }

  /** The export's file: a CSV with the coin, then a statement's columns (operation types in the family's names). */
  @Get(':id/file')
  @RequirePermissions('COIN_STATEMENT_VIEWER')
  @ApiOperation({ summary: "An export's CSV file", operationId: 'getDataExportFile' })
  @ApiOkResponse({ description: 'The CSV', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiNotFoundResponse(NOT_FOUND)
  async file(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<StreamableFile> {
    const chunks = await this.exports.file(principal, id);
    return new StreamableFile(Readable.from(chunks), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="history-${id}.csv"`,
    });
  }
}
