import type { CurrencyDto } from './dto/currency.dto';

export interface CurrencyRow {
  id: string;
  code: string;
  digital_code: string | null;
  symbol: string | null;
  name: string;
  description: string | null;
  fraction: string;
  active: boolean;
}

/** SQL that builds a CurrencyRow as JSON from a currency aliased `cu`. */
export const CURRENCY_JSON = `json_build_object('id', cu.id, 'code', cu.code, 'digital_code', cu.digital_code, 'symbol', cu.symbol, 'name', cu.name,
                         'description', cu.description, 'fraction', cu.fraction::text, 'active', cu.active)`;

export function toCurrency(row: CurrencyRow): CurrencyDto {
  return {
    id: row.id,
    code: row.code,
    digitalCode: row.digital_code,
    symbol: row.symbol,
    name: row.name,
    description: row.description,
    // A power of ten up to 10^18 is exact as a JSON number.
    fraction: Number(row.fraction),
    active: row.active,
  };
}
