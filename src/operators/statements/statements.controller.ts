import { ApiExtraModels, Caller, Principal, Query, Route, Routes, SerialParam, StreamableFile } from '../../platform/http';
import { ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import * as dto from './dto/statement.dto';
import { StatementsService } from './statements.service';

@Routes('coins', 'statements')
export class StatementsController {
  constructor(private readonly statements: StatementsService) {}

  /**
   * The coin's statement over [dateFrom, dateTo): opening balance, every ledger entry with its operation, counterparty and running
   * balance, closing balance. Streamed, as JSON or as CSV (`format=csv`: a header row, an `opening_balance` row, the entries, a
   * `closing_balance` row). For the coin's organization and staff with COIN_VIEWER.
   */
  @ApiExtraModels(dto.StatementDto)
  @ApiOkResponse({
    description: 'The statement; `text/csv` with format=csv',
    content: { 'application/json': { schema: { $ref: getSchemaPath(dto.StatementDto) } }, 'text/csv': { schema: { type: 'string' } } },
  })
  @Route('GET', ':serial/statement', {
    access: ['COIN_STATEMENT_VIEWER'],
    summary: "A coin's statement with running balances (JSON or CSV)",
    errors: [['exception.coin.not_found', 'no such coin, or not the caller’s']],
  })
  async coinStatement(
    @SerialParam() serial: string,
    @Query() query: dto.StatementQueryDto,
    @Caller() caller: Principal,
  ): Promise<StreamableFile> {
    const statement = await this.statements.statement(caller, serial, query);
    return new StreamableFile(Readable.from(statement.chunks), {
      type: statement.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      disposition: statement.format === 'csv' ? `attachment; filename="statement-${serial}.csv"` : undefined,
    });
  }
}
