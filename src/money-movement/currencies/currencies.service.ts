import { Injectable } from '@nestjs/common';
import { ApiError } from '../../platform/common/api-error';
import { Page, pageOf, pageWindow } from '../../platform/common/paging.dto';
import { UnitOfWork } from '../../platform/database/unit-of-work';
import { CurrenciesRepository, IssuerRow } from './currencies.repository';
import { toCurrency } from './currency.mapper';
import type { CreateCurrencyDto, CurrencyDto, CurrencyViewDto, UpdateCurrencyDto } from './dto/currency.dto';
import type { CreateIssuerDto, IssuerDto, UpdateIssuerDto } from './dto/issuer.dto';

function fractionText(value: number | string | undefined): string | undefined {
  return typeof value === 'number' ? BigInt(value).toString() : value;
}

function toIssuer(row: IssuerRow): IssuerDto {
  return {
    id: row.id,
    sn: Number(row.sn),
    snPrefix: String(row.sn),
    currencyCode: row.currency.code,
    name: row.name,
    description: row.description,
    active: row.active,
    currency: toCurrency(row.currency),
  };
}

/** Currencies and the issuers that issue them. */
@Injectable()
export class CurrenciesService {
  constructor(
    private readonly currencies: CurrenciesRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async createCurrency(dto: CreateCurrencyDto): Promise<CurrencyDto> {
    return this.uow.run(async () => {
      await this.assertUnique(dto.code, dto.digitalCode);
      const row = await this.currencies.insertCurrency({
        code: dto.code,
        digital_code: dto.digitalCode ?? null,
        symbol: dto.symbol ?? null,
        name: dto.name,
        description: dto.description ?? null,
        fraction: fractionText(dto.fraction) ?? '100',
        active: dto.active ?? true,
      });
      return toCurrency(row);
    });
  }

  async listCurrencies(): Promise<CurrencyDto[]> {
    return (await this.currencies.listCurrencies()).map(toCurrency);
  }

  async viewCurrencies(dto: CurrencyViewDto): Promise<Page<CurrencyDto>> {
    const { total, rows } = await this.currencies.searchCurrencies({
      ...(dto.filter ?? {}),
      sort: dto.sort?.name ? 'name' : 'code',
      direction: (dto.sort?.name ?? dto.sort?.code ?? 'asc') === 'desc' ? 'DESC' : 'ASC',
      ...pageWindow(dto),
    });
    return pageOf(dto, total, rows.map(toCurrency));
  }

  async updateCurrency(id: string, dto: UpdateCurrencyDto): Promise<CurrencyDto> {
    return this.uow.run(async () => {
      const current = await this.currencies.lockCurrency(id);
      if (!current) throw new ApiError('exception.currency.not_found', 'No such currency');
      const fraction = fractionText(dto.fraction);
      if (fraction !== undefined && fraction !== current.fraction && (await this.currencies.isCurrencyUsed(id))) {
        throw new ApiError('exception.currency.fraction_locked', 'The fraction cannot change once coins hold this currency');
      }
      if (dto.digitalCode && dto.digitalCode !== current.digital_code) await this.assertUnique(undefined, dto.digitalCode);
      const row = await this.currencies.updateCurrency({
        id,
        code: current.code,
        digital_code: dto.digitalCode !== undefined ? dto.digitalCode : current.digital_code,
        symbol: dto.symbol !== undefined ? dto.symbol : current.symbol,
        name: dto.name ?? current.name,
        description: dto.description !== undefined ? dto.description : current.description,
        fraction: fraction ?? current.fraction,
        active: dto.active ?? current.active,
      });
      return toCurrency(row);
    });
  }

  async createIssuer(dto: CreateIssuerDto): Promise<IssuerDto> {
    const id = await this.uow.run(async () => {
      const currencyId = await this.currencies.currencyIdByCode(dto.currencyCode);
      if (!currencyId) throw new ApiError('exception.currency.not_found', `No currency with code ${dto.currencyCode}`);
      const id = await this.currencies.insertIssuer(currencyId, dto.name, dto.description ?? null, dto.active ?? true, dto.snPrefix);
      if (!id) throw new ApiError('exception.issuer.sn_taken', `Another issuer has the serial number ${dto.snPrefix}`);
      return id;
    });
    return this.issuer(id);
  }

  async listIssuers(): Promise<IssuerDto[]> {
    return (await this.currencies.issuers()).map(toIssuer);
  }

  async issuer(id: string): Promise<IssuerDto> {
    const [row] = await this.currencies.issuers(id);
    if (!row) throw new ApiError('exception.issuer.not_found', 'No such issuer');
    return toIssuer(row);
  }

  async updateIssuer(id: string, dto: UpdateIssuerDto): Promise<IssuerDto> {
    return this.uow.run(async () => {
      const current = await this.currencies.lockIssuer(id);
      if (!current) throw new ApiError('exception.issuer.not_found', 'No such issuer');
      await this.currencies.updateIssuer(
        id,
        dto.name ?? current.name,
        dto.description !== undefined ? dto.description : current.description,
        dto.active ?? current.active,
      );
      return this.issuer(id);
    });
  }

  private async assertUnique(code?: string, digitalCode?: string): Promise<void> {
    const clash = await this.currencies.clashes(code, digitalCode);
    if (clash.some((c) => c.code === code)) throw new ApiError('exception.currency.code_taken', `Currency ${code} already exists`);
    if (clash.length) throw new ApiError('exception.currency.digital_code_taken', `Digital code ${digitalCode} is already used`);
  }
}
