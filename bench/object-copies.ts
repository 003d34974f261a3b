/**
 * What copying an object costs in this Node's V8, the ways the request path used to and the ways it does now:
 * `node dist/bench/object-copies.js [calls]`. Each pair is a shape the service had on a transfer's path (a plan's meta
 * copied with an object rest and spreads, the async context copied with a spread and a computed key, a quote spread
 * with two more keys) and the same object built with every key named. Prints nanoseconds per call, best of five rounds.
 */
import { nsPerCall } from './ns-per-call';

type Meta = { description?: string | null; customInformation?: string | null; details?: Record<string, unknown>; records?: unknown[] };
type Context = { timing?: unknown; transaction?: unknown; meta?: unknown; replica?: true; planChecks?: unknown };
const PARTS: (keyof Context)[] = ['timing', 'meta', 'transaction', 'planChecks'];
type Quote = { commission: number; payer: string; ruleId: string | null; conditionId: string | null };

const pairs: Record<string, [(i: number) => unknown, (i: number) => unknown]> = {
  "a plan's meta (pricedPlan)": [
    (i) => {
      const meta: Meta = { description: 'a', customInformation: null };
      const { records, ...own } = meta;
      return {
        legs: [],
        meta: { ...own, amount: i, commission: 0, fromCoin: 'a', toCoin: 'b', details: own.details ? { ...own.details } : undefined },
        ...(records ? { records } : {}),
      };
    },
    (i) => {
      const meta: Meta = { description: 'a', customInformation: null };
      const plan: { legs: unknown[]; meta: unknown; records?: unknown[] } = {
        legs: [],
        meta: {
          description: meta.description,
          customInformation: meta.customInformation,
          amount: i,
          commission: 0,
          fromCoin: 'a',
          toCoin: 'b',
          details: meta.details ? { ...meta.details } : undefined,
        },
      };
      if (meta.records) plan.records = meta.records;
      return plan;
    },
  ],
  // A request's context is set part by part (its timing, the meta of its transactions, its transaction, its plan's checks).
  'the async context, four parts set in turn (runWithPart)': [
    (i) => {
      let context: Context = {};
      for (const part of PARTS) context = { ...context, [part]: i };
      return context;
    },
    (i) => {
      let context: Context = {};
      for (const part of PARTS) {
        const next: Record<keyof Context, unknown> = {
          timing: context.timing,
          transaction: context.transaction,
          meta: context.meta,
          replica: context.replica,
          planChecks: context.planChecks,
        };
        next[part] = i;
        context = next as Context;
      }
      return context;
    },
  ],
  'a quote (priceOf)': [
    (i) => {
      const priced: Quote = { commission: i, payer: 'sender', ruleId: null, conditionId: null };
      return { ...priced, payerAmount: i, payeeAmount: i };
    },
    (i) => {
      const { commission, payer, ruleId, conditionId }: Quote = { commission: i, payer: 'sender', ruleId: null, conditionId: null };
      return { commission, payer, ruleId, conditionId, payerAmount: i, payeeAmount: i };
    },
  ],
};

const calls = Number(process.argv[2] ?? 200_000);
console.log(`| object | spread or rest: ns a call | every key named: ns a call |`);
console.log(`|---|---:|---:|`);
for (const [name, [spread, named]] of Object.entries(pairs)) {
  console.log(`| ${name} | ${nsPerCall(spread, calls).toFixed(0)} | ${nsPerCall(named, calls).toFixed(0)} |`);
}
