/** One record of a CSV file with the line it starts on (1-based, the header is line 1). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * Parses CSV as RFC 4180 writes it: fields separated by commas, records by CRLF or LF, a field
 * in double quotes may hold commas, line breaks and doubled quotes (`""`). A leading UTF-8 byte
 * order mark is dropped; blank lines are skipped. Pure, so every case is unit-tested (csv.spec.ts).
 */
export function parseCsv(text: string): CsvRecord[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let wasQuoted = false;
  const endField = () => {
    fields.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    const blank = fields.length === 0 && field === '' && !wasQuoted;
    endField();
    if (!blank) records.push({ line: start, fields });
    fields = [];
  };
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          const next = input[i + 1];
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
            throw new CsvSyntaxError(line, 'a quoted field must end at a comma or the end of the line');
          }
        }
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"') {
      if (field !== '') throw new CsvSyntaxError(line, 'a quote may only open a field');
      quoted = true;
      wasQuoted = true;
    } else if (ch === ',') {
      endField();
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && input[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else {
      field += ch;
    }
  }
  if (quoted) throw new CsvSyntaxError(start, 'a quoted field is not closed');
  if (field !== '' || fields.length || wasQuoted) endRecord();
  return records;
}

/** A column of a CSV file the service writes: its name (the header row) and whether its cells are numbers or text. */
export interface CsvColumn {
  name: string;
  type: 'text' | 'number';
}

/** A plain decimal, as amounts are written: the only thing a number cell may hold unescaped. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** What makes a spreadsheet read a cell as a formula (OWASP "CSV injection"); tab and carriage return too. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell as RFC 4180 writes it. A text cell starting like a formula gets a leading `'` and double quotes, so a
 * spreadsheet shows it as text and never runs it; a number cell (an amount, `-12.50`) stays a plain number. A "number"
 * that is no plain decimal is written as text, so a wrong column type can never open the way to a formula.
 */
export function csvCell(value: string | null, type: CsvColumn['type'] = 'text'): string {
  if (value === null || value === '') return '';
  if (type === 'number' && DECIMAL.test(value)) return value;
  if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The header row of `columns`, CRLF-terminated. */
export function csvHeader(columns: readonly CsvColumn[]): string {
  return `${columns.map((c) => csvCell(c.name)).join(',')}\r\n`;
}

/** One CRLF-terminated record, each cell written as its column's type says (`null`: empty). */
export function csvRecord(columns: readonly CsvColumn[], cells: ReadonlyArray<string | null>): string {
  if (cells.length !== columns.length) throw new Error(`a CSV record of ${cells.length} cells for ${columns.length} columns`);
  return `${cells.map((cell, i) => csvCell(cell, columns[i].type)).join(',')}\r\n`;
}
