import { generateCardNumber, isLuhnValid, luhnCheckDigit, maskedNumber } from './card-number';

describe('smart card numbers', () => {
  it('computes the Luhn check digit of known numbers', () => {
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('4111111111111111')).toBe(true);
  });

  it('generates 16-digit numbers of the service’s own range that pass the Luhn check, and masks all but the last four', () => {
    const numbers = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const number = generateCardNumber();
      expect(number).toMatch(/^9\d{15}$/);
      expect(isLuhnValid(number)).toBe(true);
      numbers.add(number);
    }
    expect(numbers.size).toBe(500);
    expect(maskedNumber('1234')).toBe('**** **** **** 1234');
  });
});
