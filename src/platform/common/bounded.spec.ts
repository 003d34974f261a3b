import { remember } from './bounded';

describe('remember (bounded caches)', () => {
  it('drops the oldest entry for a new key once full, never for a key it already holds', () => {
    const map = new Map<string, number>();
    remember(map, 'a', 1, 2);
    remember(map, 'b', 2, 2);
    remember(map, 'a', 3, 2);
    expect([...map]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
    remember(map, 'c', 4, 2);
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 4],
    ]);
  });
});
