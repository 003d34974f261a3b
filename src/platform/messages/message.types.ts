/**
 * What a one-time code is for; each purpose has its own codes for one login. A change of login (issue 43) takes two:
 * `contact_change` to the new login (the address proves itself) and, unless the owner gave their password or staff
 * asked for it, `contact_change_owner` to the current one (the owner proves themself); once changed, the old address
 * gets a `contact_restore` code that takes the login back.
 */
export const CODE_PURPOSES = [
  'registration',
  'login',
  'password_recovery',
  'contact_change',
  'contact_change_owner',
  'contact_restore',
  /** Turning two-step login off (issue 46): the owner proves they still read their login. */
  'two_factor_off',
] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** What a notice tells its reader; each is a message template (message-templates.ts). */
export const NOTICE_TEMPLATES = [
  /** Staff asked to change the reader's login to `newLogin`: it changes only when the user confirms it. */
  'login_change_requested',
  /** The reader's login (or contact) changed to `newLogin`; a `contact_restore` code sent beside it takes it back. */
  'login_changed',
  /** Money left the reader's coin: `amount` `currency` (`commission` on top, when any) to `counterparty`, by operation `operationId` (`type`) at `at`. */
  'money_sent',
  /** Money came into the reader's coin: `amount` `currency` from `counterparty` (a top-up: none), by `operationId` (`type`) at `at`. */
  'money_received',
  /** Money moved between the reader's own coins (an exchange: `amount` `currency` into `toAmount` `toCurrency`). */
  'money_moved',
  /** A login to the reader's account succeeded from `address` at `at`. */
  'login',
  /** The reader's password was changed (`how`: `changed` by them, `recovered` with a code) at `at`. */
  'password_changed',
  /** The reader's account was put On Hold after `failedAttempts` wrong passwords in a row, at `at`. */
  'user_held',
  /** An administrator released the reader's account with a temporary password, at `at`. */
  'user_released',
  /** The reader's account was deactivated by staff, at `at`. */
  'user_deactivated',
] as const;
export type NoticeTemplate = (typeof NOTICE_TEMPLATES)[number];

/** The languages messages are written in; a reader without one of them reads English. */
export const MESSAGE_LOCALES = ['en', 'de'] as const;
export type MessageLocale = (typeof MESSAGE_LOCALES)[number];

/** One code to deliver to `to` (a login: an e-mail address or a phone number). */
export interface CodeDelivery {
  kind: 'code';
  purpose: CodePurpose;
  to: string;
  code: string;
  expiresAt: Date;
  /** What the message says beside the code, never a secret (a restore code names the login it undoes: `newLogin`). */
  details?: Record<string, string>;
  locale?: MessageLocale;
}

/** A message without a secret to `to`: tells a user that something happened to their account. */
export interface NoticeDelivery {
  kind: 'notice';
  to: string;
  template: NoticeTemplate;
  details: Record<string, string>;
  locale?: MessageLocale;
}

export type Delivery = CodeDelivery | NoticeDelivery;

/**
 * Delivers codes and notices: the only place a code exists in clear after it is made, and the only way a message
 * leaves the service. The log sender writes them to ONE_TIME_CODE_LOG; the e-mail (SMTP) and SMS (HTTP gateway)
 * senders render each `purpose` or `template` with its `details` (message-templates.ts).
 */
export interface CodeSender {
  send(delivery: Delivery): Promise<void>;
}

/** How a message reaches its reader: by e-mail, by SMS, or (no gateway for it) as a line of ONE_TIME_CODE_LOG. */
export type MessageChannel = 'email' | 'sms' | 'log';

const PHONE = /^\+?[0-9]{6,15}$/;

/** Which gateway a login is for: an e-mail address, a phone number, or neither (no gateway reaches it). */
export function addressKind(to: string): 'email' | 'sms' | undefined {
  return /^[^@\s]+@[^@\s]+$/.test(to) ? 'email' : PHONE.test(to) ? 'sms' : undefined;
}
