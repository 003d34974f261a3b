import { dictionary } from '@zxcvbn-ts/language-common';

/** bcrypt reads at most 72 bytes; a longer password is refused, never silently cut. */
export const PASSWORD_MIN_BYTES = 8;
export const PASSWORD_MAX_BYTES = 72;

/**
 * A new password may not be any of the user's last this many chosen passwords (issue 29), the current one
 * included; temporary passwords are not counted. Checked at every change of one's own password, so a user
 * released from On Hold cannot set back the password that was being guessed.
 */
export const PASSWORD_HISTORY = 5;

let common: ReadonlySet<string> | undefined;

/**
 * The most common passwords (ASVS 6.2.4): the ~49,000 of the zxcvbn-ts common dictionary, ranked by
 * how often they appear in leaked password sets, shipped in the npm package (nothing is fetched at
 * run time). Compared lower-cased, so `Password` is as refused as `password`.
 */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/**
 * Why a password chosen by someone may not be used, or undefined when it may: 8 to 72 bytes, not one
 * of the most common passwords, not the login itself (compared case-insensitively, as logins are).
 */
export function passwordProblem(password: unknown, login?: string): string | undefined {
  if (typeof password !== 'string') return `must be a string of ${PASSWORD_MIN_BYTES} to ${PASSWORD_MAX_BYTES} bytes`;
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes < PASSWORD_MIN_BYTES || bytes > PASSWORD_MAX_BYTES)
    return `must be a string of ${PASSWORD_MIN_BYTES} to ${PASSWORD_MAX_BYTES} bytes`;
  if (isCommonPassword(password)) return 'is one of the most common passwords; choose one that is harder to guess';
  if (login !== undefined && password.toLowerCase() === login.toLowerCase()) return 'must not be the login';
  return undefined;
}
