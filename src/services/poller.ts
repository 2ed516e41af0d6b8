// Polls the cluster outside React. One request in flight per resource (a slow answer delays the
// next poll of that resource instead of piling up), exponential backoff on failure while the node
// does not answer (health, the probe, stays on its period and brings the others back when it
// answers again; while it answers, a failing read stays on its period too), AbortSignal
// on stop, and only the resources the visible pane needs (so watching Health/Disk costs the same
// whatever the number of indices).
import { setMaxListeners } from 'node:events';
import type { ResourceRead } from '../cluster/api';
import type { ConnError } from '../cluster/connection';
import { RESOURCES, type ResourceData, type ResourceName } from '../cluster/resources';
import type { ClusterHealth, HealthDiagnosis } from '../domain/types';
import { parseRetryAfter, pollRetryDelayMs } from '../domain/retry';
import { adaptivePeriodMs, readShare, smoothCost, type Snapshot } from '../domain/snapshot';
import { nodeListFacts, nodeNames, watchNodes } from '../domain/nodes/node-watch';
import { explanationDiagnoses } from '../domain/panes/health';
import { explainAllocation } from '../domain/wizards/allocation';
import { recordDiskSamples, recordNodeSamples, setSnapshot, touchSnapshot, type ConsoleStore } from '../store/console';
import { PANE_RESOURCES, PANE_SPECS } from '../store/panes';

/**
 * One signal for every read in flight, each adding a listener: a stalled node can hold all of them
 * at once, past Node's default of 10, whose warning would be written over the console's screen.
 */
function readsAbort(): AbortController {
  const c = new AbortController();
  setMaxListeners(64, c.signal);
  return c;
}

/** What each pane needs: the reads it names in domain/panes.ts, the one table of panes. */
export { PANE_RESOURCES };

/** How the poller reads: one resource, and (on the operator's request) one health indicator's diagnoses. */
export interface PollReads {
  resource: ResourceRead;
  healthDiagnoses: (indicator: string, signal?: AbortSignal) => Promise<Record<string, HealthDiagnosis[]>>;
  /** Before 8.7 (no health report) the diagnosis asked for is the allocation explain of the first unassigned shard. */
  allocationExplain?: () => Promise<Record<string, any> | null>;
}

/** Where the substitute's diagnosis (the allocation explain) is kept among the diagnoses. */
export const EXPLAIN_KEY = 'allocation explain';

export const MAX_BACKOFF_MS = 60_000;

/**
 * Failures that asking again will not mend: the node's version lacks the read, or the user lacks
 * the privilege. Not retried on a timer (the pane says which); the refresh key asks again.
 */
export function notRetried(kind: string | undefined): boolean {
  return kind === 'unsupported' || kind === 'forbidden' || kind === 'blocked';
}

export function backoffMs(baseMs: number, failures: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(failures, 6));
}

/** Whether health, the probe, answers now: the node is up, so a read failing beside it is that read's own trouble. */
export function probeAnswers(health: Pick<Snapshot<unknown>, 'error' | 'fetchedAt'>): boolean {
  return !health.error && health.fetchedAt !== undefined;
}

/**
 * How long a failing read waits before it is read again: its period while the probe answers (the
 * node is up: a pane's own read that failed, a proxy's 502 on one path, comes back within one
 * period of healing instead of after its backoff, at the cost of one read per period, as when it
 * answers), and health itself; its backoff while the node does not answer health either.
 */
export function failingWaitMs(probeUp: boolean, periodMs: number, intervalMs: number, failures: number): number {
  return probeUp ? periodMs : backoffMs(intervalMs, failures);
}

/** Whether the last health read says shards initialize or relocate (recoveries are running). */
function recovering(s: ReturnType<ConsoleStore['getState']>): boolean {
  const h = s.snapshots.health.data;
  return !!h && h.initializingShards + h.relocatingShards > 0;
}

export interface PollStats {
  requests: number;
  bytes: number;
  overlaps: number;
}

export class Poller {
  readonly stats: PollStats = { requests: 0, bytes: 0, overlaps: 0 };
  private timers = new Map<ResourceName, ReturnType<typeof setTimeout>>();
  /** The read of each resource out now (one at most). */
  private inFlight = new Map<ResourceName, Promise<void>>();
  private abort = readsAbort();
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    /** The facade (cluster/api.ts), or anything that reads the same way (tests with fake timers). */
    private readonly reads: PollReads,
    private readonly store: ConsoleStore,
    /** Overrides which resources are wanted (the status command wants a fixed set). */
    private readonly wanted?: ResourceName[],
  ) {}

  private needed(): Set<ResourceName> {
    const s = this.store.getState();
    const set = new Set(this.wanted ?? PANE_RESOURCES[s.pane]);
    // A list that grows with the cluster (Health's shard list) is read only while it explains a yellow/red cluster.
    const status = s.snapshots.health.data?.status;
    if (!this.wanted && status && status !== 'green') for (const r of PANE_SPECS[s.pane].whileNotGreen ?? []) set.add(r);
    // Recoveries are read only while there are some to show.
    if (!this.wanted && recovering(s)) for (const r of PANE_SPECS[s.pane].whileRecovering ?? []) set.add(r);
    return set;
  }

  /** How many of the reads on screen grow with the cluster: they share the node's time (readShare). */
  private grownCount(): number {
    return [...this.needed()].filter((n) => RESOURCES[n].grows).length;
  }

  start(): void {
    this.stopped = false;
    for (const name of this.needed()) this.schedule(name, 0);
    // The node names, once, so a node that leaves later can be named whatever pane is on screen.
    if (!this.wanted && !this.needed().has('nodes')) void this.pollOnce('nodes');
    // When the operator switches panes, start what the new pane needs at once; timers of
    // resources no longer needed simply do not reschedule.
    let pane = this.store.getState().pane;
    let paused = this.store.getState().paused;
    let interval = this.store.getState().intervalMs;
    let status = this.store.getState().snapshots.health.data?.status;
    let moving = recovering(this.store.getState());
    this.unsubscribe = this.store.subscribe((s) => {
      const nextStatus = s.snapshots.health.data?.status;
      const nextMoving = recovering(s);
      const changed =
        s.pane !== pane || (paused && !s.paused) || s.intervalMs !== interval || nextStatus !== status || nextMoving !== moving;
      moving = nextMoving;
      pane = s.pane;
      paused = s.paused;
      interval = s.intervalMs;
      status = nextStatus;
      if (changed && !s.paused) for (const name of this.needed()) if (!this.inFlight.has(name)) this.schedule(name, 0);
    });
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.abort = readsAbort();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.unsubscribe?.();
  }

  /**
   * The verbose health report (with diagnoses) of every indicator that is not green, one request
   * per indicator, on the operator's request only.
   */
  async diagnose(): Promise<void> {
    const s = this.store.getState();
    if (s.diagnoses?.inFlight) return;
    const names = (s.snapshots.healthReport.data?.indicators ?? []).filter((i) => i.status !== 'green').map((i) => i.name);
    const noReport = s.snapshots.healthReport.error?.kind === 'unsupported';
    this.store.setState({ diagnoses: { byIndicator: s.diagnoses?.byIndicator ?? {}, fetchedAt: s.diagnoses?.fetchedAt, inFlight: true } });
    try {
      const byIndicator: Record<string, HealthDiagnosis[]> = {};
      if (noReport && this.reads.allocationExplain) {
        const r = await this.reads.allocationExplain();
        this.stats.requests++;
        byIndicator[EXPLAIN_KEY] = r ? explanationDiagnoses(explainAllocation(r)) : [];
      }
      for (const name of noReport ? [] : names) {
        Object.assign(byIndicator, await this.reads.healthDiagnoses(name, this.abort.signal));
        this.stats.requests++;
      }
      this.store.setState({ diagnoses: { byIndicator, fetchedAt: Date.now(), inFlight: false } });
    } catch (e) {
      const prev = this.store.getState().diagnoses;
      this.store.setState({
        diagnoses: { byIndicator: prev?.byIndicator ?? {}, fetchedAt: prev?.fetchedAt, inFlight: false, error: (e as Error).message },
      });
    }
  }

  /**
   * Reads every needed resource with an answer sent after this call (the refresh key, and after a
   * change is sent): a read already out was sent before, and may answer with what the change
   * replaced; it is awaited, then the resource is read again (unless a newer read is out by then).
   */
  refreshNow(): Promise<void> {
    return Promise.all(
      [...this.needed()].map(async (n) => {
        const older = this.inFlight.get(n);
        if (older) await older;
        await (this.inFlight.get(n) ?? this.pollOnce(n));
        // A read left off after a refusal (notRetried) that now answers goes back on its timer.
        if (!this.stopped && !this.timers.has(n) && !this.inFlight.has(n) && !this.store.getState().snapshots[n].error) {
          const s = this.store.getState();
          this.schedule(n, periodOf(n, s.intervalMs, s.snapshots[n], s.snapshots.health.data, this.grownCount()));
        }
      }),
    ).then(() => undefined);
  }

  private schedule(name: ResourceName, delayMs: number): void {
    const old = this.timers.get(name);
    if (old) clearTimeout(old);
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        void this.tick(name);
      }, delayMs),
    );
  }

  private async tick(name: ResourceName): Promise<void> {
    if (this.stopped) return;
    const state = this.store.getState();
    if (state.paused || !this.needed().has(name)) return;
    const wasFailing = state.snapshots[name].failures > 0;
    await this.pollOnce(name);
    if (this.stopped) return;
    const s = this.store.getState();
    const snap = s.snapshots[name];
    // The node's version or the user's role lacks it: asking again on a timer cannot help.
    if (notRetried(snap.error?.kind)) return;
    // Health is the probe: one small read every period even while failing, so the reads that back
    // off come back within a period of the node's recovery instead of after their backoff.
    if (name === 'health' && !snap.error && wasFailing) this.resumeBackedOff();
    const period = periodOf(name, s.intervalMs, snap, s.snapshots.health.data, this.grownCount());
    // A 429's Retry-After is honoured (capped), never shortening the period or the backoff.
    const failingDelay = pollRetryDelayMs(
      failingWaitMs(name === 'health' || probeAnswers(s.snapshots.health), period, s.intervalMs, snap.failures),
      snap.error?.retryAfterMs,
    );
    this.schedule(name, snap.error ? failingDelay : period);
  }

  /** After the probe answers again: every needed read waiting out its backoff is read now. */
  private resumeBackedOff(): void {
    const s = this.store.getState();
    for (const n of this.needed()) {
      const error = s.snapshots[n].error;
      // A read the node asked to wait for (429, Retry-After) waits: health answering is not its queue draining.
      if (n !== 'health' && error && !notRetried(error.kind) && (error.retryAfterMs ?? 0) === 0 && !this.inFlight.has(n))
        this.schedule(n, 0);
    }
  }

  /**
   * Tracks nodes leaving (domain/nodes/node-watch.ts): health's node count on every pane, names from the
   * node list. When the count drops and no visible pane polls the node list, it is read once, so
   * the header can name who left.
   */
  private watchNodes(name: 'health' | 'nodes'): void {
    const s = this.store.getState();
    const health = s.snapshots.health.data;
    const nodes = s.snapshots.nodes;
    // The node list counts only when it is as new as health (else it would undo a drop health saw).
    const fresh = name === 'nodes' || (nodes.fetchedAt !== undefined && nodes.fetchedAt >= (s.snapshots.health.fetchedAt ?? 0));
    const names = fresh ? nodeNames(nodes.data) : undefined;
    const count = name === 'nodes' ? names?.length : health?.numberOfNodes;
    const next = watchNodes(s.nodeWatch, count, names, Date.now(), fresh ? nodeListFacts(nodes.data) : undefined);
    const before = s.nodeWatch;
    if (JSON.stringify(next) !== JSON.stringify(before)) this.store.setState({ nodeWatch: next });
    const dropped = next.left && (!before?.left || next.left.count > before.left.count);
    if (dropped && name === 'health' && !this.needed().has('nodes')) void this.pollOnce('nodes');
  }

  /** One request for one resource, unless one is already in flight. */
  async pollOnce(name: ResourceName): Promise<void> {
    if (this.inFlight.has(name)) {
      this.stats.overlaps++;
      return;
    }
    if (this.store.getState().snapshots[name].error?.kind === 'unsupported') return;
    const read = this.readOnce(name);
    this.inFlight.set(name, read);
    try {
      await read;
    } finally {
      this.inFlight.delete(name);
    }
  }

  /** One read of `name` into the store; never rejects (a failure is the snapshot's error). */
  private async readOnce(name: ResourceName): Promise<void> {
    try {
      const prev = this.store.getState().snapshots[name];
      const t0 = performance.now();
      const { data, bytes } = await this.reads.resource(name, this.abort.signal, prev.data as never);
      const took = performance.now() - t0;
      this.stats.requests++;
      this.stats.bytes += bytes;
      if (!prev.error && prev.fetchedAt !== undefined && sameData(prev.data, data)) {
        touchSnapshot(this.store, name, Date.now());
        // An unchanged answer still says what the read costs: the period follows it (the first
        // read of a cold node must not set it for good); the pane is told only when it changes.
        if (RESOURCES[name].grows) this.recost(name, took);
      } else {
        setSnapshot(this.store, name, {
          data: data as never,
          fetchedAt: Date.now(),
          error: undefined,
          failures: 0,
          ...this.timing(name, prev.costMs, took, data),
        });
        // The doctor's disk forecast: a sample each time the disks changed (an unchanged disk adds nothing to the line).
        if (name === 'allocation') recordDiskSamples(this.store, data as ResourceData<'allocation'>, Date.now());
        // The Nodes pane's history: a sample per node each time its statistics read answers.
        if (name === 'nodeStats') recordNodeSamples(this.store, data as ResourceData<'nodeStats'>, Date.now());
      }
      if (name === 'health' || name === 'nodes') this.watchNodes(name);
    } catch (e) {
      const err = e as ConnError;
      this.stats.requests++;
      if (err.kind !== 'aborted') {
        // A read the node's version lacks sent nothing: it is not counted as a request.
        if (err.kind === 'unsupported') this.stats.requests--;
        const failures = this.store.getState().snapshots[name].failures + 1;
        const retryAfterMs = err.kind === 'busy' ? (parseRetryAfter(err.retryAfter, Date.now()) ?? undefined) : undefined;
        setSnapshot(this.store, name, { error: { kind: err.kind ?? 'unknown', message: err.message, retryAfterMs }, failures });
      }
    }
  }

  /** A grown read's cost after an unchanged answer: kept silently, unless its period moves. */
  private recost(name: ResourceName, took: number): void {
    const snap = this.store.getState().snapshots[name] as Snapshot<unknown>;
    const t = this.timing(name, snap.costMs, took, snap.data);
    if (t.periodMs === snap.periodMs) snap.costMs = t.costMs;
    else setSnapshot(this.store, name, t);
  }

  /** A read's smoothed cost (what grows with the cluster only), the period it gives, and whether that is stretched. */
  private timing(
    name: ResourceName,
    prevCostMs: number | undefined,
    took: number,
    data: unknown,
  ): Pick<Snapshot<unknown>, 'costMs' | 'periodMs' | 'slowed'> {
    const s = this.store.getState();
    const costMs = RESOURCES[name].grows ? smoothCost(prevCostMs, took) : undefined;
    const periodMs = periodOf(name, s.intervalMs, { costMs, data }, s.snapshots.health.data, this.grownCount());
    return { costMs, periodMs, slowed: periodMs > s.intervalMs * RESOURCES[name].every };
  }
}

/** How often a resource is read: some only every few intervals (its `every` in cluster/resources.ts). */
function periodOf(
  name: ResourceName,
  intervalMs: number,
  snap?: Pick<Snapshot<unknown>, 'costMs' | 'data'>,
  health?: ClusterHealth,
  grown = 1,
): number {
  // Not read yet (its first answer failed or is late): asked again at the next poll, whatever its
  // period, so a pane never waits several intervals for its first figures.
  if (snap !== undefined && snap.data === undefined) return intervalMs;
  const base = intervalMs * RESOURCES[name].every;
  // What grows with the cluster is read as far apart as keeps its cost to the node small (domain/snapshot.ts).
  // The cluster's size: the rows of this table, or its shards (blocks answers few rows but walks every index).
  const shards = health ? health.activeShards + health.unassignedShards : 0;
  const rows = Math.max(Array.isArray(snap?.data) ? snap.data.length : 0, shards);
  return RESOURCES[name].grows ? adaptivePeriodMs(base, intervalMs, snap?.costMs, rows, readShare(grown)) : base;
}

/**
 * Whether a poll brought the same data. The big tables' parsers keep the rows a poll repeats
 * (domain/parse.ts), so an unchanged table of any size is the same rows by identity; the small
 * reads the idle panes make are compared as JSON; a big table with a changed row counts as
 * changed, as comparing it as JSON would cost more than a render.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i])) return true;
  if (Array.isArray(b) && b.length > 2000) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
