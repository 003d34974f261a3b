/**
 * The Mann–Whitney U test of two samples, as a z score (ties get their average rank, with the tie
 * correction of the variance). |z| > 3.29 means the two distributions differ at p < 0.001 (two-sided);
 * a rank test does not let a few slow outliers decide, as a mean would.
 */
export function mannWhitneyZ(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  const all = [...a.map((value) => ({ value, first: true })), ...b.map((value) => ({ value, first: false }))].sort(
    (x, y) => x.value - y.value,
  );
  const n = all.length;
  let rankSumA = 0;
  let ties = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1].value === all[i].value) j++;
    const rank = (i + j + 2) / 2; // ranks count from 1
    const t = j - i + 1;
    ties += t ** 3 - t;
    for (let k = i; k <= j; k++) if (all[k].first) rankSumA += rank;
    i = j + 1;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  return variance === 0 ? 0 : (u - mean) / Math.sqrt(variance);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}
