import { isCountryCode } from './countries';

/**
 * IBANs (ISO 13616): two letters of country, two check digits, then up to 30 letters and digits.
 * Spaces (as IBANs are printed in groups of four) are ignored and letters upper-cased.
 */
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

/** The IBAN in its electronic form: no spaces, upper case. */
export function normalizeIban(value: string): string {
  return value.replace(/[\s]+/g, '').toUpperCase();
}

/**
 * Whether an IBAN's check digits are right: the first four characters moved to the end, letters
 * replaced by 10–35, the number taken modulo 97 must be 1 (ISO 7064 MOD 97-10). Computed piecewise,
 * so no digit string ever becomes a JavaScript number beyond 2^53.
 */
export function isValidIban(value: string): boolean {
  const iban = normalizeIban(value);
  if (!IBAN.test(iban) || !isCountryCode(iban.slice(0, 2))) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

/** A BIC (ISO 9362, the SWIFT code): bank (4 letters), country (2 letters), location (2), optional branch (3). */
export const BIC_PATTERN = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
