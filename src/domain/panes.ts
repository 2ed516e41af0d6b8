// The console's panes, in the order the header shows them (and the number keys pick them).
// Number keys are pre-assigned (keys/keymap.ts): 6 Templates, 7 Doctor, 8 Timeline.
export const PANES = ['health', 'indices', 'shards', 'disk', 'nodes', 'templates', 'doctor', 'timeline'] as const;
export type PaneId = (typeof PANES)[number];

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
}
