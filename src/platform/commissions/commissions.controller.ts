import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../access/access.decorators';
import { ErrorResponseDto } from '../common/error-response.dto';
import { OPERATION_FLOW_NAMES } from '../ledger/operation-types';
import { toFlowDto } from './commission.mapper';
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
      records: OPERATION_FLOW_NAMES.map(toFlowDto),
    };
  }
}
