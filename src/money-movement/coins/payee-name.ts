/** A name that is an e-mail address: a self-registered customer's organization is named after its login. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** A name that is a phone number (the other kind of login). */
const PHONE = /^\+?[\d\s().-]{5,}$/;

const initial = (word: string) => Array.from(word)[0] ?? '';

/** `alice@example.com` → `a***@e***.com`: enough for a payer who typed it to recognize it, not to learn it. */
function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return `${initial(email)}***@${initial(domain)}***${dot > 0 ? domain.slice(dot) : ''}`;
}

/** `+44 7700 900123` → `+**********23`: its last two digits. */
function maskedPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `${phone.startsWith('+') ? '+' : ''}${'*'.repeat(Math.max(0, digits.length - 2))}${digits.slice(-2)}`;
}

/**
 * What a payee check shows a payer of a coin's owner: the least a payment form needs to tell the right payee from a
 * wrong one. A merchant's name as it trades; a person's first name and the initial of the last (`Alice Liddell` →
 * `Alice L.`); a name that is a login (an e-mail or a phone number, as sign-up names a customer) masked
 * (`a***@e***.com`, `+**********23`). The full name, e-mail and phone are never answered by a check.
 */
export function payeeDisplayName(type: string, name: string): string {
  const text = name.trim();
  if (EMAIL.test(text)) return maskedEmail(text);
  if (PHONE.test(text)) return maskedPhone(text);
  if (type === 'merchant') return text;
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 2) return text;
  return `${words[0]} ${initial(words[words.length - 1]).toLocaleUpperCase()}.`;
}
