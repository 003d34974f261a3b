import { AsyncLocalStorage } from 'node:async_hooks';
import { Batcher, Outcome } from './batcher';

/** A batch the test finishes by hand. */
interface Held {
  items: number[];
  finish: (outcomes: Outcome<string>[]) => void;
  fail: (error: Error) => void;
}

function heldBatcher(limits: { size: number; inFlight: number; claims?: (n: number) => string[] }): {
  batcher: Batcher<number, string>;
  batches: Held[];
} {
  const batches: Held[] = [];
  const batcher = new Batcher<number, string>(
    (items) =>
      new Promise<Outcome<string>[]>((resolve, reject) => {
        batches.push({ items, finish: resolve, fail: reject });
      }),
    limits,
  );
  return { batcher, batches };
}

const ok = (value: string): Outcome<string> => ({ ok: true, value });
const tick = () => new Promise((r) => setImmediate(r));

describe('Batcher', () => {
  it('starts a lone item once its event-loop turn ends, alone, and groups the items that arrive while the batches in flight run', async () => {
    const { batcher, batches } = heldBatcher({ size: 10, inFlight: 1 });
    const first = batcher.submit(1);
    expect(batches).toHaveLength(0);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    const later = [2, 3, 4].map((n) => batcher.submit(n));
    await tick();
    expect(batches).toHaveLength(1);
    batches[0].finish([ok('one')]);
    await expect(first).resolves.toBe('one');
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1].finish([ok('two'), ok('three'), ok('four')]);
    await expect(Promise.all(later)).resolves.toEqual(['two', 'three', 'four']);
    expect(batcher.inFlight).toBe(0);
  });

  it('puts the items submitted in one event-loop turn in one batch, even with a batch free', async () => {
    const { batcher, batches } = heldBatcher({ size: 10, inFlight: 2 });
    const answers = [1, 2, 3].map((n) => batcher.submit(n));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    batches[0].finish([ok('a'), ok('b'), ok('c')]);
    await expect(Promise.all(answers)).resolves.toEqual(['a', 'b', 'c']);
  });

  it('runs up to inFlight batches at once and caps a batch at size, in arrival order', async () => {
    const { batcher, batches } = heldBatcher({ size: 2, inFlight: 2 });
    const answers = [1, 2, 3, 4, 5, 6].map((n) => batcher.submit(n));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(batcher.inFlight).toBe(2);
    batches[1].finish([ok('c'), ok('d')]);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    batches[0].finish([ok('a'), ok('b')]);
    batches[2].finish([ok('e'), ok('f')]);
    await expect(Promise.all(answers)).resolves.toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('starts a batch beside a running one only once half as many items wait as it took, and the rest at once when none runs', async () => {
    const { batcher, batches } = heldBatcher({ size: 10, inFlight: 2 });
    const first = [1, 2, 3, 4].map((n) => batcher.submit(n));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3, 4]]);
    // One item waiting beside a batch of four: it waits (a batch of one costs what a full one costs).
    const second = [batcher.submit(5)];
    await tick();
    expect(batches).toHaveLength(1);
    expect(batcher.waiting).toBe(1);
    // A second: half as many as the running batch took, so they start beside it.
    second.push(batcher.submit(6));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ]);
    // Both slots taken: three wait, and start as a batch once one ends (beside the four: two are enough).
    const third = [7, 8, 9].map((n) => batcher.submit(n));
    await tick();
    expect(batches).toHaveLength(2);
    batches[1].finish([ok('e'), ok('f')]);
    await expect(Promise.all(second)).resolves.toEqual(['e', 'f']);
    await tick();
    expect(batches.map((b) => b.items)[2]).toEqual([7, 8, 9]);
    // Beside the batch of three left running, one item waits; once no batch runs, it starts alone at once.
    const fourth = batcher.submit(10);
    batches[0].finish([ok('a'), ok('b'), ok('c'), ok('d')]);
    await expect(Promise.all(first)).resolves.toEqual(['a', 'b', 'c', 'd']);
    await tick();
    expect(batches).toHaveLength(3);
    batches[2].finish([ok('g'), ok('h'), ok('i')]);
    await expect(Promise.all(third)).resolves.toEqual(['g', 'h', 'i']);
    await tick();
    expect(batches.map((b) => b.items)[3]).toEqual([10]);
    batches[3].finish([ok('j')]);
    await expect(fourth).resolves.toBe('j');
    expect(batcher.inFlight).toBe(0);
  });

  it('settles each item with its own outcome: a failed item fails alone', async () => {
    const { batcher, batches } = heldBatcher({ size: 10, inFlight: 1 });
    const all = [1, 2, 3].map((n) => batcher.submit(n));
    await tick();
    const refused = new Error('insufficient funds');
    batches[0].finish([ok('one'), { ok: false, error: refused }, ok('three')]);
    const settled = await Promise.allSettled(all);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'one' },
      { status: 'rejected', reason: refused },
      { status: 'fulfilled', value: 'three' },
    ]);
  });

  it('fails every item of a batch whose work fails, or answers the wrong number of outcomes, and goes on', async () => {
    const { batcher, batches } = heldBatcher({ size: 10, inFlight: 1 });
    const first = batcher.submit(1);
    await tick();
    const pair = [2, 3].map((n) => batcher.submit(n));
    const broken = new Error('connection lost');
    batches[0].fail(broken);
    await expect(first).rejects.toBe(broken);
    await tick();
    batches[1].finish([ok('only one')]);
    const settled = await Promise.allSettled(pair);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/A batch of 2 answered 1 outcomes/);
    const after = batcher.submit(4);
    await tick();
    batches[2].finish([ok('four')]);
    await expect(after).resolves.toBe('four');
  });

  it('runs a batch outside the context of the item that started it', async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        seen.push(storage.getStore());
        await tick();
        seen.push(storage.getStore());
        return items.map((n) => ({ ok: true as const, value: n * 2 }));
      },
      { size: 10, inFlight: 1 },
    );
    const answer = await storage.run('request 1', () => batcher.submit(21));
    expect(answer).toBe(42);
    expect(seen).toEqual([undefined, undefined]);
  });

  it('keeps an item claiming what a running batch claims for a later batch, in its place, and lets the others go', async () => {
    // Items claim their tens: 11 and 12 share "1", 21 and 22 share "2".
    const { batcher, batches } = heldBatcher({ size: 10, inFlight: 2, claims: (n) => [String(Math.floor(n / 10))] });
    const first = batcher.submit(11);
    await tick();
    // 12 shares the running 11's claim: it waits; 21, behind it, starts the second batch.
    const answers = [12, 21].map((n) => batcher.submit(n));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[11], [21]]);
    batches[0].finish([ok('11')]);
    await expect(first).resolves.toBe('11');
    await tick();
    // 11's claim released: 12 goes, while 21's batch still runs.
    expect(batches.map((b) => b.items)).toEqual([[11], [21], [12]]);
    batches[1].finish([ok('21')]);
    batches[2].finish([ok('12')]);
    await expect(Promise.all(answers)).resolves.toEqual(['12', '21']);
    // Among items of many claims, those free go together and the held one keeps its place.
    const more = [31, 41, 32, 42].map((n) => batcher.submit(n));
    await tick();
    expect(batches.slice(3).map((b) => b.items)).toEqual([[31, 41, 32, 42]]);
    const held = [33, 51, 52].map((n) => batcher.submit(n));
    await tick();
    // Three wait beside the batch of four: 33 (claiming 31's "3") stays; 51 and 52 go.
    expect(batches.slice(4).map((b) => b.items)).toEqual([[51, 52]]);
    batches[3].finish([ok('31'), ok('41'), ok('32'), ok('42')]);
    await tick();
    // Its claim released, 33 goes beside the batch of two (one is half of two).
    expect(batches.slice(5).map((b) => b.items)).toEqual([[33]]);
    batches[4].finish([ok('51'), ok('52')]);
    batches[5].finish([ok('33')]);
    await expect(Promise.all([...more, ...held])).resolves.toEqual(['31', '41', '32', '42', '33', '51', '52']);
    expect(batcher.inFlight).toBe(0);
  });
});
