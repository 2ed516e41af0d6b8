// Every saved profile's cluster in one table (shardeck fleet, the console's Fleet view): one row per
// profile from its status report, worst first, and the fleet's exit code (the worst status, like
// `status`). Pure: services/fleet.ts reads the clusters.
import { displayText } from '../text/display-text';
import { formatAgo, type Tone } from '../text/format';
import type { Column } from '../text/table';
import { statusExitCode, type StatusReport, type UnreachableReport } from './status';
import { compareText } from '../text/order';
import { badgeText, type ProfileBadge } from '../console/profile-badge';

export type FleetStatus = 'green' | 'yellow' | 'red' | 'unreachable' | 'pending';
export type DiskWorst = 'ok' | 'low' | 'high' | 'flood' | null;

export interface FleetRow {
  profile: string;
  /** Without credentials (domain/urls.ts urlForMessage). */
  url: string;
  status: FleetStatus;
  cluster: string | null;
  nodes: number | null;
  unassigned: number | null;
  /** The worst disk level of any data node against the watermarks. */
  disk: DiskWorst;
  readOnlyIndices: number | null;
  /** Epoch ms of the answer the row shows (undefined before the first). */
  fetchedAt?: number;
  /** How long the cluster took to answer, ms. */
  tookMs?: number;
  /** Why the row has no data (unreachable, timeout, a password not available...): one sentence. */
  error?: string;
  /** The profile's label and colour: production stands out in the fleet too. */
  badge?: ProfileBadge;
}

/** The profile as the fleet names it: its label first, when it has one ("[PROD] eu-1"). */
export function fleetProfileText(r: FleetRow): string {
  return r.badge ? `${badgeText(r.badge)} ${r.profile}` : r.profile;
}

const DISK_ORDER: Record<string, number> = { flood: 3, high: 2, low: 1, ok: 0 };

export function worstDisk(levels: readonly ('ok' | 'low' | 'high' | 'flood')[]): DiskWorst {
  if (!levels.length) return null;
  return levels.reduce((w, l) => (DISK_ORDER[l] > DISK_ORDER[w] ? l : w), 'ok' as 'ok' | 'low' | 'high' | 'flood');
}

/** A row from one cluster's status report (or from why it could not be read). */
export function fleetRow(
  profile: string,
  url: string,
  report: StatusReport | UnreachableReport,
  fetchedAt: number,
  tookMs: number,
): FleetRow {
  if (!report.reachable) {
    return {
      profile,
      url,
      status: 'unreachable',
      cluster: null,
      nodes: null,
      unassigned: null,
      disk: null,
      readOnlyIndices: null,
      fetchedAt,
      tookMs,
      error: report.error.message,
    };
  }
  return {
    profile,
    url,
    status: report.status,
    cluster: report.cluster.name,
    nodes: report.cluster.nodes,
    unassigned: report.shards.unassigned,
    disk: worstDisk(report.disk.nodes.map((n) => n.level)),
    readOnlyIndices: report.readOnlyIndices.length,
    fetchedAt,
    tookMs,
  };
}

/**
 * A row for a profile that could not be tried (bad URL, missing password: tookMs 0) or gave no
 * report (its deadline passed, a read failed: tookMs is how long it was waited for): exit 3 like unreachable.
 */
export function fleetProblemRow(profile: string, url: string, message: string, at: number, tookMs = 0): FleetRow {
  return fleetRow(profile, url, { schema: 1, reachable: false, status: 'unknown', error: { kind: 'config', message } }, at, tookMs);
}

export function pendingRow(profile: string, url: string): FleetRow {
  return { profile, url, status: 'pending', cluster: null, nodes: null, unassigned: null, disk: null, readOnlyIndices: null };
}

const SEVERITY: Record<FleetStatus, number> = { unreachable: 4, red: 3, yellow: 2, pending: 1, green: 0 };

/** Worst first: unreachable, red, yellow, (not answered yet), green; then more unassigned, worse disk, more read-only, name. */
export function sortFleet(rows: readonly FleetRow[]): FleetRow[] {
  return [...rows].sort(
    (a, b) =>
      SEVERITY[b.status] - SEVERITY[a.status] ||
      (b.unassigned ?? 0) - (a.unassigned ?? 0) ||
      DISK_ORDER[b.disk ?? 'ok'] - DISK_ORDER[a.disk ?? 'ok'] ||
      (b.readOnlyIndices ?? 0) - (a.readOnlyIndices ?? 0) ||
      compareText(a.profile, b.profile),
  );
}

/** The worst status's exit code (0 green, 1 yellow, 2 red, 3 unreachable), like `status`; 0 for no profiles. */
export function fleetExitCode(rows: readonly FleetRow[]): number {
  let worst = 0;
  for (const r of rows) {
    const code =
      r.status === 'unreachable' || r.status === 'pending'
        ? 3
        : statusExitCode({
            reachable: true,
            status: r.status,
            allocationLimits: [],
            shutdownRecords: [],
            critical: [],
          } as unknown as StatusReport);
    worst = Math.max(worst, code);
  }
  return worst;
}

export function fleetTone(r: FleetRow): Tone {
  return r.status === 'green' ? 'green' : r.status === 'yellow' ? 'yellow' : r.status === 'pending' ? 'gray' : 'red';
}

const diskTone = (r: FleetRow): Tone | undefined =>
  r.disk === null ? 'gray' : r.disk === 'ok' ? 'green' : r.disk === 'low' ? 'yellow' : 'red';
/** What a row's status reads as: a cluster that has not answered yet is "waiting" (then unreachable at its deadline). */
export function fleetStatusText(r: FleetRow): string {
  return r.status === 'pending' ? 'waiting' : r.status;
}

const num = (n: number | null) => (n === null ? '-' : String(n));

/** The table's columns; `now` for the age of each row's data. */
export function fleetColumns(now: number): Column<FleetRow>[] {
  return [
    { title: 'profile', width: null, text: fleetProfileText, tone: (r) => r.badge?.colour },
    { title: 'status', width: 11, text: fleetStatusText, tone: fleetTone },
    { title: 'nodes', width: 5, align: 'right', text: (r) => num(r.nodes) },
    { title: 'unassign', width: 8, align: 'right', text: (r) => num(r.unassigned), tone: (r) => (r.unassigned ? 'yellow' : undefined) },
    { title: 'disk', width: 5, text: (r) => r.disk ?? '-', tone: diskTone },
    {
      title: 'ro idx',
      width: 6,
      align: 'right',
      text: (r) => num(r.readOnlyIndices),
      tone: (r) => (r.readOnlyIndices ? 'red' : undefined),
    },
    { title: 'age', width: 9, align: 'right', text: (r) => (r.fetchedAt === undefined ? '-' : formatAgo(now - r.fetchedAt)) },
  ];
}

/** The line under the table for the selected row: its URL and, when it failed, why. */
export function fleetDetail(r: FleetRow): string {
  return `${displayText(fleetProfileText(r))}: ${displayText(r.url)}${r.cluster ? ` · cluster ${displayText(r.cluster)}` : ''}${r.error ? ` · ${displayText(r.error)}` : ''}`;
}

/** One line per row for `shardeck fleet` (text); `tone` colours the status word (never a profile or cluster that reads like one). */
export function fleetTextLine(r: FleetRow, now: number, tone: (status: string) => string = (s) => s): string {
  const age = r.fetchedAt === undefined ? '' : ` (${formatAgo(now - r.fetchedAt)}, ${r.tookMs} ms)`;
  const profile = displayText(fleetProfileText(r)).padEnd(16);
  const word = fleetStatusText(r).toUpperCase();
  const status = tone(word) + ' '.repeat(Math.max(0, 11 - word.length));
  if (r.status === 'unreachable' || r.status === 'pending')
    return `${profile} ${status} ${displayText(r.url)}: ${displayText(r.error ?? 'no answer yet')}`;
  return (
    `${profile} ${status} ${displayText(r.cluster ?? '')} nodes ${num(r.nodes)}, unassigned ${num(r.unassigned)}, ` +
    `disk ${r.disk ?? '-'}, read-only indices ${num(r.readOnlyIndices)}${age}`
  );
}
