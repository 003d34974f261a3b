import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/access/principal';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, PageRequestDto, pageWindow } from '../../platform/common/paging.dto';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { UserActionsService } from '../../platform/user-actions/user-actions.service';
import { BankCatalogService } from '../bank-catalog/bank-catalog.service';
import {
  BankAccountRow,
  BankAccountSearch,
  BankAccountsRepository,
  BankAccountStatus,
  BankAccountValues,
} from './bank-accounts.repository';
import type { BankAccountDto, BankAccountViewDto, CreateBankAccountDto, UpdateBankAccountDto } from './dto/bank-account.dto';

/** The bank details a payout goes to. */
export interface BankDetails {
  iban: string;
  bic: string | null;
  accountHolder: string;
  bankName: string | null;
}

/**
 * The bank accounts of the caller's organization (another organization's account is a 404), and compliance's decisions
 * on them. Only an `APPROVED` account takes withdrawals; with BANK_ACCOUNTS_REQUIRE_APPROVAL accounts start `PENDING`.
 */
@Injectable()
export class BankAccountsService {
  constructor(
    private readonly accounts: BankAccountsRepository,
    private readonly catalog: BankCatalogService,
    private readonly actions: UserActionsService,
    private readonly uow: UnitOfWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(principal: Principal, dto: CreateBankAccountDto): Promise<BankAccountDto> {
    const row = await this.accounts.insert(principal.organizationId, await this.values(dto), this.initialStatus(), principal.userId);
    if (!row) throw new ApiError('exception.bank_account.iban_taken', `The organization already has a bank account with IBAN ${dto.iban}`);
    return toBankAccount(row);
  }

  async get(principal: Principal, id: string): Promise<BankAccountDto> {
    return toBankAccount(await this.own(principal.organizationId, id));
  }

  /** The organization's accounts, newest first. */
  async mine(principal: Principal, page: PageRequestDto): Promise<Page<BankAccountDto>> {
    return this.search(page, { organizationId: principal.organizationId, ibanParts: [], bicParts: [] });
  }

  /** The search of `POST /bank-accounts/view`: every organization's accounts for BANK_ACCOUNT_APPROVER, else the caller's. */
  async view(principal: Principal, dto: BankAccountViewDto): Promise<Page<BankAccountDto>> {
    const f = dto.filter ?? {};
    const [key, order] = (['bankName', 'status', 'createdAt'] as const)
      .map((k) => [k, dto.sort?.[k]] as const)
      .find(([, o]) => o !== undefined) ?? ['createdAt', 'desc'];
    const present = (...values: (string | undefined)[]) => values.filter((v): v is string => !!v);
    return this.search(dto, {
      organizationId: principal.permissions.has('BANK_ACCOUNT_APPROVER') ? undefined : principal.organizationId,
      statuses: f.statuses,
      userIds: f.userIds,
      // The family's names (bankAccountNumber, swift) search what the service's (iban, bic) do; given both, both narrow.
      ibanParts: present(f.iban, f.bankAccountNumber),
      bicParts: present(f.bic, f.swift),
      bankName: f.bankName,
      sort: ({ bankName: 'bank_name', status: 'status', createdAt: 'created_at' } as const)[key],
      direction: order === 'asc' ? 'ASC' : 'DESC',
    });
  }

  /** Changes the fields sent; the others keep their values. Under the approval setting a new IBAN waits for approval again. */
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
      const status = merged.iban !== current.iban && this.config.bankAccountsRequireApproval ? 'PENDING' : current.status;
      const row = await this.accounts.update(principal.organizationId, id, await this.values(merged), status);
      // The account is the organization's (just read): no row means another of its accounts has this IBAN.
      if (!row)
        throw new ApiError('exception.bank_account.iban_taken', `The organization already has a bank account with IBAN ${merged.iban}`);
      return toBankAccount(row);
    });
  }

  async delete(principal: Principal, id: string): Promise<void> {
    if (!(await this.accounts.delete(principal.organizationId, id))) throw notFound(id);
  }

  /**
   * Compliance approves (`APPROVED`) or rejects (`REJECTED`) any organization's account, whatever it was before; the
   * same status again is a 409. Recorded in the action log.
   */
  async decide(principal: Principal, id: string, status: 'APPROVED' | 'REJECTED'): Promise<BankAccountDto> {
    return this.uow.run(async () => {
      const current = await this.accounts.get(undefined, id, true);
      if (!current) throw notFound(id);
      if (current.status === status) throw new ApiError('exception.bank_account.decided', `The bank account is already ${status}`);
      const row = await this.accounts.decide(id, status, principal.userId);
      await this.actions.record({
        userId: principal.userId,
        action: status === 'APPROVED' ? 'bank_account_approved' : 'bank_account_rejected',
        details: { bankAccountId: id, organizationId: row.organization_id, from: current.status, to: status },
      });
      return toBankAccount(row);
    });
  }

  /** The payout details of one of an organization's accounts (404 when it is not that organization's, 409 unless approved). */
  async detailsOf(organizationId: string, id: string): Promise<BankDetails & { id: string }> {
    const row = usable(await this.own(organizationId, id));
    return { id: row.id, iban: row.iban, bic: row.bic, accountHolder: row.account_holder, bankName: row.bank_name };
  }

  /**
   * Details typed in for a withdrawal: under BANK_ACCOUNTS_REQUIRE_APPROVAL their IBAN must be an approved account of the
   * organization (409 otherwise), which the withdrawal then names; without it they go as given.
   */
  async typedIn(organizationId: string, details: BankDetails): Promise<BankDetails & { id: string | null }> {
    if (!this.config.bankAccountsRequireApproval) return { id: null, ...details };
    const row = await this.accounts.byIban(organizationId, details.iban);
    if (!row) throw notApproved(`IBAN ${details.iban} is not a bank account of the organization`);
    return { ...details, id: usable(row).id };
  }

  private async search(
    page: PageRequestDto,
    search: Omit<BankAccountSearch, 'offset' | 'limit' | 'sort' | 'direction'> & Partial<BankAccountSearch>,
  ): Promise<Page<BankAccountDto>> {
    const { total, rows } = await this.accounts.search({ sort: 'created_at', direction: 'DESC', ...search, ...pageWindow(page) });
    return pageOf(page, total, rows.map(toBankAccount));
  }

  private initialStatus(): BankAccountStatus {
    return this.config.bankAccountsRequireApproval ? 'PENDING' : 'APPROVED';
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
const notApproved = (message: string) => new ApiError('exception.bank_account.not_approved', message);

function usable(row: BankAccountRow): BankAccountRow {
  if (row.status !== 'APPROVED') throw notApproved(`Bank account ${row.id} is ${row.status}: withdrawals go only to an approved account`);
  return row;
}

function toBankAccount(row: BankAccountRow): BankAccountDto {
  return {
    id: row.id,
    organizationId: row.organization_id,
    userId: row.created_by,
    name: row.name,
    iban: row.iban,
    bic: row.bic,
    accountHolder: row.account_holder,
    bankName: row.bank_name,
    bankId: row.bank_id,
    status: row.status,
    details: {
      bankAccountNumber: row.iban,
      iban: row.iban,
      fullName: row.account_holder,
      bic: row.bic,
      swift: row.bic,
      name: row.bank_name ?? row.name,
      address: null,
      id: row.id,
      number: row.iban,
      bankId: row.bank_id,
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
