import { CsvSyntaxError, parseCsv } from './csv';

describe('parseCsv (RFC 4180)', () => {
  it('reads records with their line numbers, LF or CRLF, skipping blank lines and a BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n1,2\n\n3,\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 4, fields: ['3', ''] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('name,address\n"Bank, ""Main""","Line 1\nLine 2"\nx,y')).toEqual([
      { line: 1, fields: ['name', 'address'] },
      { line: 2, fields: ['Bank, "Main"', 'Line 1\nLine 2'] },
      { line: 4, fields: ['x', 'y'] },
    ]);
  });

  it('keeps a last record without a line break, and an empty quoted field', () => {
    expect(parseCsv('a\n""')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: [''] },
    ]);
  });

  it('refuses an unclosed quote, text after a closing quote and a quote inside a field, naming the line', () => {
    expect(() => parseCsv('a\n"open')).toThrow(new CsvSyntaxError(2, 'a quoted field is not closed'));
    expect(() => parseCsv('a\n"x"y')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a\nb\nx"y"')).toThrow('line 3: a quote may only open a field');
  });
});
