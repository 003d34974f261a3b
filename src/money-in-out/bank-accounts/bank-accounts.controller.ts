import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { BankAccountsService } from './bank-accounts.service';
import {
  BankAccountPageDto,
  BankAccountResponseDto,
  BankAccountViewDto,
  CreateBankAccountDto,
  BankAccountDeletedDto,
  UpdateBankAccountDto,
} from './dto/bank-account.dto';

@ApiTags('bank-accounts')
@Controller('bank-accounts')
export class BankAccountsController {
  constructor(private readonly accounts: BankAccountsService) {}

  /** Adds a bank account of the caller's organization; the IBAN's check digits are verified (ISO 13616). */
  @Post()
  @RequirePermissions('BANK_ACCOUNT_OWNER')
  @ApiOperation({ summary: 'Add a bank account', operationId: 'createBankAccount' })
  @ApiCreatedResponse({ type: BankAccountResponseDto })
  @ApiNotFoundResponse({ description: 'bankId is not in the catalog', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.bank_account.iban_taken', type: ErrorResponseDto })
  async create(@Body() dto: CreateBankAccountDto, @CurrentPrincipal() principal: Principal): Promise<BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account added', bankAccount: await this.accounts.create(principal, dto) };
  }

  /**
   * The bank accounts the caller's organization keeps for withdrawals; with BANK_ACCOUNT_APPROVER (compliance) every
   * organization's. Filters and sort are the family's compliance screen's; newest first by default.
   */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('BANK_ACCOUNT_VIEWER')
  @ApiOperation({ summary: 'Search bank accounts', operationId: 'viewBankAccounts' })
  @ApiOkResponse({ type: BankAccountPageDto })
  view(@Body() dto: BankAccountViewDto, @CurrentPrincipal() principal: Principal): Promise<BankAccountPageDto> {
    return this.accounts.view(principal, dto);
  }

  /** Approves an account (compliance): it takes withdrawals. An approved account again is a 409. */
  @Post(':id/approve')
  @HttpCode(200)
  @RequirePermissions('BANK_ACCOUNT_APPROVER')
  @ApiOperation({ summary: 'Approve a bank account', operationId: 'approveBankAccount' })
  @ApiOkResponse({ type: BankAccountResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.bank_account.decided: it is approved already', type: ErrorResponseDto })
  async approve(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account approved', bankAccount: await this.accounts.decide(principal, id, 'APPROVED') };
  }

  /** Rejects an account (compliance): it takes no withdrawals until approved. A rejected account again is a 409. */
  @Post(':id/reject')
  @HttpCode(200)
  @RequirePermissions('BANK_ACCOUNT_APPROVER')
  @ApiOperation({ summary: 'Reject a bank account', operationId: 'rejectBankAccount' })
  @ApiOkResponse({ type: BankAccountResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.bank_account.decided: it is rejected already', type: ErrorResponseDto })
  async reject(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account rejected', bankAccount: await this.accounts.decide(principal, id, 'REJECTED') };
  }

  /** One of the organization's bank accounts; another organization's, like an unknown one, is a 404. */
  @Get(':id')
  @RequirePermissions('BANK_ACCOUNT_OWNER')
  @ApiOperation({ summary: 'Get a bank account', operationId: 'getBankAccount' })
  @ApiOkResponse({ type: BankAccountResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankAccountResponseDto> {
    return { status: 'ok', message: 'OK', bankAccount: await this.accounts.get(principal, id) };
  }

  /** Changes the fields sent of one of the organization's bank accounts; the others keep their values (an empty body is a 400). */
  @Patch(':id')
  @RequirePermissions('BANK_ACCOUNT_OWNER')
  @ApiOperation({ summary: 'Change a bank account', operationId: 'updateBankAccount' })
  @ApiOkResponse({ type: BankAccountResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'Another account of the organization has this IBAN', type: ErrorResponseDto })
  async update(
    @UuidParam('id') id: string,
    @Body() dto: UpdateBankAccountDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account changed', bankAccount: await this.accounts.update(principal, id, dto) };
  }

  /** Removes the account; withdrawals already made to it keep their copy of its details. */
  @Delete(':id')
  @RequirePermissions('BANK_ACCOUNT_OWNER')
  @ApiOperation({ summary: 'Remove a bank account', operationId: 'deleteBankAccount' })
  @ApiOkResponse({ type: BankAccountDeletedDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async delete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<BankAccountDeletedDto> {
    await this.accounts.delete(principal, id);
    return { status: 'ok', message: 'Bank account removed', id };
  }
}
