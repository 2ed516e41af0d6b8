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
import type { HealthDiagnosis, NodeDisk } from '../domain/types';
import type { IndexDetail } from '../domain/inspect/index-detail';
import type { TimelineEntry } from '../domain/timeline';
import type { ApprovalMessage } from '../domain/share';
import type { DiskSample } from '../domain/doctor/forecast';
import { addSamples, nodeSamples, type NodeSample } from '../domain/nodes/node-history';
import type { NodeFigures } from '../domain/nodes/node-stats';
import type { DoctorReport } from '../domain/doctor/report';
import type { NodeWatch } from '../domain/nodes/node-watch';
import type { ProfileBadge } from '../domain/console/profile-badge';

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
  /** The profile's label and colour (domain/console/profile-badge.ts), shown in the header of every pane. */
  badge?: ProfileBadge;
}

/** Platform sign-in as the header shows it (see platform/). Never holds a token. */
export interface PlatformView {
  state: 'signed-out' | 'signing-in' | 'signed-in' | 'refreshing' | 'error';
  user?: string;
  tenant?: string;
  message?: string;
}

/** A peer of a shared console, as the leader shows it. */
export interface SharePeer {
  id: number;
  user: string;
  pid?: number;
  /** How the peer was identified: its socket's owner (uid via /proc) or the join token. */
  via: 'uid' | 'token';
}

/** What a change waiting for a follower's approval shows (four eyes); no credentials. */
export type ApprovalView = ApprovalMessage;

/** Sharing (leader) or following (follower) this console; see services/share-server.ts and follow-client.ts. */
export interface ShareView {
  role: 'leader' | 'follower';
  /** Leader: the socket followers join. Follower: the socket it follows. */
  socket?: string;
  /** Leader: where a follower whose uid cannot be read gives the one-time join token. */
  joinHint?: string;
  /** Leader: the one-time join token (shown on the leader's screen only; never sent on the socket). */
  token?: string;
  followers: SharePeer[];
  /** Leader: the last connections refused (a stranger), newest last. */
  refused: string[];
  /** Follower: the leader (user@host pid). */
  leader?: string;
  /** Follower: the leader is gone; the data on screen is the last it sent. */
  leaderGone?: boolean;
  /** Follower: follows the leader's pane and selection (f toggles). */
  following?: boolean;
  /** Four eyes: leader waits for an approval; follower is asked for one. */
  approval?: ApprovalView;
  requireApproval?: boolean;
  /** One line for the status bar (a lock held by another process, an approval refused...). */
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
  /** The index detail open over the Indices pane (store/index-detail.ts; read by services/index-detail.ts). */
  indexDetail?: IndexDetail;
  /** The incident timeline of this cluster, oldest first (services/timeline.ts; a follower gets the leader's). */
  timeline?: TimelineEntry[];
  share?: ShareView;
  /** A passing notice for the status bar (a change waiting for another process's to finish). */
  notice?: string;
  /** Copies of shard folders kept on this host (services/red-copy.ts), named on the status bar while they exist. */
  copiesKept?: string[];
  /** The doctor's last report (run when its pane opens and on its key; not polled: it reads files and explains). */
  doctor?: { report?: DoctorReport; fetchedAt?: number; inFlight: boolean; error?: string };
  /** Disk per node as the console saw it change, for the doctor's forecast (bounded, oldest dropped). */
  diskSamples?: Record<string, DiskSample[]>;
  /** Each node's samples while the Nodes pane was shown (domain/nodes/node-history.ts; at most MAX_NODE_SAMPLES each). */
  nodeHistory?: Record<string, NodeSample[]>;
  /** Nodes seen in this session and those that left (domain/nodes/node-watch.ts), updated by the poller. */
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

/**
 * Resolves once `name` has been read (data or an error), or after `capMs` whatever came. The
 * console waits so for the cluster's health before its first frame: drawn empty while the answer
 * is on its way, that frame keeps the answer waiting, and the frame with the health in it comes a
 * full render later (~100 ms in one start of four, issue 45).
 */
export function snapshotRead(store: ConsoleStore, name: ResourceName, capMs: number): Promise<void> {
  const read = () => {
    const s = store.getState().snapshots[name];
    return s.data !== undefined || s.error !== undefined;
  };
  if (read()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, capMs);
    const unsubscribe = store.subscribe(() => {
      if (read()) done();
    });
  });
}

/** Samples kept per node: at a 5 s poll, a changed disk every poll keeps about 3 hours. */
export const MAX_DISK_SAMPLES = 2000;

/** Adds what _cat/allocation said now to each node's disk samples (the forecast's series). */
export function recordDiskSamples(store: ConsoleStore, disks: readonly NodeDisk[], at: number): void {
  store.setState((s) => {
    const next: Record<string, DiskSample[]> = { ...(s.diskSamples ?? {}) };
    for (const d of disks) {
      const prev = next[d.node] ?? [];
      next[d.node] = [
        ...prev.slice(Math.max(0, prev.length - MAX_DISK_SAMPLES + 1)),
        { t: at, availBytes: d.availBytes, totalBytes: d.totalBytes },
      ];
    }
    return { diskSamples: next };
  });
}

/** Adds a sample per node from a statistics answer (the history's series). */
export function recordNodeSamples(store: ConsoleStore, figures: NodeFigures, at: number): void {
  store.setState((s) => ({ nodeHistory: addSamples(s.nodeHistory, nodeSamples(figures.pressure, figures.stats, at)) }));
}
