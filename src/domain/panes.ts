// The console's panes, in the order the header shows them (and the number keys pick them).
// Number keys are pre-assigned (keys/keymap.ts): 6 Templates, 7 Doctor, 8 Timeline.
export const PANES = ['health', 'indices', 'shards', 'disk', 'nodes', 'templates', 'doctor', 'timeline'] as const;
export type PaneId = (typeof PANES)[number];
