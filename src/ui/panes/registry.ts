// Every pane of the console: the table of domain/panes.ts (title, key scopes, the reads polled
// for it; typed in store/panes.ts) joined with the component that draws it. App.tsx draws the current pane from here.
import type { ComponentType } from 'react';
import { PANES, PANE_SPECS, type PaneId, type PaneSpec } from '../../store/panes';
import { DiskPane } from './DiskPane';
import { DoctorPane } from './DoctorPane';
import { HealthPane } from './HealthPane';
import { IndicesPane } from './IndicesPane';
import { NodesPane } from './NodesPane';
import { ShardsPane } from './ShardsPane';
import { SnapshotsPane } from './SnapshotsPane';
import { TasksPane } from './TasksPane';
import { TemplatesPane } from './TemplatesPane';
import { TimelinePane } from './TimelinePane';

export interface PaneEntry extends PaneSpec {
  id: PaneId;
  component: ComponentType<{ width: number; height: number }>;
}

const COMPONENTS: Record<PaneId, PaneEntry['component']> = {
  health: HealthPane,
  indices: IndicesPane,
  shards: ShardsPane,
  disk: DiskPane,
  nodes: NodesPane,
  templates: TemplatesPane,
  timeline: TimelinePane,
  doctor: DoctorPane,
  snapshots: SnapshotsPane,
  tasks: TasksPane,
};

export const PANE_REGISTRY = Object.fromEntries(PANES.map((id) => [id, { id, ...PANE_SPECS[id], component: COMPONENTS[id] }])) as Record<
  PaneId,
  PaneEntry
>;
