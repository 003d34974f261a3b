import { Injectable, OnModuleInit } from '@nestjs/common';
import { DatabaseNotifications } from '../database/notifications';
import { UnitOfWork } from '../database/unit-of-work';
import { DomainEvent, OnDomainEvent } from '../outbox/domain-events';
import { addressKind, type NoticeTemplate } from './message.types';
import { MessagesService } from './messages.service';
import { NoticesRepository, type NoticeChannels, type NoticeReader } from './notices.repository';

export type { NoticeChannels, NoticeReader } from './notices.repository';

/** A coin on one side of a money movement, as the ledger's OperationDto names it (the ledger is a layer above). */
interface MovedCoin {
  name: string;
  organizationId: string;
  organizationName: string;
  /** A system coin: no reader's. */
  technical: boolean;
  issuer: { currency: string };
}

/** What a notice reads of a money movement: the ledger's OperationDto (`operation.processed`, a reversal's `reversal`). */
interface MovedMoney {
  id: string;
  type: string;
  createdAt: string;
  updatedAt: string;
  amount: { toString(): string };
  commission: { toString(): string };
  currency: string;
  from: MovedCoin | null;
  to: MovedCoin | null;
  /** An exchange's sides: the sold, then the bought. */
  children: { coin: MovedCoin; outgoingAmount: { toString(): string } | null; incomingAmount: { toString(): string } | null }[];
}

/** The channel the database announces changes of who asked for transaction notices on (migration 1763804540000). */
const NOTICES_CHANNEL = 'finapi_notices';

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

/** The side of a money movement one organization is on: the coin money left, the coin it came into, or both. */
interface Side {
  out?: MovedCoin;
  in?: MovedCoin;
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
    private readonly repository: NoticesRepository,
    private readonly notifications: DatabaseNotifications,
    private readonly uow: UnitOfWork,
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
    const open = this.uow.current();
    if (!open) this.forget();
    else if (!open.onCommit.includes(this.forget)) open.onCommit.push(this.forget);
  }

  @OnDomainEvent('operation.processed', { phase: 'in-transaction' })
  processed({ data }: DomainEvent<MovedMoney>): Promise<void> | undefined {
    return this.moneyMoved(data);
  }

  @OnDomainEvent('operation.reversed', { phase: 'in-transaction' })
  reversed({ data }: DomainEvent<{ operationId: string; reversal: MovedMoney }>): Promise<void> | undefined {
    return this.moneyMoved(data.reversal);
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

  /**
   * Tells the users of the organizations whose coins `operation` moved money on, who asked for it. Nothing to wait for
   * (no promise) when this instance knows nobody there asked: most movements.
   */
  private moneyMoved(operation: MovedMoney): Promise<void> | undefined {
    const sides = sidesOf(operation);
    if (!sides.size) return undefined;
    const organizations = [...sides.keys()];
    const known = this.knownListening(organizations);
    return known === false ? undefined : this.tell(operation, sides, organizations, known);
  }

  /** `moneyMoved` when a member may have asked (`known`), or this instance does not know yet (undefined). */
  private async tell(operation: MovedMoney, sides: Map<string, Side>, organizations: string[], known: true | undefined): Promise<void> {
    if (!(known ?? (await this.anyListens(organizations)))) return;
    const readers = await this.repository.readers(organizations);
    const notices = readers.flatMap((reader) => {
      const notice = noticeOf(operation, sides.get(reader.organization_id)!);
      return noticeAddresses(reader, reader.channels ?? undefined).map((to) => ({ to, ...notice, locale: reader.locale }));
    });
    await this.messages.queueNotices(notices);
  }

  /** Whether a member of one of `organizations` may have asked for transaction notices, from what this instance keeps (true when it cannot be sure; most movements: nobody asked); undefined when it keeps nothing yet. */
  private knownListening(organizations: string[]): boolean | undefined {
    if (!this.notifications.live()) return true;
    const listening = this.listening;
    return listening && organizations.some((o) => listening.has(o));
  }

  /** Whether a member of one of `organizations` asked for transaction notices, read anew (when `knownListening` cannot tell). */
  private async anyListens(organizations: string[]): Promise<boolean> {
    const generation = this.generation;
    const listening = new Set(await this.repository.listeningOrganizations());
    if (generation === this.generation && this.notifications.live()) this.listening = listening;
    return organizations.some((o) => listening.has(o));
  }
}

/** The customers' organizations a movement touched (a system coin's is no reader's), each with its side. */
function sidesOf(operation: MovedMoney): Map<string, Side> {
  const sides = new Map<string, Side>();
  const side = (coin: MovedCoin | null, which: keyof Side) => {
    if (!coin || coin.technical) return;
    sides.set(coin.organizationId, { ...sides.get(coin.organizationId), [which]: coin });
  };
  side(operation.from, 'out');
  side(operation.to, 'in');
  return sides;
}

/** What a movement tells one side: sent, received, or moved between its own coins. Never a secret. */
function noticeOf(operation: MovedMoney, side: Side): { template: NoticeTemplate; details: Record<string, string> } {
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
  const from: Record<string, string> = operation.from && !operation.from.technical ? { counterparty: operation.from.organizationName } : {};
  return { template: 'money_received', details: { ...common, ...amount, ...from, coin: side.in!.name } };
}
