import { moneyWorld } from './helpers/world';
import { Actor, aUser } from './helpers/actors';
import { aCoin, aCurrency, anIssuer, balanceOf, CoinBody, Dec, expectBalancedLedger, expectStatus, fund, transfer } from './helpers/money';

describe('concurrent money movements', () => {
  const world = moneyWorld();

  it('lets exactly 10 of 50 parallel transfers of 10 leave a coin holding 100', async () => {
    const alice = await aUser(world.server, world.admin);
    const bob = await aUser(world.server, world.admin);
    const payer = await aCoin(world.server, alice.token, world.issuer.id);
    const payee = await aCoin(world.server, bob.token, world.issuer.id);
    await fund(world.server, world.admin, payer.serial, '100.00');
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => transfer(world.server, alice.token, payer.serial, payee.serial, '10')),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    for (const r of responses.filter((x) => x.status === 409)) expect(r.body.code).toBe('exception.coin.insufficient_funds');
    expect(await balanceOf(world.server, alice.token, payer.serial)).toBe('0.00');
    expect(await balanceOf(world.server, bob.token, payee.serial)).toBe('100.00');
    const { rows } = await world.server.db.query(
      `SELECT count(*)::int AS n FROM operations WHERE type = 'client_transaction_transfer' AND from_coin = $1`,
      [payer.serial],
    );
    expect(rows[0].n).toBe(10);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('keeps every currency total with 40 parallel clients moving money at random among 20 coins', async () => {
    // Two currencies, five organizations, four coins each (two per currency).
    const other = await aCurrency(world.server, world.admin, { fraction: 1000 });
    const otherIssuer = await anIssuer(world.server, world.admin, other.code);
    const owners: Actor[] = [];
    for (let i = 0; i < 5; i++) owners.push(await aUser(world.server, world.admin, { role: i % 2 ? 'merchant' : 'individual' }));
    const coins: { coin: CoinBody; owner: Actor; currency: string }[] = [];
    for (const owner of owners) {
      for (const [iss, code] of [
        [world.issuer, world.issuer.currency.code],
        [world.issuer, world.issuer.currency.code],
        [otherIssuer, other.code],
        [otherIssuer, other.code],
      ] as const) {
        const coin = await aCoin(world.server, owner.token, iss.id);
        await fund(world.server, world.admin, coin.serial, code === other.code ? '50.000' : '50.00');
        coins.push({ coin, owner, currency: code });
      }
    }
    const clientTotals = async () => {
      const { rows } = await world.server.db.query(
        `SELECT cu.code, sum(c.balance)::text AS total, min(c.balance)::text AS lowest FROM coins c JOIN currencies cu ON cu.id = c.currency_id
          WHERE c.serial = ANY($1::bigint[]) GROUP BY cu.code ORDER BY cu.code`,
        [coins.map((c) => c.coin.serial)],
      );
      return rows as { code: string; total: string; lowest: string }[];
    };
    const before = await clientTotals();
    expect(before.map((r) => new Dec(r.total).toFixed(3))).toEqual(['500.000', '500.000']);

    const random = (n: number) => Math.floor(Math.random() * n);
    const amounts = ['0.01', '1', '2.50', '7.77', '13', '49.99', '500', '100000'];
    const outcomes: Record<number, number> = {};
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        for (let i = 0; i < 8; i++) {
          const from = coins[random(coins.length)];
          const to = coins[random(coins.length)];
          const amount = amounts[random(amounts.length)];
          const response = await transfer(world.server, from.owner.token, from.coin.serial, to.coin.serial, amount);
          outcomes[response.status] = (outcomes[response.status] ?? 0) + 1;
          if (response.status === 400) expect(from.coin.serial === to.coin.serial || from.currency !== to.currency).toBe(true);
          else if (response.status === 409) expect(response.body.code).toBe('exception.coin.insufficient_funds');
          else expect(response.status).toBe(201);
        }
      }),
    );
    expect(Object.keys(outcomes).every((s) => ['201', '400', '409'].includes(s))).toBe(true);
    expect(outcomes[201]).toBeGreaterThan(0);
    expect(outcomes[409]).toBeGreaterThan(0);
    const after = await clientTotals();
    expect(after.map((r) => r.total)).toEqual(before.map((r) => r.total));
    for (const r of after) expect(new Dec(r.lowest).isNegative()).toBe(false);
    for (const { coin, owner } of coins) {
      const seen = await balanceOf(world.server, owner.token, coin.serial);
      expect(String(seen).startsWith('-')).toBe(false);
    }
    await expectBalancedLedger(world.server, world.admin);
  });

  it('never fails with a 500 when A pays B while B pays A, again and again', async () => {
    const alice = await aUser(world.server, world.admin);
    const bob = await aUser(world.server, world.admin);
    const carol = await aUser(world.server, world.admin);
    const a = await aCoin(world.server, alice.token, world.issuer.id);
    const b = await aCoin(world.server, bob.token, world.issuer.id);
    const c = await aCoin(world.server, carol.token, world.issuer.id);
    for (const coin of [a, b, c]) await fund(world.server, world.admin, coin.serial, '1000.00');
    for (let round = 0; round < 15; round++) {
      const responses = await Promise.all([
        transfer(world.server, alice.token, a.serial, b.serial, '4.00'),
        transfer(world.server, bob.token, b.serial, a.serial, '2.00'),
        transfer(world.server, alice.token, a.serial, b.serial, '1.00'),
        transfer(world.server, bob.token, b.serial, a.serial, '1.00'),
        transfer(world.server, bob.token, b.serial, c.serial, '1.00'),
        transfer(world.server, carol.token, c.serial, a.serial, '1.00'),
      ]);
      expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    }
    expect(await balanceOf(world.server, alice.token, a.serial)).toBe('985.00');
    expect(await balanceOf(world.server, bob.token, b.serial)).toBe('1015.00');
    expect(await balanceOf(world.server, carol.token, c.serial)).toBe('1000.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('creates the bank-settlement coin once when the first top-ups of an issuer race', async () => {
    const fresh = await anIssuer(world.server, world.admin, world.issuer.currency.code, 'Fresh bank');
    const user = await aUser(world.server, world.admin);
    const coins: CoinBody[] = [];
    for (let i = 0; i < 8; i++) coins.push(await aCoin(world.server, user.token, fresh.id));
    const responses = await Promise.all(
      coins.map((c) =>
        world.server.request('POST', '/api/v1/bank-top-ups', { token: world.admin, body: { coinSerial: c.serial, amount: '1.00' } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(coins.map(() => 201));
    const { rows } = await world.server.db.query(`SELECT count(*)::int AS n FROM coins WHERE issuer_id = $1 AND type = 'system'`, [
      fresh.id,
    ]);
    expect(rows[0].n).toBe(1);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('closes a coin while transfers into it race, losing nothing', async () => {
    const alice = await aUser(world.server, world.admin);
    const bob = await aUser(world.server, world.admin);
    const closing = await aCoin(world.server, alice.token, world.issuer.id);
    const target = await aCoin(world.server, alice.token, world.issuer.id);
    const payer = await aCoin(world.server, bob.token, world.issuer.id);
    await fund(world.server, world.admin, closing.serial, '10.00');
    await fund(world.server, world.admin, payer.serial, '100.00');
    const transfers = Array.from({ length: 20 }, () => transfer(world.server, bob.token, payer.serial, closing.serial, '1.00'));
    const close = world.server.request('POST', `/api/v1/close/coin/${closing.serial}`, {
      token: alice.token,
      body: { transferToCoinSerial: target.serial },
    });
    const [closed, ...moved] = await Promise.all([close, ...transfers]);
    expectStatus(closed, 200);
    const succeeded = moved.filter((r) => r.status === 201).length;
    for (const r of moved.filter((x) => x.status !== 201)) expect(r.body.code).toBe('exception.coin.inactive');
    expect(await balanceOf(world.server, alice.token, closing.serial)).toBe('0.00');
    expect(await balanceOf(world.server, alice.token, target.serial)).toBe(new Dec(10 + succeeded).toFixed(2));
    expect(await balanceOf(world.server, bob.token, payer.serial)).toBe(new Dec(100 - succeeded).toFixed(2));
    await expectBalancedLedger(world.server, world.admin);
  });

  it('does not block transfers between unrelated coins while another coin is locked', async () => {
    const alice = await aUser(world.server, world.admin);
    const bob = await aUser(world.server, world.admin);
    const [a1, a2] = [await aCoin(world.server, alice.token, world.issuer.id), await aCoin(world.server, alice.token, world.issuer.id)];
    const b1 = await aCoin(world.server, bob.token, world.issuer.id);
    await fund(world.server, world.admin, a1.serial, '10.00');
    await fund(world.server, world.admin, a2.serial, '10.00');
    const holder = await world.server.db.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM coins WHERE serial = $1 FOR UPDATE', [a1.serial]);
      const waiting = transfer(world.server, alice.token, a1.serial, b1.serial, '1.00');
      // Answered while a1 is still locked: had it waited for that lock, it would never have been answered before the COMMIT.
      const unrelated = await transfer(world.server, alice.token, a2.serial, b1.serial, '1.00');
      expectStatus(unrelated, 201);
      await holder.query('COMMIT');
      expectStatus(await waiting, 201);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    expect(await balanceOf(world.server, bob.token, b1.serial)).toBe('2.00');
  });
});
