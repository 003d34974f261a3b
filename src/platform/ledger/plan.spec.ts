import { ApiError } from '../common/api-error';
import { Money } from '../common/money';
import type { Locked, LockedCoin, LockedHold, Plan } from './ledger.types';
import { lockedCoin } from './locked-coin.fixture';
import { applyPlan, PlanError } from './plan';

const USD = 'usd-id';
const EUR = 'eur-id';

const coin = lockedCoin;

function locked(coins: LockedCoin[], holds: LockedHold[] = []): Locked {
  return { coins: new Map(coins.map((c) => [c.serial, c])), holds };
}

const m = (value: string) => new Money(value);
const meta = { amount: m('10') };
const move = (from: string, to: string, amount: string): Plan => ({ legs: [{ from, to, amount: m(amount) }], meta });

function refusal(run: () => unknown): { status: number; code: string } | string {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code };
    if (error instanceof PlanError) return `bug: ${error.message}`;
    throw error;
  }
}

describe('applyPlan: the ledger kernel’s checks', () => {
  it('computes each coin’s change and the two entries of each leg', () => {
    const effect = applyPlan(locked([coin('1'), coin('2')]), move('1', '2', '30.25'));
    expect(effect.status).toBe('processed');
    expect(effect.currencyId).toBe(USD);
    expect(effect.entries.map((e) => [e.leg, e.coin.serial, e.amount.toFixed()])).toEqual([
      [0, '1', '-30.25'],
      [0, '2', '30.25'],
    ]);
    expect(effect.changes.map((c) => [c.serial, c.balance.toFixed(), c.held.toFixed()])).toEqual([
      ['1', '-30.25', '0'],
      ['2', '30.25', '0'],
    ]);
  });

  it('refuses a leg that leaves its currency, a negative or a circular one, as a bug; skips a leg of zero', () => {
    const coins = [coin('1'), coin('2'), coin('3', { currency_id: EUR })];
    expect(refusal(() => applyPlan(locked(coins), move('1', '3', '1')))).toMatch(/^bug: A leg stays in one currency/);
    expect(refusal(() => applyPlan(locked(coins), move('1', '2', '-1')))).toMatch(/^bug: A leg moves a positive amount/);
    expect(refusal(() => applyPlan(locked(coins), move('1', '1', '1')))).toMatch(/^bug: A leg moves between two coins/);
    const fee = applyPlan(locked(coins), { legs: [...move('1', '2', '5').legs, { from: '1', to: '2', amount: m('0') }], meta });
    expect(fee.entries).toHaveLength(2);
  });

  it('balances per currency: an exchange moves two currencies in one plan', () => {
    const coins = [
      coin('1'),
      coin('2', { type: 'system' }),
      coin('3', { currency_id: EUR }),
      coin('4', { currency_id: EUR, type: 'system' }),
    ];
    const exchange: Plan = {
      legs: [
        { from: '1', to: '2', amount: m('10') },
        { from: '4', to: '3', amount: m('9.2') },
      ],
      meta,
    };
    const effect = applyPlan(locked(coins), exchange);
    expect(effect.changes.map((c) => [c.serial, c.balance.toFixed()])).toEqual([
      ['1', '-10'],
      ['2', '10'],
      ['4', '-9.2'],
      ['3', '9.2'],
    ]);
    expect(effect.entries.map((e) => e.leg)).toEqual([0, 0, 1, 1]);
  });

  it('refuses a coin that was not locked, as a bug', () => {
    expect(refusal(() => applyPlan(locked([coin('1')]), move('1', '2', '1')))).toBe('bug: Coin 2 was not locked before posting');
  });

  it('refuses to take a client coin below its available funds, but lets a system coin go negative', () => {
    expect(refusal(() => applyPlan(locked([coin('1'), coin('2')]), move('1', '2', '100.01')))).toEqual({
      status: 409,
      code: 'exception.coin.insufficient_funds',
    });
    expect(refusal(() => applyPlan(locked([coin('1'), coin('2')]), move('1', '2', '100')))).toBe('accepted');
    expect(refusal(() => applyPlan(locked([coin('1', { type: 'system', balance: '0' }), coin('2')]), move('1', '2', '5')))).toBe(
      'accepted',
    );
  });

  it('holds a system coin the plan says is funded to its available funds, as a client coin', () => {
    const reserve = coin('1', { type: 'system', balance: '10', held: '2' });
    const funded = (amount: string): Plan => ({ ...move('1', '2', amount), funded: ['1'] });
    expect(refusal(() => applyPlan(locked([reserve, coin('2')]), funded('8.01')))).toEqual({
      status: 409,
      code: 'exception.coin.insufficient_funds',
    });
    expect(refusal(() => applyPlan(locked([reserve, coin('2')]), funded('8')))).toBe('accepted');
    // Paid into, a funded coin below zero is not refused: only what it draws is counted.
    const short = coin('1', { type: 'system', balance: '-5' });
    expect(refusal(() => applyPlan(locked([short, coin('2')]), { ...move('2', '1', '1'), funded: ['1'] }))).toBe('accepted');
  });

  it('counts held amounts as unavailable', () => {
    const payer = coin('1', { balance: '100', held: '60' });
    expect(refusal(() => applyPlan(locked([payer, coin('2')]), move('1', '2', '40.01')))).toEqual({
      status: 409,
      code: 'exception.coin.insufficient_funds',
    });
    expect(refusal(() => applyPlan(locked([payer, coin('2')]), move('1', '2', '40')))).toBe('accepted');
  });

  it('refuses a closed client coin on either side', () => {
    const closed = coin('2', { closed_at: new Date(), active: false, usable: false });
    expect(refusal(() => applyPlan(locked([coin('1'), closed]), move('1', '2', '1')))).toEqual({
      status: 409,
      code: 'exception.coin.closed',
    });
  });

  it('refuses a balance of 10^20 or more', () => {
    const rich = coin('2', { balance: '99999999999999999999' });
    expect(refusal(() => applyPlan(locked([coin('1'), rich]), move('1', '2', '1')))).toEqual({
      status: 409,
      code: 'exception.coin.balance_limit',
    });
  });

  // A payee's balance is read only near the limit (applyPlan skips it below 10^18, moved by less than 10^19).
  it('refuses a balance of 10^20 or more on every side of the shortcut that skips reading a far one', () => {
    const limit = { status: 409, code: 'exception.coin.balance_limit' };
    const payer = coin('1', { balance: '99999999999999999999' });
    // The payer moves `amount` to a payee holding `balance`: refused, or 'accepted'.
    const credit = (balance: string, amount: string) =>
      refusal(() => applyPlan(locked([payer, coin('2', { balance })]), move('1', '2', amount)));
    // 19 and 20 digits before the point, with decimals: read, and refused at 10^20 exactly
    expect(credit('99999999999999999999.50', '0.5')).toEqual(limit);
    expect(credit('9999999999999999999', '90000000000000000001')).toEqual(limit);
    expect(credit('9999999999999999999', '90000000000000000000')).toBe('accepted');
    // 18 digits, a move of 10^19 or more: read
    expect(credit('999999999999999999.99', '99000000000000000001')).toEqual(limit);
    // 18 digits and a move below 10^19 cannot reach it
    expect(credit('999999999999999999.99', '9999999999999999999.99')).toBe('accepted');
    // a balance written any other way (an exponent) is read, never taken for a short one
    expect(credit('9.99e19', '1000000000000000000')).toEqual(limit);
    // a system coin going negative, unguarded, near the limit and far from it
    const system = (balance: string) => coin('3', { type: 'system', balance });
    expect(refusal(() => applyPlan(locked([system('-99999999999999999999'), coin('2')]), move('3', '2', '1')))).toEqual(limit);
    expect(refusal(() => applyPlan(locked([system('-999999999999999999'), coin('2')]), move('3', '2', '1')))).toBe('accepted');
  });

  describe('holds', () => {
    const hold = (id: string, serial: string, amount: string): LockedHold => ({ id, operation_id: 'op', coin_serial: serial, amount });

    it('places a hold out of the available funds; the operation is pending', () => {
      const effect = applyPlan(locked([coin('1', { balance: '50' })]), {
        legs: [],
        holds: [{ place: { coin: '1', amount: m('50') } }],
        meta,
      });
      expect(effect.status).toBe('pending');
      expect(effect.changes.map((c) => [c.serial, c.balance.toFixed(), c.held.toFixed()])).toEqual([['1', '0', '50']]);
      expect(effect.placements.map((p) => [p.coin.serial, p.amount.toFixed()])).toEqual([['1', '50']]);
      expect(
        refusal(() =>
          applyPlan(locked([coin('1', { balance: '50' })]), { legs: [], holds: [{ place: { coin: '1', amount: m('50.01') } }], meta }),
        ),
      ).toEqual({ status: 409, code: 'exception.coin.insufficient_funds' });
    });

    it('captures a hold with its debit even when nothing else is available', () => {
      const payer = coin('1', { balance: '50', held: '50' });
      const plan: Plan = { ...move('1', '2', '50'), holds: [{ capture: 'h1' }] };
      const effect = applyPlan(locked([payer, coin('2', { type: 'system' })], [hold('h1', '1', '50')]), plan);
      expect(effect.status).toBe('processed');
      expect(effect.closures).toEqual([{ holdId: 'h1', status: 'captured' }]);
      expect(effect.changes.find((c) => c.serial === '1')).toMatchObject({ balance: m('-50'), held: m('-50') });
      // the same debit without the capture is refused: the funds are held
      expect(refusal(() => applyPlan(locked([payer, coin('2', { type: 'system' })]), move('1', '2', '50')))).toEqual({
        status: 409,
        code: 'exception.coin.insufficient_funds',
      });
    });

    it('needs a capture to debit the held coin, and ends a hold once', () => {
      const payer = coin('1', { balance: '50', held: '50' });
      expect(refusal(() => applyPlan(locked([payer], [hold('h1', '1', '50')]), { legs: [], holds: [{ capture: 'h1' }], meta }))).toMatch(
        /^bug: Capturing hold h1 needs a leg that debits coin 1/,
      );
      const twice: Plan = { legs: [], holds: [{ release: 'h1' }, { release: 'h1' }], meta };
      expect(refusal(() => applyPlan(locked([payer], [hold('h1', '1', '50')]), twice))).toMatch(/^bug: Hold h1 is not an open hold/);
      expect(refusal(() => applyPlan(locked([payer], []), { legs: [], holds: [{ release: 'h9' }], meta }))).toMatch(/^bug: Hold h9/);
    });

    it('releases a hold back into the available funds', () => {
      const effect = applyPlan(locked([coin('1', { balance: '50', held: '50' })], [hold('h1', '1', '50')]), {
        legs: [],
        holds: [{ release: 'h1' }],
        status: 'declined',
        meta,
      });
      expect(effect.status).toBe('declined');
      expect(effect.changes.map((c) => [c.serial, c.balance.toFixed(), c.held.toFixed()])).toEqual([['1', '0', '-50']]);
      expect(effect.closures).toEqual([{ holdId: 'h1', status: 'released' }]);
    });

    it('refuses a hold of zero or less, as a bug', () => {
      expect(refusal(() => applyPlan(locked([coin('1')]), { legs: [], holds: [{ place: { coin: '1', amount: m('0') } }], meta }))).toMatch(
        /^bug: A hold must reserve a positive amount/,
      );
    });
  });
});
