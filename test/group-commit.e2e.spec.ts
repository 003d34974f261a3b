import { balanceOf, expectAnswersReadBack, expectBalancedLedger, expectStatus, transfer } from './helpers/money';
import { moneyWorld } from './helpers/world';

/**
 * Group commit (issue 18): transfers without an Idempotency-Key that arrive while a group is being written are
 * written together, in one transaction — with the guarantees of a transfer posted alone.
 */
describe('group commit of transfers', () => {
  const world = moneyWorld();

  /** A sample of the Prometheus text, 0 when absent. */
  const sample = async (pattern: RegExp): Promise<number> => {
    const scraped = await world.server.request('GET', '/api/v1/actuator/prometheus', { token: world.admin });
    expectStatus(scraped, 200);
    return Number(scraped.text.match(pattern)?.[1] ?? 0);
  };
  const groups = async () => ({
    count: await sample(/^finapi_ledger_group_size_count (\d+)$/m),
    postings: await sample(/^finapi_ledger_group_size_sum (\d+)$/m),
  });
  const alone = (reason: 'locked' | 'split') =>
    sample(new RegExp(`^finapi_ledger_grouped_postings_alone_total\\{reason="${reason}"\\} (\\d+)$`, 'm'));

  /** Sleeps (description `slow`) or fails (`fault`: a unique violation) the insert of an operation, for one test. */
  async function withInsertTrigger(work: () => Promise<void>): Promise<void> {
    await world.raw.db.query(`CREATE FUNCTION group_commit_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.description = 'slow' THEN PERFORM pg_sleep(0.4); END IF;
        IF NEW.description = 'fault' THEN RAISE EXCEPTION 'injected fault' USING ERRCODE = 'unique_violation'; END IF;
        RETURN NEW;
      END $$`);
    await world.raw.db.query(
      'CREATE TRIGGER group_commit_test BEFORE INSERT ON operations FOR EACH ROW EXECUTE FUNCTION group_commit_test()',
    );
    try {
      await work();
    } finally {
      await world.raw.db.query('DROP TRIGGER group_commit_test ON operations');
      await world.raw.db.query('DROP FUNCTION group_commit_test()');
    }
  }

  it('answers each of many concurrent transfers with exactly its own effect; a refused one fails alone', async () => {
    const payee = await world.user();
    const target = await world.coin(payee);
    const payers = await Promise.all(Array.from({ length: 10 }, () => world.user()));
    const coins = await Promise.all(payers.map((p) => world.coin(p, '30.00')));
    const before = await groups();
    const split = await alone('split');

    // Four transfers of 10 from each coin of 30, all at once: three of each pass, one is refused.
    const answers = await Promise.all(
      payers.flatMap((payer, i) =>
        Array.from({ length: 4 }, (_, n) =>
          transfer(world.server, payer.token, coins[i].serial, target.serial, '10.00', { description: `${i}/${n}` }),
        ),
      ),
    );
    const after = await groups();
    expect(after.postings - before.postings).toBe(40);
    // Some shared a transaction: fewer groups than postings; and no group failed.
    expect(after.count - before.count).toBeLessThan(40);
    expect(await alone('split')).toBe(split);

    for (let i = 0; i < payers.length; i++) {
      const own = answers.slice(i * 4, i * 4 + 4);
      expect(own.filter((a) => a.status === 201)).toHaveLength(3);
      const refused = own.filter((a) => a.status !== 201);
      expect(refused).toHaveLength(1);
      expect(refused[0].status).toBe(409);
      expect(refused[0].body.code).toBe('exception.coin.insufficient_funds');
      expect(await balanceOf(world.server, payers[i].token, coins[i].serial)).toBe('0.00');
    }
    const passed = answers.filter((a) => a.status === 201).map((a) => a.body.process);
    for (const operation of passed) {
      expect(operation.amount).toBe('10.00');
      expect(operation.recipient.organizationId).toBe(payee.organizationId);
      expect(operation.transactions).toHaveLength(1);
      expect(operation.transactions[0].amount).toBe('10.00');
      expect(operation.transactions[0].to.serial).toBe(target.serial);
    }
    expect(new Set(passed.map((o) => o.id)).size).toBe(30);
    expect(await expectAnswersReadBack(world.server, world.admin, passed)).toBe(30);
    expect(await balanceOf(world.server, payee.token, target.serial)).toBe('300.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('writes the group again one by one when a statement fails in it: only the failing transfer fails', async () => {
    const payee = await world.user();
    const target = await world.coin(payee);
    const payers = await Promise.all(Array.from({ length: 8 }, () => world.user()));
    const coins = await Promise.all(payers.map((p) => world.coin(p, '20.00')));
    const split = await alone('split');

    await withInsertTrigger(async () => {
      // The first transfer's group sleeps in the database; the next eight arrive meanwhile and form one group.
      const slow = transfer(world.server, payers[0].token, coins[0].serial, target.serial, '1.00', { description: 'slow' });
      await new Promise((r) => setTimeout(r, 150));
      const rest = payers
        .slice(1)
        .map((payer, i) =>
          transfer(world.server, payer.token, coins[i + 1].serial, target.serial, '2.00', { description: `neighbour ${i}` }),
        );
      // A statement that fails in the database (a unique violation, answered as the 409 it maps to).
      const faulty = transfer(world.server, payers[0].token, coins[0].serial, target.serial, '5.00', { description: 'fault' });
      expectStatus(await slow, 201);
      const neighbours = await Promise.all(rest);
      for (const answer of neighbours) expectStatus(answer, 201);
      const failed = await faulty;
      expect(failed.status).toBe(409);
      expect(failed.body.code).toBe('exception.conflict.duplicate');
      expect(
        await expectAnswersReadBack(
          world.server,
          world.admin,
          neighbours.map((a) => a.body.process),
        ),
      ).toBe(7);
    });

    // The faulty transfer shared its group with neighbours, and wrote nothing.
    expect((await alone('split')) - split).toBeGreaterThanOrEqual(2);
    expect(await balanceOf(world.server, payers[0].token, coins[0].serial)).toBe('19.00');
    for (let i = 1; i < payers.length; i++) expect(await balanceOf(world.server, payers[i].token, coins[i].serial)).toBe('18.00');
    expect(await balanceOf(world.server, payee.token, target.serial)).toBe('15.00');
    const { rows } = await world.raw.db.query(`SELECT count(*)::int AS n FROM operations WHERE description = 'fault'`);
    expect(rows[0].n).toBe(0);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('posts a transfer over a coin another transaction holds on its own, without holding up the groups', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [held, free] = [await world.coin(alice, '10.00'), await world.coin(alice, '10.00')];
    const target = await world.coin(bob);
    const locked = await alone('locked');
    const holder = await world.raw.db.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM coins WHERE serial = $1 FOR UPDATE', [held.serial]);
      const waiting = transfer(world.server, alice.token, held.serial, target.serial, '1.00');
      await new Promise((r) => setTimeout(r, 100));
      expect((await alone('locked')) - locked).toBe(1);
      // Groups go on meanwhile.
      for (let i = 0; i < 3; i++) expectStatus(await transfer(world.server, alice.token, free.serial, target.serial, '1.00'), 201);
      await holder.query('COMMIT');
      expectStatus(await waiting, 201);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    expect(await balanceOf(world.server, alice.token, held.serial)).toBe('9.00');
    expect(await balanceOf(world.server, bob.token, target.serial)).toBe('4.00');
  });

  it('runs a transfer with an Idempotency-Key as its own unit of work, outside the groups', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '10.00');
    const before = await groups();
    const first = await transfer(world.server, alice.token, from.serial, to.serial, '3.00', { key: 'group-commit-key' });
    expectStatus(first, 201);
    const replay = await transfer(world.server, alice.token, from.serial, to.serial, '3.00', { key: 'group-commit-key' });
    expectStatus(replay, 201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await groups()).postings).toBe(before.postings);
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '3.00'), 201);
    expect((await groups()).postings).toBe(before.postings + 1);
    expect(await balanceOf(world.server, alice.token, from.serial)).toBe('4.00');
  });
});
