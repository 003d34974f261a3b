import type { Principal } from '../../src/platform/access/principal';
import { ApiError } from '../../src/platform/common/api-error';
import { Money } from '../../src/platform/common/money';
import { CurrenciesService } from '../../src/money-movement/currencies/currencies.service';
import { UnitOfWork } from '../../src/platform/database/unit-of-work';
import { LedgerService } from '../../src/platform/ledger/ledger.service';
import { PaymentToolsService } from '../../src/platform/payment-tools/payment-tools.service';
import { SmartCardsService } from '../../src/cards-and-gates/smart-cards/smart-cards.service';
import { VouchersService } from '../../src/commerce/vouchers/vouchers.service';
import { attempt, harnessApp, printObservations } from './harness';

/**
 * Drives what the smart-card and voucher modules export for the flows built on them (merchant payments
 * paid with a voucher or a card, a gate's card-issuing provider) against a real PostgreSQL (DATABASE_URL):
 * VouchersService.claim before another flow's ledger operation (which spends the voucher: the voucher hears it from
 * the kernel's `operation.processed`, in the same transaction), SmartCardsService.issue with a
 * provider's card, byProviderReference, coinOf and the SMART_CARD resolver. Prints one JSON object of
 * observations; test/payer-tools.e2e.spec.ts asserts on it.
 */
async function main(): Promise<Record<string, unknown>> {
  const { app, db, close } = await harnessApp({ VOUCHER_EXPIRY_SWEEP_SECONDS: '0' });
  const ledger = app.get(LedgerService);
  const uow = app.get(UnitOfWork);
  const vouchers = app.get(VouchersService);
  const cards = app.get(SmartCardsService);
  const tools = app.get(PaymentToolsService);
  const out: Record<string, unknown> = {};
  const balance = async (serial: string) =>
    (await db.query('SELECT balance::text AS balance FROM coins WHERE serial = $1', [serial])).rows[0].balance as string;
  const voucherRow = async (id: string) =>
    (
      await db.query(
        `SELECT status, redeemed_coin::text AS redeemed_coin, closing_operation_id::text AS closing_operation_id FROM vouchers WHERE id = $1`,
        [id],
      )
    ).rows[0];
  try {
    const currencies = app.get(CurrenciesService);
    await currencies.createCurrency({ code: 'HRN', name: 'Harness' });
    const issuer = await currencies.createIssuer({ currencyCode: 'HRN', name: 'Harness issuer' });
    const userId = (await db.query(`SELECT id FROM users LIMIT 1`)).rows[0].id as string;
    const organization = async (type: string, name: string) =>
      (await db.query(`INSERT INTO organizations (type, name) VALUES ($1, $2) RETURNING id`, [type, name])).rows[0].id as string;
    const coinOf = async (organizationId: string) =>
      (
        await db.query(
          `INSERT INTO coins (name, organization_id, issuer_id, currency_id) VALUES ('W', $1, $2, $3) RETURNING serial::text`,
          [organizationId, issuer.id, issuer.currency.id],
        )
      ).rows[0].serial as string;
    const buyer = await organization('individual', 'Buyer');
    const merchant = await organization('merchant', 'Shop');
    const wallet = await coinOf(buyer);
    const till = await coinOf(merchant);
    const settlement = await ledger.systemCoin(issuer.id, 'bank_settlement');
    await uow.run(() =>
      ledger.execute({
        type: 'bank_topup',
        coins: [wallet, settlement],
        plan: () => ({ legs: [{ from: settlement, to: wallet, amount: new Money(100) }], meta: { amount: new Money(100) } }),
      }),
    );
    const principal = { organizationId: buyer, userId, permissions: new Set() } as unknown as Principal;

    // A voucher bought over HTTP's code path, then spent by another flow (a merchant payment) into the shop's coin.
    const bought = await uow.run(() => vouchers.create(principal, { coinSerial: wallet, amount: '30.00' }));
    const code = bought.code.text;
    const reserve = await ledger.systemCoin(issuer.id, 'voucher_reserve');
    out.claimOutsideTransaction = await attempt(() => vouchers.claim(code));
    // A payment that fails after the claim leaves the voucher pending: the claim is undone with its transaction.
    out.failedPayment = await attempt(() =>
      uow.run(async () => {
        await vouchers.claim(code);
        throw new ApiError('exception.coin.inactive', 'The shop’s coin is inactive');
      }),
    );
    out.afterFailedPayment = (await voucherRow(bought.voucher.id)).status;
    // An operation paying part of it out of the reserve: the voucher refuses it, and the whole change rolls back.
    out.partialSpend = await attempt(() =>
      uow.run(async () => {
        const voucher = await vouchers.claim(code);
        await ledger.execute({
          type: 'voucher_redeem',
          coins: [voucher.reserveCoin, till],
          plan: () => ({
            legs: [{ from: voucher.reserveCoin, to: till, amount: new Money(10) }],
            meta: { amount: new Money(10), fromCoin: voucher.reserveCoin, toCoin: till },
          }),
        });
      }),
    );
    out.afterPartialSpend = { voucher: (await voucherRow(bought.voucher.id)).status, till: await balance(till) };
    const spent = await uow.run(async () => {
      const voucher = await vouchers.claim(code.toUpperCase());
      const posted = await ledger.execute({
        type: 'voucher_redeem',
        coins: [voucher.reserveCoin, till],
        plan: () => ({
          legs: [{ from: voucher.reserveCoin, to: till, amount: voucher.amount }],
          meta: { amount: voucher.amount, fromCoin: voucher.reserveCoin, toCoin: till, details: { voucher: { id: voucher.id } } },
        }),
      });
      return {
        claimed: {
          id: voucher.id === bought.voucher.id,
          amount: voucher.amount.toFixed(2),
          currency: voucher.currency,
          fraction: voucher.fraction,
          reserveIsTheIssuers: voucher.reserveCoin === reserve,
          organizationId: voucher.organizationId === buyer,
          prepaidName: voucher.prepaidName,
        },
        operationId: posted!.id,
      };
    });
    out.spent = {
      ...spent.claimed,
      voucher: await voucherRow(bought.voucher.id),
      sameOperation: (await voucherRow(bought.voucher.id)).closing_operation_id === spent.operationId,
      till: await balance(till),
      reserve: await balance(reserve),
      wallet: await balance(wallet),
    };
    out.claimSpent = await attempt(() => uow.run(() => vouchers.claim(code)));
    out.claimUnknown = await attempt(() => uow.run(() => vouchers.claim('0'.repeat(32))));
    const blockedVoucher = await uow.run(() => vouchers.create(principal, { coinSerial: wallet, amount: '5.00' }));
    await uow.run(() => vouchers.block(principal, blockedVoucher.voucher.id));
    out.claimBlocked = await attempt(() => uow.run(() => vouchers.claim(blockedVoucher.code.text)));

    // A card a provider issued for the buyer's coin, found again by the provider's reference.
    const issued = await cards.issue(
      principal,
      { coinSerial: wallet, name: 'Virtual' },
      { provider: 'cardgate', reference: 'vc-1', last4: '4242' },
    );
    out.providerCard = { provider: issued.provider, maskedNumber: issued.maskedNumber, coinSerial: issued.coinSerial === wallet };
    const found = await cards.byProviderReference('cardgate', 'vc-1');
    out.byProviderReference = { organizationId: found?.organizationId === buyer, id: found?.card.id === issued.id };
    out.byUnknownReference = (await cards.byProviderReference('cardgate', 'vc-2')) ?? null;
    out.sameReferenceTwice = await attempt(() =>
      cards.issue(principal, { coinSerial: wallet, name: 'Again' }, { provider: 'cardgate', reference: 'vc-1', last4: '1111' }),
    );
    out.badLast4 = await attempt(() =>
      cards.issue(principal, { coinSerial: wallet, name: 'Bad' }, { provider: 'cardgate', reference: 'vc-3', last4: '42a2' }),
    );
    out.issuableForeignCoin = await attempt(() => cards.issuableCoin(principal, till));
    out.ownCard = await cards.coinOf(issued.id, buyer);
    out.foreignOwner = (await cards.coinOf(issued.id, merchant)) ?? null;
    out.resolvedAsPayer = await tools.resolve('SMART_CARD', issued.id, 'payer', buyer);
    out.resolvedForeignPayer = await attempt(() => tools.resolve('SMART_CARD', issued.id, 'payer', merchant));
    await cards.setStatus(buyer, issued.id, 'blocked');
    out.blockedCard = await attempt(() => cards.coinOf(issued.id, buyer));
    out.blockedByOther = await attempt(() => cards.setStatus(merchant, issued.id, 'active'));
    out.check = await ledger.check();
    out.wallet = await balance(wallet);
  } finally {
    await close();
  }
  return out;
}

printObservations(main);
