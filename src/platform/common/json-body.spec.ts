import { JsonBodyError, MAX_JSON_DEPTH, nestedDeeperThan, parseJsonBody } from './json-body';

describe('parseJsonBody', () => {
  it('keeps a number a JS number would change as its exact text', () => {
    expect(parseJsonBody('{"amount": 12345678901234567.89, "n": 2}')).toEqual({ amount: '12345678901234567.89', n: 2 });
  });

  it('refuses an escaped lone surrogate, in a value or a key, at any depth', () => {
    for (const body of ['{"email":"\\ud800"}', '{"a":[{"b":"x\\udfff"}]}', '{"\\udbff":1}', '["\\ud83d"]', '"\\ude00x"']) {
      expect(() => parseJsonBody(body)).toThrow(JsonBodyError);
      expect(() => parseJsonBody(body)).toThrow(/lone surrogate/);
    }
  });

  it('takes a whole character sent as an escaped surrogate pair, and an escaped backslash before "ud800"', () => {
    expect(parseJsonBody('{"name":"\\ud83d\\ude00"}')).toEqual({ name: '😀' });
    expect(parseJsonBody('{"name":"😀"}')).toEqual({ name: '😀' });
    expect(parseJsonBody('{"path":"\\\\ud800"}')).toEqual({ path: '\\ud800' });
  });

  it('refuses an empty body, a forbidden key and text that is not JSON', () => {
    expect(() => parseJsonBody('  ')).toThrow('The JSON body is empty');
    expect(() => parseJsonBody('{"__proto__": {}}')).toThrow('forbidden key');
    expect(() => parseJsonBody('{nope')).toThrow('not valid JSON');
  });
});

describe('the nesting limit', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more, of objects or arrays, before parsing`, () => {
    expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toThrow(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(() => parseJsonBody(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(JsonBodyError);
    expect(() => parseJsonBody(`${'['.repeat(100_000)}`)).toThrow(/nested deeper/);
  });

  it('counts no bracket inside a string, an escaped quote included', () => {
    expect(nestedDeeperThan(`{"a":"${'{['.repeat(50)}"}`, 2)).toBe(false);
    expect(nestedDeeperThan(`{"a":"\\"${'{'.repeat(50)}"}`, 2)).toBe(false);
    expect(nestedDeeperThan(`{"a":"\\\\",${'{"b":'.repeat(3)}1}}}}`, 2)).toBe(true);
    expect(nestedDeeperThan('[[1],[2],[[3]]]', 3)).toBe(false);
    expect(nestedDeeperThan('[[1],[2],[[[3]]]]', 3)).toBe(true);
  });
});
