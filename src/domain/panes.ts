// The console's panes, in the order the header shows them (and the number keys pick them).
export const PANES = ['health', 'indices', 'shards', 'disk', 'nodes', 'templates', 'timeline'] as const;
export type PaneId = (typeof PANES)[number];
