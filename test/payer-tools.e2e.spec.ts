import { harnessObservations } from './helpers/harness';

/**
 * What the voucher and smart-card modules export for the flows that build on them (a merchant payment paid
 * with a voucher or a card; a gate's card-issuing provider), driven on a real database by
 * test/harness/payer-tools-harness.ts: no route calls these methods yet.
 */
describe('vouchers and smart cards as other flows use them (issue 13, for gates and merchant payments)', () => {
  let out: any;

  beforeAll(async () => {
    out = await harnessObservations('payer-tools-harness');
  });

  it('spends a voucher in another flow’s operation: claim locks it, the flow moves its amount out of the reserve, and that closes it', () => {
    expect(out.spent).toEqual({
      id: true,
      amount: '30.00',
      currency: 'HRN',
      fraction: '100',
      reserveIsTheIssuers: true,
      organizationId: true,
      prepaidName: 'Voucher 30.00 HRN',
      voucher: { status: 'processed', redeemed_coin: expect.any(String), closing_operation_id: expect.any(String) },
      sameOperation: true,
      till: '30.000000000000000000',
      reserve: '0.000000000000000000',
      wallet: '70.000000000000000000',
    });
  });

  it('refuses a claim outside a transaction (a programming error), and leaves the voucher pending when the paying flow fails', () => {
    expect(out.claimOutsideTransaction).toMatch(/^bug: VouchersService\.claim runs inside UnitOfWork\.run/);
    expect(out.failedPayment).toBe('409 exception.coin.inactive');
    expect(out.afterFailedPayment).toBe('pending');
  });

  it('answers a spent, blocked or unknown voucher as the redemption route does (409, 404)', () => {
    expect(out.claimSpent).toBe('409 exception.voucher.redeemed');
    expect(out.claimBlocked).toBe('409 exception.voucher.blocked');
    expect(out.claimUnknown).toBe('404 exception.voucher.not_found');
  });

  it('fails the whole change when an operation pays only part of a claimed voucher: it stays pending, nothing moved', () => {
    expect(out.partialSpend).toMatch(/^bug: Operation .* pays 10\.00 out of voucher .*: a voucher is spent whole/);
    expect(out.afterPartialSpend).toEqual({ voucher: 'pending', till: '0.000000000000000000' });
  });

  it('records a card a provider issued (its last four digits, its reference once per provider) and finds it by that reference', () => {
    expect(out.providerCard).toEqual({ provider: 'cardgate', maskedNumber: '**** **** **** 4242', coinSerial: true });
    expect(out.byProviderReference).toEqual({ organizationId: true, id: true });
    expect(out.byUnknownReference).toBeNull();
    expect(out.sameReferenceTwice).toBe('409 exception.conflict.duplicate');
    expect(out.badLast4).toMatch(/^bug: A provider card's last4 is four digits/);
    expect(out.issuableForeignCoin).toBe('404 exception.coin.not_found');
  });

  it('resolves a card to its coin for its own organization only, and refuses a blocked card (409)', () => {
    expect(out.ownCard).toBe(out.resolvedAsPayer);
    expect(out.foreignOwner).toBeNull();
    expect(out.resolvedForeignPayer).toBe('404 exception.payment_tool.not_found');
    expect(out.blockedCard).toBe('409 exception.smart_card.blocked');
    expect(out.blockedByOther).toBe('404 exception.smart_card.not_found');
  });

  it('keeps the ledger balanced; the blocked voucher’s 5.00 went back to the wallet', () => {
    expect(out.check.mismatches).toEqual([]);
    expect(out.wallet).toBe('70.000000000000000000');
  });
});
