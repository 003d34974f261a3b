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
] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** One code to deliver to `to` (a login: an e-mail address or a phone number). */
export interface CodeDelivery {
  kind: 'code';
  purpose: CodePurpose;
  to: string;
  code: string;
  expiresAt: Date;
  /** What the message says beside the code, never a secret (a restore code names the login it undoes: `newLogin`). */
  details?: Record<string, string>;
}

/** What a notice tells its reader; each is a message template of a real sender. */
export const NOTICE_TEMPLATES = [
  /** Staff asked to change the reader's login to `newLogin`: it changes only when the user confirms it. */
  'login_change_requested',
  /** The reader's login (or contact) changed to `newLogin`; a `contact_restore` code sent beside it takes it back. */
  'login_changed',
] as const;
export type NoticeTemplate = (typeof NOTICE_TEMPLATES)[number];

/** A message without a secret to `to`: tells a user that something happened to their account. */
export interface NoticeDelivery {
  kind: 'notice';
  to: string;
  template: NoticeTemplate;
  details: Record<string, string>;
}

export type Delivery = CodeDelivery | NoticeDelivery;

/**
 * Delivers codes and notices: the only place a code exists in clear after it is made, and the only way a message
 * leaves the service. The default writes them to ONE_TIME_CODE_LOG (LogCodeSender); an e-mail or SMS gateway is
 * another provider of CODE_SENDER, rendering each `purpose` or `template` with its `details`.
 * Called after the code's (or notice's) transaction commits; a failure is logged, never answered (the caller resends).
 */
export interface CodeSender {
  send(delivery: Delivery): Promise<void>;
}

export const CODE_SENDER = Symbol('CODE_SENDER');
/** The key of the codes' HMAC. */
export const CODE_KEY = Symbol('CODE_KEY');
