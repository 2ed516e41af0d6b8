// The console's panes, typed: domain/panes.ts declares each one once (title, number key, key
// scopes, reads); here its scope and read names are checked against keys/keymap.ts and
// cluster/resources.ts (a misspelt one fails the typecheck) and what the poller needs is derived.
// The component that draws a pane is added in ui/panes/registry.ts (ui/ sits above this layer).
import type { Scope } from '../keys/keymap';
import { requestsOf, resourcesOfPane, type ResourceName } from '../cluster/resources';
import { PANES, PANE_DECLARATIONS, type PaneDeclaration, type PaneId, type PaneTable } from '../domain/panes';

export { PANES, type PaneId };

export interface PaneSpec extends PaneDeclaration {
  /** Most specific first; 'global' is always added after them. 'list': cursor keys; 'table': sort and filter. */
  keyScopes: readonly Scope[];
  reads: readonly ResourceName[];
  /** Read too while the cluster is not green (a list that grows with the cluster is not polled otherwise). */
  whileNotGreen?: readonly ResourceName[];
  /** Read too while shards initialize or relocate (health's counts). */
  whileRecovering?: readonly ResourceName[];
}

export const PANE_SPECS: Record<PaneId, PaneSpec> = PANE_DECLARATIONS;

/** What each pane needs polled, in the order of cluster/resources.ts (without the reads made only while the cluster is not green). */
export const PANE_RESOURCES = Object.fromEntries(PANES.map((p) => [p, resourcesOfPane(p)])) as Record<PaneId, ResourceName[]>;

/** The panes whose rows have a cursor kept in the UI store (those with the table keys). */
export type TablePane = {
  [K in PaneId]: PaneTable[K]['keyScopes'] extends readonly [unknown, 'table', ...unknown[]] ? K : never;
}[PaneId];

/** The GETs behind a polled resource (method, path, query string; its second read too), for the panes' curl lines. */
export function readRequestsOf(name: ResourceName): { method: 'GET'; path: string; querystring: Record<string, string> }[] {
  return requestsOf(name).map((q) => ({ method: 'GET' as const, path: q.path, querystring: { ...q.querystring } }));
}
