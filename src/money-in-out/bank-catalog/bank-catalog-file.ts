import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { ApiError, FieldError } from '../../platform/common/api-error';
import { CsvSyntaxError, parseCsv } from '../../platform/common/csv';
import type { BankValues } from './bank-catalog.repository';
import { CreateBankDto } from './dto/bank-catalog.dto';

type Field = keyof CreateBankDto;

/**
 * The columns of an imported catalog (release 4.10.0: bank name, BIC, SWIFT code, address, city,
 * zip code, country; and, documented here, phone number and website). A header is matched without
 * regard to case, spaces, `_` and `-` (`Bank name`, `bank_name` and `bankName` are one column), and
 * a few common other names are understood. Columns may come in any order; bank name, BIC and
 * country are required.
 */
const COLUMNS: Record<string, Field> = {
  bankname: 'bankName',
  name: 'bankName',
  bic: 'bic',
  swiftcode: 'swiftCode',
  swift: 'swiftCode',
  address: 'address',
  city: 'city',
  zipcode: 'zipCode',
  zip: 'zipCode',
  postalcode: 'zipCode',
  postcode: 'zipCode',
  country: 'country',
  countrycode: 'country',
  phonenumber: 'phoneNumber',
  phone: 'phoneNumber',
  website: 'website',
};
const REQUIRED: Field[] = ['bankName', 'bic', 'country'];
/** Errors beyond these many are not listed (the first ones name where to look). */
const MAX_ERRORS = 20;

function invalid(errors: FieldError[]): ApiError {
  const shown = errors.slice(0, MAX_ERRORS);
  return new ApiError('exception.bank_catalog.invalid_file', `Nothing was imported: ${shown[0].message}`, shown);
}

const problem = (line: number, column: string | null, message: string): FieldError => ({
  parameter: 'file',
  message: `line ${line}${column === null ? '' : `, column ${column}`}: ${message}`,
});

/** The first constraint message of each field a row breaks. */
function messages(errors: ValidationError[]): [string, string][] {
  return errors.map((e) => [e.property, Object.values(e.constraints ?? {})[0] ?? 'is invalid']);
}

/**
 * Reads a bank catalog file: every line checked with the same rules as `POST /bank-catalog`, and
 * the whole file refused (a 400 naming each bad line and column) if any line is wrong, so an
 * import takes effect whole or not at all. A BIC twice in the file is an error too.
 */
export function readBankCatalog(text: string): BankValues[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw invalid([problem(error.line, null, error.message.replace(/^line \d+: /, ''))]);
    throw error;
  }
  if (records.length === 0) throw invalid([problem(1, null, 'the file is empty: a header line is expected')]);
  const [header, ...rows] = records;
  const columns: (Field | undefined)[] = [];
  const errors: FieldError[] = [];
  header.fields.forEach((name) => {
    const field =
      COLUMNS[
        name
          .trim()
          .toLowerCase()
          .replace(/[\s_-]+/g, '')
      ];
    if (!field) errors.push(problem(header.line, name.trim(), `unknown column (known: ${Object.keys(COLUMNS).join(', ')})`));
    else if (columns.includes(field)) errors.push(problem(header.line, name.trim(), 'the column appears twice'));
    columns.push(field);
  });
  for (const field of REQUIRED) if (!columns.includes(field)) errors.push(problem(header.line, field, 'the column is required'));
  if (errors.length) throw invalid(errors);
  if (rows.length === 0) throw invalid([problem(header.line, null, 'the file has no bank after its header')]);

  const seen = new Map<string, number>();
  const banks: BankValues[] = [];
  for (const row of rows) {
    if (row.fields.length !== columns.length) {
      errors.push(problem(row.line, null, `has ${row.fields.length} fields, the header ${columns.length}`));
      continue;
    }
    const plain: Record<string, string> = {};
    columns.forEach((field, i) => {
      const value = row.fields[i].trim();
      if (value !== '') plain[field!] = value;
    });
    const dto = plainToInstance(CreateBankDto, plain);
    const broken = messages(validateSync(dto, { whitelist: true, forbidNonWhitelisted: true }));
    for (const [field, message] of broken) errors.push(problem(row.line, field, message));
    if (broken.length) continue;
    const earlier = seen.get(dto.bic);
    if (earlier !== undefined) {
      errors.push(problem(row.line, 'bic', `${dto.bic} is already on line ${earlier}`));
      continue;
    }
    seen.set(dto.bic, row.line);
    banks.push(valuesOf(dto));
  }
  if (errors.length) throw invalid(errors);
  return banks;
}

export function valuesOf(dto: CreateBankDto): BankValues {
  return {
    name: dto.bankName,
    bic: dto.bic,
    swiftCode: dto.swiftCode ?? null,
    address: dto.address ?? null,
    city: dto.city ?? null,
    zipCode: dto.zipCode ?? null,
    country: dto.country,
    phoneNumber: dto.phoneNumber ?? null,
    website: dto.website ?? null,
  };
}
