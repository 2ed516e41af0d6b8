// The console's panes as one table: each one's title, the key scopes that work while it is on
// screen, and what is read only while the cluster is not green. Tab order is domain/panes.ts;
// which resources each pane needs comes from the resources themselves (cluster/resources.ts lists
// the panes of each); the component that draws a pane is added in ui/panes/registry.ts (ui/ sits
// above this layer).
import type { Scope } from '../keys/keymap';
import { RESOURCES, resourcesOfPane, type ResourceName } from '../cluster/resources';
import { PANES, type PaneId } from '../domain/panes';

export { PANES, type PaneId };

export interface PaneSpec {
  title: string;
  /** Most specific first; 'global' is always added after them. 'list': cursor keys; 'table': sort and filter. */
  keyScopes: readonly Scope[];
  /** Read too while the cluster is not green (a list that grows with the cluster is not polled otherwise). */
  whileNotGreen?: readonly ResourceName[];
}

const SPECS = {
  // Explains a yellow/red cluster by its unassigned shards.
  health: { title: 'Health', keyScopes: ['health', 'list'], whileNotGreen: ['shards'] },
  indices: { title: 'Indices', keyScopes: ['indices', 'table', 'list'] },
  shards: { title: 'Shards', keyScopes: ['shards', 'table', 'list'] },
  disk: { title: 'Disk', keyScopes: ['disk'] },
  nodes: { title: 'Nodes', keyScopes: ['nodes', 'table', 'list'] },
  templates: { title: 'Templates', keyScopes: ['templates', 'table', 'list'] },
  // Its entries are not polled: the timeline service appends them (health transitions name the problem shards).
  timeline: { title: 'Timeline', keyScopes: ['list'], whileNotGreen: ['shards'] },
  // The doctor's findings; its checks run when the pane opens and on its own key, not in the poll.
  doctor: { title: 'Doctor', keyScopes: ['doctor', 'table', 'list'] },
} as const satisfies Record<PaneId, PaneSpec>;

export const PANE_SPECS: Record<PaneId, PaneSpec> = SPECS;

/** What each pane needs polled (without the resources read only while the cluster is not green). */
export const PANE_RESOURCES = Object.fromEntries(PANES.map((p) => [p, resourcesOfPane(p)])) as Record<PaneId, ResourceName[]>;

/** The panes whose rows have a cursor kept in the UI store (those with the table keys). */
export type TablePane = {
  [K in PaneId]: (typeof SPECS)[K]['keyScopes'] extends readonly [unknown, 'table', ...unknown[]] ? K : never;
}[PaneId];

/** The GET behind a polled resource (method, path, query string), for the panes' curl lines. */
export function readRequestOf(name: ResourceName): { method: 'GET'; path: string; querystring: Record<string, string> } {
  const r = RESOURCES[name].request;
  return { method: 'GET', path: r.path, querystring: { ...r.querystring } };
}
