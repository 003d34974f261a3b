import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AccessModule } from './platform/access/access.module';
import { ActuatorModule } from './platform/actuator/actuator.module';
import { AuthModule } from './platform/auth/auth.module';
import { ErrorFilter } from './platform/common/error-filter';
import { APP_CONFIG, AppConfig } from './platform/config/config';
import { DatabaseModule } from './platform/database/database.module';
import { BankAccountsModule } from './money-in-out/bank-accounts/bank-accounts.module';
import { BankCatalogModule } from './money-in-out/bank-catalog/bank-catalog.module';
import { BankTopUpsModule } from './money-in-out/bank-top-ups/bank-top-ups.module';
import { BankWithdrawalsModule } from './money-in-out/bank-withdrawals/bank-withdrawals.module';
import { CashDesksModule } from './money-in-out/cash-desks/cash-desks.module';
import { CoinsModule } from './money-movement/coins/coins.module';
import { CommissionsModule } from './platform/commissions/commissions.module';
import { ContractsModule } from './operators/contracts/contracts.module';
import { LimitProfilesModule } from './operators/limit-profiles/limit-profiles.module';
import { CurrenciesModule } from './money-movement/currencies/currencies.module';
import { ExchangeRatesModule } from './money-movement/exchange-rates/exchange-rates.module';
import { ExchangeModule } from './money-movement/exchange/exchange.module';
import { I18nModule } from './platform/i18n/i18n.module';
import { IdempotencyModule } from './platform/idempotency/idempotency.module';
import { LedgerModule } from './platform/ledger/ledger.module';
import { OrganizationsModule } from './platform/organizations/organizations.module';
import { FilesModule } from './platform/files/files.module';
import { PaymentToolsModule } from './platform/payment-tools/payment-tools.module';
import { PendingOperationsModule } from './platform/pending-operations/pending-operations.module';
import { SchedulerModule } from './platform/scheduler/scheduler.module';
import { SubscriptionsModule } from './money-movement/subscriptions/subscriptions.module';
import { ProfilesModule } from './people/profiles/profiles.module';
import { ContactBookModule } from './people/contact-book/contact-book.module';
import { OrganizationViewsModule } from './people/organization-views/organization-views.module';
import { AuditModule } from './people/audit/audit.module';
import { GatesModule } from './cards-and-gates/gates/gates.module';
import { InvoicesModule } from './commerce/invoices/invoices.module';
import { MerchantProductsModule } from './commerce/merchant-products/merchant-products.module';
import { PointsOfSaleModule } from './commerce/points-of-sale/points-of-sale.module';
import { MerchantPaymentsModule } from './commerce/merchant-payments/merchant-payments.module';
import { ReportingModule } from './operators/reporting/reporting.module';
import { SmartCardsModule } from './cards-and-gates/smart-cards/smart-cards.module';
import { TransactionCategoriesModule } from './money-movement/transaction-categories/transaction-categories.module';
import { TransactionsModule } from './money-movement/transactions/transactions.module';
import { TransferTemplatesModule } from './money-movement/transfer-templates/transfer-templates.module';
import { TransfersModule } from './money-movement/transfers/transfers.module';
import { UserActionsModule } from './platform/user-actions/user-actions.module';
import { UsersModule } from './platform/users/users.module';
import { VouchersModule } from './commerce/vouchers/vouchers.module';
import { OutboxModule } from './platform/outbox/outbox.module';
import { MessagesModule } from './platform/messages/messages.module';
import { OneTimeCodesModule } from './platform/one-time-codes/one-time-codes.module';
import { RegistrationModule } from './people/registration/registration.module';
import { WebhooksModule } from './operators/webhooks/webhooks.module';
import { MessagesViewModule } from './operators/messages/messages.module';
import { StatementsModule } from './operators/statements/statements.module';
import { DashboardModule } from './operators/dashboard/dashboard.module';
import { SystemOperationsModule } from './operators/system-operations/system-operations.module';

@Module({})
export class AppModule {
  /** `extra`: modules beside the service's own (a test's deliberately wrong module, see test/fixtures). */
  static forRoot(config: AppConfig, databaseUrl: string, extra: Type[] = []): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        DatabaseModule.forRoot(databaseUrl, config),
        // The kernel: organizations, user actions, access, the ledger, idempotency, pricing, payment tools.
        OrganizationsModule,
        UserActionsModule,
        OutboxModule,
        MessagesModule,
        OneTimeCodesModule,
        AccessModule,
        LedgerModule,
        IdempotencyModule,
        CommissionsModule,
        PaymentToolsModule,
        FilesModule,
        PendingOperationsModule,
        SchedulerModule,
        // The features.
        UsersModule,
        AuthModule,
        ProfilesModule,
        RegistrationModule,
        ContactBookModule,
        OrganizationViewsModule,
        AuditModule,
        GatesModule,
        InvoicesModule,
        MerchantProductsModule,
        PointsOfSaleModule,
        MerchantPaymentsModule,
        CurrenciesModule,
        CoinsModule,
        TransfersModule,
        BankCatalogModule,
        BankAccountsModule,
        BankTopUpsModule,
        BankWithdrawalsModule,
        CashDesksModule,
        ContractsModule,
        LimitProfilesModule,
        TransactionsModule,
        ReportingModule,
        TransactionCategoriesModule,
        TransferTemplatesModule,
        SubscriptionsModule,
        ExchangeRatesModule,
        ExchangeModule,
        VouchersModule,
        SmartCardsModule,
        I18nModule,
        ActuatorModule,
        WebhooksModule,
        MessagesViewModule,
        StatementsModule,
        DashboardModule,
        SystemOperationsModule,
        ...extra,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
      exports: [APP_CONFIG],
    };
  }
}
