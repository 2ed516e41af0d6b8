// Cluster settings (issue 43 item 1): which differ from their defaults and where each comes from
// (persistent, transient, a node's file), a line of meaning for the ones operators touch, a new
// value checked before it is sent, an unknown key answered with the nearest known ones, and the
// value before shardeck first changed a key, kept so `cluster-settings restore KEY` puts it back.
import { flattenSettings } from '../flat-settings';
import { editDistance } from '../text/suggest';
import { compareText } from '../text/order';
import type { MutationPlan } from '../mutation/plan';

type Json = Record<string, unknown>;

/** A flat setting's value: a string, or a list (discovery.seed_hosts). */
export type SettingValue = string | string[];

/** GET _cluster/settings?include_defaults=true&flat_settings=true, and each node's own settings (its file, -E flags). */
export interface ClusterSettingsFacts {
  persistent: Record<string, SettingValue>;
  transient: Record<string, SettingValue>;
  defaults: Record<string, SettingValue>;
  /** Flattened settings of each node's file, by node name (GET _nodes/settings). */
  nodeFiles: Record<string, Record<string, SettingValue>>;
}

export type Origin = 'persistent' | 'transient' | 'file';

export interface SettingRow {
  key: string;
  /** The value in effect: transient wins over persistent, which wins over the file and the default. */
  value: SettingValue;
  origin: Origin | 'default';
  /** The default when the row is not a default (null: not known, e.g. a key only a node's file sets). */
  default: SettingValue | null;
  /** The nodes whose file sets it (origin file). */
  nodes?: string[];
  /** Origin file, when the nodes' files disagree: each node's value. */
  perNode?: Record<string, SettingValue>;
  /** Also set at a level it shadows (a transient over a persistent value). */
  shadowed?: { origin: Origin; value: SettingValue };
  meaning?: string;
  /** Transient settings are deprecated in 8 (lost at a full restart): reset and set persistent. */
  deprecated?: string;
}

export const TRANSIENT_DEPRECATED =
  'transient settings are deprecated in 8 and lost at a full cluster restart: set it persistent (cluster-settings set), then reset the transient one';

/** A scalar or a list of scalars as the node gave it; anything else (an object) is not a flat setting. */
function flatValue(v: unknown): SettingValue | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map((x) => String(x));
  return null;
}

/** A settings object, nested or flat, as flat keys (a.b.c); a list kept a list, a null left out. */
export const flatten = (obj: unknown): Record<string, SettingValue> => flattenSettings(obj, (v) => flatValue(v) ?? undefined);

export function parseClusterSettings(settings: unknown, nodes: unknown): ClusterSettingsFacts {
  const b = (settings ?? {}) as Json;
  const nodeFiles: Record<string, Record<string, SettingValue>> = {};
  for (const [id, n] of Object.entries(((nodes ?? {}) as { nodes?: Json }).nodes ?? {})) {
    const node = (n ?? {}) as { name?: unknown; settings?: unknown };
    nodeFiles[typeof node.name === 'string' ? node.name : id] = flatten(node.settings);
  }
  return { persistent: flatten(b.persistent), transient: flatten(b.transient), defaults: flatten(b.defaults), nodeFiles };
}

/**
 * What a node's file always sets about the node itself (its name, folders, ports, roles, the
 * cluster it joins): not a cluster setting an operator tunes, so not listed as a difference.
 */
const NODE_IDENTITY = [
  /^node\.(name|attr\..*|roles|id\.seed)$/,
  /^path\./,
  /^cluster\.(name|initial_master_nodes)$/,
  /^(http|transport)\.(port|type\.default|publish_port)$/,
  /^network\./,
  /^discovery\.(seed_hosts|type)$/,
];

function isNodeIdentity(key: string): boolean {
  return NODE_IDENTITY.some((r) => r.test(key));
}

/** A line of meaning for the settings operators touch (the first matching pattern). */
const MEANINGS: [RegExp, string][] = [
  [/^cluster\.routing\.allocation\.disk\.watermark\.low/, 'no new shard copies go to a node whose disk is fuller than this'],
  [/^cluster\.routing\.allocation\.disk\.watermark\.high/, 'shards are moved away from a node whose disk is fuller than this'],
  [/^cluster\.routing\.allocation\.disk\.watermark\.flood_stage/, "above this the node's indices are made read-only (writes refused)"],
  [/^cluster\.routing\.allocation\.disk\.threshold_enabled$/, 'false ignores disk usage when placing shards (watermarks off)'],
  [/^cluster\.routing\.allocation\.enable$/, 'which shards may be allocated: all, primaries, new_primaries, none'],
  [/^cluster\.routing\.rebalance\.enable$/, 'which shards may be moved to balance the nodes: all, primaries, replicas, none'],
  [/^cluster\.routing\.allocation\.(include|exclude|require)\./, 'allocation filter: keeps shards on or off the nodes it names'],
  [/^cluster\.routing\.allocation\.cluster_concurrent_rebalance$/, 'how many shards may be rebalanced at once in the cluster'],
  [/^cluster\.routing\.allocation\.node_concurrent_recoveries$/, 'how many recoveries a node runs at once'],
  [/^indices\.recovery\.max_bytes_per_sec$/, 'how fast a recovery copies per node (the recovery throttle)'],
  [/^cluster\.max_shards_per_node$/, 'new indices are refused once the cluster holds this many shards per data node'],
  [/^search\.max_open_scroll_context$/, 'scroll contexts a node keeps open at most; the next scroll fails beyond it'],
  [/^action\.destructive_requires_name$/, 'true refuses deletes by wildcard or _all: indices must be named'],
  [/^action\.auto_create_index$/, 'whether a write to a missing index creates it'],
  [/^cluster\.blocks\.(read_only|read_only_allow_delete)$/, 'a cluster-wide block: true refuses writes to every index'],
];

export function meaningOf(key: string): string | undefined {
  return MEANINGS.find(([r]) => r.test(key))?.[1];
}

/** Shown without --changed even at their default: what operators look at first. */
const WATCHED =
  /^(cluster\.routing\.allocation\.disk\.watermark\.(low|high|flood_stage)|cluster\.routing\.allocation\.enable|cluster\.routing\.rebalance\.enable|indices\.recovery\.max_bytes_per_sec|cluster\.max_shards_per_node|search\.max_open_scroll_context|action\.destructive_requires_name)$/;

/**
 * Elasticsearch 8's own defaults of the settings operators touch (read from an 8.19 node's
 * include_defaults answer): the node leaves a key out of its defaults while it is set, so the
 * default of a changed key comes from here (other keys: not known while set).
 */
export const BUILTIN_DEFAULTS: Record<string, string> = {
  'action.destructive_requires_name': 'true',
  'cluster.max_shards_per_node': '1000',
  'cluster.routing.allocation.disk.threshold_enabled': 'true',
  'cluster.routing.allocation.disk.watermark.low': '85%',
  'cluster.routing.allocation.disk.watermark.high': '90%',
  'cluster.routing.allocation.disk.watermark.flood_stage': '95%',
  'cluster.routing.allocation.enable': 'all',
  'cluster.routing.rebalance.enable': 'all',
  'cluster.routing.allocation.cluster_concurrent_rebalance': '2',
  'cluster.routing.allocation.node_concurrent_recoveries': '2',
  'indices.recovery.max_bytes_per_sec': '40mb',
  'search.max_open_scroll_context': '500',
};

/** The default of a key: the node's answer while unset, else the built-in table (null: not known). */
export function defaultOf(key: string, f: Pick<ClusterSettingsFacts, 'defaults'>): SettingValue | null {
  return f.defaults[key] ?? BUILTIN_DEFAULTS[key] ?? null;
}

function same(a: SettingValue | undefined, b: SettingValue | undefined | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b ?? undefined);
}

/**
 * The settings that differ from their defaults (set persistent or transient, or by a node's file),
 * sorted by key; without `changedOnly` also the watched ones at their default.
 */
export function settingRows(f: ClusterSettingsFacts, changedOnly: boolean): SettingRow[] {
  const rows = new Map<string, SettingRow>();
  const add = (key: string, origin: Origin, value: SettingValue, nodes?: string[]) => {
    const earlier = rows.get(key);
    if (earlier) {
      if (!earlier.shadowed) earlier.shadowed = { origin, value };
      return;
    }
    rows.set(key, {
      key,
      value,
      origin,
      default: origin === 'file' ? null : defaultOf(key, f),
      ...(nodes ? { nodes } : {}),
      ...(meaningOf(key) ? { meaning: meaningOf(key) } : {}),
      ...(origin === 'transient' ? { deprecated: TRANSIENT_DEPRECATED } : {}),
    });
  };
  for (const [k, v] of Object.entries(f.transient)) add(k, 'transient', v);
  for (const [k, v] of Object.entries(f.persistent)) add(k, 'persistent', v);
  // A node's file: what it sets beyond the node's identity. The node's defaults answer shows the
  // file's value, so the built-in default is not known here.
  const byKey = new Map<string, Map<string, SettingValue>>();
  for (const [node, s] of Object.entries(f.nodeFiles))
    for (const [k, v] of Object.entries(s)) {
      if (isNodeIdentity(k)) continue;
      if (!byKey.has(k)) byKey.set(k, new Map());
      byKey.get(k)!.set(node, v);
    }
  for (const [k, perNode] of byKey) {
    const nodes = [...perNode.keys()].sort();
    add(k, 'file', perNode.get(nodes[0])!, nodes);
    // Files that disagree: each node's value, so the one shown first is not taken for all.
    if (new Set([...perNode.values()].map((v) => JSON.stringify(v))).size > 1)
      rows.get(k)!.perNode = Object.fromEntries(nodes.map((n) => [n, perNode.get(n)!]));
  }
  if (!changedOnly)
    for (const [k, v] of Object.entries(f.defaults))
      if (WATCHED.test(k) && !rows.has(k)) rows.set(k, { key: k, value: v, origin: 'default', default: v, meaning: meaningOf(k) });
  return [...rows.values()].sort((a, b) => compareText(a.key, b.key));
}

/** The value as one line of text (a list comma-separated). */
export function valueText(v: SettingValue | null | undefined): string {
  if (v === null || v === undefined) return '(unset)';
  return Array.isArray(v) ? `[${v.join(', ')}]` : v;
}

// ---- keys and values ----

/** Settings keyed by a name of the operator's (allocation filters by attribute): no default lists them. */
const GROUP_KEYS = /^cluster\.routing\.allocation\.(include|exclude|require)\.[A-Za-z0-9_.-]+$/;

export function isKnownKey(key: string, f: ClusterSettingsFacts): boolean {
  return key in f.defaults || key in f.persistent || key in f.transient || GROUP_KEYS.test(key);
}

/** The known keys nearest to a mistyped one: fewest edits first, then those sharing its longest prefix. */
export function nearestKeys(key: string, f: ClusterSettingsFacts, count = 3): string[] {
  const known = [...new Set([...Object.keys(f.defaults), ...Object.keys(f.persistent), ...Object.keys(f.transient)])];
  const lastPart = (k: string) => k.slice(k.lastIndexOf('.') + 1);
  const scored = known.map((k) => ({
    k,
    // The whole key, or its last word against the typed last word (max_open_scroll_contexts).
    d: Math.min(
      editDistance(key, k),
      editDistance(lastPart(key), lastPart(k)) + (k.startsWith(key.slice(0, key.lastIndexOf('.'))) ? 0 : 5),
    ),
  }));
  return scored
    .sort((a, b) => a.d - b.d || compareText(a.k, b.k))
    .slice(0, count)
    .map((s) => s.k);
}

export function unknownKeyMessage(key: string, f: ClusterSettingsFacts): string {
  const near = nearestKeys(key, f);
  return `"${key}" is not a cluster setting this node knows${near.length ? `; the nearest known: ${near.join(', ')}` : ''} (shardeck cluster-settings lists those set); nothing was sent`;
}

const INT_MAX = 2_147_483_647;
const BYTES = /^\d+(\.\d+)?(b|kb|mb|gb|tb|pb)$/i;
const TIME = /^\d+(nanos|micros|ms|s|m|h|d)$/;
const PERCENT = /^(\d+(\.\d+)?)%$/;

/** Ranges Elasticsearch enforces, checked here first so the operator hears it before anything is sent. */
const RANGES: [RegExp, number, number][] = [
  [/^search\.max_open_scroll_context$/, 0, INT_MAX],
  [/^cluster\.max_shards_per_node(\.frozen)?$/, 1, INT_MAX],
  [
    /^cluster\.routing\.allocation\.(cluster_concurrent_rebalance|node_concurrent_recoveries|node_concurrent_incoming_recoveries|node_concurrent_outgoing_recoveries|node_initial_primaries_recoveries)$/,
    -1,
    INT_MAX,
  ],
];

const ENUMS: [RegExp, string[]][] = [
  [/^cluster\.routing\.allocation\.enable$/, ['all', 'primaries', 'new_primaries', 'none']],
  [/^cluster\.routing\.rebalance\.enable$/, ['all', 'primaries', 'replicas', 'none']],
  [/^cluster\.routing\.allocation\.allow_rebalance$/, ['always', 'indices_primaries_active', 'indices_all_active']],
];

export type ValueCheck = { ok: true; value: SettingValue } | { ok: false; error: string };

/**
 * A new value checked against what the key's default says of its type (boolean, whole number,
 * number, byte size, time, percentage or ratio or free space for a watermark, list), its known
 * choices and range. What the default does not tell is left for Elasticsearch to judge.
 */
export function checkValue(key: string, raw: string, f: ClusterSettingsFacts): ValueCheck {
  const text = raw.trim();
  const bad = (what: string, example: string): ValueCheck => ({
    ok: false,
    error: `"${raw}" is not ${what} for ${key}: give e.g. ${example} (nothing was sent)`,
  });
  if (text === '') return bad('a value', valueText(defaultOf(key, f) ?? 'a value'));
  const choices = ENUMS.find(([r]) => r.test(key))?.[1];
  if (choices) return choices.includes(text) ? { ok: true, value: text } : bad(`one of ${choices.join(', ')}`, choices[0]);
  const def = defaultOf(key, f) ?? f.persistent[key] ?? f.transient[key];
  if (Array.isArray(def))
    return {
      ok: true,
      value: text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (/\.watermark\.(low|high|flood_stage)(\.frozen)?$/.test(key)) {
    const p = PERCENT.exec(text);
    if (p) return Number(p[1]) <= 100 ? { ok: true, value: text } : bad('a percentage of 100 or less', '90%');
    if (/^0?\.\d+$|^[01](\.0+)?$/.test(text)) return { ok: true, value: text };
    return BYTES.test(text) ? { ok: true, value: text } : bad('a percentage used, a ratio or free space', '90%, 0.9 or 50gb');
  }
  if (def === undefined) return { ok: true, value: text };
  if (def === 'true' || def === 'false')
    return text === 'true' || text === 'false' ? { ok: true, value: text } : bad('true or false', 'true');
  if (/^-?\d+$/.test(def)) {
    if (!/^-?\d+$/.test(text)) return bad('a whole number', def);
    const n = Number(text);
    const [, min, max] = RANGES.find(([r]) => r.test(key)) ?? [null, def.startsWith('-') ? -1 : 0, INT_MAX];
    return n >= min && n <= max ? { ok: true, value: text } : bad(`a whole number from ${min} to ${max}`, def);
  }
  if (/^-?\d+\.\d+$/.test(def)) return /^-?\d+(\.\d+)?$/.test(text) ? { ok: true, value: text } : bad('a number', def);
  if (BYTES.test(def) || def === '-1b' || def === '-1')
    return BYTES.test(text) || text === '-1' || text === '0' ? { ok: true, value: text } : bad('a size in bytes', '40mb');
  if (TIME.test(def) || def === '-1') return TIME.test(text) || text === '-1' ? { ok: true, value: text } : bad('a time', def);
  if (PERCENT.test(def)) {
    const p = PERCENT.exec(text);
    return p && Number(p[1]) <= 100 ? { ok: true, value: text } : bad('a percentage of 100 or less', def);
  }
  return { ok: true, value: text };
}

// ---- plans ----

/** Where a key is set now, per level (null: not set there). */
export interface LevelValues {
  persistent: SettingValue | null;
  transient: SettingValue | null;
}

export function levelsOf(key: string, f: ClusterSettingsFacts): LevelValues {
  return { persistent: f.persistent[key] ?? null, transient: f.transient[key] ?? null };
}

/**
 * One PUT of _cluster/settings that leaves `key` at `want` per level (a level left out is not
 * touched), read back from the flat settings.
 */
export function settingPlan(key: string, want: Partial<LevelValues>, summary: string): MutationPlan {
  const body: Record<string, Record<string, SettingValue | null>> = {};
  for (const level of ['persistent', 'transient'] as const) if (level in want) body[level] = { [key]: want[level] ?? null };
  const levels = Object.keys(body) as (keyof LevelValues)[];
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body,
    risk: 'reversible',
    target: key,
    summary,
    verify: {
      path: '/_cluster/settings',
      querystring: { flat_settings: 'true' },
      check(res) {
        const b = (res ?? {}) as Json;
        const seen = (l: keyof LevelValues) => flatten(b[l])[key] ?? null;
        const wrong = levels.filter((l) => !same(seen(l) ?? undefined, want[l]));
        return wrong.length === 0
          ? { ok: true, message: levels.map((l) => `${key} is ${want[l] === null ? 'unset' : valueText(want[l])} (${l})`).join(', ') }
          : { ok: false, message: `${key} reads back otherwise: ${wrong.map((l) => `${l} ${valueText(seen(l))}`).join(', ')}` };
      },
    },
  };
}

export type PlanCheck = { ok: true; plan: MutationPlan } | { ok: false; error: string };

const WATERMARKS = ['low', 'high', 'flood_stage'].map((w) => `cluster.routing.allocation.disk.watermark.${w}`);

/**
 * Elasticsearch 8 refuses a disk watermark set while a lower one is left to its default, and a
 * watermark reset while a higher one is set ("illegal value can't update [...max_headroom]": each
 * explicit watermark drops its max_headroom default, and a lower headroom needs the higher ones).
 * Said before sending, with the order that works. Null when the order is fine.
 */
function watermarkOrder(key: string, f: ClusterSettingsFacts, change: 'set' | 'reset'): string | null {
  const i = WATERMARKS.indexOf(key);
  if (i < 0) return null;
  const isSet = (k: string) => k in f.persistent || k in f.transient;
  if (change === 'set') {
    const lower = WATERMARKS.slice(0, i).find((k) => !isSet(k));
    return lower
      ? `Elasticsearch 8 refuses ${key} while ${lower} is left to its default (its max_headroom rule): set ${lower} first, then this; nothing was sent`
      : null;
  }
  const higher = WATERMARKS.slice(i + 1)
    .reverse()
    .find(isSet);
  return higher
    ? `Elasticsearch 8 refuses to reset ${key} while ${higher} is set (its max_headroom rule): reset ${higher} first, then this; nothing was sent`
    : null;
}

/** `set KEY VALUE`: persistent (transient is deprecated); refused while a transient value would hide it. */
export function setPlan(key: string, raw: string, f: ClusterSettingsFacts): PlanCheck {
  if (!isKnownKey(key, f)) return { ok: false, error: unknownKeyMessage(key, f) };
  const v = checkValue(key, raw, f);
  if (!v.ok) return v;
  const now = levelsOf(key, f);
  if (now.transient !== null)
    return {
      ok: false,
      error: `${key} is set transient (${valueText(now.transient)}), which wins over the persistent value this sets: reset it first (shardeck cluster-settings reset ${key}); nothing was sent`,
    };
  if (same(v.value, now.persistent ?? undefined))
    return { ok: false, error: `${key} is already ${valueText(v.value)} (persistent): nothing to change` };
  const order = now.persistent === null ? watermarkOrder(key, f, 'set') : null;
  if (order) return { ok: false, error: order };
  const from = now.persistent ?? defaultOf(key, f);
  return {
    ok: true,
    plan: settingPlan(
      key,
      { persistent: v.value },
      `set ${key} from ${valueText(from)}${now.persistent === null ? ' (default)' : ''} to ${valueText(v.value)} (persistent)`,
    ),
  };
}

/** `reset KEY`: unset at every level it is set, back to the default (or the node's file). */
export function resetPlan(key: string, f: ClusterSettingsFacts): PlanCheck {
  const now = levelsOf(key, f);
  const want: Partial<LevelValues> = {};
  if (now.persistent !== null) want.persistent = null;
  if (now.transient !== null) want.transient = null;
  if (!Object.keys(want).length)
    return {
      ok: false,
      error: isKnownKey(key, f)
        ? `${key} is not set persistent or transient (it is at its default${defaultOf(key, f) === null ? '' : `, ${valueText(defaultOf(key, f))}`}): nothing to reset`
        : unknownKeyMessage(key, f),
    };
  const order = watermarkOrder(key, f, 'reset');
  if (order) return { ok: false, error: order };
  const what = (Object.keys(want) as (keyof LevelValues)[]).map((l) => `${l} ${valueText(now[l])}`).join(' and ');
  return {
    ok: true,
    plan: settingPlan(
      key,
      want,
      `reset ${key} (unset ${what}) to its default${defaultOf(key, f) === null ? '' : ` ${valueText(defaultOf(key, f))}`}`,
    ),
  };
}

// ---- the record of values before ----

/** Per key, what it was set to before shardeck first changed it (kept until restored). */
export interface SettingsRecord {
  version: 1;
  clusterUuid: string;
  before: Record<string, LevelValues & { at: string; user: string }>;
}

/** The record with `key`'s values now added, unless it already holds the key (the first values are what comes back). */
export function recordBefore(
  existing: SettingsRecord | null,
  clusterUuid: string,
  key: string,
  now: LevelValues,
  head: { at: string; user: string },
): SettingsRecord {
  const before = { ...(existing?.before ?? {}) };
  before[key] ??= { ...now, ...head };
  return { version: 1, clusterUuid, before };
}

export function withoutKey(r: SettingsRecord, key: string): SettingsRecord {
  const before = { ...r.before };
  delete before[key];
  return { ...r, before };
}

function isValue(v: unknown): v is SettingValue | null {
  return v === null || typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
}

export function parseSettingsRecord(text: string): SettingsRecord | null {
  let j: Partial<SettingsRecord> | null;
  try {
    j = JSON.parse(text) as Partial<SettingsRecord>;
  } catch {
    return null;
  }
  if (!j || j.version !== 1 || typeof j.clusterUuid !== 'string' || typeof j.before !== 'object' || j.before === null) return null;
  const before: SettingsRecord['before'] = {};
  for (const [k, v] of Object.entries(j.before)) {
    const e = v as Partial<LevelValues & { at: string; user: string }>;
    if (!e || !isValue(e.persistent) || !isValue(e.transient)) return null;
    before[k] = { persistent: e.persistent, transient: e.transient, at: String(e.at ?? ''), user: String(e.user ?? '?') };
  }
  return { version: 1, clusterUuid: j.clusterUuid, before };
}

/** `restore KEY`: the recorded values back at each level (unset where nothing was set). */
export function restorePlan(key: string, r: SettingsRecord | null, f: ClusterSettingsFacts): PlanCheck {
  const was = r?.before[key];
  if (!was) {
    const kept = Object.keys(r?.before ?? {});
    return {
      ok: false,
      error: `no value of ${key} was kept on this host for this cluster (shardeck keeps one when it sets or resets a key)${kept.length ? `; kept: ${kept.join(', ')}` : ''}: nothing was sent`,
    };
  }
  const now = levelsOf(key, f);
  if (same(now.persistent ?? undefined, was.persistent) && same(now.transient ?? undefined, was.transient))
    return { ok: false, error: `${key} is already as it was before shardeck changed it: nothing to restore` };
  const want: Partial<LevelValues> = {};
  for (const l of ['persistent', 'transient'] as const) if (!same(now[l] ?? undefined, was[l])) want[l] = was[l];
  const what = (Object.keys(want) as (keyof LevelValues)[]).map((l) => `${l} ${was[l] === null ? 'unset' : valueText(was[l])}`).join(', ');
  return { ok: true, plan: settingPlan(key, want, `put ${key} back as it was before shardeck changed it (${was.at}): ${what}`) };
}
