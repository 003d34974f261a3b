import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { CalculationDto } from '../commissions/dto/calculation.dto';
import { ErrorResponseDto } from '../common/error-response.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { OperationResultDto } from '../ledger/dto/operation.dto';
import { BankTopUpsService } from './bank-top-ups.service';
import { BankTopUpDto } from './dto/bank-top-up.dto';

@ApiTags('bank-top-ups')
@Controller('bank-top-ups')
export class BankTopUpsController {
  constructor(private readonly topUps: BankTopUpsService) {}

  /** Credits a coin from its issuer's bank-settlement coin; the answer carries customInformation (release 4.10.0). */
  @Post()
  @RequirePermissions('BANK_TOP_UP_MANAGER')
  @Idempotent()
  @ApiOperation({ summary: 'Bank top-up of a coin', operationId: 'createBankTopUp' })
  @ApiCreatedResponse({ type: OperationResultDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async topUp(@Body() dto: BankTopUpDto): Promise<OperationResultDto> {
    return { status: 'ok', message: 'Bank top-up completed', process: await this.topUps.topUp(dto) };
  }

  /** The fee and what the coin would be credited under its organization's contract, without moving money. */
  @Post('calculate')
  @HttpCode(200)
  @RequirePermissions('BANK_TOP_UP_MANAGER')
  @ApiOperation({ summary: 'Calculate a bank top-up', operationId: 'calculateBankTopUp' })
  @ApiOkResponse({ type: CalculationDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  calculate(@Body() dto: BankTopUpDto): Promise<CalculationDto> {
    return this.topUps.calculate(dto);
  }
}
