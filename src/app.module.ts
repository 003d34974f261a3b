import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AccessModule } from './access/access.module';
import { ActuatorModule } from './actuator/actuator.module';
import { AuthModule } from './auth/auth.module';
import { ErrorFilter } from './common/error-filter';
import { APP_CONFIG, AppConfig } from './config/config';
import { DatabaseModule } from './database/database.module';
import { BankAccountsModule } from './bank-accounts/bank-accounts.module';
import { BankCatalogModule } from './bank-catalog/bank-catalog.module';
import { BankTopUpsModule } from './bank-top-ups/bank-top-ups.module';
import { BankWithdrawalsModule } from './bank-withdrawals/bank-withdrawals.module';
import { CashDesksModule } from './cash-desks/cash-desks.module';
import { CoinsModule } from './coins/coins.module';
import { CommissionsModule } from './commissions/commissions.module';
import { ContractsModule } from './contracts/contracts.module';
import { CurrenciesModule } from './currencies/currencies.module';
import { ExchangeRatesModule } from './exchange-rates/exchange-rates.module';
import { ExchangeModule } from './exchange/exchange.module';
import { I18nModule } from './i18n/i18n.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { LedgerModule } from './ledger/ledger.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { PaymentToolsModule } from './payment-tools/payment-tools.module';
import { PendingOperationsModule } from './pending-operations/pending-operations.module';
import { ProfilesModule } from './profiles/profiles.module';
import { ContactBookModule } from './contact-book/contact-book.module';
import { OrganizationViewsModule } from './organization-views/organization-views.module';
import { AuditModule } from './audit/audit.module';
import { GatesModule } from './gates/gates.module';
import { InvoicesModule } from './invoices/invoices.module';
import { MerchantProductsModule } from './merchant-products/merchant-products.module';
import { PointsOfSaleModule } from './points-of-sale/points-of-sale.module';
import { MerchantPaymentsModule } from './merchant-payments/merchant-payments.module';
import { ReportingModule } from './reporting/reporting.module';
import { SmartCardsModule } from './smart-cards/smart-cards.module';
import { TransactionCategoriesModule } from './transaction-categories/transaction-categories.module';
import { TransactionsModule } from './transactions/transactions.module';
import { TransferTemplatesModule } from './transfer-templates/transfer-templates.module';
import { TransfersModule } from './transfers/transfers.module';
import { UserActionsModule } from './user-actions/user-actions.module';
import { UsersModule } from './users/users.module';
import { VouchersModule } from './vouchers/vouchers.module';
import { OutboxModule } from './outbox/outbox.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { StatementsModule } from './statements/statements.module';
import { DashboardModule } from './dashboard/dashboard.module';

@Module({})
export class AppModule {
  /** `extra`: modules beside the service's own (a test's deliberately wrong module, see test/fixtures). */
  static forRoot(config: AppConfig, databaseUrl: string, extra: Type[] = []): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        DatabaseModule.forRoot(databaseUrl, config.dbPoolSize, config.readDatabaseUrl),
        // The kernel: organizations, user actions, access, the ledger, idempotency, pricing, payment tools.
        OrganizationsModule,
        UserActionsModule,
        OutboxModule,
        AccessModule,
        LedgerModule,
        IdempotencyModule,
        CommissionsModule,
        PaymentToolsModule,
        PendingOperationsModule,
        // The features.
        UsersModule,
        AuthModule,
        ProfilesModule,
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
        TransactionsModule,
        ReportingModule,
        TransactionCategoriesModule,
        TransferTemplatesModule,
        ExchangeRatesModule,
        ExchangeModule,
        VouchersModule,
        SmartCardsModule,
        I18nModule,
        ActuatorModule,
        WebhooksModule,
        StatementsModule,
        DashboardModule,
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
