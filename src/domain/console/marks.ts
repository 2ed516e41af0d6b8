// Marks on the Indices pane (issue 43 item 4): the operator marks indices one by one (Space), and
// the pane's change keys act on exactly that set, each index named, never a pattern. Pure values:
// the marks are index names; the ones whose index is gone are dropped before anything uses them.

/** Space on a row: marked when it was not, unmarked when it was (kept sorted, each name once). */
export function toggleMark(marks: readonly string[], name: string): string[] {
  return marks.includes(name) ? marks.filter((m) => m !== name) : [...marks, name].sort();
}

/**
 * The marks whose index still exists (`present`: the names of the last snapshot). The same array
 * when none is gone, so a store update can be skipped.
 */
export function marksPresent(marks: readonly string[], present: Iterable<string>): readonly string[] {
  if (!marks.length) return marks;
  const names = new Set(present);
  const kept = marks.filter((m) => names.has(m));
  return kept.length === marks.length ? marks : kept;
}

/**
 * What a change key of the pane acts on while indices are marked: the marked names still there,
 * comma separated (the wizards resolve and pin each name, never a pattern); undefined when none is
 * (the key acts on the highlighted index).
 */
export function markedTarget(marks: readonly string[], present: Iterable<string>): string | undefined {
  const kept = marksPresent(marks, present);
  return kept.length ? kept.join(',') : undefined;
}

/** The footer's lead while indices are marked: how many, and the keys; shortened to fit `width` (the count always stays). */
export function marksLine(marked: number, space: string, clear: string, width: number): string {
  const count = `${marked} marked`;
  const full = `${count} · ${space} mark · ${clear} clear`;
  return full.length <= width ? full : count;
}
