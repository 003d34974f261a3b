import { Body, Route, Routes } from '../http';
import { OPERATION_FLOW_NAMES } from '../ledger/operation-types';
import { toFlowDto } from './commission.mapper';
import { CommissionsService } from './commissions.service';
import * as dto from './dto/commission-calculation.dto';

@Routes('', 'commissions')
export class CommissionsController {
  constructor(private readonly commissions: CommissionsService) {}

  /** A flow's fee between two client coins under the payer's contract (the payee's for an outside payer); a technical coin is a 400. */
  @Route('POST', 'commissions/calculate', {
    summary: 'Calculate a commission',
    access: ['COMMISSION_VIEWER'],
    status: 200,
    errors: [['exception.coin.not_found', 'a coin does not exist']],
  })
  calculateCommission(@Body() body: dto.CommissionCalculationRequestDto): Promise<dto.CommissionCalculationDto> {
    return this.commissions.calculate(body);
  }

  /** The operation flows a commission profile attaches to; a flow that exists as an operation has the operation type of the same name. */
  @Route('GET', 'operation-flows', { summary: 'List operation flows', access: [] })
  listOperationFlows(): dto.OperationFlowListDto {
    return { status: 'ok', message: 'OK', records: OPERATION_FLOW_NAMES.map(toFlowDto) };
  }
}
