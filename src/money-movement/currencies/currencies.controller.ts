import { Body, Route, Routes, UuidParam } from '../../platform/http';
import { CurrenciesService } from './currencies.service';
import * as dto from './dto/currency.dto';
import { CreateIssuerDto, IssuerListDto, IssuerResponseDto, UpdateIssuerDto } from './dto/issuer.dto';

const CURRENCY = { access: ['CURRENCY_MANAGER'] } as const;
const ISSUER = { access: ['ISSUER_MANAGER'] } as const;

@Routes('currencies')
export class CurrenciesController {
  constructor(private readonly currencies: CurrenciesService) {}

  /** Creates a currency; `fraction` (release 4.10.0) sets its minor units. */
  @Route('POST', '', {
    ...CURRENCY,
    summary: 'Create a currency',
    errors: ['exception.currency.code_taken', 'exception.currency.digital_code_taken'],
  })
  async createCurrency(@Body() body: dto.CreateCurrencyDto): Promise<dto.CurrencyResponseDto> {
    return { status: 'ok', message: 'Currency created', currency: await this.currencies.createCurrency(body) };
  }

  /** Every currency, active or not, by code, with its minor units (`fraction`). */
  @Route('GET', '', { access: ['CURRENCY_VIEWER'], summary: 'List currencies' })
  async listCurrencies(): Promise<dto.CurrencyListDto> {
    return { status: 'ok', message: 'OK', currencies: await this.currencies.listCurrencies() };
  }

  /** Currencies by code, active and part of the name, a page at a time, sorted by code unless by name. */
  @Route('POST', 'view', { access: ['CURRENCY_VIEWER'], summary: 'Search currencies', status: 200 })
  viewCurrencies(@Body() body: dto.CurrencyViewDto): Promise<dto.CurrencyPageDto> {
    return this.currencies.viewCurrencies(body);
  }

  /** The fraction can change only while no coin holds the currency. */
  @Route('PATCH', ':id', {
    ...CURRENCY,
    summary: 'Change a currency',
    errors: ['exception.currency.not_found', 'exception.currency.fraction_locked'],
  })
  async updateCurrency(@UuidParam('id') id: string, @Body() body: dto.UpdateCurrencyDto): Promise<dto.CurrencyResponseDto> {
    return { status: 'ok', message: 'Currency updated', currency: await this.currencies.updateCurrency(id, body) };
  }
}

@Routes('issuers')
export class IssuersController {
  constructor(private readonly currencies: CurrenciesService) {}

  /** Creates an issuer of a currency, numbered `snPrefix` or the next free number; orderNumber and orderQuote are accepted only as null. */
  @Route('POST', '', {
    ...ISSUER,
    summary: 'Create a currency issuer',
    errors: [
      ['exception.currency.not_found', 'no currency with that code'],
      ['exception.issuer.sn_taken', 'another issuer has the snPrefix'],
    ],
  })
  async createIssuer(@Body() body: CreateIssuerDto): Promise<IssuerResponseDto> {
    return { status: 'ok', message: 'Issuer created', issuer: await this.currencies.createIssuer(body) };
  }

  /** Every currency issuer with its currency. A coin is opened in an issuer's currency; an inactive issuer opens none (409). */
  @Route('GET', '', { access: ['ISSUER_VIEWER'], summary: 'List issuers' })
  async listIssuers(): Promise<IssuerListDto> {
    return { status: 'ok', message: 'OK', records: await this.currencies.listIssuers() };
  }

  /** Changes an issuer's name, description or active; its currency never changes. An inactive issuer opens no new coins. */
  @Route('PATCH', ':id', { ...ISSUER, summary: 'Change an issuer', errors: ['exception.issuer.not_found'] })
  async updateIssuer(@UuidParam('id') id: string, @Body() body: UpdateIssuerDto): Promise<IssuerResponseDto> {
    return { status: 'ok', message: 'Issuer updated', issuer: await this.currencies.updateIssuer(id, body) };
  }
}
