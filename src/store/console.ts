// The console's state, shared beyond the screen: what the poller last saw of the cluster (each
// read with its age and last error), which pane is open (the poller reads only what it needs), the
// connection, the platform sign-in and its projects. A zustand vanilla store, so the poller and the
// services (no React) write it and the panes read it through narrow selectors. What only the
// screen needs (cursors, filters, the open dialog) is in ui/state.ts; the panes are in ./panes.ts.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { RESOURCE_NAMES, type ResourceData, type ResourceName } from '../cluster/resources';
import { DEFAULT_TEMPLATE_VERSION } from '../domain/naming';
import type { Snapshot } from '../domain/snapshot';
import type { PaneId } from '../domain/panes';
import type { HealthDiagnosis } from '../domain/types';
import type { NodeWatch } from '../domain/node-watch';

export type { ResourceName };
export { PANES, type PaneId } from '../domain/panes';

export type { Snapshot, SnapshotError } from '../domain/snapshot';

/** One snapshot per resource of cluster/resources.ts, holding what its parser returns. */
export type Snapshots = { [K in ResourceName]: Snapshot<ResourceData<K>> };

export interface ConnectionInfo {
  url: string;
  profile: string;
  user?: string;
  insecure: boolean;
  readOnly: boolean;
}

/** Platform sign-in as the header shows it (see platform/). Never holds a token. */
export interface PlatformView {
  state: 'signed-out' | 'signing-in' | 'signed-in' | 'refreshing' | 'error';
  user?: string;
  tenant?: string;
  message?: string;
}

export interface ConsoleState {
  connection: ConnectionInfo;
  snapshots: Snapshots;
  intervalMs: number;
  paused: boolean;
  pane: PaneId;
  platform: PlatformView;
  /** Platform projects by lowercase project id (index name suffix), when signed in. */
  projects?: Record<string, string>;
  /** Template version in project index names, service_<templateVersion>_<project> (profile; v9 by default). */
  templateVersion: string;
  /**
   * Diagnoses of the indicators that were not green, fetched on the operator's request with
   * verbose=true (the poll itself uses verbose=false: the analysis is expensive).
   */
  diagnoses?: { byIndicator: Record<string, HealthDiagnosis[]>; fetchedAt?: number; inFlight: boolean; error?: string };
  /** Nodes seen in this session and those that left (domain/node-watch.ts), updated by the poller. */
  nodeWatch?: NodeWatch;
}

export function emptySnapshot<T>(): Snapshot<T> {
  return { failures: 0 };
}

export function emptySnapshots(): Snapshots {
  return Object.fromEntries(RESOURCE_NAMES.map((name) => [name, emptySnapshot()])) as Snapshots;
}

export type ConsoleStore = StoreApi<ConsoleState>;

export function createConsoleStore(init: Partial<ConsoleState> & { connection: ConnectionInfo }): ConsoleStore {
  return createStore<ConsoleState>()(() => ({
    snapshots: emptySnapshots(),
    intervalMs: 5000,
    paused: false,
    pane: 'health',
    platform: { state: 'signed-out' },
    templateVersion: DEFAULT_TEMPLATE_VERSION,
    ...init,
  }));
}

/** Replaces one snapshot (immutably, so selectors on other resources do not re-render). */
export function setSnapshot<K extends ResourceName>(store: ConsoleStore, name: K, patch: Partial<Snapshots[K]>): void {
  store.setState((s) => ({ snapshots: { ...s.snapshots, [name]: { ...s.snapshots[name], ...patch } } }));
}

/**
 * A poll that brought the same data as before: only its time moves on. That time is written into
 * the snapshot without notifying subscribers, so an idle console commits no React update and Ink
 * redraws nothing; the one thing it changes on screen, the pane's age text, is recomputed from the
 * snapshot every second by the pane frame (useNow), which then sees the new time.
 */
export function touchSnapshot(store: ConsoleStore, name: ResourceName, fetchedAt: number): void {
  (store.getState().snapshots[name] as Snapshot<unknown>).fetchedAt = fetchedAt;
}
