import { createHmac, randomInt } from 'node:crypto';

/** The Luhn check digit of a number's other digits (ISO/IEC 7812-1). */
export function luhnCheckDigit(payload: string): string {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    // From the right of the payload, every other digit (starting with the rightmost) is doubled.
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function isLuhnValid(number: string): boolean {
  return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/**
 * A new 16-digit card number: `9` (the industry digit of national use: these cards are the service's own,
 * not a card scheme's), 14 random digits from the CSPRNG, and the Luhn check digit.
 */
export function generateCardNumber(): string {
  let payload = '9';
  for (let i = 0; i < 14; i++) payload += String(randomInt(10));
  return payload + luhnCheckDigit(payload);
}

/** What answers show of a card number: its last four digits. */
export function maskedNumber(last4: string): string {
  return `**** **** **** ${last4}`;
}

/**
 * The key card numbers are hashed under: derived from the service's secret (the action log's key) with a label of
 * its own, so neither hash can stand for the other.
 */
export function cardNumberKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('finapi smart card number v1', 'utf8').digest();
}

/**
 * What the service keeps of a card number to find the card by it: HMAC-SHA-256 under the service's key. Without the
 * key, a table of the hashes of every 16-digit number cannot be built, where a plain hash of so few digits could.
 */
export function cardNumberHash(key: Buffer, number: string): Buffer {
  return createHmac('sha256', key).update(number, 'utf8').digest();
}
