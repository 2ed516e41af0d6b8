// Text order for sorting names (indices, nodes, templates, profiles...): by UTF-16 code unit.
// Not localeCompare: its first call builds ICU's collator, ~40 ms of a one-shot command's start-up
// (status --json sorts the health indicators), and index names are lowercase ASCII anyway.

/** a before b: negative; after: positive; equal: 0 (code-unit order, as `<` compares strings). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
