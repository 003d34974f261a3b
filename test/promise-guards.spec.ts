import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/**
 * Run by the built service's modules (dist/, in a Node process of its own: Nest's packages are ES modules), it runs
 * sets of guards through Nest's own `createGuardsFn` and through the one `runPromiseGuards` installs, and reports for
 * each what the guards saw (in order), how it ended, and how many promises it made.
 */
const SCRIPT = `
require('reflect-metadata');
const { createHook } = require('node:async_hooks');
const { of } = require('rxjs');
const { RouterExecutionContext } = require('@nestjs/core/router/router-execution-context');
const { GuardsConsumer } = require('@nestjs/core/internal');
const { runPromiseGuards } = require('./dist/src/platform/common/promise-guards');

const asNest = RouterExecutionContext.prototype.createGuardsFn;
runPromiseGuards();
const context = new RouterExecutionContext(null, null, null, null, new GuardsConsumer());
let promises = 0;
createHook({ init: (id, type) => { if (type === 'PROMISE') promises++; } }).enable();

const seen = [];
const guard = (name, answer) => ({
  canActivate(ctx) {
    seen.push(name + ':' + ctx.getType() + ':' + ctx.getClass().name + ':' + ctx.getArgByIndex(0).id);
    return answer();
  },
});
const SETS = {
  allow: [guard('a', () => true), guard('b', () => true)],
  deny: [guard('a', () => true), guard('b', () => false), guard('c', () => true)],
  asyncAllow: [guard('a', async () => true), guard('b', () => true)],
  asyncDeny: [guard('a', async () => false), guard('b', () => true)],
  observable: [guard('a', () => of(false, true)), guard('b', () => of(true, false))],
  truthy: [guard('a', () => 1), guard('b', async () => 'yes')],
  throws: [guard('a', () => { throw new Error('refused'); }), guard('b', () => true)],
  rejects: [guard('a', async () => { throw new Error('refused later'); }), guard('b', () => true)],
};
class RouteController {}
const run = async (create, name) => {
  seen.length = 0;
  const fn = create.call(context, SETS[name], new RouteController(), function handler() {}, 'http');
  const before = promises;
  let ended;
  try {
    await fn([{ id: 'req-1' }, {}, () => undefined]);
    ended = 'allowed';
  } catch (error) {
    ended = error.constructor.name + ': ' + error.message + (error.getStatus ? ' ' + error.getStatus() : '');
  }
  return { seen: [...seen], ended, promises: promises - before };
};
(async () => {
  const out = {};
  for (const name of Object.keys(SETS)) out[name] = { nest: await run(asNest, name), promised: await run(RouterExecutionContext.prototype.createGuardsFn, name) };
  out.none = { nest: asNest.call(context, [], {}, () => undefined, 'http'), promised: RouterExecutionContext.prototype.createGuardsFn.call(context, [], {}, () => undefined, 'http') };
  process.stdout.write(JSON.stringify(out));
})();
`;

interface Run {
  seen: string[];
  ended: string;
  promises: number;
}

describe('promise guards: a route’s guards run with one promise per guard that answers one (issue 48)', () => {
  let out: Record<string, { nest: Run; promised: Run }>;

  beforeAll(() => {
    out = JSON.parse(execFileSync(process.execPath, ['-e', SCRIPT], { cwd: ROOT }).toString()) as typeof out;
  });

  it('runs the same guards in the same order on the same context, and ends as Nest does (403 on false, the guard’s own error)', () => {
    const sets = Object.keys(out).filter((name) => name !== 'none');
    expect(sets).toHaveLength(8);
    for (const name of sets) {
      const { nest, promised } = out[name];
      expect({ name, seen: promised.seen, ended: promised.ended }).toEqual({ name, seen: nest.seen, ended: nest.ended });
    }
    expect(out.allow.nest.seen).toEqual(['a:http:RouteController:req-1', 'b:http:RouteController:req-1']);
    expect(out.deny.nest).toMatchObject({ seen: ['a:http:RouteController:req-1', 'b:http:RouteController:req-1'] });
    expect(out.deny.nest.ended).toBe('ForbiddenException: Forbidden resource 403');
    expect(out.asyncDeny.nest.ended).toBe('ForbiddenException: Forbidden resource 403');
    expect(out.observable.nest.ended).toBe('ForbiddenException: Forbidden resource 403');
    expect(out.throws.nest.ended).toBe('Error: refused');
    expect(out.rejects.nest.ended).toBe('Error: refused later');
    // A route without guards has no guard function either way.
    expect(out.none).toEqual({ nest: null, promised: null });
  });

  it('makes fewer promises than Nest’s three async functions, whatever the guards answer', () => {
    // Nest's canActivateFn, tryActivate and pickResult cost a promise each, and more per guard that answers a promise.
    for (const [name, { nest, promised }] of Object.entries(out).filter(([n]) => n !== 'none')) {
      expect({ name, fewer: promised.promises <= nest.promises - 2 }).toEqual({ name, fewer: true });
    }
  });
});
