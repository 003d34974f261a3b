import { BIC_PATTERN, isValidIban, normalizeIban } from './iban';

describe('IBAN checksum (ISO 13616, mod 97)', () => {
  it.each([
    'GB82 WEST 1234 5698 7654 32',
    'DE89370400440532013000',
    'FR1420041010050500013M02606',
    'LT121000011101001000',
    'NL91ABNA0417164300',
    'CH9300762011623852957',
    'NO9386011117947',
    'MT84MALT011000012345MTLCAST001S',
    'gb82west12345698765432',
  ])('accepts %s', (iban) => expect(isValidIban(iban)).toBe(true));

  it.each([
    ['a wrong check digit', 'GB82WEST12345698765433'],
    ['swapped digits', 'DE89370400440532031000'],
    ['a wrong country', 'XX82WEST12345698765432'],
    ['too short', 'NO93860111179'],
    ['too long', 'GB82WEST123456987654321234567890123'],
    ['letters as check digits', 'GBAAWEST12345698765432'],
    ['punctuation', 'GB82-WEST-1234-5698-7654-32'],
    ['empty', ''],
  ])('refuses %s', (_, iban) => expect(isValidIban(iban)).toBe(false));

  it('normalizes spaces and case', () => {
    expect(normalizeIban(' gb82 west 1234\t5698 7654 32 ')).toBe('GB82WEST12345698765432');
  });

  it('knows BICs of 8 and 11 characters', () => {
    for (const bic of ['DEUTDEFF', 'DEUTDEFF500', 'HABALT22', 'NWBKGB2L']) expect(BIC_PATTERN.test(bic)).toBe(true);
    for (const bic of ['DEUTDEF', 'DEUTDEFF50', 'DEU1DEFF', 'deutdeff', 'DEUTDEFF5000']) expect(BIC_PATTERN.test(bic)).toBe(false);
  });
});
