// The console's panes, declared once: this table is the tab order (and the number keys), and each
// entry is everything the layers above derive from it: keys/keymap.ts the `pane.<id>` number key
// and the pane's key scope with its titles, cluster/resources.ts and the poller what it reads,
// store/panes.ts the typed specs, ui/state.ts a table pane's cursor. Only the component is added
// above (ui/panes/registry.ts). Names of reads and scopes are plain strings here (domain/ sits
// below keys/ and cluster/); store/panes.ts types them, so a misspelt one fails the typecheck.
const PANE_TABLE = {
  // Explains a yellow/red cluster by its unassigned shards.
  health: {
    title: 'Health',
    key: '1',
    keyScopes: ['health', 'list'],
    reads: ['health', 'healthReport', 'allocation', 'settings', 'blocks', 'nodes', 'pendingTasks'],
    whileNotGreen: ['shards'],
  },
  indices: { title: 'Indices', key: '2', keyScopes: ['indices', 'table', 'list'], reads: ['health', 'indices', 'blocks'] },
  // Its recovery section: the active recoveries, read only while the health says shards initialize or relocate.
  shards: {
    title: 'Shards',
    key: '3',
    keyScopes: ['shards', 'table', 'list'],
    reads: ['health', 'shards'],
    whileRecovering: ['recoveries'],
  },
  disk: { title: 'Disk', key: '4', keyScopes: ['disk'], reads: ['health', 'allocation', 'settings', 'blocks', 'nodes'] },
  nodes: {
    title: 'Nodes',
    key: '5',
    keyScopes: ['nodes', 'table', 'list'],
    reads: ['health', 'settings', 'nodes', 'nodeStats', 'nodeJvm', 'desiredBalance', 'nodeShutdown', 'allocation'],
  },
  templates: {
    title: 'Templates',
    key: '6',
    keyScopes: ['templates', 'table', 'list'],
    reads: ['health', 'indexTemplates', 'componentTemplates'],
  },
  // The doctor's findings; its checks run when the pane opens and on its own key, not in the poll
  // (the disks are, for its forecast's samples).
  doctor: {
    title: 'Doctor',
    key: '7',
    keyDescription: 'Doctor pane: the runbook checked on the node',
    keyScopes: ['doctor', 'table', 'list'],
    reads: ['health', 'allocation'],
  },
  // Its entries are not polled: the timeline service appends them (health transitions name the problem shards).
  timeline: { title: 'Timeline', key: '8', keyScopes: ['list'], reads: ['health'], whileNotGreen: ['shards'] },
  // Repositories, snapshots newest first, what runs now; which snapshots hold the index highlighted in Indices.
  snapshots: {
    title: 'Snapshots',
    key: '9',
    keyScopes: ['snapshots', 'table', 'list'],
    reads: ['health', 'snapshotRepositories', 'snapshots', 'runningSnapshots', 'restores'],
  },
  tasks: { title: 'Tasks', key: '0', keyScopes: ['tasks', 'table', 'list'], reads: ['health', 'tasks', 'nodes'] },
} as const satisfies Record<string, PaneDeclaration>;

export interface PaneDeclaration {
  title: string;
  /** Its number key (`pane.<id>` in the keymap): pre-assigned, so branches adding panes do not collide. */
  key: string;
  /** The number key's line in help and the README, when more than "<title> pane". */
  keyDescription?: string;
  /**
   * The key scopes that work while it is on screen, most specific first; 'global' is always added
   * after them. The pane's own id: it has keys of its own (keymap rows of that scope, titled
   * "<title> pane"); 'list': cursor keys; 'table': sort and filter (and a cursor kept in ui/state.ts).
   */
  keyScopes: readonly string[];
  /**
   * The polled reads (resources of cluster/resources.ts) it draws from. The header's health is
   * on every pane's screen, and the status bar's read-only flag needs the blocks.
   */
  reads: readonly string[];
  /** Read too while the cluster is not green (a list that grows with the cluster is not polled otherwise). */
  whileNotGreen?: readonly string[];
  /** Read too while shards initialize or relocate (health's counts): nothing to show otherwise. */
  whileRecovering?: readonly string[];
}

export type PaneId = keyof typeof PANE_TABLE;
/** The table with each entry's literal names kept (store/panes.ts checks them against the scopes and reads). */
export type PaneTable = typeof PANE_TABLE;
export const PANE_DECLARATIONS: PaneTable = PANE_TABLE;

/** The panes in the order the header shows them (Tab goes through them in this order). */
export const PANES = Object.keys(PANE_TABLE) as PaneId[];

/** The key scope named after a pane: its own keys, titled "<title> pane" in help and the README. */
export function paneScopeTitle(pane: PaneId): string {
  return `${PANE_TABLE[pane].title} pane`;
}

/**
 * The row under the cursor of each pane, for wizards (see ui/wizards/registry.ts); a follower's
 * proposal names one of these rows (ProposedSelection of domain/share.ts). Undefined when the
 * pane has no rows or was not opened yet.
 */
export interface Selection {
  indices?: { index: string };
  shards?: { index: string; shard: number; primary: boolean; node: string | null };
  nodes?: { node: string };
  templates?: { template: string; kind: 'index' | 'component' };
  health?: { indicator: string };
  snapshots?: { repository: string; snapshot: string };
  tasks?: { task: string };
}
