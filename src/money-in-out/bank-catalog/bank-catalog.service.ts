import { Injectable } from '@nestjs/common';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { readBankCatalog, valuesOf } from './bank-catalog-file';
import { BankCatalogRepository, BankRow } from './bank-catalog.repository';
import type { BankCatalogQueryDto, BankDto, BankImportResultDto, CreateBankDto } from './dto/bank-catalog.dto';

/** The catalog of banks: added one by one or imported from CSV, read by anyone who picks a bank. */
@Injectable()
export class BankCatalogService {
  constructor(
    private readonly banks: BankCatalogRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async create(dto: CreateBankDto): Promise<BankDto> {
    const row = await this.banks.insert(valuesOf(dto));
    if (!row) throw new ApiError('exception.bank_catalog.bic_taken', `The catalog already has a bank with BIC ${dto.bic}`);
    return toBank(row);
  }

  async view(query: BankCatalogQueryDto): Promise<Page<BankDto>> {
    const { total, rows } = await this.banks.search({ country: query.country, text: query.search, ...pageWindow(query) });
    return pageOf(query, total, rows.map(toBank));
  }

  /** Imports a CSV file whole or not at all: every line is checked first, then all are written in one transaction. */
  async import(file: Buffer): Promise<Omit<BankImportResultDto, 'status' | 'message'>> {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(file);
    } catch {
      throw new ApiError('exception.bank_catalog.invalid_file', 'Nothing was imported: the file is not UTF-8 text', [
        { parameter: 'file', message: 'must be UTF-8 text' },
      ]);
    }
    const banks = readBankCatalog(text);
    const written = await this.uow.run(() => this.banks.upsert(banks));
    return { lines: banks.length, ...written };
  }

  /** A bank of the catalog, for the modules that refer to one by `bankId` (404 when unknown, with `parameter` named). */
  async get(id: string): Promise<BankDto> {
    const row = await this.banks.get(id);
    if (!row)
      throw new ApiError('exception.bank_catalog.not_found', `No bank ${id} in the catalog`, [
        { parameter: 'bankId', message: 'is not in the bank catalog' },
      ]);
    return toBank(row);
  }
}

function toBank(row: BankRow): BankDto {
  return {
    id: row.id,
    bankName: row.name,
    bic: row.bic,
    swiftCode: row.swift_code,
    address: row.address,
    city: row.city,
    zipCode: row.zip_code,
    country: row.country,
    phoneNumber: row.phone_number,
    website: row.website,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
