import { aRate, exchange, fundReserve } from './helpers/exchange';
import { whileKeyInFlight } from './helpers/in-flight';
import {
  aCoin,
  aCurrency,
  anIssuer,
  balanceOf,
  CoinBody,
  expectAnswersReadBack,
  expectBalancedLedger,
  expectError,
  expectStatus,
  transfer,
} from './helpers/money';
import { moneyWorld, MoneyWorld } from './helpers/world';
import { Actor } from './helpers/actors';
import { ApiResponse, within } from './helpers/server';

/** The ledger's group-commit counters of `world`'s service, read from its Prometheus text (a sample absent is 0). */
function ledgerGroups(world: MoneyWorld) {
  const sample = async (pattern: RegExp): Promise<number> => {
    const scraped = await world.server.request('GET', '/api/v1/actuator/prometheus', { token: world.admin });
    expectStatus(scraped, 200);
    return Number(scraped.text.match(pattern)?.[1] ?? 0);
  };
  return {
    sample,
    /** Groups written. */
    count: () => sample(/^finapi_ledger_group_size_count (\d+)$/m),
    /** Postings written in groups. */
    postings: () => sample(/^finapi_ledger_group_size_sum (\d+)$/m),
    /** Grouped postings written on their own, because a coin was locked or their group failed (`split`). */
    alone: (reason: 'locked' | 'split') =>
      sample(new RegExp(`^finapi_ledger_grouped_postings_alone_total\\{reason="${reason}"\\} (\\d+)$`, 'm')),
  };
}

/** Six new people (or `count`), each with a coin holding `amount`. */
async function peopleWithCoins(world: MoneyWorld, amount?: string, count = 6): Promise<{ people: Actor[]; coins: CoinBody[] }> {
  const people = await Promise.all(Array.from({ length: count }, () => world.user()));
  return { people, coins: await Promise.all(people.map((p) => world.coin(p, amount))) };
}

/** A cash desk of the world's issuer, by its id. */
async function aDesk(world: MoneyWorld, name: string): Promise<string> {
  const created = await world.server.request('POST', '/api/v1/cash-desks', {
    token: world.admin,
    body: { name, issuerIds: [world.issuer.id] },
  });
  expectStatus(created, 201);
  return created.body.cashDesk.id;
}

/**
 * Sends from each of `people` people at once a request without a key and another with a key, sent twice
 * (`send(person, n, key)`: n 0, then 1 with the key), and checks what every such flow promises: all answer 201, the keyed
 * retry replays (two postings a person, through the groups, none split), it answers its first attempt's body, and the
 * key was posted once. Answers every answer, and each person's two that posted.
 */
async function plainAndKeyedTwice(
  world: MoneyWorld,
  groups: ReturnType<typeof ledgerGroups>,
  people: number,
  keyPrefix: string,
  send: (person: number, n: 0 | 1, key?: string) => Promise<ApiResponse>,
): Promise<{ answers: ApiResponse[]; each: [ApiResponse, ApiResponse][] }> {
  const before = await groups.postings();
  const splitBefore = await groups.alone('split');
  const keyOf = (i: number) => `${keyPrefix}-${process.pid}-${i}`;
  const answers = await Promise.all(
    Array.from({ length: people }, (_, i) => [send(i, 0), send(i, 1, keyOf(i)), send(i, 1, keyOf(i))]).flat(),
  );
  for (const answer of answers) expectStatus(answer, 201);
  expect((await groups.postings()) - before).toBe(people * 2);
  expect(await groups.alone('split')).toBe(splitBefore);
  const each: [ApiResponse, ApiResponse][] = [];
  for (let i = 0; i < people; i++) {
    const [plain, keyed, keyedAgain] = answers.slice(i * 3, i * 3 + 3);
    expect(keyedAgain.text).toBe(keyed.text);
    const { rows } = await world.raw.db.query('SELECT count(*)::int AS n FROM operations WHERE request_identifier = $1', [keyOf(i)]);
    expect(rows[0].n).toBe(1);
    each.push([plain, keyed]);
  }
  return { answers, each };
}

/** Every answer's `process` reads back the same from the transactions API (`expected` of them), and the ledger balances. */
async function expectProcessesReadBack(world: MoneyWorld, answers: ApiResponse[], expected: number): Promise<void> {
  expect(
    await expectAnswersReadBack(
      world.server,
      world.admin,
      answers.map((a) => a.body.process),
    ),
  ).toBe(expected);
  await expectBalancedLedger(world.server, world.admin);
}

/**
 * What the tests below hold a group up with: `until`, and `withInsertTrigger` (its gate in the database).
 */
function insertGate(world: MoneyWorld) {
  /** Waits until `check` holds (a state the service reaches), polling; fails after a minute. */
  const until = async (what: string, check: () => Promise<boolean>) => {
    const took = await within(60_000, check);
    expect({ what, reached: took !== Infinity }).toEqual({ what, reached: true });
  };

  /** The advisory lock that holds up inserts described `slow` while a test keeps it (its gate). */
  const GATE = 4242042;

  /**
   * For one test: the insert of an operation described `slow` waits while the gate is shut (the test holds an advisory
   * lock), one described `fault` fails (a unique violation). `work` gets the gate: `blocked()` waits until a `slow`
   * insert waits at it (its group is then in the database), `open()` lets it through. Events, not times: a slow
   * machine only takes longer.
   */
  async function withInsertTrigger(work: (gate: { blocked(): Promise<void>; open(): Promise<void> }) => Promise<void>): Promise<void> {
    await world.raw.db.query(`CREATE FUNCTION group_commit_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.description = 'slow' THEN PERFORM pg_advisory_xact_lock_shared(${GATE}); END IF;
        IF NEW.description = 'fault' THEN RAISE EXCEPTION 'injected fault' USING ERRCODE = 'unique_violation'; END IF;
        RETURN NEW;
      END $$`);
    await world.raw.db.query(
      'CREATE TRIGGER group_commit_test BEFORE INSERT ON operations FOR EACH ROW EXECUTE FUNCTION group_commit_test()',
    );
    const keeper = await world.raw.db.connect();
    let shut = true;
    const open = async () => {
      if (shut) await keeper.query('SELECT pg_advisory_unlock($1::bigint)', [GATE]);
      shut = false;
    };
    try {
      await keeper.query('SELECT pg_advisory_lock($1::bigint)', [GATE]);
      const blocked = () =>
        until('a slow insert waits at the gate', async () => {
          const { rows } = await keeper.query(
            `SELECT count(*)::int AS n FROM pg_locks
              WHERE locktype = 'advisory' AND NOT granted AND objid = $1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            [GATE],
          );
          return rows[0].n > 0;
        });
      await work({ blocked, open });
    } finally {
      await open().catch(() => undefined);
      keeper.release();
      await world.raw.db.query('DROP TRIGGER group_commit_test ON operations');
      await world.raw.db.query('DROP FUNCTION group_commit_test()');
    }
  }

  return { until, withInsertTrigger };
}

/**
 * Group commit (issue 18): transfers without an Idempotency-Key that arrive while a group is being written are
 * written together, in one transaction — with the guarantees of a transfer posted alone. Since issue 34 transfers with an
 * Idempotency-Key too: each answer is stored in its group's transaction.
 */
describe('group commit of transfers', () => {
  const world = moneyWorld();
  const { sample, alone, ...ledger } = ledgerGroups(world);
  const groups = async () => ({ count: await ledger.count(), postings: await ledger.postings() });
  const inFlight = () => sample(/^finapi_http_requests_in_flight (\d+)$/m);
  const waitingForGroup = () => sample(/^finapi_ledger_postings_waiting (\d+)$/m);
  const { until, withInsertTrigger } = insertGate(world);

  it('answers each of many concurrent transfers with exactly its own effect; a refused one fails alone', async () => {
    const payee = await world.user();
    const target = await world.coin(payee);
    const payers = await Promise.all(Array.from({ length: 10 }, () => world.user()));
    const coins = await Promise.all(payers.map((p) => world.coin(p, '30.00')));
    const opener = await world.user();
    const openerCoin = await world.coin(opener, '5.00');
    // The organizations' contacts, which each answer's parties show as a read does (the group's answers take them from
    // the coins it locked, a read from the organizations).
    await world.raw.db.query(
      `UPDATE organizations SET email = 'contact-' || id || '@example.com', phone_number = '+1555' || (10000 + n)::text
         FROM unnest($1::uuid[]) WITH ORDINALITY AS o(org, n) WHERE id = o.org`,
      [[payee.organizationId, ...payers.map((p) => p.organizationId)]],
    );
    const before = await groups();
    const split = await alone('split');

    let answers: Awaited<ReturnType<typeof transfer>>[] = [];
    await withInsertTrigger(async (gate) => {
      // A first transfer to the same coin holds its group in the database, so the forty queue behind it, whatever the
      // machine's pace, and go together in the next group.
      const first = transfer(world.server, opener.token, openerCoin.serial, target.serial, '5.00', { description: 'slow' });
      await gate.blocked();
      // Four transfers of 10 from each coin of 30, all at once: three of each pass, one is refused.
      const forty = Promise.all(
        payers.flatMap((payer, i) =>
          Array.from({ length: 4 }, (_, n) =>
            transfer(world.server, payer.token, coins[i].serial, target.serial, '10.00', { description: `${i}/${n}` }),
          ),
        ),
      );
      await until('forty postings wait for a group', async () => (await waitingForGroup()) === 40);
      await gate.open();
      expectStatus(await first, 201);
      answers = await forty;
    });
    const after = await groups();
    expect(after.postings - before.postings).toBe(41);
    // The forty shared one transaction (the first had one of its own); no group failed.
    expect(after.count - before.count).toBe(2);
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
    const contact = (organizationId: string, n: number) => ({
      organizationId,
      fullName: expect.any(String),
      email: `contact-${organizationId}@example.com`,
      phoneNumber: `+1555${10000 + n}`,
    });
    for (const [i, operation] of passed.entries()) {
      expect(operation.amount).toBe('10.00');
      expect(operation.recipient).toEqual(contact(payee.organizationId, 1));
      const payer = coins.findIndex((c) => c.serial === operation.from.serial);
      expect({ i, sender: operation.sender }).toEqual({ i, sender: contact(payers[payer].organizationId, payer + 2) });
      expect(operation.transactions).toHaveLength(1);
      expect(operation.transactions[0].amount).toBe('10.00');
      expect(operation.transactions[0].to.serial).toBe(target.serial);
    }
    expect(new Set(passed.map((o) => o.id)).size).toBe(30);
    expect(await expectAnswersReadBack(world.server, world.admin, passed)).toBe(30);
    expect(await balanceOf(world.server, payee.token, target.serial)).toBe('305.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('writes the group again one by one when a statement fails in it: only the failing transfer fails', async () => {
    const payee = await world.user();
    const target = await world.coin(payee);
    const payers = await Promise.all(Array.from({ length: 8 }, () => world.user()));
    const coins = await Promise.all(payers.map((p) => world.coin(p, '20.00')));
    const split = await alone('split');

    await withInsertTrigger(async (gate) => {
      // The first transfer's group waits in the database; the next eight arrive meanwhile and form one group.
      const slow = transfer(world.server, payers[0].token, coins[0].serial, target.serial, '1.00', { description: 'slow' });
      await gate.blocked();
      const rest = payers
        .slice(1)
        .map((payer, i) =>
          transfer(world.server, payer.token, coins[i + 1].serial, target.serial, '2.00', { description: `neighbour ${i}` }),
        );
      // A statement that fails in the database (a unique violation, answered as the 409 it maps to).
      const faulty = transfer(world.server, payers[0].token, coins[0].serial, target.serial, '5.00', { description: 'fault' });
      // All eight share the target coin with the waiting group: they queue for the next one.
      await until('eight postings wait for a group', async () => (await waitingForGroup()) === 8);
      await gate.open();
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
      // Its group skips the held coin: the transfer is sent on its own way, where it waits for the lock.
      await until('the transfer is posted on its own', async () => (await alone('locked')) - locked === 1);
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

  const stored = async (key: string) =>
    (
      await world.raw.db.query(
        `SELECT k.response_status AS status, k.response_body AS body, k.operation_id, o.request_identifier
           FROM idempotency_keys k LEFT JOIN operations o ON o.id = k.operation_id WHERE k.key = $1`,
        [key],
      )
    ).rows;
  const operationsKeyed = async (key: string) =>
    (await world.raw.db.query('SELECT count(*)::int AS n FROM operations WHERE request_identifier = $1', [key])).rows[0].n;

  it('writes transfers each with its own Idempotency-Key in groups, each answer stored with its posting and replayed as sent', async () => {
    const payee = await world.user();
    const target = await world.coin(payee);
    const payers = await Promise.all(Array.from({ length: 8 }, () => world.user()));
    const coins = await Promise.all(payers.map((p) => world.coin(p, '30.00')));
    const before = await groups();
    const split = await alone('split');
    // Keys and answers with quotes, backslashes, braces and commas (what an array literal would have to escape).
    const keyOf = (i: number, n: number) => `grouped-"${process.pid}",{${i}}\\${n}`;
    const description = (i: number, n: number) => `"${i}" \\ {${n}}, ✓ 'ok'`;

    // Three keyed transfers of 10 from each coin of 30 plus a fourth that is refused, all at once.
    const answers = await Promise.all(
      payers.flatMap((payer, i) =>
        Array.from({ length: 4 }, (_, n) =>
          transfer(world.server, payer.token, coins[i].serial, target.serial, '10.00', {
            key: keyOf(i, n),
            description: description(i, n),
          }),
        ),
      ),
    );
    const after = await groups();
    // They went through the groups (32 postings in fewer groups), and no group failed.
    expect(after.postings - before.postings).toBe(32);
    expect(after.count - before.count).toBeLessThan(32);
    expect(await alone('split')).toBe(split);
    for (let i = 0; i < payers.length; i++) {
      const own = answers.slice(i * 4, i * 4 + 4);
      expect(own.filter((a) => a.status === 201)).toHaveLength(3);
      for (const [n, answer] of own.entries()) {
        const rows = await stored(keyOf(i, n));
        if (answer.status !== 201) {
          expect(answer.body.code).toBe('exception.coin.insufficient_funds');
          expect(rows).toHaveLength(0); // a refused request stores nothing: its key can be used again
          continue;
        }
        // The stored answer is the one sent, committed with the operation it names (stamped with the key).
        expect(rows).toHaveLength(1);
        expect(rows[0].status).toBe(201);
        expect(rows[0].body).toBe(answer.text);
        expect(answer.body.process.description).toBe(description(i, n));
        expect(rows[0].operation_id).toBe(answer.body.process.id);
        expect(rows[0].request_identifier).toBe(keyOf(i, n));
        const replay = await transfer(world.server, payers[i].token, coins[i].serial, target.serial, '10.00', {
          key: keyOf(i, n),
          description: description(i, n),
        });
        expectStatus(replay, 201);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.text).toBe(answer.text);
      }
      expect(await balanceOf(world.server, payers[i].token, coins[i].serial)).toBe('0.00');
    }
    expect(await balanceOf(world.server, payee.token, target.serial)).toBe('240.00');
    // Stored as sent, uncompressed: an answer is just over the size PostgreSQL compresses a row at by default (issue 48).
    const { rows: kept } = await world.raw.db.query(
      `SELECT max(length(response_body))::int AS longest, count(pg_column_compression(response_body))::int AS compressed
         FROM idempotency_keys WHERE key LIKE $1`,
      [`grouped-"${process.pid}"%`],
    );
    expect(kept[0].longest).toBeGreaterThan(2032);
    expect(kept[0].compressed).toBe(0);
    await expectBalancedLedger(world.server, world.admin);
  });

  it('applies keyed retries once and answers them the same body, including one arriving while its first attempt sits in a group', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '50.00');
    const key = `in-group-${process.pid}`;
    const before = await groups();

    await withInsertTrigger(async (gate) => {
      // The first attempt's group waits in the database (its operation's insert); its retries arrive meanwhile.
      const first = transfer(world.server, alice.token, from.serial, to.serial, '7.00', { key, description: 'slow' });
      await gate.blocked();
      const busy = await inFlight();
      const retries = Array.from({ length: 5 }, () =>
        transfer(world.server, alice.token, from.serial, to.serial, '7.00', { key, description: 'slow' }),
      );
      // The five are being served (they wait for the first attempt) before it may finish.
      await until('the retries are in flight', async () => (await inFlight()) >= busy + 5);
      await gate.open();
      const original = await first;
      expectStatus(original, 201);
      for (const retry of await Promise.all(retries)) {
        expectStatus(retry, 201);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.text).toBe(original.text);
      }
    });
    expect((await groups()).postings - before.postings).toBe(1);
    expect(await operationsKeyed(key)).toBe(1);
    expect(await stored(key)).toHaveLength(1);
    expect(await balanceOf(world.server, alice.token, from.serial)).toBe('43.00');
    expect(await balanceOf(world.server, bob.token, to.serial)).toBe('7.00');

    // Many keys, each sent three times at once: each applied once, all three answers the same.
    const many = Array.from({ length: 10 }, (_, i) => `${key}-${i}`);
    const answers = await Promise.all(
      many.map((k) =>
        Promise.all(Array.from({ length: 3 }, () => transfer(world.server, alice.token, from.serial, to.serial, '1.00', { key: k }))),
      ),
    );
    for (const [i, same] of answers.entries()) {
      for (const answer of same) expectStatus(answer, 201);
      expect(same.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
      expect(new Set(same.map((a) => JSON.stringify(a.body))).size).toBe(1);
      expect(await operationsKeyed(many[i])).toBe(1);
    }
    expect(await balanceOf(world.server, alice.token, from.serial)).toBe('33.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('posts a keyed transfer on its own, with its answer, when its group fails: once, and the failing neighbour writes nothing', async () => {
    const payee = await world.user();
    const target = await world.coin(payee);
    const payers = await Promise.all(Array.from({ length: 6 }, () => world.user()));
    const coins = await Promise.all(payers.map((p) => world.coin(p, '20.00')));
    const split = await alone('split');
    const keyOf = (i: number) => `split-${process.pid}-${i}`;

    await withInsertTrigger(async (gate) => {
      const slow = transfer(world.server, payers[0].token, coins[0].serial, target.serial, '1.00', { description: 'slow' });
      await gate.blocked();
      const keyed = payers
        .slice(1)
        .map((payer, i) => transfer(world.server, payer.token, coins[i + 1].serial, target.serial, '2.00', { key: keyOf(i + 1) }));
      const faulty = transfer(world.server, payers[0].token, coins[0].serial, target.serial, '5.00', { description: 'fault' });
      // The six share the target coin with the waiting group: they queue for the next one, together.
      await until('six postings wait for a group', async () => (await waitingForGroup()) === 6);
      await gate.open();
      expectStatus(await slow, 201);
      const answers = await Promise.all(keyed);
      for (const [i, answer] of answers.entries()) {
        expectStatus(answer, 201);
        const rows = await stored(keyOf(i + 1));
        expect(rows).toHaveLength(1);
        expect(rows[0].body).toBe(answer.text);
        expect(rows[0].operation_id).toBe(answer.body.process.id);
        expect(await operationsKeyed(keyOf(i + 1))).toBe(1);
      }
      expect((await faulty).status).toBe(409);
    });
    expect((await alone('split')) - split).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < payers.length; i++) expect(await balanceOf(world.server, payers[i].token, coins[i].serial)).toBe('18.00');
    expect(await balanceOf(world.server, payee.token, target.serial)).toBe('11.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('answers 409 in_flight for a keyed transfer whose key another instance holds, and posts nothing', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const [from, to] = await world.pair(alice, bob, '10.00');
    const key = `held-${process.pid}`;
    const answer = await whileKeyInFlight(world.raw, alice.id, key, () =>
      transfer(world.server, alice.token, from.serial, to.serial, '3.00', { key }),
    );
    expectError(answer, 409, 'exception.idempotency.in_flight');
    expect(await operationsKeyed(key)).toBe(0);
    expectStatus(await transfer(world.server, alice.token, from.serial, to.serial, '3.00', { key }), 201);
    expect(await balanceOf(world.server, alice.token, from.serial)).toBe('7.00');
  });

  it('writes merchant payments (with their payment rows) and exchanges in groups, keyed or not: each once, each answer its own', async () => {
    const { server, admin } = world;
    const other = await aCurrency(server, admin, {});
    const otherIssuer = await anIssuer(server, admin, other.code);
    await aRate(server, admin, world.currency.code, other.code, '2');
    await fundReserve(server, admin, otherIssuer.id, '1000.00');
    // The source reserve exists before (a keyed request that creates a system coin runs on its own: AnswerAlone).
    await fundReserve(server, admin, world.issuer.id, '1.00');
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const { people, coins } = await peopleWithCoins(world, '100.00');
    const bought = await Promise.all(people.map((p) => aCoin(server, p.token, otherIssuer.id)));
    const before = await groups();
    const split = await alone('split');
    const keyOf = (i: number, n: number) => `commerce-${process.pid}-${i}-${n}`;

    // From each person at once: two payments and two exchanges, the second of each keyed and sent twice.
    const answers = await Promise.all(
      people.flatMap((p, i) => [
        server.request('POST', '/api/v1/merchant-payments', {
          token: p.token,
          body: { merchantId: merchant.organizationId, amount: '3.00', payer: { method: 'coin', value: coins[i].serial } },
        }),
        ...[0, 1].map(() =>
          server.request('POST', '/api/v1/merchant-payments', {
            token: p.token,
            headers: { 'idempotency-key': keyOf(i, 0) },
            body: { merchantId: merchant.organizationId, amount: '4.00', payer: { method: 'coin', value: coins[i].serial } },
          }),
        ),
        exchange(server, p.token, { fromCoin: coins[i].serial, toCoin: bought[i].serial, amount: '5.00', direction: 'sell' }),
        ...[0, 1].map(() =>
          exchange(
            server,
            p.token,
            { fromCoin: coins[i].serial, toCoin: bought[i].serial, amount: '6.00', direction: 'sell' },
            keyOf(i, 1),
          ),
        ),
      ]),
    );
    for (const answer of answers) expectStatus(answer, 201);
    const after = await groups();
    // 24 postings (the keyed retries replay), through fewer groups, none split.
    expect(after.postings - before.postings).toBe(24);
    expect(after.count - before.count).toBeLessThan(24);
    expect(await alone('split')).toBe(split);

    for (let i = 0; i < people.length; i++) {
      const [payment, keyedPayment, keyedPaymentAgain, swap, keyedSwap, keyedSwapAgain] = answers.slice(i * 6, i * 6 + 6);
      expect(keyedPaymentAgain.text).toBe(keyedPayment.text);
      expect(keyedSwapAgain.text).toBe(keyedSwap.text);
      expect(await operationsKeyed(keyOf(i, 0))).toBe(1);
      expect(await operationsKeyed(keyOf(i, 1))).toBe(1);
      // Each payment's row was written with its own operation, as answered.
      for (const paid of [payment, keyedPayment]) {
        const { rows } = await world.raw.db.query(
          'SELECT operation_id, trim_scale(amount)::text AS amount FROM merchant_payments WHERE id = $1',
          [paid.body.payment.id],
        );
        expect(rows).toEqual([{ operation_id: paid.body.process.id, amount: paid === payment ? '3' : '4' }]);
        expect(paid.body.payment.operationId).toBe(paid.body.process.id);
      }
      expect(swap.body.exchange.buyAmount).toBe('10.00');
      expect(keyedSwap.body.exchange.buyAmount).toBe('12.00');
      expect(await balanceOf(server, people[i].token, coins[i].serial)).toBe('82.00');
      expect(await balanceOf(server, people[i].token, bought[i].serial)).toBe('22.00');
    }
    const { rows } = await world.raw.db.query('SELECT count(*)::int AS n FROM merchant_payments WHERE merchant_id = $1', [
      merchant.organizationId,
    ]);
    expect(rows[0].n).toBe(12);
    expect(await balanceOf(server, merchant.token, till.serial)).toBe('42.00');
    await expectProcessesReadBack(world, answers, 36);
  });
});

describe('group commit of invoice payments', () => {
  const world = moneyWorld();
  const groups = ledgerGroups(world);

  it('pays invoices in groups, keyed or not: each once, the invoice marked paid with its payment, each answer its own', async () => {
    const { server } = world;
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const { people, coins } = await peopleWithCoins(world, '50.00');
    const issue = async (amount: string) => {
      const issued = await server.request('POST', '/api/v1/invoices', {
        token: merchant.token,
        body: { name: `Invoice ${amount}`, recipientCoin: till.serial, amount },
      });
      expectStatus(issued, 201);
      return issued.body.invoice.id as string;
    };
    const invoices = await Promise.all(people.map(async () => [await issue('3.00'), await issue('4.00')]));
    const { answers, each } = await plainAndKeyedTwice(world, groups, people.length, 'invoice', (i, n, key) =>
      server.request('POST', `/api/v1/invoices/${invoices[i][n]}/pay`, {
        token: people[i].token,
        body: { payerCoin: coins[i].serial },
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      }),
    );

    for (const [i, paidTwice] of each.entries()) {
      for (const answer of paidTwice) {
        expect(answer.body.invoice).toMatchObject({ status: 'paid', paidByCoin: coins[i].serial, operationId: answer.body.process.id });
        // The invoice as answered is the invoice as written, as each side sees it: the payer its own organization
        // whole, the issuer its creator's name (issue 45).
        const read = await server.request('GET', `/api/v1/invoices/${answer.body.invoice.id}`, { token: merchant.token });
        expectStatus(read, 200);
        const paidInvoice = answer.body.invoice;
        expect(paidInvoice.payer).toMatchObject({ identificationStatus: 'none', contract_info: { personType: 'base' } });
        expect(read.body.invoice).toEqual({
          ...paidInvoice,
          createdByUser: { ...paidInvoice.createdByUser, name: expect.any(String) },
          payer: { ...paidInvoice.payer, identificationStatus: null, contract_info: null },
        });
      }
      expect(await balanceOf(server, people[i].token, coins[i].serial)).toBe('43.00');
    }
    expect(await balanceOf(server, merchant.token, till.serial)).toBe('42.00');
    await expectProcessesReadBack(world, answers, 18);
  });

  it('pays an invoice once when several payers race for it, keyed or not: the others get 409 and pay nothing', async () => {
    const { server, admin } = world;
    const merchant = await world.user({ role: 'merchant' });
    const till = await world.coin(merchant);
    const { people, coins } = await peopleWithCoins(world, '50.00');
    const issued = await server.request('POST', '/api/v1/invoices', {
      token: merchant.token,
      body: { name: 'Once', recipientCoin: till.serial, amount: '30.00' },
    });
    expectStatus(issued, 201);
    const id = issued.body.invoice.id;

    const answers = await Promise.all(
      people.map((p, i) =>
        server.request('POST', `/api/v1/invoices/${id}/pay`, {
          token: p.token,
          body: { payerCoin: coins[i].serial },
          ...(i % 2 ? { headers: { 'idempotency-key': `race-${process.pid}-${i}` } } : {}),
        }),
      ),
    );
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 201)) expectError(lost, 409, 'exception.invoice.not_payable');
    const balances = await Promise.all(people.map((p, i) => balanceOf(server, p.token, coins[i].serial)));
    expect(balances.sort()).toEqual(['20.00', '50.00', '50.00', '50.00', '50.00', '50.00']);
    expect(await balanceOf(server, merchant.token, till.serial)).toBe('30.00');
    const { rows } = await world.raw.db.query('SELECT status, operation_id FROM invoices WHERE id = $1', [id]);
    expect(rows).toEqual([{ status: 'paid', operation_id: won[0].body.process.id }]);
    const { rows: payments } = await world.raw.db.query(
      `SELECT count(*)::int AS n FROM operations WHERE type = 'invoice_payment' AND details->>'invoiceId' = $1`,
      [id],
    );
    expect(payments[0].n).toBe(1);
    await expectBalancedLedger(server, admin);
  });
});

describe('group commit of cash-desk withdrawals', () => {
  const world = moneyWorld();
  const groups = ledgerGroups(world);

  it('writes withdrawals at a desk in groups, keyed or not: each once, each answer its own', async () => {
    const { server, admin } = world;
    const deskId = await aDesk(world, 'Group desk');
    const { people, coins } = await peopleWithCoins(world, '50.00');
    const { answers, each } = await plainAndKeyedTwice(world, groups, people.length, 'withdrawal', (i, n, key) =>
      server.request('POST', `/api/v1/cash-desk-withdrawals/${deskId}`, {
        token: people[i].token,
        body: { coin: coins[i].serial, amount: n ? '4.00' : '3.00', receiverName: `Receiver ${i}` },
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      }),
    );

    for (const [i, withdrawnTwice] of each.entries()) {
      for (const answer of withdrawnTwice) {
        expect(answer.body.process).toMatchObject({
          type: 'cash_desk_redeem',
          status: 'processed',
          cashDeskId: deskId,
          receiverName: `Receiver ${i}`,
        });
      }
      expect(await balanceOf(server, people[i].token, coins[i].serial)).toBe('43.00');
    }
    expect(
      await expectAnswersReadBack(
        server,
        admin,
        answers.flatMap((a) => {
          // The operation as the transactions API reads it, without the withdrawal's own fields; and its record.
          const { cashAmount: _a, cashDeskId: _d, receiverName: _r, clientCoin: _c, transaction, ...operation } = a.body.process;
          return [operation, transaction[0]];
        }),
      ),
    ).toBe(36);
    await expectBalancedLedger(server, admin);
  });
});

describe('group commit of gate payments', () => {
  const world = moneyWorld({ env: { GATE_RECONCILE_SECONDS: '0' } });
  const groups = ledgerGroups(world);

  it('holds gate payments in groups, keyed or not: each once, its transaction written with its hold, each answer its own', async () => {
    const { server, admin } = world;
    const provider = await server.request('POST', '/api/v1/gate-providers', {
      token: admin,
      body: { name: `Group provider ${process.pid}`, type: 'billing', settings: { secret: 'group-commit-secret', latencyMs: 0 } },
    });
    expectStatus(provider, 201);
    const product = await server.request('POST', '/api/v1/gate/products', {
      token: admin,
      body: {
        gateProviderId: provider.body.gateProvider.id,
        name: 'Group top-up',
        currency: world.currency.code,
        minAmount: '1.00',
        maxAmount: '500.00',
        fields: [{ name: 'phone', type: 'string', required: true }],
      },
    });
    expectStatus(product, 201);
    const productId = product.body.product.id;
    const { people, coins } = await peopleWithCoins(world, '50.00');
    const pay = (i: number, amount: string, key?: string) =>
      server.request('POST', '/api/v1/gate/transactions', {
        token: people[i].token,
        body: { productId, coinSerial: coins[i].serial, type: 'payment', amount, fields: { phone: `+100000000${i}` } },
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      });
    // The issuer's gate-settlement coin exists before (a keyed request that creates a system coin runs on its own).
    expectStatus(await pay(0, '1.00'), 201);
    const { answers, each } = await plainAndKeyedTwice(world, groups, people.length, 'gate', (i, n, key) =>
      pay(i, n ? '4.00' : '3.00', key),
    );

    for (const [i, [plain, keyed]] of each.entries()) {
      for (const answer of [plain, keyed]) {
        const { transaction } = answer.body;
        expect(transaction).toMatchObject({ status: 'provider_assigned', coinSerial: coins[i].serial, productId, commission: '0.00' });
        // Written with its own operation, as answered.
        const { rows: written } = await world.raw.db.query(
          `SELECT t.operation_id, trim_scale(t.amount)::text AS amount, t.created_at = o.created_at AS together
             FROM gate_transactions t JOIN operations o ON o.id = t.operation_id WHERE t.id = $1`,
          [transaction.id],
        );
        expect(written).toEqual([{ operation_id: transaction.operationId, amount: answer === plain ? '3' : '4', together: true }]);
        // As answered, but for what its provider changed since.
        const read = await server.request('GET', `/api/v1/gate/transactions/${transaction.id}`, { token: people[i].token });
        expectStatus(read, 200);
        // The payer's coin is whole only in the create and submit answers; a read names it by serial and issuer.
        const lasting = ({ status: _s, updatedAt: _u, finishedAt: _f, providerReference: _r, providerData: _d, coin, ...rest }: any) => ({
          ...rest,
          coin: { serial: coin.serial, issuer: { id: coin.issuer.id, currency: coin.issuer.currency } },
        });
        expect(lasting(read.body.transaction)).toEqual(lasting(transaction));
      }
    }
    const processes = await Promise.all(
      answers.map(async (a) => {
        const read = await server.request('GET', `/api/v1/transactions/${a.body.transaction.operationId}`, { token: admin });
        expectStatus(read, 200);
        return read.body.process;
      }),
    );
    expect(new Set(processes.map((p) => p.id)).size).toBe(12);
    await expectBalancedLedger(server, admin);
  });
});

describe('group commit of voucher redemptions', () => {
  const world = moneyWorld({ env: { VOUCHER_EXPIRY_SWEEP_SECONDS: '0' } });
  const groups = ledgerGroups(world);

  it('redeems vouchers in groups, keyed or not: each once, the voucher marked with its redemption, each answer its own', async () => {
    const { server } = world;
    const creator = await world.user();
    const funds = await world.coin(creator, '100.00');
    const buy = async (amount: string) => {
      const bought = await server.request('POST', '/api/v1/vouchers', { token: creator.token, body: { coinSerial: funds.serial, amount } });
      expectStatus(bought, 201);
      return { id: bought.body.voucher.id as string, code: bought.body.code as string };
    };
    const { people, coins } = await peopleWithCoins(world);
    const vouchers: { id: string; code: string }[][] = [];
    for (let i = 0; i < people.length; i++) vouchers.push([await buy('3.00'), await buy('4.00')]);
    const { answers, each } = await plainAndKeyedTwice(world, groups, people.length, 'voucher', (i, n, key) =>
      server.request('POST', '/api/v1/vouchers/redeem', {
        token: people[i].token,
        body: { code: vouchers[i][n].code, coinSerial: coins[i].serial },
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      }),
    );

    for (const [i, redeemedTwice] of each.entries()) {
      for (const [n, answer] of redeemedTwice.entries()) {
        expect(answer.body.voucher).toMatchObject({ id: vouchers[i][n].id, status: 'processed', amount: n ? '4.00' : '3.00' });
        // The voucher as answered is the voucher as written.
        const { rows: written } = await world.raw.db.query(
          'SELECT status, closing_operation_id, redeemed_coin::text AS coin, redeemed_at FROM vouchers WHERE id = $1',
          [vouchers[i][n].id],
        );
        expect(written).toEqual([
          {
            status: 'processed',
            closing_operation_id: answer.body.process.id,
            coin: coins[i].serial,
            redeemed_at: new Date(answer.body.voucher.redeemedAt),
          },
        ]);
      }
      expect(await balanceOf(server, people[i].token, coins[i].serial)).toBe('7.00');
    }
    await expectProcessesReadBack(world, answers, 18);
  });
});

/**
 * A group holds its connection and its coins' locks until its keyed requests have built their answers, and those
 * answers read the database (the coin and the owner of a withdrawal's answer). Those reads run on the group's own
 * connection: from the pool they would wait behind the very work the group holds up (requests blocked on its locks),
 * until the pool's connect timeout answered 503 or the group gave up (issue 42). With a pool of one connection, a
 * read from the pool could never run at all.
 */
describe('group commit on a pool of one connection', () => {
  const world = moneyWorld({ env: { DB_POOL_SIZE: '1' } });
  const groups = ledgerGroups(world);

  it('answers keyed withdrawals and transfers from their group, none split, none a 503', async () => {
    const { server, admin } = world;
    const deskId = await aDesk(world, 'One-connection desk');
    const { people, coins } = await peopleWithCoins(world, '50.00', 3);
    const payee = await world.coin(await world.user());
    const splitBefore = await groups.alone('split');
    const groupedBefore = await groups.postings();

    const answers = await Promise.all(
      people.flatMap((person, i) => [
        server.request('POST', `/api/v1/cash-desk-withdrawals/${deskId}`, {
          token: person.token,
          body: { coin: coins[i].serial, amount: '5.00', receiverName: `Receiver ${i}` },
          headers: { 'idempotency-key': `one-connection-w-${i}` },
        }),
        transfer(server, person.token, coins[i].serial, payee.serial, '2.00', { key: `one-connection-t-${i}` }),
      ]),
    );
    for (const answer of answers) expectStatus(answer, 201);
    expect((await groups.postings()) - groupedBefore).toBe(6);
    expect(await groups.alone('split')).toBe(splitBefore);
    for (let i = 0; i < people.length; i++) {
      expect(answers[i * 2].body.process).toMatchObject({
        type: 'cash_desk_redeem',
        status: 'processed',
        clientCoin: { serial: coins[i].serial },
      });
      expect(await balanceOf(server, people[i].token, coins[i].serial)).toBe('43.00');
    }
    await expectBalancedLedger(server, admin);
  });
});

/**
 * Every exchange names its two issuers' reserves, every priced transfer its issuer's commission coin: shared coins
 * (system coins). A group reads them without a lock and locks them only at its end, with the statement that writes their
 * balances (LedgerRepository.writeShared), so groups over other coins run at once; a reserve an exchange draws on
 * (`funded`) is checked again there, on the reserve as it is then.
 */
describe('group commit over shared coins (the exchange reserves)', () => {
  const world = moneyWorld();
  const { alone } = ledgerGroups(world);
  const { withInsertTrigger } = insertGate(world);
  let target: { code: string; issuerId: string };

  beforeAll(async () => {
    const C = await aCurrency(world.server, world.admin);
    const issuer = await anIssuer(world.server, world.admin, C.code);
    await aRate(world.server, world.admin, world.currency.code, C.code, '1');
    target = { code: C.code, issuerId: issuer.id };
  });

  /** A person with a coin of the world's currency holding `funds`, and an empty coin of the target currency. */
  const trader = async (funds: string) => {
    const person = await world.user();
    const from = await world.coin(person, funds);
    const to = await aCoin(world.server, person.token, target.issuerId);
    return { person, from, to };
  };
  const buy = (t: Awaited<ReturnType<typeof trader>>, amount: string, description: string) =>
    exchange(world.server, t.person.token, { fromCoin: t.from.serial, toCoin: t.to.serial, amount, direction: 'buy', description });
  const reserve = async () =>
    (
      await world.raw.db.query(`SELECT balance::text AS balance FROM coins WHERE issuer_id = $1 AND system_kind = 'exchange_reserve'`, [
        target.issuerId,
      ])
    ).rows[0].balance as string;

  it('runs an exchange over the same reserves while another group holding them is held up in the database', async () => {
    await fundReserve(world.server, world.admin, target.issuerId, '100.00');
    const [first, second] = [await trader('10.00'), await trader('10.00')];
    const before = await reserve();
    await withInsertTrigger(async (gate) => {
      const held = buy(first, '3.00', 'slow');
      await gate.blocked();
      // The first group holds its coins in the database; the second exchange forms a group of its own and is answered.
      expectStatus(await buy(second, '4.00', 'second'), 201);
      await gate.open();
      expectStatus(await held, 201);
    });
    expect(Number(await reserve())).toBe(Number(before) - 7);
    expect(await balanceOf(world.server, first.person.token, first.to.serial)).toBe('3.00');
    expect(await balanceOf(world.server, second.person.token, second.to.serial)).toBe('4.00');
    await expectBalancedLedger(world.server, world.admin);
  });

  it('checks a reserve again when its group writes it: drawn on meanwhile by another group, the exchange is refused (409)', async () => {
    const drain = await trader('1000.00');
    const left = Number(await reserve());
    if (left > 0) expectStatus(await buy(drain, left.toFixed(2), 'drain'), 201);
    await fundReserve(world.server, world.admin, target.issuerId, '10.00');
    const [first, second] = [await trader('10.00'), await trader('10.00')];
    const split = await alone('split');
    let answers: ApiResponse[] = [];
    await withInsertTrigger(async (gate) => {
      // Both plans see a reserve of 10.00, and each buys 8.00: the second group commits first.
      const held = buy(first, '8.00', 'slow');
      await gate.blocked();
      const other = await buy(second, '8.00', 'second');
      await gate.open();
      answers = [await held, other];
    });
    expectStatus(answers[1], 201);
    // The first group's write found the reserve at 2.00: the group failed, and its exchange, posted alone, was refused.
    expectError(answers[0], 409, 'exception.exchange.reserve_insufficient');
    expect((await alone('split')) - split).toBe(1);
    expect(await reserve()).toBe('2.000000000000000000');
    expect(await balanceOf(world.server, first.person.token, first.from.serial)).toBe('10.00');
    expect(await balanceOf(world.server, first.person.token, first.to.serial)).toBe('0.00');
    expect(await balanceOf(world.server, second.person.token, second.to.serial)).toBe('8.00');
    await expectBalancedLedger(world.server, world.admin);
  });
});
