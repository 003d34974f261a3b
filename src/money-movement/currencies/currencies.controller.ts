import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { CurrenciesService } from './currencies.service';
import {
  CreateCurrencyDto,
  CurrencyListDto,
  CurrencyPageDto,
  CurrencyResponseDto,
  CurrencyViewDto,
  UpdateCurrencyDto,
} from './dto/currency.dto';
import { CreateIssuerDto, IssuerListDto, IssuerResponseDto, UpdateIssuerDto } from './dto/issuer.dto';

@ApiTags('currencies')
@Controller('currencies')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  /** Creates a currency; `fraction` (release 4.10.0) sets its minor units. */
  @Post()
  @RequirePermissions('CURRENCY_MANAGER')
  @ApiOperation({ summary: 'Create a currency', operationId: 'createCurrency' })
  @ApiCreatedResponse({ type: CurrencyResponseDto })
  @ApiConflictResponse({ description: 'The code or digital code is taken', type: ErrorResponseDto })
  async create(@Body() dto: CreateCurrencyDto): Promise<CurrencyResponseDto> {
    return { status: 'ok', message: 'Currency created', currency: await this.currencies.createCurrency(dto) };
  }

  /** Every currency, active or not, by code, with its minor units (`fraction`). */
  @Get()
  @RequirePermissions('CURRENCY_VIEWER')
  @ApiOperation({ summary: 'List currencies', operationId: 'listCurrencies' })
  @ApiOkResponse({ type: CurrencyListDto })
  async list(): Promise<CurrencyListDto> {
    return { status: 'ok', message: 'OK', currencies: await this.currencies.listCurrencies() };
  }

  /** Currencies by code, active and part of the name, a page at a time, sorted by code unless by name. */
  @Post('view')
  @HttpCode(200)
  @RequirePermissions('CURRENCY_VIEWER')
  @ApiOperation({ summary: 'Search currencies', operationId: 'viewCurrencies' })
  @ApiOkResponse({ type: CurrencyPageDto })
  view(@Body() dto: CurrencyViewDto): Promise<CurrencyPageDto> {
    return this.currencies.viewCurrencies(dto);
  }

  /** The fraction can change only while no coin holds the currency. */
  @Patch(':id')
  @RequirePermissions('CURRENCY_MANAGER')
  @ApiOperation({ summary: 'Change a currency', operationId: 'updateCurrency' })
  @ApiOkResponse({ type: CurrencyResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.currency.fraction_locked', type: ErrorResponseDto })
  async update(@UuidParam('id') id: string, @Body() dto: UpdateCurrencyDto): Promise<CurrencyResponseDto> {
    return { status: 'ok', message: 'Currency updated', currency: await this.currencies.updateCurrency(id, dto) };
  }
}

@ApiTags('issuers')
@Controller('issuers')
export class IssuersController {
  constructor(private readonly currencies: CurrenciesService) {}

  /**
   * Creates an issuer of a currency, numbered `snPrefix` (the family's name of its `sn`) or the next free number. The
   * deprecated orderNumber and orderQuote are accepted only as null.
   */
  @Post()
  @RequirePermissions('ISSUER_MANAGER')
  @ApiOperation({ summary: 'Create a currency issuer', operationId: 'createIssuer' })
  @ApiCreatedResponse({ type: IssuerResponseDto })
  @ApiNotFoundResponse({ description: 'No currency with that code', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.issuer.sn_taken: another issuer has the snPrefix', type: ErrorResponseDto })
  async create(@Body() dto: CreateIssuerDto): Promise<IssuerResponseDto> {
    return { status: 'ok', message: 'Issuer created', issuer: await this.currencies.createIssuer(dto) };
  }

  /**
   * Every currency issuer with its currency. A coin is opened in an issuer's currency; an inactive issuer opens none
   * (409).
   */
  @Get()
  @RequirePermissions('ISSUER_VIEWER')
  @ApiOperation({ summary: 'List issuers', operationId: 'listIssuers' })
  @ApiOkResponse({ type: IssuerListDto })
  async list(): Promise<IssuerListDto> {
    return { status: 'ok', message: 'OK', records: await this.currencies.listIssuers() };
  }

  /**
   * Changes the name, description or active of an issuer (staff with ISSUER_MANAGER); its currency never changes. An
   * inactive issuer opens no new coins.
   */
  @Patch(':id')
  @RequirePermissions('ISSUER_MANAGER')
  @ApiOperation({ summary: 'Change an issuer', operationId: 'updateIssuer' })
  @ApiOkResponse({ type: IssuerResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async update(@UuidParam('id') id: string, @Body() dto: UpdateIssuerDto): Promise<IssuerResponseDto> {
    return { status: 'ok', message: 'Issuer updated', issuer: await this.currencies.updateIssuer(id, dto) };
  }
}
