import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OperationRecordPageDto, TransactionViewDto } from '../../money-movement/transactions/dto/transaction.dto';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { MerchantPaymentsService } from './merchant-payments.service';

@ApiTags('points-of-sale')
@Controller('points-of-sale')
export class PosTransactionsController {
  constructor(private readonly payments: MerchantPaymentsService) {}

  /**
   * The operations of the payments taken at one of the merchant's own points of sale, newest first, with the filters,
   * sort and paging of `POST /transactions/view`; it covers the newest 10,000 payments there. Another merchant's point
   * of sale, like a missing or deleted one, is a 404.
   */
  @Post(':posId/transactions/view')
  @HttpCode(200)
  @ApiParam({ name: 'posId', schema: { type: 'string', format: 'uuid' } })
  @RequirePermissions('POINT_OF_SALE_MANAGER')
  @ApiOperation({ summary: 'The transactions of a point of sale', operationId: 'viewPointOfSaleTransactions' })
  @ApiOkResponse({ type: OperationRecordPageDto })
  @ApiNotFoundResponse({
    description: "exception.point_of_sale.not_found: missing, deleted, or another merchant's",
    type: ErrorResponseDto,
  })
  view(
    @UuidParam('posId') posId: string,
    @Body() dto: TransactionViewDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<OperationRecordPageDto> {
    return this.payments.atPointOfSale(principal, posId, dto);
  }
}
