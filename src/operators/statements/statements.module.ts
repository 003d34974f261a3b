import { Module } from '@nestjs/common';
import { StatementsController } from './statements.controller';
import { StatementsRepository } from './statements.repository';
import { StatementsService } from './statements.service';

@Module({
  controllers: [StatementsController],
  providers: [StatementsRepository, StatementsService],
})
export class StatementsModule {}
