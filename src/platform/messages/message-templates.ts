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
  subject: string | ((details: Details) => string);
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
const NOT_YOU_MONEY_EN = 'If you did not do it, change your password now and contact support.';
const NOT_YOU_MONEY_DE = 'Wenn Sie es nicht waren, ändern Sie jetzt Ihr Passwort und wenden Sie sich an den Support.';

/** An instant as a notice names it: `2025-11-29 10:15 UTC` (the same in every language). */
function when(at: string | undefined): string {
  const date = at ? new Date(at) : undefined;
  return date && !Number.isNaN(date.getTime()) ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
}

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
      money_sent: {
        subject: (d) => `You sent ${d.amount} ${d.currency}`,
        body: (d) =>
          `${d.amount} ${d.currency} left your coin ${d.coin}${d.counterparty ? ` to ${d.counterparty}` : ''}${
            d.commission ? `, with a fee of ${d.commission} ${d.currency}` : ''
          } (${d.type}, operation ${d.operationId}, ${when(d.at)}). ${NOT_YOU_MONEY_EN}`,
      },
      money_received: {
        subject: (d) => `You received ${d.amount} ${d.currency}`,
        body: (d) =>
          `${d.amount} ${d.currency} came into your coin ${d.coin}${d.counterparty ? ` from ${d.counterparty}` : ''} (${d.type}, operation ${
            d.operationId
          }, ${when(d.at)}).`,
      },
      money_moved: {
        subject: (d) => `${d.amount} ${d.currency} moved between your coins`,
        body: (d) =>
          `${d.amount} ${d.currency} moved from your coin ${d.coin} to your coin ${d.toCoin}${
            d.toAmount ? `, which received ${d.toAmount} ${d.toCurrency}` : ''
          } (${d.type}, operation ${d.operationId}, ${when(d.at)}). ${NOT_YOU_MONEY_EN}`,
      },
      login: {
        subject: 'A login to your finapi account',
        body: (d) => `Someone logged in to your account from ${d.address} at ${when(d.at)}. If it was not you, change your password now.`,
      },
      password_changed: {
        subject: 'Your password was changed',
        body: (d) =>
          `Your password was ${d.how === 'recovered' ? 'set anew with a recovery code' : 'changed'} at ${when(d.at)}${
            d.address ? ` from ${d.address}` : ''
          }. If you did not do it, recover your password now and contact support.`,
      },
      user_held: {
        subject: 'Your account was put On Hold',
        body: (d) =>
          `After ${d.failedAttempts} wrong passwords in a row, your account was put On Hold at ${when(d.at)}: nobody can log in to it until an administrator releases it. Contact support to have it released.`,
      },
      user_released: {
        subject: 'Your account was released',
        body: (d) =>
          `An administrator released your account at ${when(d.at)} with a temporary password, which they give you. Log in with it and choose a new password. If you did not ask for it, contact support.`,
      },
      user_deactivated: {
        subject: 'Your account was deactivated',
        body: (d) => `Your account was deactivated at ${when(d.at)}: nobody can log in to it. Contact support if you think this is wrong.`,
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
      money_sent: {
        subject: (d) => `Sie haben ${d.amount} ${d.currency} gesendet`,
        body: (d) =>
          `${d.amount} ${d.currency} gingen von Ihrem Wallet ${d.coin}${d.counterparty ? ` an ${d.counterparty}` : ''}${
            d.commission ? `, mit einer Gebühr von ${d.commission} ${d.currency}` : ''
          } (${d.type}, Vorgang ${d.operationId}, ${when(d.at)}). ${NOT_YOU_MONEY_DE}`,
      },
      money_received: {
        subject: (d) => `Sie haben ${d.amount} ${d.currency} erhalten`,
        body: (d) =>
          `${d.amount} ${d.currency} gingen auf Ihrem Wallet ${d.coin} ein${d.counterparty ? `, von ${d.counterparty}` : ''} (${d.type}, Vorgang ${
            d.operationId
          }, ${when(d.at)}).`,
      },
      money_moved: {
        subject: (d) => `${d.amount} ${d.currency} zwischen Ihren Wallets bewegt`,
        body: (d) =>
          `${d.amount} ${d.currency} gingen von Ihrem Wallet ${d.coin} auf Ihr Wallet ${d.toCoin}${
            d.toAmount ? `, das ${d.toAmount} ${d.toCurrency} erhielt` : ''
          } (${d.type}, Vorgang ${d.operationId}, ${when(d.at)}). ${NOT_YOU_MONEY_DE}`,
      },
      login: {
        subject: 'Eine Anmeldung bei Ihrem finapi-Konto',
        body: (d) =>
          `Jemand hat sich am ${when(d.at)} von ${d.address} aus bei Ihrem Konto angemeldet. Wenn Sie es nicht waren, ändern Sie jetzt Ihr Passwort.`,
      },
      password_changed: {
        subject: 'Ihr Passwort wurde geändert',
        body: (d) =>
          `Ihr Passwort wurde am ${when(d.at)}${d.address ? ` von ${d.address} aus` : ''} ${
            d.how === 'recovered' ? 'mit einem Wiederherstellungscode neu gesetzt' : 'geändert'
          }. Wenn Sie es nicht waren, setzen Sie Ihr Passwort jetzt neu und wenden Sie sich an den Support.`,
      },
      user_held: {
        subject: 'Ihr Konto wurde gesperrt',
        body: (d) =>
          `Nach ${d.failedAttempts} falschen Passwörtern in Folge wurde Ihr Konto am ${when(d.at)} gesperrt (On Hold): niemand kann sich anmelden, bis ein Administrator es freigibt. Wenden Sie sich an den Support, um es freigeben zu lassen.`,
      },
      user_released: {
        subject: 'Ihr Konto wurde freigegeben',
        body: (d) =>
          `Ein Administrator hat Ihr Konto am ${when(d.at)} mit einem vorläufigen Passwort freigegeben, das er Ihnen mitteilt. Melden Sie sich damit an und wählen Sie ein neues Passwort. Wenn Sie das nicht angefordert haben, wenden Sie sich an den Support.`,
      },
      user_deactivated: {
        subject: 'Ihr Konto wurde deaktiviert',
        body: (d) =>
          `Ihr Konto wurde am ${when(d.at)} deaktiviert: niemand kann sich anmelden. Wenden Sie sich an den Support, wenn Sie das für einen Fehler halten.`,
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
    const subject = typeof notice.subject === 'function' ? notice.subject(details) : notice.subject;
    return { subject, text: `${notice.body(details)}\n\n${language.footer}\n`, sms: notice.body(details) };
  }
  const text = language.codes[delivery.purpose];
  const expiresAt = delivery.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    subject: language.codeSubject(text.what),
    text: `${text.body(details)}\n\n${language.code(delivery.code, expiresAt)}\n\n${language.footer}\n`,
    sms: language.sms(text.what, delivery.code),
  };
}
