import { Module } from '@nestjs/common';
import { DataExportController } from './data-export.controller';
import { DataExportService } from './data-export.service';
import { StatementsController } from './statements.controller';
import { DataExportsRepository, StatementsRepository } from './statements.repository';
import { StatementsService } from './statements.service';

@Module({
  controllers: [StatementsController, DataExportController],
  providers: [StatementsRepository, StatementsService, DataExportsRepository, DataExportService],
})
export class StatementsModule {}
