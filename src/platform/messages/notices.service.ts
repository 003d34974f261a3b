import { Injectable, OnModuleInit } from '@nestjs/common';
import { Database } from '../database/database';
import { DatabaseNotifications } from '../database/notifications';
import { currentTransaction } from '../database/transaction-context';
import type { OperationCoinDto, OperationDto } from '../ledger/dto/operation.dto';
import { DomainEvent, OnDomainEvent } from '../outbox/domain-events';
import { addressKind, type NoticeTemplate } from './message.types';
import { MessagesService } from './messages.service';

/** The channel the database announces changes of who asked for transaction notices on (migration 1763804540000). */
const NOTICES_CHANNEL = 'finapi_notices';

/** Whether a user's `transactionNotification` asks for a notice: the predicate of the partial index users_transaction_notices_idx. */
const WANTS_TRANSACTION_NOTICES = `((u.security_settings -> 'transactionNotification' ->> 'email') = 'true'
    OR (u.security_settings -> 'transactionNotification' ->> 'phone') = 'true')`;

/** The channels a notification setting asks for (`transactionNotification`, `authorizationNotification`). */
export interface NoticeChannels {
  email?: boolean;
  phone?: boolean;
}

/** A user as their notices need them: where they can be reached, and their language. */
export interface NoticeReader {
  login: string;
  email?: string | null;
  email_verified?: boolean;
  phone_number?: string | null;
  phone_verified?: boolean;
  locale?: string | null;
}

/**
 * Where the notices a setting asks for go: `email: true` to the login when it is an e-mail address, else to the
 * user's proven e-mail contact; `phone: true` by SMS to the login when it is a phone number, else to their proven
 * phone contact. None when the user has no such address.
 */
export function noticeAddresses(user: NoticeReader, channels: NoticeChannels | undefined): string[] {
  const to: string[] = [];
  if (channels?.email === true) {
    const address = addressKind(user.login) === 'email' ? user.login : user.email_verified ? user.email : null;
    if (address) to.push(address);
  }
  if (channels?.phone === true) {
    const number = addressKind(user.login) === 'sms' ? user.login : user.phone_verified ? user.phone_number : null;
    if (number) to.push(number);
  }
  return [...new Set(to)];
}

/** Where a notice about the account goes: the login when a message reaches it, else the user's e-mail, else their phone. */
export function accountAddress(user: NoticeReader): string | undefined {
  return addressKind(user.login) ? user.login : (user.email ?? user.phone_number ?? undefined);
}

interface ReaderRow extends NoticeReader {
  organization_id: string;
  channels: NoticeChannels | null;
}

/** The side of a money movement one organization is on: the coin money left, the coin it came into, or both. */
interface Side {
  out?: OperationCoinDto;
  in?: OperationCoinDto;
}

/**
 * Notices (issue 46, item 3): of money movements to the users who asked (`transactionNotification`), of logins
 * (`authorizationNotification`) and of what happens to an account (password changed, On Hold, released,
 * deactivated), each in its reader's locale. Every notice is a row of the messages outbox written in the transaction
 * of what it tells — none for a change rolled back — and sent after the commit; none carries a secret.
 *
 * A money movement is heard in its transaction (`operation.processed`, `operation.reversed`). It must cost nothing
 * when nobody asked: each instance keeps the organizations that have a member who asked for transaction notices, read
 * once (one statement, through a partial index of the users who asked) and kept until that changes — on this instance
 * the moment a change of settings commits, on every instance when the database announces a change of settings or a
 * membership given to a user who asked (NOTIFY `finapi_notices`). A movement whose organizations are not in it runs
 * no statement; one that is runs one to read its readers and one to queue their notices. While the listening
 * connection is down, every movement reads its readers.
 */
@Injectable()
export class NoticesService implements OnModuleInit {
  /** Organizations with a member who asked for transaction notices; undefined until (re)read. */
  private listening?: Set<string>;
  private generation = 0;
  private readonly forget = () => {
    this.generation++;
    this.listening = undefined;
  };

  constructor(
    private readonly db: Database,
    private readonly notifications: DatabaseNotifications,
    private readonly messages: MessagesService,
  ) {}

  onModuleInit(): void {
    this.notifications.subscribe(NOTICES_CHANNEL, { message: this.forget, reset: this.forget });
  }

  /**
   * Called in the transaction that changes a user's notification settings: this instance forgets who listens the
   * moment it commits (the others when the database announces it).
   */
  settingsChanged(): void {
    const open = currentTransaction();
    if (!open) this.forget();
    else if (!open.onCommit.includes(this.forget)) open.onCommit.push(this.forget);
  }

  @OnDomainEvent('operation.processed', { phase: 'in-transaction' })
  async processed({ data }: DomainEvent<OperationDto>): Promise<void> {
    await this.moneyMoved(data);
  }

  @OnDomainEvent('operation.reversed', { phase: 'in-transaction' })
  async reversed({ data }: DomainEvent<{ operationId: string; reversal: OperationDto }>): Promise<void> {
    await this.moneyMoved(data.reversal);
  }

  /**
   * A login succeeded: the user is told when their `authorizationNotification` asks for it (the settings come with
   * the user the login read: no statement when it does not).
   */
  async login(user: NoticeReader & { security_settings?: { authorizationNotification?: NoticeChannels } }, address: string): Promise<void> {
    const to = noticeAddresses(user, user.security_settings?.authorizationNotification);
    if (!to.length) return;
    const details = { address, at: new Date().toISOString() };
    await this.messages.queueNotices(to.map((address) => ({ to: address, template: 'login', details, locale: user.locale })));
  }

  /** Something happened to the user's account: they are told at their login (or contact), whatever their settings. */
  async account(
    user: NoticeReader,
    template: Extract<NoticeTemplate, 'password_changed' | 'user_held' | 'user_released' | 'user_deactivated'>,
    details: Record<string, string> = {},
  ): Promise<void> {
    const to = accountAddress(user);
    if (!to) return;
    await this.messages.queueNotice(to, template, { ...details, at: new Date().toISOString() }, user.locale);
  }

  /** Tells the users of the organizations whose coins `operation` moved money on, who asked for it. */
  private async moneyMoved(operation: OperationDto): Promise<void> {
    const sides = sidesOf(operation);
    if (!sides.size || !(await this.anyListens([...sides.keys()]))) return;
    const readers = await this.db.query<ReaderRow>(
      `SELECT m.organization_id, u.login, u.email, u.email_verified, u.phone_number, u.phone_verified, u.locale,
              u.security_settings -> 'transactionNotification' AS channels
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = ANY($1::uuid[]) AND u.deactivated_at IS NULL AND ${WANTS_TRANSACTION_NOTICES}`,
      [[...sides.keys()]],
    );
    const notices = readers.flatMap((reader) => {
      const notice = noticeOf(operation, sides.get(reader.organization_id)!);
      return noticeAddresses(reader, reader.channels ?? undefined).map((to) => ({ to, ...notice, locale: reader.locale }));
    });
    await this.messages.queueNotices(notices);
  }

  /** Whether a member of one of `organizations` may have asked for transaction notices (true when this instance cannot be sure). */
  private async anyListens(organizations: string[]): Promise<boolean> {
    if (!this.notifications.live()) return true;
    let listening = this.listening;
    if (!listening) {
      const generation = this.generation;
      const rows = await this.db.query<{ organization_id: string }>(
        `SELECT DISTINCT m.organization_id FROM users u JOIN memberships m ON m.user_id = u.id WHERE ${WANTS_TRANSACTION_NOTICES}`,
      );
      listening = new Set(rows.map((r) => r.organization_id));
      if (generation === this.generation && this.notifications.live()) this.listening = listening;
    }
    return organizations.some((o) => listening.has(o));
  }
}

/** The customers' organizations a movement touched (a system coin's is no reader's), each with its side. */
function sidesOf(operation: OperationDto): Map<string, Side> {
  const sides = new Map<string, Side>();
  const side = (coin: OperationCoinDto | null, which: keyof Side) => {
    if (!coin || coin.technical) return;
    sides.set(coin.organizationId, { ...sides.get(coin.organizationId), [which]: coin });
  };
  side(operation.from, 'out');
  side(operation.to, 'in');
  return sides;
}

/** What a movement tells one side: sent, received, or moved between its own coins. Never a secret. */
function noticeOf(operation: OperationDto, side: Side): { template: NoticeTemplate; details: Record<string, string> } {
  const common = { type: operation.type, operationId: operation.id, at: operation.updatedAt ?? operation.createdAt };
  const amount = { amount: String(operation.amount), currency: operation.currency };
  if (side.out && side.in) {
    const [sold, bought] = operation.children;
    const exchange =
      sold && bought
        ? {
            amount: String(sold.outgoingAmount ?? operation.amount),
            currency: sold.coin.issuer.currency,
            toAmount: String(bought.incomingAmount ?? ''),
            toCurrency: bought.coin.issuer.currency,
          }
        : amount;
    return { template: 'money_moved', details: { ...common, ...exchange, coin: side.out.name, toCoin: side.in.name } };
  }
  if (side.out) {
    const to: Record<string, string> = operation.to && !operation.to.technical ? { counterparty: operation.to.organizationName } : {};
    const fee: Record<string, string> = Number(String(operation.commission)) > 0 ? { commission: String(operation.commission) } : {};
    return { template: 'money_sent', details: { ...common, ...amount, ...fee, ...to, coin: side.out.name } };
  }
  const from: Record<string, string> =
    operation.from && !operation.from.technical ? { counterparty: operation.from.organizationName } : {};
  return { template: 'money_received', details: { ...common, ...amount, ...from, coin: side.in!.name } };
}
