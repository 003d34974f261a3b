import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, PageRequestDto, pageWindow } from '../../platform/common/paging.dto';
import { BankCatalogService } from '../bank-catalog/bank-catalog.service';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { BankAccountRow, BankAccountsRepository, BankAccountValues } from './bank-accounts.repository';
import type { BankAccountDto, CreateBankAccountDto, UpdateBankAccountDto } from './dto/bank-account.dto';

/** The bank details a payout goes to. */
export interface BankDetails {
  iban: string;
  bic: string | null;
  accountHolder: string;
  bankName: string | null;
}

/** The bank accounts of the caller's organization; another organization's account is a 404. */
@Injectable()
export class BankAccountsService {
  constructor(
    private readonly accounts: BankAccountsRepository,
    private readonly catalog: BankCatalogService,
    private readonly uow: UnitOfWork,
  ) {}

  async create(principal: Principal, dto: CreateBankAccountDto): Promise<BankAccountDto> {
    const row = await this.accounts.insert(principal.organizationId, await this.values(dto));
    if (!row) throw new ApiError('exception.bank_account.iban_taken', `The organization already has a bank account with IBAN ${dto.iban}`);
    return toBankAccount(row);
  }

  async get(principal: Principal, id: string): Promise<BankAccountDto> {
    return toBankAccount(await this.own(principal.organizationId, id));
  }

  async view(principal: Principal, page: PageRequestDto): Promise<Page<BankAccountDto>> {
    const { total, rows } = await this.accounts.page(principal.organizationId, pageWindow(page).offset, pageWindow(page).limit);
    return pageOf(page, total, rows.map(toBankAccount));
  }

  /** Changes the fields sent; the others keep their values. */
  async update(principal: Principal, id: string, dto: UpdateBankAccountDto): Promise<BankAccountDto> {
    if (Object.values(dto).every((v) => v === undefined)) throw ApiError.invalid('body', 'must change at least one field');
    return this.uow.run(async () => {
      const current = await this.own(principal.organizationId, id);
      const merged = {
        name: dto.name ?? current.name ?? undefined,
        iban: dto.iban ?? current.iban,
        bic: dto.bic ?? (dto.bankId ? undefined : (current.bic ?? undefined)),
        accountHolder: dto.accountHolder ?? current.account_holder,
        bankName: dto.bankName ?? (dto.bankId ? undefined : (current.bank_name ?? undefined)),
        bankId: dto.bankId ?? current.bank_id ?? undefined,
      };
      const row = await this.accounts.update(principal.organizationId, id, await this.values(merged));
      // The account is the organization's (just read): no row means another of its accounts has this IBAN.
      if (!row)
        throw new ApiError('exception.bank_account.iban_taken', `The organization already has a bank account with IBAN ${merged.iban}`);
      return toBankAccount(row);
    });
  }

  async delete(principal: Principal, id: string): Promise<void> {
    if (!(await this.accounts.delete(principal.organizationId, id))) throw notFound(id);
  }

  /** The payout details of one of an organization's accounts (404 when it is not that organization's). */
  async detailsOf(organizationId: string, id: string): Promise<BankDetails & { id: string }> {
    const row = await this.own(organizationId, id);
    return { id: row.id, iban: row.iban, bic: row.bic, accountHolder: row.account_holder, bankName: row.bank_name };
  }

  private async own(organizationId: string, id: string): Promise<BankAccountRow> {
    const row = await this.accounts.get(organizationId, id);
    if (!row) throw notFound(id);
    return row;
  }

  /** A bank of the catalog fills the BIC and the bank's name the request left out. */
  private async values(dto: CreateBankAccountDto): Promise<BankAccountValues> {
    const bank = dto.bankId ? await this.catalog.get(dto.bankId) : undefined;
    return {
      name: dto.name ?? null,
      iban: dto.iban,
      bic: dto.bic ?? bank?.bic ?? null,
      accountHolder: dto.accountHolder,
      bankName: dto.bankName ?? bank?.bankName ?? null,
      bankId: dto.bankId ?? null,
    };
  }
}

const notFound = (id: string) => new ApiError('exception.bank_account.not_found', `No bank account ${id}`);

function toBankAccount(row: BankAccountRow): BankAccountDto {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    iban: row.iban,
    bic: row.bic,
    accountHolder: row.account_holder,
    bankName: row.bank_name,
    bankId: row.bank_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
