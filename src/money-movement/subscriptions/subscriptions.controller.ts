import { Body, Caller, Principal, Route, Routes, UuidParam } from '../../platform/http';
import * as dto from './dto/subscription.dto';
import { SubscriptionsService } from './subscriptions.service';

const OWNER = { access: ['SUBSCRIPTION_OWNER'] } as const;
/** One of the caller's subscriptions, answered. */
const ONE = { ...OWNER, errors: ['exception.subscription.not_found'] } as const;
/** A change of its schedule, refused once it has ended. */
const SCHEDULE = { ...ONE, errors: [...ONE.errors, ['exception.subscription.finished', 'it has ended (PROCESSED)']] } as const;

/** The caller's subscriptions: transfer templates paid on a schedule. Creating one moves no money: the scheduler's runs do. */
@Routes('subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  /** Pays one of the caller's transfer templates on every due date from `recurringStartDate` until it expires. */
  @Route('POST', '', {
    access: ['SUBSCRIPTION_OWNER', 'TRANSFER_CREATOR'],
    summary: 'Create a subscription',
    errors: [['exception.transfer_template.not_found', "not one of the caller's templates"]],
  })
  async createSubscription(@Body() body: dto.CreateSubscriptionDto, @Caller() caller: Principal): Promise<dto.SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription created', subscription: await this.subscriptions.create(caller, body) };
  }

  /** Every subscription of the caller (for the organization they act for), oldest first, with its latest run. */
  @Route('GET', '', { ...OWNER, summary: "The caller's subscriptions" })
  async listSubscriptions(@Caller() caller: Principal): Promise<dto.SubscriptionListDto> {
    return { status: 'ok', message: 'OK', subscriptions: await this.subscriptions.list(caller) };
  }

  /** Starts a stopped subscription again from its next due date on or after today. */
  @Route('PATCH', ':id/activate', { ...SCHEDULE, access: ['SUBSCRIPTION_OWNER', 'TRANSFER_CREATOR'], summary: 'Activate a subscription' })
  async activateSubscription(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription activated', subscription: await this.subscriptions.activate(caller, id) };
  }

  /** No payments until activated again. */
  @Route('PATCH', ':id/stop', { ...SCHEDULE, summary: 'Stop a subscription' })
  async stopSubscription(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription stopped', subscription: await this.subscriptions.stop(caller, id) };
  }

  /** Deletes one of the caller's subscriptions and answers it as it was; its payments stay. */
  @Route('DELETE', ':id', { ...ONE, summary: 'Delete a subscription' })
  async deleteSubscription(@UuidParam('id') id: string, @Caller() caller: Principal): Promise<dto.SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription deleted', subscription: await this.subscriptions.delete(caller, id) };
  }
}
