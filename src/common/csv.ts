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
