// Shard recoveries in progress (_cat/recovery?active_only): bytes and files done, the rate and the
// time left, source and target, type and stage; and the recovery throttle
// (indices.recovery.max_bytes_per_sec, cluster.routing.allocation.node_concurrent_recoveries): read,
// changed through the guard with the value before kept (a record, like the allocation one), put
// back with --restore. Pure.
import { displayText } from '../text/display-text';
import { formatBytes } from '../text/format';
import { fitText } from '../text/table';
import type { MutationPlan } from '../mutation/plan';
import type { ShardRecovery } from '../snapshots';

type Json = Record<string, unknown>;

export const MAX_BYTES = 'indices.recovery.max_bytes_per_sec';
export const CONCURRENT = 'cluster.routing.allocation.node_concurrent_recoveries';
export const THROTTLE_KEYS = [MAX_BYTES, CONCURRENT] as const;
export type ThrottleKey = (typeof THROTTLE_KEYS)[number];

/** How far one recovery is, from GET _recovery (domain/snapshots.ts parseRecovery). */
export interface RecoveryProgress {
  bytesPercent: number;
  filesPercent: number;
  /** Bytes per second so far (null before a byte is copied); reused bytes count as done. */
  rate: number | null;
  /** Time left at that rate (null when not known). */
  etaMs: number | null;
}

const pct = (done: number, total: number) => (total > 0 ? Math.min(100, (done * 100) / total) : 100);

export function recoveryProgress(r: ShardRecovery): RecoveryProgress {
  const rate = r.bytesRecovered > 0 && r.timeMs > 0 ? (r.bytesRecovered * 1000) / r.timeMs : null;
  const left = Math.max(0, r.bytesTotal - r.bytesRecovered);
  return {
    bytesPercent: pct(r.bytesRecovered, r.bytesTotal),
    filesPercent: pct(r.filesRecovered, r.filesTotal),
    rate,
    etaMs: left === 0 ? 0 : rate ? (left * 1000) / rate : null,
  };
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '?';
  const sec = Math.round(ms / 1000);
  if (sec < 60) return `${sec}s`;
  if (sec < 3600) return `${Math.floor(sec / 60)}m${String(sec % 60).padStart(2, '0')}s`;
  return `${Math.floor(sec / 3600)}h${String(Math.floor((sec % 3600) / 60)).padStart(2, '0')}m`;
}

/** One line per recovery, for the command and the Shards pane's section. */
export function recoveryLine(r: ShardRecovery): string {
  const p = recoveryProgress(r);
  const from = r.source
    ? `from ${r.source.repository}:${r.source.snapshot} to ${r.targetNode ?? '?'}`
    : r.sourceNode
      ? `${r.sourceNode} -> ${r.targetNode ?? '?'}`
      : `on ${r.targetNode ?? '?'}`;
  return (
    `${r.index}[${r.shard}]${r.primary ? 'p' : 'r'} ${r.type.toLowerCase()}/${r.stage.toLowerCase()} ${from}: ` +
    `${p.bytesPercent.toFixed(1)}% of ${formatBytes(r.bytesTotal)}, files ${p.filesPercent.toFixed(1)}% (${r.filesRecovered}/${r.filesTotal}), ` +
    `${p.rate === null ? 'rate ?' : `${formatBytes(p.rate)}/s`}, ETA ${formatDuration(p.etaMs)}`
  );
}

/** One line of the Shards pane's recovery section: text, or a bar between two texts. */
export type RecoverySectionLine = { text: string; tone?: 'dim' } | { before: string; percent: number; barWidth: number; after: string };

/**
 * The Shards pane's recovery section in `width` columns and at most `rows` lines: a title, then two
 * lines per recovery (which copy, type/stage, source -> target; a bar with bytes %, files, rate and
 * ETA), and how many more there are when they do not all fit. Names are the cluster's: the pane's
 * Text makes them safe to print. Empty when nothing recovers or there is no room for one.
 */
export function recoverySection(recs: readonly ShardRecovery[], width: number, rows: number): RecoverySectionLine[] {
  if (recs.length === 0 || rows < 3) return [];
  const fits = Math.floor((rows - 1) / 2);
  const shown = recs.length <= fits ? recs.length : Math.max(1, Math.floor((rows - 2) / 2));
  const out: RecoverySectionLine[] = [
    { text: fitText(`recoveries: ${recs.length} active (details and throttle: shardeck recovery)`, width), tone: 'dim' },
  ];
  for (const r of recs.slice(0, shown)) {
    const p = recoveryProgress(r);
    const where = r.source
      ? `${r.source.repository}:${r.source.snapshot} -> ${r.targetNode ?? '?'}`
      : r.sourceNode
        ? `${r.sourceNode} -> ${r.targetNode ?? '?'}`
        : `on ${r.targetNode ?? '?'}`;
    // Names from the cluster escaped before the fit, so the cut counts the columns they will take.
    out.push({
      text: fitText(
        displayText(`${r.index}[${r.shard}]${r.primary ? 'p' : 'r'} ${r.type.toLowerCase()}/${r.stage.toLowerCase()} ${where}`),
        width,
      ),
    });
    const after = ` ${p.bytesPercent.toFixed(1)}% of ${formatBytes(r.bytesTotal)} · files ${r.filesRecovered}/${r.filesTotal} · ${p.rate === null ? '?' : `${formatBytes(p.rate)}/s`} · ETA ${formatDuration(p.etaMs)}`;
    // The bar takes what the figures leave (two columns of indent, two brackets), 8 to 30 cells.
    const barWidth = Math.max(8, Math.min(30, width - 4 - after.length));
    out.push({ before: '  ', percent: p.bytesPercent, barWidth, after: fitText(after, Math.max(0, width - 4 - barWidth)) });
  }
  if (shown < recs.length) out.push({ text: fitText(`  +${recs.length - shown} more: shardeck recovery`, width), tone: 'dim' });
  return out;
}

/** Recoveries that still copy (a finished one may linger in active_only for a moment). */
export function activeRecoveries(all: readonly ShardRecovery[]): ShardRecovery[] {
  return all.filter((r) => r.stage.toUpperCase() !== 'DONE');
}

export type Level = 'persistent' | 'transient' | 'default';

export interface ThrottleValue {
  value: string | null;
  level: Level;
}

export type RecoveryThrottle = Record<ThrottleKey, ThrottleValue>;

/** A scalar setting as text; anything else (absent, an object) is null. */
function scalar(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
}

/** A setting of a flat or nested settings object. */
function dig(obj: unknown, key: string): string | null {
  if (obj === null || typeof obj !== 'object') return null;
  const flat = scalar((obj as Json)[key]);
  if (flat !== null) return flat;
  let cur: unknown = obj;
  for (const part of key.split('.')) {
    if (cur === null || typeof cur !== 'object') return null;
    cur = (cur as Json)[part];
  }
  return scalar(cur);
}

/** GET _cluster/settings?include_defaults (nested or flat): each throttle setting and where it comes from. */
export function parseRecoveryThrottle(body: unknown): RecoveryThrottle {
  const b = (body ?? {}) as Json;
  const one = (k: ThrottleKey): ThrottleValue => {
    for (const level of ['transient', 'persistent', 'defaults'] as const) {
      const v = dig(b[level], k);
      if (v !== null) return { value: v, level: level === 'defaults' ? 'default' : level };
    }
    return { value: null, level: 'default' };
  };
  return { [MAX_BYTES]: one(MAX_BYTES), [CONCURRENT]: one(CONCURRENT) };
}

export function throttleLines(t: RecoveryThrottle): string[] {
  return THROTTLE_KEYS.map((k) => `${k} = ${t[k].value ?? '?'} (${t[k].level === 'default' ? 'the default' : t[k].level})`);
}

/** A byte rate Elasticsearch accepts ("40mb", "1gb", "500kb", "0": unlimited); anything else is refused. */
export function isByteRate(v: string): boolean {
  return /^\d+(\.\d+)?(b|kb|mb|gb|tb|pb)?$/i.test(v);
}

export function isCount(v: string): boolean {
  return /^[1-9]\d{0,3}$/.test(v);
}

/** Per setting, the value to set (null: unset, back to the default). */
export type ThrottleChange = Partial<Record<ThrottleKey, string | null>>;

/** The change as one persistent PUT of the cluster settings, read back. */
export function throttlePlan(change: ThrottleChange, why: string): MutationPlan {
  const keys = Object.keys(change) as ThrottleKey[];
  const shown = (k: ThrottleKey) => `${k} -> ${change[k] ?? 'unset (the default)'}`;
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body: { persistent: change },
    risk: 'reversible',
    target: 'cluster settings',
    summary: `${why}: ${keys.map(shown).join(', ')} (persistent)`,
    verify: {
      path: '/_cluster/settings',
      querystring: { flat_settings: 'true' },
      check(res) {
        const p = ((res ?? {}) as Json).persistent as Json | undefined;
        const wrong = keys.filter((k) => scalar(p?.[k]) !== (change[k] ?? null));
        return wrong.length === 0
          ? { ok: true, message: keys.map((k) => `${k} is ${change[k] ?? 'unset'}`).join(', ') }
          : { ok: false, message: `reads back otherwise: ${wrong.map((k) => `${k} is ${scalar(p?.[k]) ?? 'unset'}`).join(', ')}` };
      },
    },
  };
}

/** What was set persistently before shardeck first changed the throttle (null: unset). */
export interface ThrottleRecord {
  version: 1;
  clusterUuid: string;
  at: string;
  user: string;
  before: ThrottleChange;
}

/** The record to keep before a change: an earlier one keeps its values (what comes back is what was there first). */
export function throttleRecordBefore(
  existing: ThrottleRecord | null,
  change: ThrottleChange,
  persistentNow: ThrottleChange,
  head: Omit<ThrottleRecord, 'version' | 'before'>,
): ThrottleRecord {
  const before: ThrottleChange = { ...(existing?.before ?? {}) };
  for (const k of Object.keys(change) as ThrottleKey[]) if (!(k in before)) before[k] = persistentNow[k] ?? null;
  return { version: 1, ...(existing ?? head), before };
}

export function parseThrottleRecord(text: string): ThrottleRecord | null {
  let j: Partial<ThrottleRecord> | null;
  try {
    j = JSON.parse(text) as Partial<ThrottleRecord>;
  } catch {
    return null;
  }
  if (!j || j.version !== 1 || typeof j.clusterUuid !== 'string' || typeof j.before !== 'object' || j.before === null) return null;
  const before: ThrottleChange = {};
  for (const [k, v] of Object.entries(j.before)) {
    if (!(THROTTLE_KEYS as readonly string[]).includes(k) || (v !== null && typeof v !== 'string')) return null;
    before[k as ThrottleKey] = v;
  }
  return { version: 1, clusterUuid: j.clusterUuid, at: String(j.at ?? ''), user: String(j.user ?? '?'), before };
}
