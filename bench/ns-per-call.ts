/**
 * The micro-benchmarks' one measure: nanoseconds a call of `make`, best of five rounds of `calls` calls (a round whose
 * calls did not all answer something is not counted, so a call cannot be optimized away to nothing).
 */
export function nsPerCall(make: (i: number) => unknown, calls: number): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    let kept = 0;
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (make(i)) kept++;
    const ns = Number(process.hrtime.bigint() - started) / calls;
    if (kept === calls) best = Math.min(best, ns);
  }
  return best;
}
