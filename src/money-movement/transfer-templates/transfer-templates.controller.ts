import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import {
  CreateTransferTemplateDto,
  TransferTemplatePageDto,
  TransferTemplateResponseDto,
  TransferTemplateViewDto,
} from './dto/transfer-template.dto';
import { TransferTemplatesService } from './transfer-templates.service';

/** The caller's saved transfers. They move no money: the client sends `POST /transfers` with a template's values. */
@ApiTags('transfer-templates')
@Controller('templates/transfer')
export class TransferTemplatesController {
  constructor(private readonly templates: TransferTemplatesService) {}

  /** Saves a transfer from one of the caller's coins; checked as `POST /transfers` would, except for funds. */
  @Post()
  @RequirePermissions('TRANSFER_TEMPLATE_OWNER')
  @ApiOperation({ summary: 'Save a transfer template', operationId: 'createTransferTemplate' })
  @ApiCreatedResponse({ type: TransferTemplateResponseDto })
  @ApiNotFoundResponse({
    description: "exception.coin.not_found: the payer coin is not the caller's, or the payee coin is not a client coin",
    type: ErrorResponseDto,
  })
  @ApiConflictResponse({ description: 'exception.transfer_template.name_taken, or exception.coin.closed', type: ErrorResponseDto })
  async create(@Body() dto: CreateTransferTemplateDto, @CurrentPrincipal() principal: Principal): Promise<TransferTemplateResponseDto> {
    return { status: 'ok', message: 'Template saved', template: await this.templates.create(principal, dto) };
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
