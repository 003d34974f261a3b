import { Body, Caller, Principal, Route, Routes } from '../../platform/http';
import { MAX_UNPAGED_RECORDS } from '../../platform/common/paging.dto';
import { LedgerService } from '../../platform/ledger/ledger.service';
import { PaymentToolsService } from '../../platform/payment-tools/payment-tools.service';
import { BankAccountsService } from './bank-accounts.service';
import * as dto from './dto/bank-account.dto';

const OWNER = { access: ['BANK_ACCOUNT_OWNER'] } as const;

/** The caller's bank accounts under the paths the family's web client reads them by. */
@Routes('', 'bank-accounts')
export class MyBankAccountsController {
  constructor(
    private readonly accounts: BankAccountsService,
    private readonly ledger: LedgerService,
    private readonly tools: PaymentToolsService,
  ) {}

  /** Every bank account of the caller's organization (at most 10,000), with `details` (the withdrawal form fills itself from them). */
  @Route('GET', 'profiles/my/bank-accounts', { ...OWNER, summary: "Every bank account of the caller's organization" })
  async listMyBankAccounts(@Caller() caller: Principal): Promise<dto.MyBankAccountListDto> {
    const page = await this.accounts.mine(caller, { all: true, pageSize: MAX_UNPAGED_RECORDS });
    return { status: 'ok', message: 'OK', records: page.records };
  }

  /** The caller's bank accounts, paged, with `details`; `filter.coinSerial` names one of the caller's coins (else 404). */
  @Route('POST', 'my/bank-accounts/view', {
    ...OWNER,
    summary: "Search the caller's bank accounts (the family client's account details)",
    status: 200,
    errors: [['exception.coin.not_found', "filter.coinSerial is not one of the caller's coins"]],
  })
  async viewMyBankAccounts(@Body() body: dto.MyBankAccountViewDto, @Caller() caller: Principal): Promise<dto.MyBankAccountPageDto> {
    const serial = body.filter?.coinSerial;
    if (serial) this.tools.payer({ coins: await this.ledger.read([serial]), holds: [] }, serial, caller, 'filter.coinSerial');
    const { filter: _filter, ...paging } = body;
    return this.accounts.mine(caller, paging);
  }
}
