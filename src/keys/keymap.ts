// The keymap as data: one row per command. The help overlay, the footer hints and the README's
// key table are generated from it; tests press keys by command id; read-only mode removes every
// `dangerous` command here, in one place.

export type Scope = 'global' | 'table' | 'indices' | 'shards' | 'health' | 'disk' | 'nodes' | 'dialog';

export interface KeyCommand {
  id: string;
  /** Key names as Ink reports them: a character, or 'up' 'down' 'pageup' 'pagedown' 'home' 'end' 'tab' 'escape' 'return'. */
  keys: string[];
  description: string;
  scope: Scope;
  /** Changes the cluster: hidden and refused in read-only mode. */
  dangerous?: boolean;
  /** Shown in the footer hints (the short list). */
  hint?: boolean;
}

export const KEYMAP: KeyCommand[] = [
  { id: 'quit', keys: ['q'], description: 'quit', scope: 'global', hint: true },
  { id: 'help', keys: ['?'], description: 'show / hide this help', scope: 'global', hint: true },
  { id: 'pane.health', keys: ['1'], description: 'Health pane', scope: 'global' },
  { id: 'pane.indices', keys: ['2'], description: 'Indices pane', scope: 'global' },
  { id: 'pane.shards', keys: ['3'], description: 'Shards pane', scope: 'global' },
  { id: 'pane.disk', keys: ['4'], description: 'Disk pane', scope: 'global' },
  { id: 'pane.nodes', keys: ['5'], description: 'Nodes pane', scope: 'global' },
  { id: 'pane.next', keys: ['tab'], description: 'next pane', scope: 'global', hint: true },
  { id: 'poll.pause', keys: ['p'], description: 'pause / resume polling', scope: 'global', hint: true },
  { id: 'poll.refresh', keys: ['r'], description: 'refresh now', scope: 'global' },
  { id: 'row.up', keys: ['up', 'k'], description: 'move up', scope: 'table' },
  { id: 'row.down', keys: ['down', 'j'], description: 'move down', scope: 'table' },
  { id: 'row.pageUp', keys: ['pageup'], description: 'page up', scope: 'table' },
  { id: 'row.pageDown', keys: ['pagedown', ' '], description: 'page down', scope: 'table' },
  { id: 'row.first', keys: ['home', 'g'], description: 'first row', scope: 'table' },
  { id: 'row.last', keys: ['end', 'G'], description: 'last row', scope: 'table' },
  { id: 'table.filter', keys: ['/'], description: 'filter rows', scope: 'table', hint: true },
  { id: 'table.sort', keys: ['s'], description: 'next sort column', scope: 'table' },
  { id: 'table.sortReverse', keys: ['S'], description: 'reverse sort', scope: 'table' },
  { id: 'indices.toggleSystem', keys: ['.'], description: 'show / hide system (dot) indices', scope: 'indices' },
  { id: 'health.diagnose', keys: ['d'], description: 'diagnose indicators not green (verbose report)', scope: 'health' },
  { id: 'shards.toggleProblems', keys: ['u'], description: 'only problem shards (unassigned, initializing, relocating)', scope: 'shards' },
  { id: 'wizard.replicas', keys: ['R'], description: 'set replicas of the selected index (and its template)', scope: 'indices', dangerous: true },
  { id: 'wizard.deleteByQuery', keys: ['D'], description: 'delete documents by query (count and samples first)', scope: 'indices', dangerous: true },
  { id: 'wizard.forcemerge', keys: ['M'], description: 'force merge: free the disk deleted documents take', scope: 'indices', dangerous: true },
  { id: 'wizard.unblock', keys: ['U'], description: 'clear the flood-stage read-only block', scope: 'disk', dangerous: true },
  { id: 'wizard.scroll', keys: ['L'], description: 'scroll contexts: raise the limit', scope: 'nodes', dangerous: true },
  { id: 'wizard.allocation', keys: ['e'], description: 'explain the selected shard; retry failed allocations', scope: 'shards', dangerous: true },
  { id: 'wizard.recoverCorrupt', keys: ['C'], description: 'corrupt primary: lossless options, then the repair checklist', scope: 'shards', dangerous: true },
];

/** The keymap with dangerous commands removed when read-only. */
export function activeKeymap(readOnly: boolean, keymap: KeyCommand[] = KEYMAP): KeyCommand[] {
  return readOnly ? keymap.filter((k) => !k.dangerous) : keymap;
}

export function keysOf(id: string, keymap: KeyCommand[] = KEYMAP): string[] {
  const cmd = keymap.find((k) => k.id === id);
  if (!cmd) throw new Error(`unknown key command ${id}`);
  return cmd.keys;
}

/** How a key is written in hints and help: arrows and names made short. */
export function keyLabel(name: string): string {
  const labels: Record<string, string> = {
    up: '↑',
    down: '↓',
    pageup: 'PgUp',
    pagedown: 'PgDn',
    home: 'Home',
    end: 'End',
    escape: 'Esc',
    return: 'Enter',
    tab: 'Tab',
    'shift-tab': 'S-Tab',
    ' ': 'Space',
  };
  return labels[name] ?? name;
}

const SCOPE_TITLES: Record<Scope, string> = {
  global: 'anywhere',
  table: 'in a table',
  health: 'Health pane',
  indices: 'Indices pane',
  shards: 'Shards pane',
  disk: 'Disk pane',
  nodes: 'Nodes pane',
  dialog: 'in a dialog',
};

/** The README's key table (npm run readme:keys writes it; a test checks it matches). */
export function keymapMarkdown(keymap: KeyCommand[] = KEYMAP): string {
  const rows = keymap.map(
    (k) =>
      `| ${k.keys.map((x) => '`' + keyLabel(x) + '`').join(' ')} | ${SCOPE_TITLES[k.scope]} | ${k.description}${k.dangerous ? ' (changes the cluster; absent in read-only mode)' : ''} |`,
  );
  return ['| keys | where | what |', '| --- | --- | --- |', ...rows].join('\n');
}
