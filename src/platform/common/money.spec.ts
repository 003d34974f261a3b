import { formatAmount, Money, parseAmount, scaleOf } from './money';

describe('money', () => {
  it('derives the decimals from the fraction', () => {
    expect(scaleOf('1')).toBe(0);
    expect(scaleOf('100')).toBe(2);
    expect(scaleOf('1000000000000000000')).toBe(18);
    expect(() => scaleOf('250')).toThrow();
  });

  it('keeps long amounts exact', () => {
    expect(parseAmount('12345678901234567.89', 2).toFixed(2)).toBe('12345678901234567.89');
    expect(parseAmount('0.000000000000000001', 18).toFixed(18)).toBe('0.000000000000000001');
    expect(parseAmount('99999999999999999999.999999999999999999', 18).plus('0.000000000000000001').toFixed(18)).toBe(
      '100000000000000000000.000000000000000000',
    );
  });

  it('accepts JSON numbers by their decimal text', () => {
    expect(parseAmount(10.5, 2).toFixed(2)).toBe('10.50');
    expect(parseAmount(0.1, 2).plus(parseAmount(0.2, 2)).toFixed(2)).toBe('0.30');
  });

  it.each([
    ['1.234', 2, 'must have at most 2 decimals in this currency'],
    ['1.5', 0, 'must be a whole number in this currency'],
    ['0', 2, 'must not be 0'],
    ['0.00', 2, 'must not be 0'],
    ['-1', 2, 'must not be negative'],
    ['1e3', 2, 'must be a decimal number such as "10.50"'],
    ['abc', 2, 'must be a decimal number such as "10.50"'],
    ['', 2, 'must be a decimal number such as "10.50"'],
    [' 1', 2, 'must be a decimal number such as "10.50"'],
    ['123456789012345678901', 2, 'is too large'],
  ])('rejects %j at %d decimals: %s', (input, scale, message) => {
    expect(() => parseAmount(input, scale)).toThrow(expect.objectContaining({ status: 400, errors: [{ parameter: 'amount', message }] }));
  });

  it('rejects non-numbers', () => {
    for (const value of [null, undefined, true, {}, [], Number.NaN, Infinity]) {
      expect(() => parseAmount(value, 2)).toThrow(expect.objectContaining({ status: 400 }));
    }
  });

  it('allows zero or negative values only when asked', () => {
    expect(parseAmount('0', 2, 'value', { allowZero: true }).isZero()).toBe(true);
    expect(parseAmount('-5', 2, 'value', { allowNegative: true }).toFixed(2)).toBe('-5.00');
  });

  it('formats with exactly the currency decimals', () => {
    expect(formatAmount('1250.5', 2)).toBe('1250.50');
    expect(formatAmount(new Money('7'), 0)).toBe('7');
  });

  it('formats text exactly as Money would, whether or not it needs rounding', () => {
    const texts = ['0', '-0', '-0.00', '7', '-7', '10.5', '-10.5', '10.50', '10.555', '10.565', '0.000000000000000001', '1e5', '-1.5e-3'];
    for (const text of [...texts, '12345678901234567890.123456789012345678', '00.5', '+3', '.5', '5.']) {
      for (const scale of [0, 1, 2, 3, 18]) {
        let expected: string | undefined;
        try {
          expected = new Money(text).toFixed(scale);
        } catch {
          expected = undefined;
        }
        if (expected === undefined) expect(() => formatAmount(text, scale)).toThrow();
        else expect(formatAmount(text, scale)).toBe(expected);
      }
    }
  });
});
