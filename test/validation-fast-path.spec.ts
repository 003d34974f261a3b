import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/**
 * Run by the built service's modules (dist/, in a Node process of its own: Nest's packages are ES modules), it
 * answers each body through the service's pipe and through the pipe as it was before the fast path (the same
 * options, class-transformer and class-validator on every body), with the classes of each answer's objects.
 */
const SCRIPT = `
require('reflect-metadata');
const { ValidationPipe } = require('@nestjs/common');
const { createValidationPipe, toApiError } = require('./dist/src/platform/common/validation');
const { ApiError } = require('./dist/src/platform/common/api-error');
const dtos = {
  transfer: require('./dist/src/money-movement/transfers/dto/transfer.dto').TransferRequestDto,
  merchantPayment: require('./dist/src/commerce/merchant-payments/dto/merchant-payment.dto').CreateMerchantPaymentDto,
  exchange: require('./dist/src/money-movement/exchange/dto/exchange.dto').ExchangeRequestDto,
};
const plain = new ValidationPipe({
  whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true,
  transformOptions: { enableImplicitConversion: false }, stopAtFirstError: false,
  validationError: { target: false, value: true }, exceptionFactory: toApiError,
});
const fast = createValidationPipe();
let validated = 0;
const validate = fast.validate;
fast.validate = function (...args) { validated++; return validate.apply(this, args); };
const classesOf = (value, out = []) => {
  if (value && typeof value === 'object') {
    out.push(value.constructor ? value.constructor.name : 'null-prototype');
    for (const key of Object.keys(value)) classesOf(value[key], out);
  }
  return out;
};
const outcome = async (pipe, body, metatype) => {
  try {
    const value = await pipe.transform(structuredClone(body), { type: 'body', metatype });
    return { ok: true, value, classes: classesOf(value) };
  } catch (error) {
    return { ok: false, error: error instanceof ApiError ? { code: error.code, message: error.message, errors: error.errors } : String(error) };
  }
};
(async () => {
  const out = [];
  for (const [dto, bodies] of Object.entries(JSON.parse(process.env.CASES))) {
    for (const text of bodies) {
      const body = JSON.parse(text);
      const expected = await outcome(plain, body, dtos[dto]);
      const before = validated;
      const actual = await outcome(fast, body, dtos[dto]);
      out.push({ dto, body: text, expected, actual, fast: validated === before });
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

const transfer = { paymentTool: { type: 'COIN', srcValue: '1000000001', destValue: '1000000002' }, amount: '0.01' };
const merchant = '2b1e4f4e-8c7a-4d6e-9f0a-1b2c3d4e5f60';
const CASES: Record<string, unknown[]> = {
  transfer: [
    transfer,
    { ...transfer, amount: 12.5, description: 'rent', customInformation: null },
    { ...transfer, paymentTool: { ...transfer.paymentTool, type: 'SMART_CARD', srcValue: merchant } },
    { ...transfer, amount: '0' },
    { ...transfer, amount: '-1' },
    { ...transfer, amount: '1.001' },
    { ...transfer, extra: 1 },
    { ...transfer, paymentTool: { ...transfer.paymentTool, extra: true } },
    { ...transfer, paymentTool: { ...transfer.paymentTool, srcValue: '01' } },
    { ...transfer, paymentTool: 'COIN' },
    { ...transfer, paymentTool: null },
    { ...transfer, paymentTool: [transfer.paymentTool] },
    { amount: '1' },
    { ...transfer, description: 'x'.repeat(501) },
    { ...transfer, description: 'a\u0000b' },
    { ...transfer, constructor: { name: 'x' } },
    '__proto__',
    {},
    [],
    [transfer],
  ],
  merchantPayment: [
    { merchantId: merchant, amount: '0.01', payer: { method: 'coin', value: '1000000001' } },
    { merchantId: merchant, items: [{ productId: '7', quantity: 2 }], payer: { method: 'coin', value: '1' } },
    { merchantId: 'not-a-uuid', amount: '0.01', payer: { method: 'coin', value: '1000000001' } },
    { merchantId: merchant, amount: '0.01', payer: { method: 'cash', value: '1' } },
    { merchantId: merchant, amount: '0.01' },
  ],
  exchange: [
    { fromCoin: '1000000001', toCoin: '1000000002', amount: '0.01' },
    { inCoinSerial: '1000000001', outCoinSerial: '1000000002', amount: '1', exchangeType: 'buy' },
    { fromCoin: '1000000001', amount: '0.01' },
    { fromCoin: '1000000001', toCoin: '1000000002', amount: '0.001x' },
  ],
};

interface Answered {
  dto: string;
  body: string;
  expected: unknown;
  actual: unknown;
  fast: boolean;
}

describe('the validation pipe: a fast path for bodies that pass, the whole pipe for every other (issue 48)', () => {
  let answers: Answered[];

  beforeAll(() => {
    const cases = Object.fromEntries(
      Object.entries(CASES).map(([dto, bodies]) => [
        dto,
        // A body with its own __proto__ key (JSON.parse makes one; an object literal cannot).
        bodies.map((b) => (b === '__proto__' ? '{"__proto__": {"polluted": true}, "amount": "1"}' : JSON.stringify(b))),
      ]),
    );
    const output = execFileSync(process.execPath, ['-e', SCRIPT], { cwd: ROOT, env: { ...process.env, CASES: JSON.stringify(cases) } });
    answers = JSON.parse(output.toString()) as Answered[];
  });

  it('answers every money body as the plain pipe does: the same instance (class, fields, nested classes), the same 400', () => {
    expect(answers).toHaveLength(Object.values(CASES).flat().length);
    for (const { dto, body, expected, actual } of answers) expect({ dto, body, answer: actual }).toEqual({ dto, body, answer: expected });
  });

  it('takes the fast path for the valid bodies only (class-validator not run), the whole pipe for every other', () => {
    const passed = answers.filter((a) => (a.expected as { ok: boolean }).ok);
    expect(passed.length).toBeGreaterThanOrEqual(5);
    // Valid but left to the whole pipe: a merchant payment with items (an array of nested objects), a body with a key
    // the pipe strips (constructor).
    for (const a of passed) expect({ body: a.body, fast: a.fast }).toEqual({ body: a.body, fast: !/"items"|"constructor"/.test(a.body) });
    for (const a of answers.filter((x) => !(x.expected as { ok: boolean }).ok))
      expect({ body: a.body, fast: a.fast }).toEqual({ body: a.body, fast: false });
  });
});
