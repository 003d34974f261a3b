import { payeeDisplayName } from './payee-name';

describe('payeeDisplayName: what a payee check shows of a coin’s owner', () => {
  it.each([
    ['individual', 'Alice Liddell', 'Alice L.'],
    ['individual', 'Bob', 'Bob'],
    ['individual', '  Jean-Luc   de la Picard ', 'Jean-Luc P.'],
    ['individual', 'Øystein ørn', 'Øystein Ø.'],
    ['individual', 'Ann 😀mith', 'Ann 😀.'],
    ['individual', 'alice@example.com', 'a***@e***.com'],
    ['individual', 'x@localhost', 'x***@l***'],
    ['individual', '+447700900123', '+**********23'],
    ['individual', '+44 (7700) 900-123', '+**********23'],
    ['merchant', 'Corner Shop Ltd', 'Corner Shop Ltd'],
    ['merchant', 'shop@example.com', 's***@e***.com'],
    ['merchant', '0044 7700 900 123', '************23'],
  ])('%s %j → %j', (type, name, shown) => {
    expect(payeeDisplayName(type, name)).toBe(shown);
  });
});
