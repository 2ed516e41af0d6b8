// Allocation that is limited (cluster.routing.allocation.enable / rebalance.enable not "all", an
// allocation exclude set) and the record shardeck keeps of what it changed, so that allocation is
// never left off by shardeck: the record is written before the change with the values before it;
// the next shardeck on that cluster compares it with the cluster and offers to put them back. Pure.
import { flattenSettings } from '../flat-settings';
import { compareText } from '../text/order';
import type { MutationPlan } from '../mutation/plan';

export const ALLOCATION_ENABLE = 'cluster.routing.allocation.enable';
export const REBALANCE_ENABLE = 'cluster.routing.rebalance.enable';
export const EXCLUDE_PREFIX = 'cluster.routing.allocation.exclude.';

/** The settings this file watches: what limits where shards may go. */
export function isAllocationKey(key: string): boolean {
  return key === ALLOCATION_ENABLE || key === REBALANCE_ENABLE || (key.startsWith(EXCLUDE_PREFIX) && key.length > EXCLUDE_PREFIX.length);
}

export type Level = 'persistent' | 'transient';
export const LEVELS: readonly Level[] = ['persistent', 'transient'];

/** Per level, the watched settings' values (null: not set at that level). */
export type AllocationValues = Record<Level, Record<string, string | null>>;

type Json = Record<string, unknown>;

/** Dotted keys of a (nested or flat) settings object; null values kept as null (an unset). */
const flatten = (obj: unknown): Record<string, string | null> =>
  flattenSettings(obj, (v) =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : Array.isArray(v) ? v.join(',') : null,
  );

/** The watched settings of GET _cluster/settings (flat or nested), per level; "" counts as unset. */
export function allocationValuesOf(body: unknown): AllocationValues {
  const b = (body ?? {}) as Json;
  const out: AllocationValues = { persistent: {}, transient: {} };
  for (const level of LEVELS)
    for (const [k, v] of Object.entries(flatten(b[level]))) if (isAllocationKey(k) && v !== null && v !== '') out[level][k] = v;
  return out;
}

/** The watched keys a plan sets, per level; empty when it is not a PUT of the cluster settings. */
export function allocationKeysOfPlan(plan: Pick<MutationPlan, 'method' | 'path' | 'body'>): Record<Level, string[]> {
  const out: Record<Level, string[]> = { persistent: [], transient: [] };
  if (plan.method !== 'PUT' || plan.path !== '/_cluster/settings') return out;
  const b = (plan.body ?? {}) as Json;
  for (const level of LEVELS) out[level] = Object.keys(flatten(b[level])).filter(isAllocationKey);
  return out;
}

export function touchesAllocation(plan: Pick<MutationPlan, 'method' | 'path' | 'body'>): boolean {
  const k = allocationKeysOfPlan(plan);
  return k.persistent.length + k.transient.length > 0;
}

export interface AllocationLimit {
  setting: string;
  value: string;
  /** One line an operator reads. */
  text: string;
}

/** Transient wins over persistent (Elasticsearch's precedence); unset is the default ("all", no exclude). */
export function effectiveAllocation(v: AllocationValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const level of LEVELS) for (const [k, x] of Object.entries(v[level])) if (x !== null && x !== '') out[k] = x;
  return out;
}

/** Whatever limits allocation or rebalancing now, whoever set it. */
export function allocationLimits(effective: Record<string, string>): AllocationLimit[] {
  const out: AllocationLimit[] = [];
  const en = effective[ALLOCATION_ENABLE];
  if (en !== undefined && en !== 'all')
    out.push({
      setting: ALLOCATION_ENABLE,
      value: en,
      text: `shard allocation is limited to ${en === 'none' ? 'nothing (no shard is allocated)' : en} (${ALLOCATION_ENABLE}=${en}); set it back to all when the maintenance is over`,
    });
  const re = effective[REBALANCE_ENABLE];
  if (re !== undefined && re !== 'all')
    out.push({ setting: REBALANCE_ENABLE, value: re, text: `rebalancing is limited to ${re} (${REBALANCE_ENABLE}=${re})` });
  for (const [k, v] of Object.entries(effective).sort(([a], [b]) => compareText(a, b)))
    if (k.startsWith(EXCLUDE_PREFIX) && v !== '')
      out.push({ setting: k, value: v, text: `an allocation exclude is set: ${k}=${v} (no shard may stay on the nodes it names)` });
  return out;
}

/** What shardeck changed and what was there before, kept until it is put back. */
export interface AllocationRecord {
  version: 1;
  clusterUuid: string;
  /** The URL (no credentials) it was changed through. */
  url: string;
  /** When the first recorded change was made. */
  at: string;
  user: string;
  pid: number;
  /** What changed it ("allocation to primaries for the restart of node x"). */
  what: string;
  /** Per level, each setting shardeck changed and its value before the first change (null: unset). */
  before: AllocationValues;
}

/**
 * The record to write before a plan changes watched settings: an earlier record keeps its values
 * before (what must come back is what was there before the FIRST change), keys not yet in it get
 * their value now. Null when the plan touches no watched setting.
 */
export function recordBefore(
  existing: AllocationRecord | null,
  plan: Pick<MutationPlan, 'method' | 'path' | 'body' | 'summary'>,
  now: AllocationValues,
  head: Pick<AllocationRecord, 'clusterUuid' | 'url' | 'at' | 'user' | 'pid'>,
): AllocationRecord | null {
  const keys = allocationKeysOfPlan(plan);
  if (keys.persistent.length + keys.transient.length === 0) return null;
  const base: AllocationRecord = existing ?? { version: 1, ...head, what: plan.summary, before: { persistent: {}, transient: {} } };
  const before: AllocationValues = { persistent: { ...base.before.persistent }, transient: { ...base.before.transient } };
  for (const level of LEVELS) for (const k of keys[level]) if (!(k in before[level])) before[level][k] = now[level][k] ?? null;
  return { ...base, before };
}

export interface AllocationDiff {
  level: Level;
  setting: string;
  before: string | null;
  now: string | null;
}

/** The recorded settings that are not what they were before shardeck changed them. */
export function differences(r: AllocationRecord, now: AllocationValues): AllocationDiff[] {
  const out: AllocationDiff[] = [];
  for (const level of LEVELS)
    for (const [setting, before] of Object.entries(r.before[level])) {
      const cur = now[level][setting] ?? null;
      if ((before ?? null) !== cur) out.push({ level, setting, before: before ?? null, now: cur });
    }
  return out;
}

const shown = (v: string | null) => (v === null ? 'unset' : v);

/** One line: what shardeck left and since when. Values are the cluster's: the caller makes them safe to print. */
export function describeLeft(r: AllocationRecord, diffs: AllocationDiff[]): string {
  const what = diffs.map((d) => `${d.setting} is ${shown(d.now)} (${d.level}; it was ${shown(d.before)})`).join(', ');
  return `shardeck changed allocation at ${r.at} (${r.what}; ${r.user}, pid ${r.pid}) and it was not put back: ${what}`;
}

/** The plan that puts the recorded settings back to what they were (null unsets), only those that differ. */
export function restorePlan(r: AllocationRecord, diffs: AllocationDiff[]): MutationPlan | null {
  if (diffs.length === 0) return null;
  const body: Partial<Record<Level, Record<string, string | null>>> = {};
  for (const d of diffs) (body[d.level] ??= {})[d.setting] = d.before;
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body,
    risk: 'reversible',
    target: 'cluster settings',
    restoresAllocation: true,
    summary: `put allocation back as it was before shardeck changed it: ${diffs.map((d) => `${d.setting} ${shown(d.now)} -> ${shown(d.before)} (${d.level})`).join(', ')}`,
    verify: {
      path: '/_cluster/settings',
      querystring: { flat_settings: 'true' },
      check(res) {
        const left = differences(r, allocationValuesOf(res)).filter((x) =>
          diffs.some((d) => d.level === x.level && d.setting === x.setting),
        );
        return left.length === 0
          ? { ok: true, message: 'allocation is back to what it was' }
          : { ok: false, message: `still not as before: ${left.map((x) => `${x.setting} is ${shown(x.now)}`).join(', ')}` };
      },
    },
  };
}

/** A record file's text, checked: anything else is not a record (ignored, never trusted). */
export function parseAllocationRecord(text: string): AllocationRecord | null {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return null;
  }
  const r = j as Partial<AllocationRecord> | null;
  if (!r || r.version !== 1 || typeof r.clusterUuid !== 'string' || typeof r.at !== 'string' || !r.before) return null;
  const before: AllocationValues = { persistent: {}, transient: {} };
  for (const level of LEVELS) {
    const l = (r.before as Partial<AllocationValues>)[level] ?? {};
    if (typeof l !== 'object' || l === null) return null;
    for (const [k, v] of Object.entries(l)) {
      if (!isAllocationKey(k) || (v !== null && typeof v !== 'string')) return null;
      before[level][k] = v;
    }
  }
  return {
    version: 1,
    clusterUuid: r.clusterUuid,
    url: String(r.url ?? ''),
    at: r.at,
    user: String(r.user ?? '?'),
    pid: Number(r.pid) || 0,
    what: String(r.what ?? ''),
    before,
  };
}

export const ENABLE_VALUES = ['all', 'primaries', 'new_primaries', 'none'] as const;
export type EnableValue = (typeof ENABLE_VALUES)[number];

export function isEnableValue(v: string): v is EnableValue {
  return (ENABLE_VALUES as readonly string[]).includes(v);
}

/**
 * Sets cluster.routing.allocation.enable (persistent; "all" unsets it, the default), as Elastic's
 * rolling-restart steps do. The guard records the value before it (Guard.execute).
 */
export function allocationEnablePlan(value: EnableValue, why: string): MutationPlan {
  const v = value === 'all' ? null : value;
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body: { persistent: { [ALLOCATION_ENABLE]: v } },
    risk: 'reversible',
    target: 'cluster settings',
    summary: `set ${ALLOCATION_ENABLE} to ${value} (persistent${v === null ? ': unset, the default' : ''}) ${why}`,
    verify: {
      path: '/_cluster/settings',
      querystring: { flat_settings: 'true' },
      check(res) {
        const eff = effectiveAllocation(allocationValuesOf(res))[ALLOCATION_ENABLE] ?? 'all';
        return eff === value
          ? { ok: true, message: `${ALLOCATION_ENABLE} is ${value}` }
          : { ok: false, message: `${ALLOCATION_ENABLE} reads back as ${eff} (a transient setting wins over the persistent one)` };
      },
    },
  };
}
