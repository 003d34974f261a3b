import { parse } from 'lossless-json';
import { amountOf, JsonDecimal, OneTimeSecret, RawJson, serializeAnswer, serializeJson } from './json-decimal';
import { Money } from './money';

describe('serializeJson', () => {
  it('writes decimals as exact JSON numbers, everything else as JSON.stringify does', () => {
    const body = {
      amount: new JsonDecimal('12345678901234567.89'),
      tiny: amountOf('0.000000000000000001', 18),
      negative: amountOf(new Money('-10.5'), 2),
      list: [amountOf('1', 0)],
      name: 'a "quoted" \u0001 name',
      count: 3,
    };
    const text = serializeJson(body);
    expect(text).toBe(
      '{"amount":12345678901234567.89,"tiny":0.000000000000000001,"negative":-10.50,"list":[1],"name":"a \\"quoted\\" \\u0001 name","count":3}',
    );
    // read losslessly, the numbers are exact
    const read = parse(text) as { amount: { value: string } };
    expect(read.amount.value).toBe('12345678901234567.89');
  });

  it('leaves strings that look like a marker alone, and sends a stored answer as it is', () => {
    expect(serializeJson({ s: '\u0000abc:12.5' })).toBe('{"s":"\\u0000abc:12.5"}');
    expect(serializeJson(new RawJson('{"amount":1.50}'))).toBe('{"amount":1.50}');
  });

  it('writes a one-time secret into the answer, but null into the copy kept for replays', () => {
    const body = {
      code: new OneTimeSecret('3f2a9c0d'),
      amount: amountOf('25', 2),
      note: 'keeps "3f2a9c0d" as typed',
      nested: [new OneTimeSecret('a"b')],
    };
    expect(serializeJson(body)).toBe('{"code":"3f2a9c0d","amount":25.00,"note":"keeps \\"3f2a9c0d\\" as typed","nested":["a\\"b"]}');
    // An idempotent route's answer is stringified once: sent as serializeJson sends it, stored with the secrets null.
    const answer = serializeAnswer(body);
    expect(answer.sent.text).toBe(serializeJson(body));
    expect(answer.stored).toBe('{"code":null,"amount":25.00,"note":"keeps \\"3f2a9c0d\\" as typed","nested":[null]}');
    expect(serializeAnswer({ code: '\u0001abc:x' }).stored).toBe('{"code":"\\u0001abc:x"}');
    // A replay's stored text is sent and kept as it is.
    expect(serializeAnswer(new RawJson('{"amount":1.50}'))).toEqual({ sent: new RawJson('{"amount":1.50}'), stored: '{"amount":1.50}' });
  });
});
