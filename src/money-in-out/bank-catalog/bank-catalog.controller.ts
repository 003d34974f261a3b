import { ApiBody, ApiConsumes, ApiRequest, Body, Query, Req, Route, Routes } from '../../platform/http';
import { Inject } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiError } from '../../platform/common/api-error';
import { APP_CONFIG, AppConfig } from '../../platform/config/config';
import { MULTIPART_ROUTE, readUpload } from '../../platform/common/upload';
import { BankCatalogService } from './bank-catalog.service';
import * as dto from './dto/bank-catalog.dto';

const MANAGER = { access: ['BANK_CATALOG_MANAGER'] } as const;

@Routes('bank-catalog')
export class BankCatalogController {
  constructor(
    private readonly catalog: BankCatalogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A page of the catalog, by bank name; `country` and `search` (part of the name or BIC) narrow it. */
  @Route('GET', '', { access: ['BANK_CATALOG_VIEWER'], summary: 'Browse the bank catalog' })
  viewBankCatalog(@Query() query: dto.BankCatalogQueryDto): Promise<dto.BankPageDto> {
    return this.catalog.view(query);
  }

  /** Adds one bank; its BIC must be new to the catalog. */
  @Route('POST', '', { ...MANAGER, summary: 'Add a bank to the catalog', errors: ['exception.bank_catalog.bic_taken'] })
  async createBank(@Body() body: dto.CreateBankDto): Promise<dto.BankResponseDto> {
    return { status: 'ok', message: 'Bank added', bank: await this.catalog.create(body) };
  }

  /**
   * Imports a CSV file (multipart/form-data, field `file`): a header line with the columns bankName, bic, swiftCode, address, city,
   * zipCode, country (ISO 3166-1 alpha-2), and optionally phoneNumber and website, then one bank per line. The whole file or
   * nothing; a bank whose BIC the catalog has is updated. See docs/bank-catalog-example.csv.
   */
  @Route('POST', 'import', {
    ...MANAGER,
    summary: 'Import the bank catalog from a CSV file',
    status: 200,
    errors: ['exception.bank_catalog.invalid_file', 'exception.bank_catalog.file_too_large'],
  })
  @RouteConfig(MULTIPART_ROUTE)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: dto.BankImportUploadDto })
  async importBankCatalog(@Req() request: ApiRequest): Promise<dto.BankImportResultDto> {
    const limit = this.config.bankCatalogImportMaxBytes;
    const file = await readUpload(
      request,
      'file',
      limit,
      () =>
        new ApiError('exception.bank_catalog.file_too_large', `The bank catalog file is larger than ${limit} bytes: nothing was imported`),
    );
    const result = await this.catalog.import(file);
    return { status: 'ok', message: `Imported ${result.lines} banks`, ...result };
  }
}
