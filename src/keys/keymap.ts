// The keymap as data: one row per command. The help overlay, the footer hints, the man page and the
// key tables of the README and docs/KEYS.md are generated from it; tests press keys by command id; read-only mode removes every
// `dangerous` command here, in one place. The panes' number keys and scope titles come from domain/panes.ts.
import { PANES, PANE_DECLARATIONS, paneScopeTitle, type PaneDeclaration, type PaneId } from '../domain/panes';

/** Where a key works. A pane's own keys are in the scope named after it (domain/panes.ts: its `keyScopes`). */
export type Scope = PaneId | OtherScope;

type OtherScope =
  | 'global'
  /** Moving through any list: a table, the Health indicators, the Timeline, a view. */
  | 'list'
  /** A table pane's filter and order. */
  | 'table'
  /** The index detail (Enter on an Indices row). */
  | 'detail'
  /** The Fleet view (F): every saved profile's cluster. */
  | 'fleet'
  /** Every wizard: confirm, decline, forms and typed lines. */
  | 'dialog'
  /** One wizard's own keys, besides the dialog keys. */
  | 'delete'
  | 'unblock'
  | 'allocation'
  | 'recovery'
  | 'restore'
  /** The Documents view of an index (opened with v on an Indices row). */
  | 'documents'
  /** A JSON document open in the viewer. */
  | 'json'
  | 'engine'
  /** The columns chooser of a table pane (V). */
  | 'columns'
  /** A read command's text, run from the command line (`:cat allocation`). */
  | 'output';

export interface KeyCommand<Id extends string = CommandId> {
  id: Id;
  /** Key names as Ink reports them (ui/input/keys.ts keyName): a character, or 'up' 'down' 'left' 'right' 'pageup' 'pagedown' 'home' 'end' 'tab' 'shift-tab' 'escape' 'return' 'backspace'. */
  keys: readonly string[];
  description: string;
  scope: Scope;
  /** Changes the cluster: hidden and refused in read-only mode. */
  dangerous?: boolean;
  /** Shown in the footer hints of the wider scopes (a pane's own keys are always offered there). */
  hint?: boolean;
  /** The footer's word for it when the id's last word is long or unclear. */
  short?: string;
}

/** Each pane's number key, as domain/panes.ts declares it with the pane (in tab order). */
function paneKeys(): KeyCommand<`pane.${PaneId}`>[] {
  return PANES.map((p) => {
    const pane: PaneDeclaration = PANE_DECLARATIONS[p];
    return { id: `pane.${p}`, keys: [pane.key], description: pane.keyDescription ?? paneScopeTitle(p), scope: 'global' };
  });
}

// `as const`: the ids become the CommandId type, so a command id misspelt in the wizard registry,
// a `case` or a key check fails the typecheck.
const COMMANDS = [
  { id: 'quit', keys: ['q'], description: 'quit', scope: 'global', hint: true },
  { id: 'help', keys: ['?'], description: 'show / hide this help', scope: 'global', hint: true },
  ...paneKeys(),
  { id: 'pane.next', keys: ['tab'], description: 'next pane', scope: 'global', hint: true },
  { id: 'pane.prev', keys: ['shift-tab'], description: 'previous pane', scope: 'global' },
  { id: 'poll.pause', keys: ['p'], description: 'pause / resume polling', scope: 'global', hint: true },
  { id: 'poll.refresh', keys: ['r'], description: 'refresh now', scope: 'global' },
  { id: 'share.toggle', keys: ['s'], description: 'share this console (a socket) / stop', scope: 'global', short: 'share' },
  { id: 'follow.toggle', keys: ['f'], description: 'follower: follow the leader / look around', scope: 'global', short: 'follow' },
  { id: 'timeline.note', keys: ['n'], description: 'add a note to the incident timeline', scope: 'global' },
  { id: 'fleet.show', keys: ['F'], description: "Fleet: every saved profile's cluster, worst first", scope: 'global', short: 'fleet' },
  {
    id: 'command.line',
    keys: [':'],
    description: 'command line: panes, commands (cat nodes), xray INDEX (Tab)',
    scope: 'global',
  },
  { id: 'copy', keys: ['y'], description: 'copy the highlighted name to your clipboard (OSC 52, SSH too)', scope: 'global' },
  { id: 'screen.dump', keys: ['w'], description: 'write the screen to a plain-text file (for a ticket)', scope: 'global', short: 'dump' },
  { id: 'fleet.connect', keys: ['return'], description: "open the selected cluster's console", scope: 'fleet', hint: true },
  { id: 'row.up', keys: ['up', 'k'], description: 'move up', scope: 'list' },
  { id: 'row.down', keys: ['down', 'j'], description: 'move down', scope: 'list' },
  { id: 'row.pageUp', keys: ['pageup'], description: 'page up', scope: 'list' },
  { id: 'row.pageDown', keys: ['pagedown', ' '], description: 'page down', scope: 'list' },
  { id: 'row.first', keys: ['home', 'g'], description: 'first row', scope: 'list' },
  { id: 'row.last', keys: ['end', 'G'], description: 'last row', scope: 'list' },
  { id: 'table.filter', keys: ['/'], description: 'filter rows', scope: 'table', hint: true },
  // o/O (order): s is share.
  { id: 'table.sort', keys: ['o'], description: 'order by the next column', scope: 'table' },
  { id: 'table.sortReverse', keys: ['O'], description: 'reverse the order', scope: 'table' },
  { id: 'table.columns', keys: ['V'], description: "choose the table's columns and their order (kept per profile)", scope: 'table' },
  { id: 'indices.toggleSystem', keys: ['.'], description: 'show / hide system (dot) indices', scope: 'indices', short: 'dots' },
  {
    id: 'indices.detail',
    keys: ['return'],
    description: 'index detail: stats, settings, mappings, shards, template',
    scope: 'indices',
    hint: true,
  },
  { id: 'detail.back', keys: ['escape'], description: 'back to the Indices pane', scope: 'detail', hint: true },
  {
    id: 'detail.nextSection',
    keys: ['tab', 'right'],
    description: 'next section (stats, settings, mappings, shards, template)',
    scope: 'detail',
    hint: true,
    short: 'section',
  },
  { id: 'detail.prevSection', keys: ['shift-tab', 'left'], description: 'previous section', scope: 'detail', short: 'prev' },
  { id: 'detail.search', keys: ['/'], description: 'search the settings or the mapping fields', scope: 'detail', hint: true },
  { id: 'detail.fold', keys: ['return'], description: 'fold / unfold the object field under the cursor (mappings)', scope: 'detail' },
  {
    id: 'detail.foldAll',
    keys: ['z'],
    description: 'fold every object field, or unfold them all (mappings)',
    scope: 'detail',
    short: 'fold all',
  },
  { id: 'detail.curl', keys: ['c'], description: "show / hide the section's request as a curl line", scope: 'detail', hint: true },
  {
    id: 'detail.copy',
    keys: ['y'],
    description: "copy the highlighted setting's value or field's path",
    scope: 'detail',
    short: 'copy',
  },
  { id: 'detail.documents', keys: ['v'], description: 'documents of this index', scope: 'detail', short: 'docs' },
  { id: 'health.diagnose', keys: ['d'], description: 'diagnose indicators not green (verbose report)', scope: 'health' },
  {
    id: 'wizard.allocationRestore',
    keys: ['A'],
    description: 'put back allocation settings shardeck left changed',
    scope: 'health',
    dangerous: true,
    short: 'allocation',
  },
  // Reads the cluster back and writes the audit log (nothing is resent); a wizard, so not in read-only mode (shardeck audit --read-back is).
  {
    id: 'wizard.unfinished',
    keys: ['U'],
    description: 'read back changes a killed shardeck left unanswered',
    scope: 'health',
    dangerous: true,
  },
  {
    id: 'indices.xray',
    keys: ['x'],
    description: 'x-ray: templates, aliases, shards, snapshots, tasks, changes',
    scope: 'indices',
    short: 'xray',
  },
  {
    id: 'indices.documents',
    keys: ['v'],
    description: 'documents: look up by id, search, open as JSON',
    scope: 'indices',
    hint: true,
    short: 'docs',
  },
  { id: 'doctor.run', keys: ['c'], description: 'run the checks again', scope: 'doctor', short: 'check' },
  // Not `dangerous` itself: it opens the finding's own wizard only while that wizard's key is in the
  // keymap, so read-only mode (which removes those keys) leaves it nothing to open.
  { id: 'doctor.apply', keys: ['return'], description: 'open the wizard that fixes the selected finding', scope: 'doctor' },
  {
    id: 'shards.toggleProblems',
    keys: ['u'],
    description: 'only problem shards (unassigned, initializing, relocating)',
    scope: 'shards',
    short: 'problems',
  },
  {
    id: 'wizard.replicas',
    keys: ['R'],
    description: 'set replicas of the selected index (and its template)',
    scope: 'indices',
    dangerous: true,
  },
  {
    id: 'wizard.deleteByQuery',
    keys: ['D'],
    description: 'delete documents by query (count and samples first)',
    scope: 'indices',
    dangerous: true,
    short: 'delete',
  },
  {
    id: 'wizard.shrink',
    keys: ['S'],
    description: 'fewer shards for the selected index, under the same name',
    scope: 'indices',
    dangerous: true,
    short: 'shrink',
  },
  {
    id: 'wizard.forcemerge',
    keys: ['M'],
    description: 'force merge: free the disk deleted documents take',
    scope: 'indices',
    dangerous: true,
    short: 'merge',
  },
  // Marks (issue 43): Space takes the Indices pane's row before the list's page down.
  {
    id: 'indices.mark',
    keys: [' '],
    description: 'mark / unmark the index: the change keys act on the marked',
    scope: 'indices',
    short: 'mark',
  },
  { id: 'indices.clearMarks', keys: ['escape'], description: 'clear the marks', scope: 'indices', short: 'clear marks' },
  {
    id: 'wizard.indexClose',
    keys: ['c'],
    description: 'close the marked indices (or the highlighted one), data kept',
    scope: 'indices',
    dangerous: true,
    short: 'close',
  },
  {
    id: 'wizard.indexOpen',
    keys: ['u'],
    description: 'open the marked indices (or the highlighted one) again',
    scope: 'indices',
    dangerous: true,
    short: 'open',
  },
  {
    id: 'wizard.indexDelete',
    keys: ['X'],
    description: 'delete the marked indices: their count and project names typed',
    scope: 'indices',
    dangerous: true,
    short: 'drop',
  },
  { id: 'wizard.unblock', keys: ['U'], description: 'clear the flood-stage read-only block', scope: 'disk', dangerous: true },
  {
    id: 'templates.platformJson',
    keys: ['P'],
    description: 'show / hide the platform JSON (index-templates-settings)',
    scope: 'templates',
    short: 'platform',
  },
  { id: 'templates.curl', keys: ['c'], description: 'show / hide the requests as curl lines', scope: 'templates' },
  { id: 'nodes.curl', keys: ['c'], description: 'show / hide the requests as curl lines', scope: 'nodes' },
  {
    id: 'nodes.pressure',
    keys: ['P'],
    description: 'show / hide the pressure: pools, breakers, old-gen, history',
    scope: 'nodes',
    short: 'pressure',
  },
  {
    id: 'nodes.hotThreads',
    keys: ['H'],
    description: 'hot threads of the highlighted node',
    scope: 'nodes',
    short: 'threads',
  },
  { id: 'tasks.curl', keys: ['c'], description: 'show / hide the requests as curl lines', scope: 'tasks' },
  { id: 'tasks.detail', keys: ['return'], description: "show / hide the highlighted task's whole detail", scope: 'tasks', short: 'detail' },
  {
    id: 'wizard.taskCancel',
    keys: ['x'],
    description: 'cancel the highlighted task (a task that writes: its id typed)',
    scope: 'tasks',
    dangerous: true,
    short: 'cancel',
  },
  {
    id: 'wizard.taskRethrottle',
    keys: ['t'],
    description: 'rethrottle the highlighted by-query or reindex task',
    scope: 'tasks',
    dangerous: true,
    short: 'rethrottle',
  },
  {
    id: 'wizard.componentTemplate',
    keys: ['X'],
    description: 'disable a field: component template, added to the template',
    scope: 'templates',
    dangerous: true,
    short: 'disable',
  },
  { id: 'wizard.scroll', keys: ['L'], description: 'scroll contexts: raise the limit', scope: 'nodes', dangerous: true },
  {
    id: 'wizard.allocation',
    keys: ['e'],
    description: 'explain the selected shard; retry failed allocations',
    scope: 'shards',
    dangerous: true,
    short: 'explain',
  },
  {
    id: 'wizard.recoverCorrupt',
    keys: ['C'],
    description: 'corrupt primary: lossless options, then the repair checklist',
    scope: 'shards',
    dangerous: true,
    short: 'recover',
  },
  {
    id: 'wizard.moveShard',
    keys: ['m'],
    description: 'move the highlighted copy to a node explain accepts (dry run)',
    scope: 'shards',
    dangerous: true,
    short: 'move',
  },
  {
    id: 'wizard.restartNode',
    keys: ['R'],
    description: "rolling restart of this host's node (allocation kept safe)",
    scope: 'nodes',
    dangerous: true,
    short: 'restart',
  },
  {
    id: 'wizard.drain',
    keys: ['D'],
    description: 'drain the selected node: its shards move off (again: undo)',
    scope: 'nodes',
    dangerous: true,
    short: 'drain',
  },
  {
    id: 'wizard.engine',
    keys: ['E'],
    description: "this host's engine: service start / stop / restart, plugins",
    scope: 'nodes',
    dangerous: true,
  },
  {
    id: 'wizard.restore',
    keys: ['R'],
    description: 'restore the selected snapshot (beside, or in place)',
    scope: 'snapshots',
    dangerous: true,
  },
  {
    id: 'wizard.snapshot',
    keys: ['S'],
    description: 'take a snapshot, followed to its end',
    scope: 'snapshots',
    dangerous: true,
  },
  // In a wizard. Not `dangerous`: no wizard opens in read-only mode, and each wizard's own
  // confirmation (a key or the typed count or name) is what sends; these only move through it.
  // A finished wizard closes on any key.
  { id: 'dialog.confirm', keys: ['y'], description: 'yes: send what the preview shows / run the step shown', scope: 'dialog' },
  { id: 'dialog.decline', keys: ['n'], description: 'no: stop before the step shown (resumable)', scope: 'dialog' },
  { id: 'dialog.submit', keys: ['return'], description: 'check the form; send a typed confirmation', scope: 'dialog' },
  { id: 'dialog.close', keys: ['escape'], description: 'close; what was not sent is cancelled', scope: 'dialog', hint: true },
  { id: 'dialog.nextField', keys: ['tab', 'down'], description: 'next field of a form', scope: 'dialog' },
  { id: 'dialog.prevField', keys: ['shift-tab', 'up'], description: 'previous field of a form', scope: 'dialog' },
  { id: 'dialog.change', keys: [' ', 'left', 'right'], description: 'change the choice of a field (a toggle or a list)', scope: 'dialog' },
  { id: 'dialog.erase', keys: ['backspace'], description: 'erase the last character; on a review, back to the form', scope: 'dialog' },
  {
    id: 'dialog.snapshotFirst',
    keys: ['s'],
    description: 'snapshot first: the indices a delete, merge or repair touches',
    scope: 'dialog',
    dangerous: true,
  },
  { id: 'dialog.curl', keys: ['c'], description: "show / hide a review's curl lines whole", scope: 'dialog' },
  { id: 'dialog.copy', keys: ['ctrl-y'], description: "copy the preview's curl line to your clipboard (OSC 52)", scope: 'dialog' },
  { id: 'dialog.dump', keys: ['ctrl-w'], description: 'write the screen to a plain-text file (for a ticket)', scope: 'dialog' },
  { id: 'delete.samplesNext', keys: ['right', 'pagedown'], description: 'next page of sample documents', scope: 'delete' },
  { id: 'delete.samplesPrev', keys: ['left', 'pageup'], description: 'previous page of sample documents', scope: 'delete' },
  { id: 'delete.conflicts', keys: ['c'], description: 'switch the conflicts policy (abort / proceed) before sending', scope: 'delete' },
  { id: 'delete.rethrottle', keys: ['t'], description: 'change the throttle of the running delete', scope: 'delete' },
  { id: 'delete.cancelTask', keys: ['x'], description: 'cancel the running delete task (what was deleted stays deleted)', scope: 'delete' },
  { id: 'delete.mergeNow', keys: ['m'], description: 'after a delete: force merge the same target to free the disk', scope: 'delete' },
  { id: 'unblock.recheck', keys: ['r'], description: 're-read the blocks and the disks', scope: 'unblock' },
  { id: 'allocation.retry', keys: ['R'], description: 'retry failed allocations (the request is shown first)', scope: 'allocation' },
  {
    id: 'recovery.restore',
    keys: ['f'],
    description: 'restore the corrupt index from its newest snapshot',
    scope: 'recovery',
    dangerous: true,
  },
  {
    id: 'recovery.compare',
    keys: ['k'],
    description: 'copy the shard, count what a repair loses (node runs on)',
    scope: 'recovery',
    dangerous: true,
  },
  { id: 'recovery.checkIndex', keys: ['c'], description: 'offline repair with CheckIndex (loses the broken segments)', scope: 'recovery' },
  { id: 'recovery.shardTool', keys: ['t'], description: 'offline repair with elasticsearch-shard', scope: 'recovery' },
  { id: 'recovery.resume', keys: ['r'], description: 'resume the checklist under way', scope: 'recovery' },
  {
    id: 'restore.cancel',
    keys: ['x'],
    description: 'cancel a running restore (deletes the restoring indices)',
    scope: 'restore',
    dangerous: true,
  },
  { id: 'documents.find', keys: ['f'], description: 'new lookup or search: id, age, until, source, JSON, file', scope: 'documents' },
  {
    id: 'documents.kind',
    keys: ['tab', 'shift-tab'],
    description: 'while typing: next / previous kind of lookup or search',
    scope: 'documents',
  },
  { id: 'documents.open', keys: ['return'], description: 'send what is typed; on a hit: open it as JSON', scope: 'documents' },
  { id: 'documents.curl', keys: ['c'], description: 'show / hide the request as the equivalent curl line', scope: 'documents' },
  { id: 'documents.back', keys: ['escape'], description: 'back: JSON -> hits -> the query line -> close', scope: 'documents' },
  { id: 'columns.toggle', keys: [' '], description: 'show / hide the column under the cursor', scope: 'columns' },
  { id: 'columns.earlier', keys: ['<'], description: 'move the column one place left', scope: 'columns' },
  { id: 'columns.later', keys: ['>'], description: 'move the column one place right', scope: 'columns' },
  { id: 'output.search', keys: ['/'], description: 'search the text (Enter: the next line holding it)', scope: 'output' },
  { id: 'output.next', keys: ['n'], description: 'the next line holding the search', scope: 'output' },
  { id: 'output.copyLine', keys: ['y'], description: 'copy the highlighted line to your clipboard', scope: 'output' },
  { id: 'output.copyAll', keys: ['Y'], description: 'copy the whole text to your clipboard', scope: 'output' },
  { id: 'json.toggle', keys: ['return'], description: 'fold / unfold the object or array under the cursor', scope: 'json' },
  { id: 'json.fold', keys: ['left'], description: 'fold the object or array the cursor is in', scope: 'json' },
  { id: 'json.unfold', keys: ['right'], description: 'unfold the object or array under the cursor', scope: 'json' },
  { id: 'json.foldAll', keys: ['z'], description: 'fold everything below the top (an outline)', scope: 'json' },
  { id: 'json.unfoldAll', keys: ['Z'], description: 'unfold everything', scope: 'json' },
  { id: 'json.copy', keys: ['y'], description: 'copy the value under the cursor (its path on the footer)', scope: 'json', short: 'copy' },
  { id: 'engine.restart', keys: ['r'], description: 'restart the engine (name typed); offered after a plugin change', scope: 'engine' },
  { id: 'engine.stop', keys: ['x'], description: "stop the engine (type the node's name)", scope: 'engine' },
  { id: 'engine.start', keys: ['s'], description: 'start the engine', scope: 'engine' },
  { id: 'engine.install', keys: ['i'], description: 'install a plugin (a zip on this host, a name or an https URL)', scope: 'engine' },
  { id: 'engine.remove', keys: ['d'], description: 'remove a plugin', scope: 'engine' },
] as const satisfies readonly KeyCommand<string>[];

export type CommandId = (typeof COMMANDS)[number]['id'];

/** Mutable: a test adds a row of its own (and removes it). */
export const KEYMAP: KeyCommand[] = [...COMMANDS];

/** The keymap with dangerous commands removed when read-only. */
export function activeKeymap(readOnly: boolean, keymap: readonly KeyCommand[] = KEYMAP): KeyCommand[] {
  return readOnly ? keymap.filter((k) => !k.dangerous) : [...keymap];
}

/** Takes any string (tests build ids such as `pane.${scope}`); an unknown id throws. */
export function keysOf(id: string, keymap: readonly KeyCommand[] = KEYMAP): readonly string[] {
  const cmd = keymap.find((k) => k.id === id);
  if (!cmd) throw new Error(`unknown key command ${id}`);
  return cmd.keys;
}

/** How a key is written in hints and help: arrows and names made short. */
export function keyLabel(name: string): string {
  const labels: Record<string, string> = {
    up: '↑',
    down: '↓',
    left: '←',
    right: '→',
    pageup: 'PgUp',
    pagedown: 'PgDn',
    home: 'Home',
    end: 'End',
    escape: 'Esc',
    return: 'Enter',
    tab: 'Tab',
    'shift-tab': 'S-Tab',
    backspace: 'Backspace',
    ' ': 'Space',
  };
  return labels[name] ?? name;
}

interface ScopeTitles {
  /** The heading of its keys in the help overlay (ui/components/HelpOverlay.tsx). */
  help: string;
  /** The "where" column of the key tables in docs/KEYS.md and the README. */
  where: string;
}

const OTHER_TITLES: Record<OtherScope, ScopeTitles> = {
  global: { help: 'Everywhere', where: 'anywhere' },
  list: { help: 'Lists (tables, the Timeline, views)', where: 'in a list (a table, the Timeline, a view)' },
  table: { help: 'Table panes', where: 'in a table' },
  detail: { help: 'Index detail (Enter on an index)', where: 'index detail' },
  fleet: { help: 'Fleet view (F; Esc or F back)', where: 'Fleet view' },
  dialog: { help: 'In a wizard (any key closes a finished one)', where: 'in a wizard' },
  delete: { help: 'Delete wizard', where: 'delete wizard' },
  unblock: { help: 'Unblock wizard', where: 'unblock wizard' },
  allocation: { help: 'Allocation wizard', where: 'allocation wizard' },
  recovery: { help: 'Recovery wizard', where: 'recovery wizard' },
  restore: { help: 'Restore wizard', where: 'restore wizard' },
  documents: { help: 'Documents view (v on an index)', where: 'Documents view' },
  json: { help: 'JSON viewer (a hit or document opened)', where: 'JSON viewer' },
  engine: { help: 'Engine wizard', where: 'engine wizard' },
  columns: { help: 'Columns chooser (V on a table)', where: 'columns chooser' },
  output: { help: "A command's text (:cat allocation)", where: "a command's text" },
};

/** Every scope's titles, in the order help lists them: the shared scopes, each pane's in tab order, then the views' and wizards'. */
export const SCOPE_TITLES: Record<Scope, ScopeTitles> = (() => {
  const { global, list, table, ...others } = OTHER_TITLES;
  const panes = Object.fromEntries(PANES.map((p) => [p, { help: paneScopeTitle(p), where: paneScopeTitle(p) }]));
  return { global, list, table, ...panes, ...others } as Record<Scope, ScopeTitles>;
})();

/** The key table of docs/KEYS.md (npm run docs writes it; test/unit/docs.test.ts checks it matches). */
export function keymapMarkdown(keymap: readonly KeyCommand[] = KEYMAP): string {
  const rows = keymap.map(
    (k) =>
      `| ${k.keys.map((x) => '`' + keyLabel(x) + '`').join(' ')} | ${SCOPE_TITLES[k.scope].where} | ${k.description}${k.dangerous ? ' (changes the cluster; absent in read-only mode)' : ''} |`,
  );
  return ['| keys | where | what |', '| --- | --- | --- |', ...rows].join('\n');
}
