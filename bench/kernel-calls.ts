/**
 * What three calls on a money request's path cost in this Node, each against what the service now does instead:
 * `node dist/bench/kernel-calls.js [calls]`. Prints nanoseconds per call, best of five rounds.
 *
 * - a transfer's plan checked (`applyPlan`): its two coins' balances as the database writes them (eighteen decimals),
 *   against each balance read as a Decimal, which applyPlan used to do for every coin a plan moves;
 * - a statement handed to `pg`: a config object (`{ text, values, name }`, which pg copies through property
 *   descriptors) against a Query made from its text (Database.query);
 * - an answer handed to Nest as an object, which Nest checks with `isPlainObject` (it compares two constructors'
 *   source texts), against the answer as its JSON text (IdempotencyInterceptor), which that check passes at once.
 *
 * The first pair's "before" is the plan checked now plus the reads it no longer makes (each balance and held amount
 * as a Decimal), not the old function itself.
 */
import 'reflect-metadata';
import { isPlainObject } from '@nestjs/common/internal';
import { Query } from 'pg';
import { Money } from '../src/platform/common/money';
import { lockedCoin } from '../src/platform/ledger/locked-coin.fixture';
import { applyPlan } from '../src/platform/ledger/plan';
import { nsPerCall } from './ns-per-call';

const coin = (serial: string, balance: string) => lockedCoin(serial, { balance, held: '0.000000000000000000' });

const locked = {
  coins: new Map([coin('1', '1000000.000000000000000000'), coin('2', '999999.990000000000000000')].map((c) => [c.serial, c])),
  holds: [],
};
const plan = { legs: [{ from: '1', to: '2', amount: new Money('0.01') }], meta: { amount: new Money('0.01') } };
const values = ['a', 'b', 'c'];
const answer = { id: 'op', type: 'client_transaction_transfer', amount: '0.01' };
const text = JSON.stringify(answer);

const pairs: Record<string, [(i: number) => unknown, (i: number) => unknown]> = {
  "a transfer's plan checked (applyPlan)": [
    () => {
      // What applyPlan read before: every balance and held amount the plan moves, as a Decimal.
      for (const c of locked.coins.values()) if (new Money(c.balance).plus(new Money(c.held)).isNegative()) return undefined;
      return applyPlan(locked, plan);
    },
    () => applyPlan(locked, plan),
  ],
  'a statement handed to pg': [(i) => new Query({ text: 'SELECT $1', values, name: `s${i & 7}` }), () => new Query('SELECT $1', values)],
  'an answer handed to Nest (its isPlainObject)': [() => isPlainObject(answer), () => !isPlainObject(text)],
};

const calls = Number(process.argv[2] ?? 100_000);
console.log(`| call | before: ns a call | now: ns a call |`);
console.log(`|---|---:|---:|`);
for (const [name, [before, now]] of Object.entries(pairs)) {
  console.log(`| ${name} | ${nsPerCall(before, calls).toFixed(0)} | ${nsPerCall(now, calls).toFixed(0)} |`);
}
