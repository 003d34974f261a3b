import { CsvColumn, csvCell, csvHeader, csvRecord, CsvSyntaxError, parseCsv } from './csv';

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

describe('the CSV writer', () => {
  const columns: CsvColumn[] = [
    { name: 'description', type: 'text' },
    { name: 'amount', type: 'number' },
  ];

  it('prefixes a text cell starting like a formula (= + - @ tab CR) with a quote, in double quotes (OWASP CSV injection)', () => {
    expect(csvCell("-1+cmd|' /C calc'!A0")).toBe(`"'-1+cmd|' /C calc'!A0"`);
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-12.50')).toBe(`"'-12.50"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\t=1')).toBe(`"'\t=1"`);
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    // What a spreadsheet reads back is the text, quote first.
    expect(parseCsv(csvRecord(columns, ["-1+cmd|' /C calc'!A0", '-1.10']))[0].fields).toEqual(["'-1+cmd|' /C calc'!A0", '-1.10']);
  });

  it('leaves other text as it is, quoting only commas, quotes and line breaks', () => {
    expect(csvCell('rent')).toBe('rent');
    expect(csvCell('a-b=c')).toBe('a-b=c');
    expect(csvCell('Bank, "Main"')).toBe('"Bank, ""Main"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('keeps number cells plain numbers, negative ones too; a number cell that is no plain decimal is escaped as text', () => {
    expect(csvCell('-12.50', 'number')).toBe('-12.50');
    expect(csvCell('0.00', 'number')).toBe('0.00');
    expect(csvCell('1000000', 'number')).toBe('1000000');
    expect(csvCell('-1+cmd', 'number')).toBe(`"'-1+cmd"`);
    expect(csvCell(null, 'number')).toBe('');
  });

  it('writes the header and CRLF-terminated records, each cell by its column’s type', () => {
    expect(csvHeader(columns)).toBe('description,amount\r\n');
    expect(csvRecord(columns, ['=cmd, "quoted"', '-1.10'])).toBe(`"'=cmd, ""quoted""",-1.10\r\n`);
    expect(csvRecord(columns, ['-5', '-5'])).toBe(`"'-5",-5\r\n`);
    expect(() => csvRecord(columns, ['x'])).toThrow();
  });
});
