import type { CodePurpose, Delivery, MessageLocale, NoticeTemplate } from './message.types';

/** A message as its reader gets it: an e-mail's subject and text, or the SMS text (short, the code first). */
export interface RenderedMessage {
  subject: string;
  text: string;
  sms: string;
}

type Details = Record<string, string>;

interface CodeText {
  /** What the code is for, in a few words: the subject, and the SMS's reason. */
  what: string;
  /** A sentence or two on what to do with it (and what to do when one did not ask for it). */
  body: (details: Details) => string;
}

interface NoticeText {
  subject: string;
  body: (details: Details) => string;
}

interface Language {
  codeSubject: (what: string) => string;
  code: (code: string, expiresAt: string) => string;
  sms: (what: string, code: string) => string;
  footer: string;
  codes: Record<CodePurpose, CodeText>;
  notices: Record<NoticeTemplate, NoticeText>;
}

const NOT_YOU_EN = 'If you did not ask for it, ignore this message: nothing changes without the code.';
const NOT_YOU_DE = 'Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht: ohne den Code ändert sich nichts.';

/**
 * The messages' texts, one set per language (issue 46: English, and German to show a second). Each code purpose and
 * notice template has its text in every language: the type makes a missing one a compile error.
 */
const LANGUAGES: Record<MessageLocale, Language> = {
  en: {
    codeSubject: (what) => `Your finapi code to ${what}`,
    code: (code, expiresAt) => `Your code: ${code}\nIt works once, until ${expiresAt}.`,
    sms: (what, code) => `${code} is your finapi code to ${what}. Never share it.`,
    footer: 'This message was sent by finapi; you cannot reply to it.',
    codes: {
      registration: { what: 'sign up', body: () => `Enter this code to finish signing up. ${NOT_YOU_EN}` },
      login: {
        what: 'log in',
        body: () =>
          `Someone (you, we hope) entered your password. Enter this code to finish logging in. If it was not you, change your password now.`,
      },
      password_recovery: { what: 'set a new password', body: () => `Enter this code to set a new password. ${NOT_YOU_EN}` },
      contact_change: { what: 'confirm this address', body: () => `Enter this code to make this address your login. ${NOT_YOU_EN}` },
      contact_change_owner: {
        what: 'change your login',
        body: (d) =>
          `Someone asked to change your login${d.newLogin ? ` to ${d.newLogin}` : ''}. Enter this code, with the one sent to the new address, to confirm it. ${NOT_YOU_EN}`,
      },
      contact_restore: {
        what: 'take your login back',
        body: (d) =>
          `Your login was changed${d.newLogin ? ` to ${d.newLogin}` : ''}. If you did not do it, enter this code with a new password to take your login back.`,
      },
      two_factor_off: {
        what: 'turn two-step login off',
        body: () => `Enter this code to turn two-step login off. If you did not ask for it, someone has your password: change it now.`,
      },
    },
    notices: {
      login_change_requested: {
        subject: 'A change of your login was asked for',
        body: (d) =>
          `Our staff asked to change your login to ${d.newLogin ?? 'another address'}. Nothing changes until you confirm the code sent there.`,
      },
      login_changed: {
        subject: 'Your login was changed',
        body: (d) =>
          `Your login was changed to ${d.newLogin ?? 'another address'}. If you did not do it, use the code we sent you to take it back.`,
      },
    },
  },
  de: {
    codeSubject: (what) => `Ihr finapi-Code, um ${what}`,
    code: (code, expiresAt) => `Ihr Code: ${code}\nEr gilt einmal, bis ${expiresAt}.`,
    sms: (what, code) => `${code} ist Ihr finapi-Code, um ${what}. Geben Sie ihn niemandem weiter.`,
    footer: 'Diese Nachricht wurde von finapi gesendet; Sie können nicht darauf antworten.',
    codes: {
      registration: {
        what: 'sich zu registrieren',
        body: () => `Geben Sie diesen Code ein, um die Registrierung abzuschließen. ${NOT_YOU_DE}`,
      },
      login: {
        what: 'sich anzumelden',
        body: () =>
          `Jemand (hoffentlich Sie) hat Ihr Passwort eingegeben. Geben Sie diesen Code ein, um die Anmeldung abzuschließen. Wenn Sie es nicht waren, ändern Sie jetzt Ihr Passwort.`,
      },
      password_recovery: {
        what: 'ein neues Passwort zu setzen',
        body: () => `Geben Sie diesen Code ein, um ein neues Passwort zu setzen. ${NOT_YOU_DE}`,
      },
      contact_change: {
        what: 'diese Adresse zu bestätigen',
        body: () => `Geben Sie diesen Code ein, um diese Adresse zu Ihrem Login zu machen. ${NOT_YOU_DE}`,
      },
      contact_change_owner: {
        what: 'Ihren Login zu ändern',
        body: (d) =>
          `Jemand möchte Ihren Login${d.newLogin ? ` in ${d.newLogin}` : ''} ändern. Geben Sie diesen Code mit dem an die neue Adresse gesendeten ein, um es zu bestätigen. ${NOT_YOU_DE}`,
      },
      contact_restore: {
        what: 'Ihren Login zurückzuholen',
        body: (d) =>
          `Ihr Login wurde${d.newLogin ? ` in ${d.newLogin}` : ''} geändert. Wenn Sie es nicht waren, holen Sie ihn mit diesem Code und einem neuen Passwort zurück.`,
      },
      two_factor_off: {
        what: 'die zweistufige Anmeldung auszuschalten',
        body: () =>
          `Geben Sie diesen Code ein, um die zweistufige Anmeldung auszuschalten. Wenn Sie das nicht angefordert haben, kennt jemand Ihr Passwort: ändern Sie es jetzt.`,
      },
    },
    notices: {
      login_change_requested: {
        subject: 'Eine Änderung Ihres Logins wurde beantragt',
        body: (d) =>
          `Unsere Mitarbeiter haben beantragt, Ihren Login in ${d.newLogin ?? 'eine andere Adresse'} zu ändern. Es ändert sich nichts, bis Sie den dorthin gesendeten Code bestätigen.`,
      },
      login_changed: {
        subject: 'Ihr Login wurde geändert',
        body: (d) =>
          `Ihr Login wurde in ${d.newLogin ?? 'eine andere Adresse'} geändert. Wenn Sie es nicht waren, holen Sie ihn mit dem gesendeten Code zurück.`,
      },
    },
  },
};

/** The message a delivery becomes, in its reader's language (English when none or another is set). */
export function renderMessage(delivery: Delivery): RenderedMessage {
  const language = LANGUAGES[delivery.locale ?? 'en'] ?? LANGUAGES.en;
  const details = delivery.details ?? {};
  if (delivery.kind === 'notice') {
    const notice = language.notices[delivery.template];
    return { subject: notice.subject, text: `${notice.body(details)}\n\n${language.footer}\n`, sms: notice.body(details) };
  }
  const text = language.codes[delivery.purpose];
  const expiresAt = delivery.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    subject: language.codeSubject(text.what),
    text: `${text.body(details)}\n\n${language.code(delivery.code, expiresAt)}\n\n${language.footer}\n`,
    sms: language.sms(text.what, delivery.code),
  };
}
