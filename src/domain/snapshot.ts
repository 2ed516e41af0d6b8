// One read of the cluster as the console keeps it (data, when it arrived, the last error), and how
// fresh what a pane shows is: as old as its oldest read, as broken as any.
import { formatAgo } from './text/format';

export interface SnapshotError {
  kind: string;
  message: string;
  /** A 429's Retry-After, ms: the poller reads again no sooner (domain/retry.ts pollRetryDelayMs). */
  retryAfterMs?: number;
}

export interface Snapshot<T> {
  data?: T;
  /** Epoch ms of the last successful fetch. */
  fetchedAt?: number;
  /** Set while the last attempt failed; cleared by the next success. */
  error?: SnapshotError;
  failures: number;
  /** How often the poller fetches it (some reads run every few intervals); the interval when unset. */
  periodMs?: number;
  /** A read that grows with the cluster: how long it takes the node (smoothed), ms. */
  costMs?: number;
  /** periodMs was stretched because the read costs the node too much (a large cluster): the pane says so. */
  slowed?: boolean;
}

/**
 * The share of the node's time one read that grows with the cluster may take: the Indices pane
 * has three such reads (health, the indices, the blocks), so watching it costs the node under 1%
 * of its time (issue 18) with the big table capped below.
 */
export const NODE_SHARE = 0.0025;
/**
 * Below this many rows a read keeps its period whatever it took: a small answer that was slow says
 * the machine or the node is busy, not that the cluster is large.
 */
export const LARGE_ROWS = 1000;
/**
 * However big the cluster, a read is never further apart than this (the pane says how often it
 * comes, and the refresh key reads it at once). At 5,000 indices _cat/indices takes the node
 * ~0.5 s: read once a minute that alone was ~0.9% of its time.
 */
export const MAX_ADAPTIVE_PERIOD_MS = 120_000;

/**
 * What all of a pane's grown reads may take of the node together: the Nodes pane has four (health,
 * the disks, the node statistics, worked out over every shard of the node, and the desired
 * balance), the Health pane two; beside them the pane's small reads (the node list, the health
 * report, pending tasks...) stay under 0.1%, so a pane costs the node under 0.5% (issue 45: at
 * 0.75% the Nodes pane measured 0.56% at 5,000 indices).
 */
export const PANE_SHARE = 0.004;

/** The share of one grown read when `grown` of them are on screen: NODE_SHARE, less when more than three split PANE_SHARE. */
export function readShare(grown: number): number {
  return Math.min(NODE_SHARE, PANE_SHARE / Math.max(1, grown));
}

/**
 * How often to read what grows with the cluster: its base period, or, when one read takes the node
 * longer than its share of that (NODE_SHARE, or readShare of the pane's grown reads), as far apart
 * as keeps it at that share (whole intervals, capped).
 */
export function adaptivePeriodMs(baseMs: number, intervalMs: number, costMs: number | undefined, rows: number, share = NODE_SHARE): number {
  if (!costMs || rows < LARGE_ROWS || costMs / share <= baseMs) return baseMs;
  return Math.min(MAX_ADAPTIVE_PERIOD_MS, Math.max(baseMs, Math.ceil(costMs / share / intervalMs) * intervalMs));
}

/** Smooths the cost of a read (one slow answer does not slow the polling for long). */
export function smoothCost(prev: number | undefined, ms: number): number {
  return prev === undefined ? ms : Math.round(prev * 0.6 + ms * 0.4);
}

/**
 * A snapshot is stale when its last attempt failed or it is older than three of its polling
 * periods. `shownSince`: when the pane came on screen; a read not polled while its pane was hidden
 * is old by then, but it is stale only if no answer came in three periods since (no red flash on
 * every pane switch).
 */
export function isStale(snap: Snapshot<unknown>, now: number, intervalMs: number, shownSince = 0): boolean {
  if (snap.error) return true;
  return snap.fetchedAt !== undefined && now - Math.max(snap.fetchedAt, shownSince) > (snap.periodMs ?? intervalMs) * 3;
}

export interface Freshness {
  /** Age of the oldest data shown, or undefined before the first answer. */
  ageMs?: number;
  /** Some data is older than its own polling period (a poll is late). */
  late: boolean;
  stale: boolean;
  error?: string;
  failures: number;
  loading: boolean;
}

/** Sums up the snapshots a pane draws from: it is as old as its oldest, as broken as any. */
export function freshness(snaps: readonly Snapshot<unknown>[], now: number, intervalMs: number, shownSince = 0): Freshness {
  const times = snaps.map((s) => s.fetchedAt);
  const broken = snaps.find((s) => s.error);
  const missing = times.some((t) => t === undefined);
  return {
    ageMs: missing ? undefined : now - Math.min(...(times as number[])),
    late: snaps.some((s) => s.fetchedAt !== undefined && now - s.fetchedAt >= (s.periodMs ?? intervalMs)),
    stale: snaps.some((s) => isStale(s, now, intervalMs, shownSince)),
    error: broken?.error?.message,
    failures: Math.max(0, ...snaps.map((s) => s.failures)),
    loading: missing && !broken,
  };
}

/** Data from the latest poll is "just now"; the seconds count only once a poll is late or failing. */
export function ageText(f: Freshness): string {
  const age =
    f.ageMs === undefined ? (f.loading ? 'loading…' : 'no data yet') : !f.late && !f.stale && !f.failures ? 'just now' : formatAgo(f.ageMs);
  return `${f.stale ? 'STALE ' : ''}${age}`;
}
