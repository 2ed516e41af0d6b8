// The console's command line (`:`, issue 44 item 1): a word that jumps to a pane (with a filter),
// opens a wizard or a view on a name (never sends anything itself: the wizard previews and
// confirms), runs a read command of the command table into a view (`cat allocation`), switches
// profile, or quits; Tab completes commands, flags and index, node and profile names; the history
// is kept per profile, and a line holding a password is refused and never kept. Pure.
import { PANES, PANE_DECLARATIONS, type PaneId } from '../panes';

export type LineAction =
  | { kind: 'pane'; pane: PaneId; filter?: string }
  | { kind: 'wizard'; wizard: string; index?: string; node?: string }
  | { kind: 'view'; view: string; index: string }
  | { kind: 'run'; words: string[] }
  | { kind: 'profile'; profile: string }
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

const OTHERS = ['fleet', 'help', 'q', 'quit', 'pane', 'profile'];

/**
 * The command table as the line knows it (commands/tui/line-commands.ts gives it): the read
 * commands it runs, each with its own flags, and the commands that change something.
 */
export interface LineCommandTable {
  reads: Record<string, readonly string[]>;
  changes: readonly string[];
}

/** Flags every read command takes on the line (the connection's are the console's). */
const LINE_GLOBAL_FLAGS = ['json', 'help'];

/** Every word the line knows, for completion and the help: panes, wizards (not in read-only mode), views, read commands, the rest. */
export function commandWords(opts: { readOnly?: boolean; commands?: LineCommandTable } = {}): string[] {
  const wizards = opts.readOnly ? [] : Object.keys(WIZARDS);
  return [...new Set([...PANES, ...wizards, ...Object.keys(VIEWS), ...Object.keys(opts.commands?.reads ?? {}), ...OTHERS])];
}

/**
 * The line's words, as a shell without its expansions would split them: spaces separate, '...'
 * and "..." keep a pattern or a phrase whole (`cat shards 'service_v9_*'`). Nothing is expanded.
 */
export function lineWords(line: string): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  let quote: string | undefined;
  for (const c of line) {
    if (quote) {
      if (c === quote) quote = undefined;
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur ??= '';
    } else if (/\s/.test(c)) {
      if (cur !== undefined) words.push(cur);
      cur = undefined;
    } else cur = (cur ?? '') + c;
  }
  if (cur !== undefined) words.push(cur);
  return words;
}

/** A password never goes on the line, in the history or on the screen: `--password-env VAR` names a variable and is refused too (it belongs to the profile). */
export function secretOnLine(line: string): boolean {
  return /(^|\s)--password(-env|-file)?\b|password=/i.test(line);
}

export function parseLine(
  line: string,
  opts: { readOnly: boolean; commands?: LineCommandTable; profiles?: readonly string[] },
): LineAction {
  const words = lineWords(line.trim());
  if (!words.length)
    return {
      kind: 'error',
      message: 'type a command: a pane (indices, shards...), cat allocation, xray INDEX, replicas INDEX, q; Tab completes',
    };
  if (secretOnLine(line))
    return {
      kind: 'error',
      message: 'a password never goes on the command line (nor in its history): the profile says where it comes from',
    };
  const [word, ...rest] = words;
  const arg = rest.join(' ');
  const reads = opts.commands?.reads ?? {};
  if (word === 'q' || word === 'quit') return { kind: 'quit' };
  if (word === 'help' && !rest.length) return { kind: 'help' };
  if (word === 'fleet') return { kind: 'fleet' };
  if (word === 'profile') {
    if (rest.length !== 1) return { kind: 'error', message: 'profile NAME: the console of that saved profile (Tab completes)' };
    if (opts.profiles && !opts.profiles.includes(rest[0]))
      return { kind: 'error', message: `no profile named "${rest[0]}" (Tab completes)` };
    return { kind: 'profile', profile: rest[0] };
  }
  // `pane NAME`: the pane of a name that is also a command (nodes, doctor, snapshots, tasks, templates).
  const paneWord = word === 'pane' ? rest[0] : word;
  const paneFilter = word === 'pane' ? rest.slice(1).join(' ') : arg;
  const pane = PANES.find((p) => p === paneWord || PANE_DECLARATIONS[p].title.toLowerCase() === paneWord?.toLowerCase());
  if (word === 'pane' && !pane) return { kind: 'error', message: `pane NAME: one of ${PANES.join(' ')}` };
  if (pane && (word === 'pane' || !reads[word])) return { kind: 'pane', pane, ...(paneFilter ? { filter: paneFilter } : {}) };
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
  if (reads[word] || word === 'help') return { kind: 'run', words };
  if (opts.commands?.changes.includes(word))
    return {
      kind: 'error',
      message: opts.readOnly
        ? `${word} changes the cluster: not in read-only mode`
        : `${word} changes the cluster: not from the line; its wizard is on a pane's key (? lists them), or shardeck ${word} in a shell`,
    };
  return { kind: 'error', message: `"${word}" is not a console command: Tab lists them, help the keys` };
}

/** Where a word of the line takes its completions from. */
function poolFor(
  words: readonly string[],
  names: { indices: readonly string[]; nodes: readonly string[]; profiles?: readonly string[] },
  opts: { readOnly?: boolean; commands?: LineCommandTable },
): string[] {
  const first = words[0] ?? '';
  const last = words[words.length - 1] ?? '';
  const before = words[words.length - 2];
  const reads = opts.commands?.reads ?? {};
  if (words.length === 1) return commandWords(opts);
  if (before === '--profile' || (first === 'profile' && words.length === 2)) return [...(names.profiles ?? [])];
  if (first === 'pane' && words.length === 2) return [...PANES];
  const read = reads[first];
  if (read && last.startsWith('-')) return [...read, ...LINE_GLOBAL_FLAGS].map((f) => `--${f}`);
  if (words.length === 2 && (VIEWS[first] || WIZARDS[first]?.takes === 'index' || (!read && (PANES as readonly string[]).includes(first))))
    return [...names.indices];
  if (words.length === 2 && WIZARDS[first]?.takes === 'node') return [...names.nodes];
  // A read command's names: an index or a node, whichever the operator started typing.
  if (read) return [...names.indices, ...names.nodes];
  return [];
}

/** What Tab gives: the line completed as far as it is unambiguous, and the choices when several remain. */
export function completeLine(
  line: string,
  names: { indices: readonly string[]; nodes: readonly string[]; profiles?: readonly string[] },
  opts: { readOnly?: boolean; commands?: LineCommandTable } = {},
): { line: string; options: string[] } {
  const words = line.split(/\s+/);
  const last = words[words.length - 1] ?? '';
  const options = [...new Set(poolFor(words, names, opts))].filter((c) => c.startsWith(last)).sort();
  if (!options.length) return { line, options: [] };
  const common = options.reduce((a, b) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  });
  const done = options.length === 1 ? `${options[0]} ` : common;
  return { line: [...words.slice(0, -1), done].join(' '), options: options.length === 1 ? [] : options };
}

/**
 * A second Tab on the same choices puts the next one in place of the last word (after the last
 * one, the word as typed again): `stem` is the line the choices were listed for.
 */
export function cycleChoice(stem: string, options: readonly string[], at: number | undefined): { line: string; at: number | undefined } {
  const next = at === undefined ? 0 : at + 1 < options.length ? at + 1 : undefined;
  const words = stem.split(/\s+/);
  return { line: next === undefined ? stem : [...words.slice(0, -1), options[next]].join(' '), at: next };
}

/** The choices as the line under the command line shows them in `width` columns: as many as fit, then how many more. */
export function choicesText(options: readonly string[], at: number | undefined, width: number): string {
  const shown: string[] = [];
  let used = 0;
  for (let i = 0; i < options.length; i++) {
    const o = i === at ? `[${options[i]}]` : options[i];
    const more = options.length - i - 1;
    const tail = more ? ` +${more} (Tab)`.length : 0;
    if (used + o.length + 1 + tail > width && shown.length) {
      shown.push(`+${options.length - i} (Tab)`);
      break;
    }
    shown.push(o);
    used += o.length + 1;
  }
  return shown.join(' ');
}

/** How many lines the history keeps per profile. */
export const HISTORY_MAX = 200;

/** The history with a line run: newest last, no repeat of the one before, never a line with a password. */
export function addToHistory(history: readonly string[], line: string): string[] {
  const l = line.trim();
  if (!l || secretOnLine(l) || history[history.length - 1] === l) return [...history];
  return [...history, l].slice(-HISTORY_MAX);
}
