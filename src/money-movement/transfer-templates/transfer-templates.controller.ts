import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { ApiRequest, CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { clientAddress } from '../../platform/common/http';
import { UuidParam } from '../../platform/common/validators';
import { Idempotent } from '../../platform/idempotency/idempotent.decorator';
import { PAYEE_LOOKUPS_LIMITED } from '../coins/payee-lookups';
import {
  CreateTransferTemplateDto,
  TemplateAmountDto,
  TemplateCalculationDto,
  TemplateExecutionDto,
  TemplateFromOperationDto,
  TransferTemplateListDto,
  TransferTemplatePageDto,
  UpdateTransferTemplateDto,
  TransferTemplateResponseDto,
  TransferTemplateViewDto,
} from './dto/transfer-template.dto';
import { TransferTemplatesService } from './transfer-templates.service';

/**
 * The caller's saved transfers. Executing one (`POST /templates/transfer/{id}/execute`) is `POST /transfers` with its
 * values, checked and priced again.
 */
@ApiTags('transfer-templates')
@Controller('templates/transfer')
export class TransferTemplatesController {
  constructor(private readonly templates: TransferTemplatesService) {}

  /**
   * Saves a transfer from one of the caller's coins; checked as `POST /transfers` would, except for funds. The payee
   * coin is typed in and the answer names its owner (as a payee check does): a payee lookup, limited as
   * `POST /coins/validate` is (PAYEE_LOOKUPS_PER_HOUR per user, PAYEE_LOOKUPS_PER_ADDRESS_PER_HOUR per address).
   */
  @Post()
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: 'Save a transfer template', operationId: 'createTransferTemplate' })
  @ApiCreatedResponse({ type: TransferTemplateResponseDto })
  @ApiNotFoundResponse({
    description: "exception.coin.not_found: the payer coin is not the caller's, or the payee coin is not a client coin",
    type: ErrorResponseDto,
  })
  @ApiConflictResponse({ description: 'exception.transfer_template.name_taken, or exception.coin.closed', type: ErrorResponseDto })
  @ApiTooManyRequestsResponse(PAYEE_LOOKUPS_LIMITED)
  async create(
    @Body() dto: CreateTransferTemplateDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: ApiRequest,
  ): Promise<TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template saved', template: await this.templates.create(principal, dto, clientAddress(request)) };
  }

  /**
   * Saves a transfer the caller's organization made as a template (the family's web client offers it after a payment):
   * its coins, and its amount unless `amount` is given.
   */
  @Post('operation/:operationId')
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: 'Save a done transfer as a template', operationId: 'createTransferTemplateFromOperation' })
  @ApiCreatedResponse({ type: TransferTemplateResponseDto })
  @ApiNotFoundResponse({ description: 'exception.transaction.not_found: no such operation the caller may see', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.transfer_template.name_taken, or exception.coin.closed', type: ErrorResponseDto })
  async fromOperation(
    @UuidParam('operationId') operationId: string,
    @Body() dto: TemplateFromOperationDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template saved', template: await this.templates.fromOperation(principal, operationId, dto) };
  }

  /** Every template of the caller (for the organization they act for), by name, at most 1,000: the family's web client's list. */
  @Get()
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: "The caller's transfer templates", operationId: 'listTransferTemplates' })
  @ApiOkResponse({ type: TransferTemplateListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<TransferTemplateListDto> {
    return { status: 'ok', message: 'OK', transferTemplates: await this.templates.list(principal) };
  }

  /** Renames a template, or changes its amount or description; its coins stay. */
  @Patch(':id')
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: 'Change a transfer template', operationId: 'updateTransferTemplate' })
  @ApiOkResponse({ type: TransferTemplateResponseDto })
  @ApiNotFoundResponse({ description: 'exception.transfer_template.not_found', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.transfer_template.name_taken', type: ErrorResponseDto })
  async update(
    @UuidParam('id') id: string,
    @Body() dto: UpdateTransferTemplateDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template updated', template: await this.templates.update(principal, id, dto) };
  }

  /**
   * What executing the template (with its amount, or `amount`) would cost and deliver, as `POST /transfers/calculate`
   * answers, with the payer coin's issuer in full and the template's `paymentToolDetails` (the payee's display name).
   */
  @Post(':id/calculate')
  @HttpCode(200)
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: 'Price a transfer template', operationId: 'calculateTransferTemplate' })
  @ApiOkResponse({ type: TemplateCalculationDto })
  @ApiNotFoundResponse({ description: 'exception.transfer_template.not_found, or a coin gone', type: ErrorResponseDto })
  calculate(
    @UuidParam('id') id: string,
    @Body() dto: TemplateAmountDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TemplateCalculationDto> {
    return this.templates.calculate(principal, id, dto);
  }

  /**
   * Sends the template's transfer (its amount, or `amount`), exactly as `POST /transfers` with its values; the answer
   * names the operation `businessProcessId` too, as the family's web client reads it.
   */
  @Post(':id/execute')
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER', 'TRANSFER_CREATOR')
  @Idempotent()
  @ApiOperation({ summary: 'Execute a transfer template', operationId: 'executeTransferTemplate' })
  @ApiCreatedResponse({ type: TemplateExecutionDto })
  @ApiNotFoundResponse({ description: 'exception.transfer_template.not_found, or a coin gone', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'Insufficient funds, or a coin closed or inactive', type: ErrorResponseDto })
  async execute(
    @UuidParam('id') id: string,
    @Body() dto: TemplateAmountDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TemplateExecutionDto> {
    const process = await this.templates.execute(principal, id, dto);
    return {
      status: 'ok',
      message: 'Transfer completed',
      process,
      businessProcessId: process.id,
      businessProcessStatus: process.status,
      templateId: id,
    };
  }

  /** The caller's templates (for the organization they act for), by name unless sorted otherwise. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: "Search the caller's transfer templates", operationId: 'viewTransferTemplates' })
  @ApiOkResponse({ type: TransferTemplatePageDto })
  view(@Body() dto: TransferTemplateViewDto, @CurrentPrincipal() principal: Principal): Promise<TransferTemplatePageDto> {
    return this.templates.view(principal, dto);
  }

  /** Deletes one of the caller's transfer templates and answers it as it was; another user's is a 404. */
  @Delete(':id')
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: 'Delete a transfer template', operationId: 'deleteTransferTemplate' })
  @ApiOkResponse({ type: TransferTemplateResponseDto })
  @ApiNotFoundResponse({ description: 'exception.transfer_template.not_found', type: ErrorResponseDto })
  async delete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template deleted', template: await this.templates.delete(principal, id) };
  }
}
