// The console's command line (`:`, issue 44 item 1): a word that jumps to a pane (with a filter),
// opens a wizard or a view on a name (never sends anything itself: the wizard previews and
// confirms), or quits; Tab completes commands and index, node and profile names; the history is
// kept per profile, and a line holding a password is refused and never kept. Pure.
import { PANES, PANE_DECLARATIONS, type PaneId } from '../panes';

export type LineAction =
  | { kind: 'pane'; pane: PaneId; filter?: string }
  | { kind: 'wizard'; wizard: string; index?: string; node?: string }
  | { kind: 'view'; view: string; index: string }
  | { kind: 'fleet' }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'error'; message: string };

/** Words that open a wizard (its id in ui/wizards/registry.ts) on the index or node named after them. */
const WIZARDS: Record<string, { wizard: string; takes: 'index' | 'node' | 'nothing' }> = {
  replicas: { wizard: 'replicas', takes: 'index' },
  'delete-by-query': { wizard: 'delete', takes: 'index' },
  forcemerge: { wizard: 'forcemerge', takes: 'index' },
  shrink: { wizard: 'shrink', takes: 'index' },
  snapshot: { wizard: 'snapshot', takes: 'index' },
  restore: { wizard: 'restore', takes: 'nothing' },
  drain: { wizard: 'drain', takes: 'node' },
  unblock: { wizard: 'unblock', takes: 'nothing' },
  scroll: { wizard: 'scroll', takes: 'nothing' },
};

/** Words that open a view (ui/views/registry.tsx) on an index. */
const VIEWS: Record<string, string> = { xray: 'xray', documents: 'documents' };

const OTHERS = ['fleet', 'help', 'q', 'quit'];

/** Every word the line knows, for completion and the help: panes, wizards, views, the rest. */
export function commandWords(): string[] {
  return [...PANES, ...Object.keys(WIZARDS), ...Object.keys(VIEWS), ...OTHERS];
}

/** A password never goes on the line, in the history or on the screen: `--password-env VAR` names a variable and is refused too (it belongs to the profile). */
export function secretOnLine(line: string): boolean {
  return /(^|\s)--password(-env|-file)?\b|password=/i.test(line);
}

export function parseLine(line: string, opts: { readOnly: boolean }): LineAction {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (!words.length)
    return { kind: 'error', message: 'type a command: a pane (indices, shards...), xray INDEX, replicas INDEX, q; Tab completes' };
  if (secretOnLine(line))
    return {
      kind: 'error',
      message: 'a password never goes on the command line (nor in its history): the profile says where it comes from',
    };
  const [word, ...rest] = words;
  const arg = rest.join(' ');
  if (word === 'q' || word === 'quit') return { kind: 'quit' };
  if (word === 'help') return { kind: 'help' };
  if (word === 'fleet') return { kind: 'fleet' };
  const pane = PANES.find((p) => p === word || PANE_DECLARATIONS[p].title.toLowerCase() === word.toLowerCase());
  if (pane) return { kind: 'pane', pane, ...(arg ? { filter: arg } : {}) };
  const view = VIEWS[word];
  if (view)
    return rest.length === 1
      ? { kind: 'view', view, index: rest[0] }
      : { kind: 'error', message: `${word} INDEX: name one index (Tab completes)` };
  const w = WIZARDS[word];
  if (w) {
    if (opts.readOnly) return { kind: 'error', message: `${word} changes the cluster: not in read-only mode` };
    if (w.takes === 'nothing')
      return rest.length ? { kind: 'error', message: `${word} takes no name` } : { kind: 'wizard', wizard: w.wizard };
    if (rest.length > 1) return { kind: 'error', message: `${word} ${w.takes.toUpperCase()}: one name` };
    return { kind: 'wizard', wizard: w.wizard, ...(rest[0] ? { [w.takes]: rest[0] } : {}) };
  }
  return { kind: 'error', message: `"${word}" is not a console command: ${commandWords().join(' ')}` };
}

/** What Tab gives: the line completed as far as it is unambiguous, and the choices when several remain. */
export function completeLine(
  line: string,
  names: { indices: readonly string[]; nodes: readonly string[] },
): { line: string; options: string[] } {
  const words = line.split(/\s+/);
  const last = words[words.length - 1] ?? '';
  const first = words[0] ?? '';
  const pool =
    words.length === 1
      ? commandWords()
      : words.length === 2 && (VIEWS[first] || WIZARDS[first]?.takes === 'index' || (PANES as readonly string[]).includes(first))
        ? [...names.indices]
        : words.length === 2 && WIZARDS[first]?.takes === 'node'
          ? [...names.nodes]
          : [];
  const options = pool.filter((c) => c.startsWith(last)).sort();
  if (!options.length) return { line, options: [] };
  const common = options.reduce((a, b) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  });
  const done = options.length === 1 ? `${options[0]} ` : common;
  return { line: [...words.slice(0, -1), done].join(' '), options: options.length === 1 ? [] : options };
}

/** How many lines the history keeps per profile. */
export const HISTORY_MAX = 200;

/** The history with a line run: newest last, no repeat of the one before, never a line with a password. */
export function addToHistory(history: readonly string[], line: string): string[] {
  const l = line.trim();
  if (!l || secretOnLine(l) || history[history.length - 1] === l) return [...history];
  return [...history, l].slice(-HISTORY_MAX);
}
