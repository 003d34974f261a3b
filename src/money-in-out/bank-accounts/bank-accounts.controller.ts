import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import { BankAccountsService } from './bank-accounts.service';
import * as dto from './dto/bank-account.dto';

/** One of the organization's bank accounts; another organization's, like an unknown one, is a 404. */
const ONE = { access: ['BANK_ACCOUNT_OWNER'], errors: ['exception.bank_account.not_found'] } as const;
/** Compliance decides an account; the same decision again is a 409. */
const DECISION = {
  ...ONE,
  access: ['BANK_ACCOUNT_APPROVER'],
  status: 200,
  errors: [...ONE.errors, 'exception.bank_account.decided'],
} as const;

@Routes('bank-accounts')
export class BankAccountsController {
  constructor(private readonly accounts: BankAccountsService) {}

  /** Adds a bank account of the caller's organization; the IBAN's check digits are verified (ISO 13616). */
  @Route('POST', '', {
    ...ONE,
    summary: 'Add a bank account',
    errors: [['exception.bank_catalog.not_found', 'bankId is not in the catalog'], 'exception.bank_account.iban_taken'],
  })
  async createBankAccount(@Body() body: dto.CreateBankAccountDto, @Caller() caller: Principal): Promise<dto.BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account added', bankAccount: await this.accounts.create(caller, body) };
  }

  /** The organization's bank accounts for withdrawals, newest first; for compliance (BANK_ACCOUNT_APPROVER), every organization's. */
  @Route('POST', 'view', { access: ['BANK_ACCOUNT_VIEWER'], summary: 'Search bank accounts', status: 200 })
  viewBankAccounts(@Body() body: dto.BankAccountViewDto, @Caller() caller: Principal): Promise<dto.BankAccountPageDto> {
    return this.accounts.view(caller, body);
  }

  /** Approves an account (compliance): it takes withdrawals. */
  @Route('POST', ':id/approve', { ...DECISION, summary: 'Approve a bank account' })
  async approveBankAccount(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account approved', bankAccount: await this.accounts.decide(caller, id, 'APPROVED') };
  }

  /** Rejects an account (compliance): it takes no withdrawals until approved. */
  @Route('POST', ':id/reject', { ...DECISION, summary: 'Reject a bank account' })
  async rejectBankAccount(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account rejected', bankAccount: await this.accounts.decide(caller, id, 'REJECTED') };
  }

  /** One of the organization's bank accounts. */
  @Route('GET', ':id', { ...ONE, summary: 'Get a bank account' })
  async getBankAccount(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankAccountResponseDto> {
    return { status: 'ok', message: 'OK', bankAccount: await this.accounts.get(caller, id) };
  }

  /** Changes the fields sent of one of the organization's bank accounts; the others keep their values (an empty body is a 400). */
  @Route('PATCH', ':id', { ...ONE, summary: 'Change a bank account', errors: [...ONE.errors, 'exception.bank_account.iban_taken'] })
  async updateBankAccount(
    @UuidParam('id') id: string,
    @Body() body: dto.UpdateBankAccountDto,
    @Caller() caller: Principal,
  ): Promise<dto.BankAccountResponseDto> {
    return { status: 'ok', message: 'Bank account changed', bankAccount: await this.accounts.update(caller, id, body) };
  }

  /** Removes the account; withdrawals already made to it keep their copy of its details. */
  @Route('DELETE', ':id', { ...ONE, summary: 'Remove a bank account' })
  async deleteBankAccount(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.BankAccountDeletedDto> {
    await this.accounts.delete(caller, id);
    return { status: 'ok', message: 'Bank account removed', id };
  }
}
