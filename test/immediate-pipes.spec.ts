import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/**
 * Run by the built service's modules (dist/, in a Node process of its own: Nest's packages are ES modules), it gives
 * a route's params (a body, a principal from a custom decorator, a path param) to Nest's own `createPipesFn` and to
 * the one `runImmediatePipes` installs, over the service's validation pipe, and reports what each did: whether it
 * answered a promise, the handler's arguments (with their classes) or the error.
 */
const SCRIPT = `
require('reflect-metadata');
const { ParseUUIDPipe } = require('@nestjs/common');
const { RouterExecutionContext } = require('@nestjs/core/router/router-execution-context');
const { PipesConsumer } = require('@nestjs/core/internal');
const { createValidationPipe } = require('./dist/src/platform/common/validation');
const { runImmediatePipes } = require('./dist/src/platform/common/immediate-pipes');
const { ApiError } = require('./dist/src/platform/common/api-error');
const { TransferRequestDto } = require('./dist/src/money-movement/transfers/dto/transfer.dto');

const asNest = RouterExecutionContext.prototype.createPipesFn;
runImmediatePipes();
const context = new RouterExecutionContext(null, null, new PipesConsumer());
const pipe = createValidationPipe();
let slow = 0;
const transform = pipe.transform;
pipe.transform = function (...args) { slow++; return transform.apply(this, args); };

const BODY = 3; // RouteParamtypes.BODY
const PARAM = 5; // RouteParamtypes.PARAM
const params = {
  body: { index: 0, type: BODY, data: undefined, pipes: [], extractValue: (req) => req.body, metatype: TransferRequestDto },
  principal: { index: 1, type: 'finapi:principal', data: undefined, pipes: [], extractValue: (req) => req.principal, metatype: Object },
  id: { index: 2, type: PARAM, data: 'id', pipes: [new ParseUUIDPipe()], extractValue: (req) => req.params.id, metatype: String },
  throws: { index: 1, type: 'finapi:principal', data: undefined, pipes: [], extractValue: () => { throw new Error('no principal'); }, metatype: Object },
};
const classesOf = (value) => (value && typeof value === 'object' ? [value.constructor ? value.constructor.name : 'null', ...Object.values(value).flatMap(classesOf)] : []);
const run = async (create, route, req) => {
  const fn = create.call(context, [pipe], route.map((name) => params[name]));
  const args = [];
  slow = 0;
  try {
    const pending = fn(args, req, {}, () => undefined);
    const promised = pending instanceof Promise;
    await pending;
    return { promised, args, classes: classesOf(args), slow };
  } catch (error) {
    return { error: error instanceof ApiError ? { code: error.code, message: error.message, errors: error.errors } : String(error) };
  }
};
const transfer = { paymentTool: { type: 'COIN', srcValue: '1000000001', destValue: '1000000002' }, amount: '0.01' };
const principal = { userId: 'u-1' };
const id = '2b1e4f4e-8c7a-4d6e-9f0a-1b2c3d4e5f60';
const CASES = {
  valid: [['body', 'principal'], { body: transfer, principal }],
  invalid: [['body', 'principal'], { body: { ...transfer, amount: '-1', extra: 1 }, principal }],
  notAnObject: [['body', 'principal'], { body: [transfer], principal }],
  thenable: [['body', 'principal'], { body: transfer, principal: Promise.resolve(principal) }],
  extractorThrows: [['body', 'throws'], { body: transfer }],
  pathParam: [['body', 'principal', 'id'], { body: transfer, principal, params: { id } }],
  badPathParam: [['body', 'principal', 'id'], { body: transfer, principal, params: { id: 'x' } }],
};
(async () => {
  const out = {};
  for (const [name, [route, req]] of Object.entries(CASES)) {
    out[name] = { nest: await run(asNest, route, req), immediate: await run(RouterExecutionContext.prototype.createPipesFn, route, req) };
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

interface Run {
  promised?: boolean;
  args?: unknown[];
  classes?: string[];
  slow?: number;
  error?: unknown;
}

describe('immediate pipes: a route’s params settled without a promise when its pipes decide at once (issue 48)', () => {
  let out: Record<string, { nest: Run; immediate: Run }>;

  beforeAll(() => {
    out = JSON.parse(execFileSync(process.execPath, ['-e', SCRIPT], { cwd: ROOT }).toString()) as typeof out;
  });

  it('gives the handler the same arguments, or the same error, as Nest does, in every case', () => {
    for (const [name, { nest, immediate }] of Object.entries(out)) {
      const { promised: _p, slow: _s, ...expected } = nest;
      const { promised: _q, slow: _t, ...actual } = immediate;
      expect({ name, ...actual }).toEqual({ name, ...expected });
    }
    // The cases are what they say: a validated instance, a 400 of the service's shape, the path param's own 400.
    expect(out.valid.nest.classes).toEqual(['Array', 'TransferRequestDto', 'PaymentToolDto', 'Object']);
    expect(out.invalid.nest.error).toMatchObject({ code: 'exception.validation' });
    expect(out.badPathParam.nest.error).toMatch(/uuid is expected/);
    expect(out.extractorThrows.nest.error).toBe('Error: no principal');
  });

  it('answers no promise, and runs no pipe the slow way, only when every pipe decides at once', () => {
    expect(out.valid.immediate).toMatchObject({ promised: false, slow: 0 });
    expect(out.valid.nest).toMatchObject({ promised: true });
    // A body that fails, a thenable value, a throwing extractor, a pipe that is not an ImmediatePipe: Nest's way.
    for (const name of ['invalid', 'notAnObject']) expect(out[name].immediate.error).toBeDefined();
    expect(out.thenable.immediate).toMatchObject({ promised: true });
    expect(out.pathParam.immediate.promised).toBe(true);
    expect(out.pathParam.immediate.slow).toBeGreaterThan(0);
  });
});
