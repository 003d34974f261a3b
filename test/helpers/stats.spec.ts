import { mannWhitneyZ } from './stats';

/** A deterministic pseudo-random sequence, so the samples are the same on every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('the rank test of the timing suite', () => {
  it('finds no difference between two samples of one distribution', () => {
    const random = sequence(7);
    const a = Array.from({ length: 300 }, () => 5 + random() * 2);
    const b = Array.from({ length: 300 }, () => 5 + random() * 2);
    expect(Math.abs(mannWhitneyZ(a, b))).toBeLessThan(2);
  });

  it('finds a shift of a third of the spread, and its sign', () => {
    const random = sequence(11);
    const a = Array.from({ length: 300 }, () => 5 + random() * 2);
    const b = Array.from({ length: 300 }, () => 5.7 + random() * 2);
    expect(mannWhitneyZ(a, b)).toBeLessThan(-3.29);
    expect(mannWhitneyZ(b, a)).toBeGreaterThan(3.29);
  });

  it('matches a small case worked by hand, ties included', () => {
    // a = [1, 2, 2], b = [2, 3]: ranks 1, 3, 3 | 3, 5; U = 7 − 6 = 1; mean 3; variance (6/12)(6 − 24/20) = 2.4.
    expect(mannWhitneyZ([1, 2, 2], [2, 3])).toBeCloseTo((1 - 3) / Math.sqrt(2.4), 10);
  });
});
