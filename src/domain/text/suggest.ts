// "Did you mean": the nearest known word to a mistyped command or flag (`stauts` -> status,
// `--jsn` -> --json), by edit distance, only when it is close enough to be a typo.

/** Levenshtein distance, with a transposition counted as one edit (stauts -> status). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** The one known word nearest to `typed` (at most 2 edits, and fewer than half its length), or
 *  undefined when none is that close or two are equally close. */
export function didYouMean(typed: string, known: readonly string[]): string | undefined {
  if (known.includes(typed)) return undefined;
  const limit = Math.min(2, Math.floor((typed.replace(/^-+/, '').length - 1) / 2));
  let best: string | undefined;
  let bestD = Infinity;
  let tie = false;
  for (const k of known) {
    const dist = editDistance(typed, k);
    // Equally near, a word of the typed length wins (stauts: status over stats).
    const score = dist * 2 + (k.length === typed.length ? 0 : 1);
    if (dist > limit || dist === 0) continue;
    if (score < bestD) [best, bestD, tie] = [k, score, false];
    else if (score === bestD) tie = true;
  }
  return tie ? undefined : best;
}
