import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { ErrorResponseDto } from '../common/error-response.dto';
import { familyTypeOf, OPERATION_FLOW_NAMES, OPERATION_FLOWS, OperationFlow } from '../ledger/operation-types';

/** The flows that bring money into the service, and those that take it out (the rest move it within). */
const MONEY_IN: readonly OperationFlow[] = ['bank_topup', 'cash_in'];
const MONEY_OUT: readonly OperationFlow[] = ['bank_withdrawal', 'cash_out', 'gate_payment'];
import { CommissionsService } from './commissions.service';
import { CommissionCalculationDto, CommissionCalculationRequestDto, OperationFlowListDto } from './dto/commission-calculation.dto';

@ApiTags('commissions')
@Controller()
export class CommissionsController {
  constructor(private readonly commissions: CommissionsService) {}

  /**
   * The fee a flow would charge between two client coins under the payer organization's contract
   * (the payee's when the payer is outside the service), without moving money. A technical
   * (system) coin on either side is a 400 (specification section 7).
   */
  @Post('commissions/calculate')
  @HttpCode(200)
  @RequirePermissions('COMMISSION_VIEWER')
  @ApiOperation({ summary: 'Calculate a commission', operationId: 'calculateCommission' })
  @ApiOkResponse({ type: CommissionCalculationDto })
  @ApiNotFoundResponse({ description: 'A coin does not exist', type: ErrorResponseDto })
  calculate(@Body() dto: CommissionCalculationRequestDto): Promise<CommissionCalculationDto> {
    return this.commissions.calculate(dto);
  }

  /** The operation flows a commission profile attaches to; a flow that exists as an operation has the operation type of the same name. */
  @Get('operation-flows')
  @RequirePermissions()
  @ApiOperation({ summary: 'List operation flows', operationId: 'listOperationFlows' })
  @ApiOkResponse({ type: OperationFlowListDto })
  flows(): OperationFlowListDto {
    return {
      status: 'ok',
      message: 'OK',
      records: OPERATION_FLOW_NAMES.map((name) => ({
        id: name,
        name,
        description: OPERATION_FLOWS[name],
        code: familyTypeOf(name),
        processType: familyTypeOf(name),
        transactionType: MONEY_IN.includes(name) ? 'issue' : MONEY_OUT.includes(name) ? 'redeem' : 'transfer',
      })),
    };
  }
}
