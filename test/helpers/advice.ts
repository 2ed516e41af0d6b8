// The `shardeck COMMAND ...` mentions in a text: the product's source lines (test/unit/advice.test.ts)
// and what commands print (test/integration/advice-runs.test.ts).
export interface Mention {
  where: string;
  command: string;
  /** Flags (without --) and positionals up to the end of the mention. */
  flags: string[];
  words: string[];
  /** Every token after the command, as printed. */
  tokens: string[];
  /** After run / see / try: advice, so the word must be a command. */
  advice: boolean;
}

/** Every `shardeck WORD ...` in a line: the words and flags up to a quote, bracket or punctuation. */
export function mentionsIn(where: string, text: string): Mention[] {
  const out: Mention[] = [];
  for (const m of text.matchAll(/(\b(?:run|see|try)\s+`?)?\bshardeck ([a-z][a-z-]*)([^`'"\n;,()]*)/g)) {
    const tokens = (m[3] ?? '').trim().split(/\s+/).filter(Boolean);
    const flags: string[] = [];
    const words: string[] = [];
    for (const t of tokens) {
      const f = /^--([a-z][a-z0-9-]*)(=.*)?$/.exec(t);
      if (f) flags.push(f[1]);
      else words.push(t);
    }
    out.push({ where, command: m[2], flags, words, tokens, advice: Boolean(m[1]) });
  }
  return out;
}
