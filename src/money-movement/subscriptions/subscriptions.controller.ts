import { Body, Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermissions } from '../../platform/access/access.decorators';
import { CurrentPrincipal, Principal } from '../../platform/access/principal';
import { ErrorResponseDto } from '../../platform/common/error-response.dto';
import { UuidParam } from '../../platform/common/validators';
import { CreateSubscriptionDto, SubscriptionListDto, SubscriptionResponseDto } from './dto/subscription.dto';
import { SubscriptionsService } from './subscriptions.service';

/**
 * The caller's subscriptions: a transfer template paid on a schedule by the kernel's scheduler. Creating one moves no
 * money (the scheduler's runs do, each under its own key), so none of these routes is `@Idempotent()`.
 */
@ApiTags('subscriptions')
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  /** Pays one of the caller's transfer templates on every due date from `recurringStartDate` until it expires. */
  @Post()
  @RequirePermissions('SUBSCRIPTION_OWNER', 'TRANSFER_CREATOR')
  @ApiOperation({ summary: 'Create a subscription', operationId: 'createSubscription' })
  @ApiCreatedResponse({ type: SubscriptionResponseDto })
  @ApiNotFoundResponse({ description: "exception.transfer_template.not_found: not one of the caller's templates", type: ErrorResponseDto })
  async create(@Body() dto: CreateSubscriptionDto, @CurrentPrincipal() principal: Principal): Promise<SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription created', subscription: await this.subscriptions.create(principal, dto) };
  }

  /** Every subscription of the caller (for the organization they act for), oldest first, with its latest run. */
  @Get()
  @RequirePermissions('SUBSCRIPTION_OWNER')
  @ApiOperation({ summary: "The caller's subscriptions", operationId: 'listSubscriptions' })
  @ApiOkResponse({ type: SubscriptionListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SubscriptionListDto> {
    return { status: 'ok', message: 'OK', subscriptions: await this.subscriptions.list(principal) };
  }

  /** Starts a stopped subscription again from its next due date on or after today. */
  @Patch(':id/activate')
  @RequirePermissions('SUBSCRIPTION_OWNER', 'TRANSFER_CREATOR')
  @ApiOperation({ summary: 'Activate a subscription', operationId: 'activateSubscription' })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @ApiNotFoundResponse({ description: 'exception.subscription.not_found', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.subscription.finished: it has ended (PROCESSED)', type: ErrorResponseDto })
  async activate(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription activated', subscription: await this.subscriptions.activate(principal, id) };
  }

  /** No payments until activated again. */
  @Patch(':id/stop')
  @RequirePermissions('SUBSCRIPTION_OWNER')
  @ApiOperation({ summary: 'Stop a subscription', operationId: 'stopSubscription' })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @ApiNotFoundResponse({ description: 'exception.subscription.not_found', type: ErrorResponseDto })
  @ApiConflictResponse({ description: 'exception.subscription.finished: it has ended (PROCESSED)', type: ErrorResponseDto })
  async stop(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription stopped', subscription: await this.subscriptions.stop(principal, id) };
  }

  /** Deletes one of the caller's subscriptions and answers it as it was; its payments stay. */
  @Delete(':id')
  @RequirePermissions('SUBSCRIPTION_OWNER')
  @ApiOperation({ summary: 'Delete a subscription', operationId: 'deleteSubscription' })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @ApiNotFoundResponse({ description: 'exception.subscription.not_found', type: ErrorResponseDto })
  async delete(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<SubscriptionResponseDto> {
    return { status: 'ok', message: 'Subscription deleted', subscription: await this.subscriptions.delete(principal, id) };
  }
}
