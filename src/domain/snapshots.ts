// Snapshots and their repositories as the operator reads them: the parsers of the snapshot APIs
// (requested by cluster/snapshots.ts), the path.repo check of an fs location, and the pure line
// builders the `snapshots` command (and the Snapshots pane) draw. Tested against answers recorded
// from a real 8.19 node (test/fixtures/snapshots/).
import { formatBytes, formatCount, formatPercent, type Tone } from './text/format';
import { formatMillis } from './panes/nodes';
import { compareText } from './text/order';
import { fitText } from './text/table';
import { displayWidth, middleEllipsis } from './text/text';

type Json = Record<string, any>;

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const int = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' ? Number(v) || 0 : 0;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});

export interface SnapshotRepository {
  name: string;
  type: string;
  /** An fs repository's folder (as registered: relative ones resolve under path.repo). */
  location?: string;
  /** Other settings, flattened to text (url, bucket, compress...). */
  settings: Record<string, string>;
}

/** GET _snapshot?filter_path=*.type,*.settings: every registered repository, by name. */
export function parseRepositories(body: unknown): SnapshotRepository[] {
  return Object.entries(obj(body))
    .map(([name, r]) => {
      const settings = Object.fromEntries(Object.entries(obj(obj(r).settings)).map(([k, v]) => [k, str(v)]));
      const { location, ...rest } = settings;
      return { name, type: str(obj(r).type), ...(location ? { location } : {}), settings: rest };
    })
    .sort((a, b) => compareText(a.name, b.name));
}

export interface SnapshotFailure {
  index: string;
  shard: number;
  reason: string;
  status: string;
  node?: string;
}

/** SUCCESS, PARTIAL, FAILED, IN_PROGRESS or INCOMPATIBLE, as the node says it. */
export type SnapshotState = string;

export interface SnapshotInfo {
  repository: string;
  name: string;
  uuid: string;
  state: SnapshotState;
  indices: string[];
  dataStreams: string[];
  includeGlobalState: boolean;
  shards: { total: number; ok: number; failed: number };
  startMs?: number;
  endMs?: number;
  durationMs?: number;
  failures: SnapshotFailure[];
  version?: string;
  /** Per index, when asked with index_details: its shards and its size in the snapshot. */
  indexDetails?: Record<string, { shards: number; bytes: number }>;
}

/** One entry of `snapshots` (GET _snapshot/<repo>/_all, verbose) or of a create's answer (`snapshot`). */
export function parseSnapshotInfo(s: Json, repository: string): SnapshotInfo {
  const shards = obj(s.shards);
  const startMs = int(s.start_time_in_millis) || undefined;
  const endMs = int(s.end_time_in_millis) || undefined;
  return {
    repository: str(s.repository) || repository,
    name: str(s.snapshot),
    uuid: str(s.uuid),
    state: str(s.state) || 'UNKNOWN',
    // Elasticsearch lists them in no fixed order: sorted, so lines and messages are stable.
    indices: Array.isArray(s.indices) ? s.indices.map(str).sort() : [],
    dataStreams: Array.isArray(s.data_streams) ? s.data_streams.map(str) : [],
    includeGlobalState: s.include_global_state === true,
    shards: { total: int(shards.total), ok: int(shards.successful), failed: int(shards.failed) },
    ...(startMs ? { startMs } : {}),
    ...(endMs ? { endMs } : {}),
    ...(s.duration_in_millis !== undefined ? { durationMs: int(s.duration_in_millis) } : {}),
    failures: (Array.isArray(s.failures) ? s.failures : []).map((f: Json) => ({
      index: str(f.index),
      shard: int(f.shard_id),
      reason: str(f.reason),
      status: str(f.status),
      ...(f.node_id ? { node: str(f.node_id) } : {}),
    })),
    ...(s.version ? { version: str(s.version) } : {}),
    ...(s.index_details && typeof s.index_details === 'object'
      ? {
          indexDetails: Object.fromEntries(
            Object.entries(obj(s.index_details)).map(([k, v]) => [
              k,
              { shards: int(obj(v).shard_count), bytes: int(obj(v).size_in_bytes) },
            ]),
          ),
        }
      : {}),
  };
}

/** GET _snapshot/<repo>/_all: the repository's snapshots, newest first (whatever order they came in). */
export function parseSnapshots(body: unknown, repository: string): SnapshotInfo[] {
  const list = obj(body).snapshots;
  return (Array.isArray(list) ? list : []).map((s: Json) => parseSnapshotInfo(obj(s), repository)).sort(newestFirst);
}

function newestFirst(a: SnapshotInfo, b: SnapshotInfo): number {
  return (b.startMs ?? 0) - (a.startMs ?? 0) || compareText(b.name, a.name);
}

/**
 * The snapshots that hold a whole copy of `index`: finished (SUCCESS, or PARTIAL without a failure of
 * that index), newest first. A PARTIAL snapshot still lists an index whose shards failed.
 */
export function holdingIndex(snapshots: readonly SnapshotInfo[], index: string): SnapshotInfo[] {
  return snapshots
    .filter((s) => (s.state === 'SUCCESS' || s.state === 'PARTIAL') && s.indices.includes(index))
    .filter((s) => !s.failures.some((f) => f.index === index))
    .sort(newestFirst);
}

export interface ShardCounts {
  initializing: number;
  started: number;
  finalizing: number;
  done: number;
  failed: number;
  total: number;
}

export interface SnapshotProgress {
  repository: string;
  name: string;
  state: string;
  shards: ShardCounts;
  /** Bytes this snapshot had to copy (the incremental part) and copied so far. */
  incrementalBytes: number;
  processedBytes: number;
  /** Size of every file the snapshot references (shared ones included). */
  totalBytes: number;
  files: { incremental: number; processed: number; total: number };
  startMs?: number;
  timeMs: number;
  /** Per index: shards done of total. */
  indices: { index: string; done: number; failed: number; total: number }[];
}

const counts = (v: unknown): ShardCounts => {
  const c = obj(v);
  return {
    initializing: int(c.initializing),
    started: int(c.started),
    finalizing: int(c.finalizing),
    done: int(c.done),
    failed: int(c.failed),
    total: int(c.total),
  };
};

/** GET _snapshot/<repo>/<snap>/_status: its size and, while it runs, how far it got. */
export function parseSnapshotStatus(body: unknown): SnapshotProgress[] {
  const list = obj(body).snapshots;
  return (Array.isArray(list) ? list : []).map((raw: Json) => {
    const s = obj(raw);
    const stats = obj(s.stats);
    const inc = obj(stats.incremental);
    const total = obj(stats.total);
    // "processed" is there only while it runs; a finished snapshot processed all of its increment.
    const processed = stats.processed ? obj(stats.processed) : inc;
    const startMs = int(stats.start_time_in_millis) || undefined;
    return {
      repository: str(s.repository),
      name: str(s.snapshot),
      state: str(s.state),
      shards: counts(s.shards_stats),
      incrementalBytes: int(inc.size_in_bytes),
      processedBytes: int(processed.size_in_bytes),
      totalBytes: int(total.size_in_bytes),
      files: { incremental: int(inc.file_count), processed: int(processed.file_count), total: int(total.file_count) },
      ...(startMs ? { startMs } : {}),
      timeMs: int(stats.time_in_millis),
      indices: Object.entries(obj(s.indices))
        .map(([index, v]) => {
          const c = counts(obj(v).shards_stats);
          return { index, done: c.done, failed: c.failed, total: c.total };
        })
        .sort((a, b) => compareText(a.index, b.index)),
    };
  });
}

export interface ShardRecovery {
  index: string;
  shard: number;
  primary: boolean;
  /** SNAPSHOT for a restore; PEER, EXISTING_STORE, EMPTY_STORE otherwise. */
  type: string;
  stage: string;
  bytesTotal: number;
  bytesRecovered: number;
  filesTotal: number;
  filesRecovered: number;
  timeMs: number;
  source?: { repository: string; snapshot: string; index: string };
  /** The node a peer recovery copies from, and the node it recovers on. */
  sourceNode?: string;
  targetNode?: string;
}

/** GET _recovery (active_only=true while following a restore): every shard's recovery. */
export function parseRecovery(body: unknown): ShardRecovery[] {
  const out: ShardRecovery[] = [];
  for (const [index, v] of Object.entries(obj(body))) {
    const shards = obj(v).shards;
    for (const raw of Array.isArray(shards) ? shards : []) {
      const r = obj(raw);
      const size = obj(obj(r.index).size);
      const files = obj(obj(r.index).files);
      const src = obj(r.source);
      out.push({
        index,
        shard: int(r.id),
        primary: r.primary === true,
        type: str(r.type),
        stage: str(r.stage),
        bytesTotal: int(size.total_in_bytes),
        bytesRecovered: int(size.recovered_in_bytes) + int(size.reused_in_bytes),
        filesTotal: int(files.total),
        filesRecovered: int(files.recovered) + int(files.reused),
        timeMs: int(r.total_time_in_millis),
        ...(src.snapshot ? { source: { repository: str(src.repository), snapshot: str(src.snapshot), index: str(src.index) } } : {}),
        ...(src.name ? { sourceNode: str(src.name) } : {}),
        ...(obj(r.target).name ? { targetNode: str(obj(r.target).name) } : {}),
      });
    }
  }
  return out.sort((a, b) => compareText(a.index, b.index) || a.shard - b.shard);
}

/** The restores among the recoveries (type SNAPSHOT), of these indices when given. */
export function restoreRecoveries(all: readonly ShardRecovery[], indices?: readonly string[]): ShardRecovery[] {
  return all.filter((r) => r.type === 'SNAPSHOT' && (!indices || indices.includes(r.index)));
}

export interface SlmPolicy {
  id: string;
  name: string;
  schedule: string;
  repository: string;
  lastSuccessMs?: number;
  lastFailure?: { timeMs: number; reason: string };
  nextMs?: number;
}

/** SLM on this node: its policies, or why there are none to show (the node has no SLM). */
export type SlmState = { available: true; policies: SlmPolicy[] } | { available: false; reason: string };

/** GET _slm/policy. */
export function parseSlmPolicies(body: unknown): SlmState {
  const policies = Object.entries(obj(body)).map(([id, raw]) => {
    const p = obj(raw);
    const policy = obj(p.policy);
    const success = obj(p.last_success);
    const failure = obj(p.last_failure);
    return {
      id,
      name: str(policy.name) || id,
      schedule: str(policy.schedule),
      repository: str(policy.repository),
      ...(success.time ? { lastSuccessMs: int(success.time) } : {}),
      ...(failure.time ? { lastFailure: { timeMs: int(failure.time), reason: str(failure.details) } } : {}),
      ...(p.next_execution_millis ? { nextMs: int(p.next_execution_millis) } : {}),
    };
  });
  return { available: true, policies: policies.sort((a, b) => compareText(a.id, b.id)) };
}

/**
 * A node without SLM (a distribution without the x-pack ilm module, as the test zip) answers GET
 * _slm/policy with 405 "Incorrect HTTP method" (only an unrelated POST route matches) or 400/404:
 * that is "this node has no SLM", not a failure of the read.
 */
export function slmMissing(status: number | undefined): boolean {
  return status === 400 || status === 404 || status === 405 || status === 410;
}

/** GET _nodes/settings?filter_path=nodes.*.name,nodes.*.settings.path.repo: each node's path.repo. */
export function parseNodesPathRepo(body: unknown): { node: string; paths: string[] }[] {
  return Object.entries(obj(obj(body).nodes))
    .map(([id, raw]) => {
      const n = obj(raw);
      const repo = obj(obj(n.settings).path).repo;
      const paths = Array.isArray(repo) ? repo.map(str) : typeof repo === 'string' ? repo.split(',').map((s) => s.trim()) : [];
      return { node: str(n.name) || id, paths: paths.filter(Boolean) };
    })
    .sort((a, b) => compareText(a.node, b.node));
}

/** POSIX normalisation without node:path (domain is pure): "a/./b/../c" -> "a/c"; null when ".." climbs above the root. */
function normalize(p: string): string | null {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return '/' + parts.join('/');
}

/**
 * Where an fs location lands on a node, as Elasticsearch resolves it: a relative location under a
 * path.repo entry, an absolute one as it is; accepted only inside one of the node's path.repo
 * entries. Null when it is not.
 */
export function resolveLocation(location: string, pathRepo: readonly string[]): string | null {
  for (const root of pathRepo) {
    const base = normalize(root);
    if (!base) continue;
    const p = normalize(location.startsWith('/') ? location : `${base}/${location}`);
    if (p && (p === base || p.startsWith(base === '/' ? '/' : `${base}/`))) return p;
  }
  return null;
}

/**
 * Checks an fs repository's location against every node's path.repo before anything is sent:
 * undefined when each node accepts it, else the sentence that says why not (naming path.repo).
 */
export function checkLocation(location: string, nodes: readonly { node: string; paths: string[] }[]): string | undefined {
  if (!location.trim()) return 'give the folder of the repository: --location PATH';
  if (/[\0\n\r]/.test(location)) return 'the location holds a control character';
  if (!nodes.length) return 'no node answered with its settings: cannot check the location against path.repo';
  const without = nodes.filter((n) => !n.paths.length);
  if (without.length)
    return `${without.map((n) => n.node).join(', ')} ${without.length === 1 ? 'has' : 'have'} no path.repo: an fs repository needs path.repo in elasticsearch.yml on every node (read at start: restart the node after adding it)`;
  const refusing = nodes.filter((n) => !resolveLocation(location, n.paths));
  if (refusing.length)
    return `${location} is not under path.repo (${refusing.map((n) => `${n.node}: ${n.paths.join(', ')}`).join('; ')}): give a folder under it, or add one to path.repo in elasticsearch.yml on every node and restart them`;
  return undefined;
}

// --- Lines (text of the command, rows of the pane). Raw values: the caller escapes them (displayText). ---

export interface Line {
  text: string;
  tone?: Tone;
}

export function stateTone(state: string): Tone {
  return state === 'SUCCESS'
    ? 'green'
    : state === 'IN_PROGRESS'
      ? 'yellow'
      : state === 'PARTIAL'
        ? 'yellow'
        : state === 'FAILED'
          ? 'red'
          : 'gray';
}

export function repositoryLine(r: SnapshotRepository): string {
  const where = r.location ?? r.settings.url ?? r.settings.bucket ?? r.settings.container ?? '';
  return `${r.name} (${r.type}${where ? ` ${where}` : ''})`;
}

/** 2026-11-26 01:00:51 UTC (what the operator compares with the node's log). */
export function formatTime(ms: number | undefined): string {
  return ms
    ? new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : '-';
}

/**
 * One snapshot in a line: name, state, indices, shards ok/failed, size (when read), start and
 * duration; `sizeBytes` from its _status (read only for the one shown or running).
 */
export function snapshotLine(s: SnapshotInfo, sizeBytes?: number): Line {
  const failed = s.shards.failed ? `, ${formatCount(s.shards.failed)} failed` : '';
  const duration = s.state === 'IN_PROGRESS' ? 'running' : s.durationMs !== undefined ? formatMillis(s.durationMs) : '-';
  return {
    text:
      `${s.name}  ${s.state}  ${formatCount(s.indices.length)} ${s.indices.length === 1 ? 'index' : 'indices'}  ` +
      `shards ${formatCount(s.shards.ok)}/${formatCount(s.shards.total)} ok${failed}` +
      `${sizeBytes === undefined ? '' : `  ${formatBytes(sizeBytes)}`}  ${formatTime(s.startMs)}  ${duration}`,
    tone: stateTone(s.state),
  };
}

/** Why shards failed, one line each: "logs-b[0]: primary shard is not allocated (INTERNAL_SERVER_ERROR)". */
export function failureLines(s: SnapshotInfo): Line[] {
  return s.failures.map((f) => ({
    text: `${f.index}[${f.shard}]: ${f.reason || 'no reason given'}${f.status ? ` (${f.status})` : ''}`,
    tone: 'red',
  }));
}

export function slmLine(slm: SlmState): Line {
  if (!slm.available) return { text: `SLM: ${slm.reason}`, tone: 'gray' };
  if (!slm.policies.length) return { text: 'SLM: no policy: snapshots are taken only by hand', tone: 'gray' };
  return {
    text: `SLM: ${slm.policies
      .map(
        (p) =>
          `${p.id} (${p.schedule} -> ${p.repository}; last ok ${formatTime(p.lastSuccessMs)}${p.lastFailure ? `; last failure ${formatTime(p.lastFailure.timeMs)}: ${p.lastFailure.reason}` : ''})`,
      )
      .join(', ')}`,
    tone: slm.policies.some((p) => p.lastFailure && (p.lastSuccessMs ?? 0) < p.lastFailure.timeMs) ? 'red' : undefined,
  };
}

/** How far a snapshot got: bytes copied of its increment (shards done when it has none). */
export function snapshotPercent(p: Pick<SnapshotProgress, 'incrementalBytes' | 'processedBytes' | 'shards'>): number {
  const pct = p.incrementalBytes
    ? (100 * p.processedBytes) / p.incrementalBytes
    : p.shards.total
      ? (100 * p.shards.done) / p.shards.total
      : 100;
  return Math.min(100, pct);
}

/** How far a restoring shard got, in bytes. */
export function recoveryPercent(r: Pick<ShardRecovery, 'bytesTotal' | 'bytesRecovered' | 'stage'>): number {
  return r.bytesTotal ? Math.min(100, (100 * r.bytesRecovered) / r.bytesTotal) : r.stage === 'DONE' ? 100 : 0;
}

/** A running (or finished) snapshot's progress: shards done, bytes copied of what it had to copy. */
export function progressLine(p: SnapshotProgress): Line {
  const pct = snapshotPercent(p);
  return {
    text:
      `${p.name} ${p.state}: shards ${formatCount(p.shards.done)}/${formatCount(p.shards.total)} done` +
      `${p.shards.failed ? `, ${formatCount(p.shards.failed)} failed` : ''}, ` +
      `${formatBytes(p.processedBytes)} of ${formatBytes(p.incrementalBytes)} copied (${formatPercent(pct)}), ${formatMillis(p.timeMs)}`,
    tone: p.shards.failed ? 'red' : p.state === 'SUCCESS' ? 'green' : 'yellow',
  };
}

/** Bytes per second and the time left, from what a shard recovered in its time so far. */
export function rateAndEta(r: Pick<ShardRecovery, 'bytesTotal' | 'bytesRecovered' | 'timeMs'>): {
  bytesPerSecond?: number;
  etaMs?: number;
} {
  if (!r.timeMs || !r.bytesRecovered) return {};
  const bytesPerSecond = (r.bytesRecovered * 1000) / r.timeMs;
  return { bytesPerSecond, etaMs: Math.max(0, ((r.bytesTotal - r.bytesRecovered) / bytesPerSecond) * 1000) };
}

/** A name cut in the middle keeps at least this many columns (shorter, it names nothing): the bytes go first. */
const MIN_NAME = 12;

/**
 * One restoring shard: "logs-a-restored[0] INDEX 8.2kb/16.4kb (50%) 8/16 files 1.2mb/s eta 3.0s".
 * With a width (the wizard beside a bar, the Snapshots pane after `prefix`), what matters least goes
 * first so the rate and the time left stay in view: the percent (the bar shows it), the files, the
 * stage, the name cut in the middle (not below MIN_NAME), the bytes; the prefix is kept whole.
 */
export function recoveryLine(r: ShardRecovery, width = Infinity, prefix = ''): Line {
  const pct = recoveryPercent(r);
  const { bytesPerSecond, etaMs } = rateAndEta(r);
  const tone = r.stage === 'DONE' ? 'green' : 'yellow';
  const shard = `[${r.shard}]`;
  const bytes = ` ${formatBytes(r.bytesRecovered)}/${formatBytes(r.bytesTotal)}`;
  const rate = r.stage !== 'DONE' && bytesPerSecond ? ` ${formatBytes(bytesPerSecond)}/s eta ${formatMillis(Math.round(etaMs ?? 0))}` : '';
  const stage = ` ${r.stage}`;
  const files = ` ${formatCount(r.filesRecovered)}/${formatCount(r.filesTotal)} files`;
  const percent = ` (${formatPercent(pct)})`;
  const room = width - displayWidth(prefix);
  const whole = [stage + bytes + percent + files, stage + bytes + files, stage + bytes, bytes].map((rest) => shard + rest + rate);
  const fits = whole.find((rest) => displayWidth(r.index) + rest.length <= room);
  if (fits) return { text: prefix + r.index + fits, tone };
  for (const rest of [shard + bytes + rate, shard + rate])
    if (room - rest.length >= MIN_NAME) return { text: prefix + middleEllipsis(r.index, room - rest.length) + rest, tone };
  return { text: fitText(prefix + r.index + shard + rate, width).trimEnd(), tone };
}

/** What a finished snapshot (create) means for the exit code: all shards ok, some failed, none. */
export function snapshotOutcome(s: Pick<SnapshotInfo, 'state' | 'shards'>): 'ok' | 'partial' | 'failed' {
  if (s.state === 'SUCCESS' && !s.shards.failed) return 'ok';
  if (s.state === 'FAILED' || (s.shards.total > 0 && s.shards.ok === 0)) return 'failed';
  return 'partial';
}
