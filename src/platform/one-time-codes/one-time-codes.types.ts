/** What a one-time code is for; each purpose has its own codes for one login. */
export const CODE_PURPOSES = ['registration', 'login', 'password_recovery', 'contact_change'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** One code to deliver to `to` (a login: an e-mail address or a phone number). */
export interface CodeDelivery {
  purpose: CodePurpose;
  to: string;
  code: string;
  expiresAt: Date;
}

/**
 * Delivers codes: the only place a code exists in clear after it is made. The default writes them to
 * ONE_TIME_CODE_LOG (LogCodeSender); an e-mail or SMS gateway is another provider of CODE_SENDER.
 * Called after the code's transaction commits; a failure is logged, never answered (the caller resends).
 */
export interface CodeSender {
  send(delivery: CodeDelivery): Promise<void>;
}

export const CODE_SENDER = Symbol('CODE_SENDER');
/** The key of the codes' HMAC. */
export const CODE_KEY = Symbol('CODE_KEY');
