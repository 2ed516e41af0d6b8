// The console's panes, in tab order, as one table: each one's title, the key scopes that work
// while it is on screen, and the resources the poller reads for it. The component that draws a
// pane is added in ui/panes/registry.ts (ui/ sits above this layer); what each resource requests
// and how it is parsed is services/reads.ts.
import type { Scope } from '../keys/keymap';
import type { ResourceName } from './console';

export interface PaneSpec {
  title: string;
  /** Most specific first; 'global' is always added after them. 'table': cursor, sort and filter keys. */
  keyScopes: readonly Scope[];
  /** What the pane draws from. The header (health) is always on screen; the status bar's read-only flag needs blocks. */
  resources: readonly ResourceName[];
  /** Read too while the cluster is not green (a list that grows with the cluster is not polled otherwise). */
  whileNotGreen?: readonly ResourceName[];
}

const SPECS = {
  // Explains a yellow/red cluster by its unassigned shards.
  health: { title: 'Health', keyScopes: ['health', 'table'], resources: ['health', 'healthReport', 'allocation', 'settings', 'blocks', 'nodes'], whileNotGreen: ['shards'] },
  // Shows the blocks beside each index.
  indices: { title: 'Indices', keyScopes: ['indices', 'table'], resources: ['health', 'indices', 'blocks'] },
  shards: { title: 'Shards', keyScopes: ['shards', 'table'], resources: ['health', 'shards'] },
  disk: { title: 'Disk', keyScopes: ['disk'], resources: ['health', 'allocation', 'settings', 'blocks', 'nodes'] },
  nodes: { title: 'Nodes', keyScopes: ['nodes', 'table'], resources: ['health', 'nodes', 'nodeSearch', 'settings'] },
} as const satisfies Record<string, PaneSpec>;

export type PaneId = keyof typeof SPECS;

export const PANE_SPECS: Record<PaneId, PaneSpec> = SPECS;

/** Tab order (the number keys 1-5). */
export const PANES = Object.keys(PANE_SPECS) as PaneId[];

/** What each pane needs polled (without the resources read only while the cluster is not green). */
export const PANE_RESOURCES = Object.fromEntries(PANES.map((p) => [p, [...PANE_SPECS[p].resources]])) as Record<PaneId, ResourceName[]>;

/** The panes whose rows have a cursor kept in the UI store (those with the table keys). */
export type TablePane = { [K in PaneId]: (typeof SPECS)[K]['keyScopes'] extends readonly [unknown, 'table'] ? K : never }[PaneId];
