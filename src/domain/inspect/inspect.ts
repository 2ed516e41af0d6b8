// Pure reading of what the inspect reads return (settings, mappings, index stats, the matching
// index template, the _cat commands): parsers from the raw answers of Elasticsearch into plain
// values, and the math the index detail and the inspect commands share (a mapping as a foldable
// tree, identical mappings collapsed, rates between two stats reads). No await.
import { flattenSettings } from '../flat-settings';
import { formatBytes, formatCount } from '../text/format';
import { num } from '../parse';
import { displayText } from '../text/display-text';
import { compareText } from '../text/order';

/** Settings as `flat_settings=true` gives them: dotted keys, values as text (lists as JSON). */
export type FlatSettings = Record<string, string>;

export interface IndexSettings {
  index: string;
  settings: FlatSettings;
  /** Only with include_defaults: what the index has without setting it. */
  defaults?: FlatSettings;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** GET /{index}/_settings?flat_settings=true[&include_defaults=true], one entry per index, sorted by name. */
export function parseIndexSettings(
  body: Record<string, { settings?: Record<string, unknown>; defaults?: Record<string, unknown> }>,
): IndexSettings[] {
  return Object.entries(body ?? {})
    .map(([index, v]) => ({
      index,
      settings: flatten(v.settings ?? {}),
      ...(v.defaults ? { defaults: flatten(v.defaults) } : {}),
    }))
    .sort((a, b) => compareText(a.index, b.index));
}

/** Nested objects into dotted keys (what flat_settings does; the template simulation answers nested), a list as its JSON. */
export const flatten = (obj: Record<string, unknown>): FlatSettings => flattenSettings(obj, text);

export interface SettingRow {
  key: string;
  value: string;
  /** Not set on the index: Elasticsearch's default. */
  isDefault: boolean;
}

/** Settings Elasticsearch keeps as epoch milliseconds, shown as dates too (issue 47 item 10). */
const DATE_SETTINGS = new Set(['index.creation_date', 'index.resize.source.creation_date']);

/** A setting's value as shown: a date setting as the date it is, in UTC, then its milliseconds. */
export function shownSettingValue(key: string, value: string): string {
  if (!DATE_SETTINGS.has(key) || !/^\d{10,14}$/.test(value)) return value;
  // The date first: where a narrow column cuts the value, the digits go.
  return `${new Date(Number(value)).toISOString().replace('T', ' ').slice(0, 19)} UTC (${value})`;
}

/** The index's own settings, then (with --all) the defaults it does not override, each sorted by key. */
export function settingRows(s: IndexSettings): SettingRow[] {
  const own = Object.keys(s.settings)
    .sort()
    .map((key) => ({ key, value: shownSettingValue(key, s.settings[key]), isDefault: false }));
  const defaults = Object.keys(s.defaults ?? {})
    .filter((k) => !(k in s.settings))
    .sort()
    .map((key) => ({ key, value: s.defaults![key], isDefault: true }));
  return [...own, ...defaults];
}

// --- mappings ---------------------------------------------------------------------------------

/** One field of a mapping, in the order of a depth-first walk (parents before their children). */
export interface MappingField {
  /** Dotted path, multi-fields included (title.raw). */
  path: string;
  name: string;
  depth: number;
  /** The mapped type; `object` for a properties block without one. */
  type: string;
  /** `enabled: false`: stored in _source, not indexed nor searchable. */
  disabled: boolean;
  /** Fields below it (properties and multi-fields). */
  children: number;
  /** Other parameters worth seeing at a glance (format, analyzer, index: false, ...). */
  notes: string[];
  /** A multi-field (under `fields`) rather than a property. */
  multi: boolean;
}

const NOTE_KEYS = [
  'format',
  'analyzer',
  'search_analyzer',
  'normalizer',
  'index',
  'doc_values',
  'store',
  'ignore_above',
  'null_value',
  'dynamic',
  'copy_to',
  'path',
];

/** The mapping of one index (its `mappings` object) as the rows of a tree. */
export function mappingFields(mapping: unknown): MappingField[] {
  const out: MappingField[] = [];
  const walk = (props: Record<string, any> | undefined, prefix: string, depth: number, multi: boolean): number => {
    let count = 0;
    for (const name of Object.keys(props ?? {})) {
      const def = props![name] ?? {};
      const path = prefix ? `${prefix}.${name}` : name;
      const row: MappingField = {
        path,
        name,
        depth,
        type: typeof def.type === 'string' ? def.type : def.properties || def.enabled === false ? 'object' : 'object',
        disabled: def.enabled === false,
        children: 0,
        notes: NOTE_KEYS.filter((k) => def[k] !== undefined).map((k) => `${k}: ${text(def[k])}`),
        multi,
      };
      out.push(row);
      row.children = walk(def.properties, path, depth + 1, false) + walk(def.fields, path, depth + 1, true);
      count += 1 + row.children;
    }
    return count;
  };
  const m = (mapping ?? {}) as Record<string, any>;
  walk(m.properties, '', 0, false);
  return out;
}

/** Top-level parameters of a mapping besides its fields (dynamic, _source, _routing, ...). */
export function mappingParameters(mapping: unknown): string[] {
  const m = (mapping ?? {}) as Record<string, unknown>;
  return Object.keys(m)
    .filter((k) => k !== 'properties')
    .sort()
    .map((k) => `${k}: ${text(m[k])}`);
}

/** The rows left when the fields of `folded` paths hide their children. */
export function unfoldedFields(fields: readonly MappingField[], folded: ReadonlySet<string>): MappingField[] {
  if (folded.size === 0) return fields as MappingField[];
  const out: MappingField[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    out.push(f);
    if (f.children && folded.has(f.path)) i += f.children;
  }
  return out;
}

/** The paths of every field with children (to fold them all). */
export function foldablePaths(fields: readonly MappingField[]): string[] {
  return fields.filter((f) => f.children > 0).map((f) => f.path);
}

/** The definition of a field by its dotted path (multi-fields too), or undefined. */
export function fieldDefinition(mapping: unknown, dotted: string): Record<string, unknown> | undefined {
  let node: any = mapping;
  const parts = dotted.split('.');
  for (let i = 0; i < parts.length; i++) {
    const next = node?.properties?.[parts[i]] ?? node?.fields?.[parts[i]];
    if (next === undefined) {
      // A field name may itself hold dots ("a.b" mapped as one name).
      const rest = parts.slice(i).join('.');
      return node?.properties?.[rest] ?? node?.fields?.[rest];
    }
    node = next;
  }
  return node;
}

/** JSON with object keys sorted, so two equal mappings give the same text whatever their key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export interface MappingGroup {
  indices: string[];
  mapping: unknown;
}

/** GET /{pattern}/_mapping, indices with identical mappings in one group (largest group first). */
export function groupMappings(body: Record<string, { mappings?: unknown }>): MappingGroup[] {
  const groups = new Map<string, MappingGroup>();
  for (const index of Object.keys(body ?? {}).sort()) {
    const mapping = body[index]?.mappings ?? {};
    const key = canonicalJson(mapping);
    const g = groups.get(key);
    if (g) g.indices.push(index);
    else groups.set(key, { indices: [index], mapping });
  }
  return [...groups.values()].sort((a, b) => b.indices.length - a.indices.length || compareText(a.indices[0], b.indices[0]));
}

/** A list of index names cut to `max` for one line: "a, b, c and 12 more". */
export function namesText(names: readonly string[], max = 3): string {
  const shown = names.map(displayText);
  return shown.length <= max ? shown.join(', ') : `${shown.slice(0, max).join(', ')} and ${shown.length - max} more`;
}

// --- stats ------------------------------------------------------------------------------------

export interface IndexStats {
  docs: number;
  deleted: number;
  storeBytes: number;
  priStoreBytes: number;
  segments: number;
  merges: { current: number; total: number; timeMs: number; bytes: number };
  indexing: { total: number; timeMs: number; current: number; failed: number; deletes: number };
  search: { queries: number; queryTimeMs: number; fetches: number; scrolls: number; openContexts: number; current: number };
  refreshes: number;
  flushes: number;
}

export interface StatsReport {
  /** The sum over what was asked for (_all.total). */
  all: IndexStats;
  indices: Record<string, IndexStats & { health?: string; status?: string }>;
}

function statsOf(v: any): IndexStats {
  const t = v?.total ?? {};
  return {
    docs: num(t.docs?.count),
    deleted: num(t.docs?.deleted),
    storeBytes: num(t.store?.size_in_bytes),
    priStoreBytes: num(v?.primaries?.store?.size_in_bytes),
    segments: num(t.segments?.count),
    merges: {
      current: num(t.merges?.current),
      total: num(t.merges?.total),
      timeMs: num(t.merges?.total_time_in_millis),
      bytes: num(t.merges?.total_size_in_bytes),
    },
    indexing: {
      total: num(t.indexing?.index_total),
      timeMs: num(t.indexing?.index_time_in_millis),
      current: num(t.indexing?.index_current),
      failed: num(t.indexing?.index_failed),
      deletes: num(t.indexing?.delete_total),
    },
    search: {
      queries: num(t.search?.query_total),
      queryTimeMs: num(t.search?.query_time_in_millis),
      fetches: num(t.search?.fetch_total),
      scrolls: num(t.search?.scroll_total),
      openContexts: num(t.search?.open_contexts),
      current: num(t.search?.query_current),
    },
    refreshes: num(t.refresh?.total),
    flushes: num(t.flush?.total),
  };
}

/** GET /_stats or /{index}/_stats (the metrics and filter_path of cluster/inspect.ts). */
export function parseIndexStats(body: any): StatsReport {
  const indices: StatsReport['indices'] = {};
  for (const name of Object.keys(body?.indices ?? {}).sort()) {
    const v = body.indices[name];
    indices[name] = { ...statsOf(v), health: v.health, status: v.status };
  }
  return { all: statsOf(body?._all), indices };
}

/** The stats of one index (or of all) as the lines the command and the index detail share. */
export function statsLines(s: IndexStats): string[] {
  return [
    `docs ${formatCount(s.docs)}, deleted ${formatCount(s.deleted)}`,
    `store ${formatBytes(s.storeBytes)} (primaries ${formatBytes(s.priStoreBytes)}), segments ${formatCount(s.segments)}`,
    `merges: ${s.merges.current} running, ${formatCount(s.merges.total)} done (${formatBytes(s.merges.bytes)} in ${(s.merges.timeMs / 1000).toFixed(1)} s)`,
    `indexing: ${formatCount(s.indexing.total)} indexed, ${formatCount(s.indexing.deletes)} deleted, ${formatCount(s.indexing.failed)} failed (${(s.indexing.timeMs / 1000).toFixed(1)} s)`,
    `search: ${formatCount(s.search.queries)} queries (${(s.search.queryTimeMs / 1000).toFixed(1)} s), ${formatCount(s.search.fetches)} fetches, ${formatCount(s.search.scrolls)} scrolls, ${s.search.openContexts} open contexts`,
    `refreshes ${formatCount(s.refreshes)}, flushes ${formatCount(s.flushes)}`,
  ];
}

export interface StatRates {
  /** Documents indexed per second. */
  indexing: number;
  /** Queries per second. */
  search: number;
  /** Change of the document count per second (negative: deletes and merges). */
  docs: number;
  merges: number;
  seconds: number;
}

/** Rates between two reads of the same index, or null when there is no earlier read (or no time between them). */
export function statRates(prev: IndexStats | undefined, prevAt: number | undefined, cur: IndexStats, curAt: number): StatRates | null {
  if (!prev || prevAt === undefined || curAt <= prevAt) return null;
  const s = (curAt - prevAt) / 1000;
  // A counter that went down was reset (a shard moved or the node restarted): no rate rather than a negative one.
  const rate = (a: number, b: number) => (b >= a ? (b - a) / s : 0);
  return {
    indexing: rate(prev.indexing.total, cur.indexing.total),
    search: rate(prev.search.queries, cur.search.queries),
    docs: (cur.docs - prev.docs) / s,
    merges: rate(prev.merges.total, cur.merges.total),
    seconds: s,
  };
}

// --- the template that matches an index --------------------------------------------------------

export interface IndexTemplateInfo {
  name: string;
  indexPatterns: string[];
  priority: number;
  composedOf: string[];
  dataStream: boolean;
}

/** GET /_index_template (filtered to names, patterns, priority and composed_of). */
export function parseIndexTemplates(body: any): IndexTemplateInfo[] {
  return (body?.index_templates ?? []).map((t: any) => ({
    name: String(t.name),
    indexPatterns: [t.index_template?.index_patterns ?? []].flat().map(String),
    priority: num(t.index_template?.priority),
    composedOf: (t.index_template?.composed_of ?? []).map(String),
    dataStream: t.index_template?.data_stream !== undefined,
  }));
}

/** Elasticsearch's index pattern match: `*` stands for any text, nothing else is special. */
export function globMatches(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  if (!name.startsWith(parts[0]) || !name.endsWith(parts.at(-1)!)) return false;
  let at = parts[0].length;
  for (const p of parts.slice(1, -1)) {
    const i = name.indexOf(p, at);
    if (i < 0) return false;
    at = i + p.length;
  }
  return at <= name.length - parts.at(-1)!.length;
}

export interface TemplateMatch {
  /** The index template Elasticsearch would apply to an index of this name (highest priority), or null. */
  template: IndexTemplateInfo | null;
  /** Other templates whose patterns match too, at lower priority (ES's `overlapping`). */
  overlapping: { name: string; indexPatterns: string[] }[];
  /** The settings the template (with its component templates) gives a new index, flattened. */
  settings: FlatSettings;
  /** Fields the template's composed mapping defines. */
  mappingFields: number;
  aliases: string[];
}

/**
 * POST /_index_template/_simulate_index/{index} (ES's own composition of the settings, mappings and
 * aliases) with the templates list, which names the template: the simulation does not, and the
 * highest-priority template whose pattern matches is the one Elasticsearch picks.
 */
export function templateMatch(index: string, simulated: any, templates: IndexTemplateInfo[]): TemplateMatch {
  const matching = templates
    .filter((t) => !t.dataStream && t.indexPatterns.some((p) => globMatches(p, index)))
    .sort((a, b) => b.priority - a.priority || compareText(a.name, b.name));
  const t = simulated?.template ?? {};
  return {
    template: matching[0] ?? null,
    overlapping: (simulated?.overlapping ?? []).map((o: any) => ({
      name: String(o.name),
      indexPatterns: [o.index_patterns ?? []].flat().map(String),
    })),
    settings: flatten(t.settings ?? {}),
    mappingFields: mappingFields(t.mappings).length,
    aliases: Object.keys(t.aliases ?? {}).sort(),
  };
}

/** The template's settings next to the index's own value where they differ ("index.number_of_replicas": template 0, index 1). */
export function templateDrift(match: TemplateMatch, index: FlatSettings): { key: string; template: string; index: string | undefined }[] {
  return Object.keys(match.settings)
    .sort()
    .filter((k) => index[k] !== match.settings[k])
    .map((k) => ({ key: k, template: match.settings[k], index: index[k] }));
}

// --- _cat -------------------------------------------------------------------------------------

export interface CatCommand {
  /** What `shardeck cat NAME` takes: the path after /_cat/ up to its first parameter (e.g. "shards", "ml/datafeeds"). */
  name: string;
  /** The node's own lines for it (/_cat/shards, /_cat/shards/{index}). */
  paths: string[];
  /** Takes a target after the name (/_cat/shards/{index}). */
  takesTarget: boolean;
}

/** GET /_cat (plain text: "=^.^=" then one /_cat/... line per command and variant). */
export function parseCatCommands(textBody: string): CatCommand[] {
  const byName = new Map<string, CatCommand>();
  for (const line of String(textBody ?? '').split('\n')) {
    const path = line.trim();
    if (!path.startsWith('/_cat/')) continue;
    const segments = path.slice('/_cat/'.length).split('/');
    const firstParam = segments.findIndex((s) => s.startsWith('{'));
    const name = (firstParam < 0 ? segments : segments.slice(0, firstParam)).join('/');
    const c = byName.get(name) ?? { name, paths: [], takesTarget: false };
    c.paths.push(path);
    if (firstParam >= 0) c.takesTarget = true;
    byName.set(name, c);
  }
  return [...byName.values()].sort((a, b) => compareText(a.name, b.name));
}

export interface CatColumn {
  name: string;
  aliases: string[];
  description: string;
}

/** GET /_cat/{name}?help (plain text: "name | aliases | description" per line). */
export function parseCatHelp(textBody: string): CatColumn[] {
  return String(textBody ?? '')
    .split('\n')
    .map((l) => l.split('|').map((p) => p.trim()))
    .filter((p) => p.length >= 3 && p[0])
    .map(([name, aliases, description]) => ({
      name,
      aliases: aliases
        ? aliases
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean)
        : [],
      description,
    }));
}

/** Columns given with --columns that the command does not know (by name or alias; `*` patterns are ES's own). */
export function unknownColumns(requested: readonly string[], known: readonly CatColumn[]): string[] {
  const names = new Set(known.flatMap((c) => [c.name, ...c.aliases]));
  return requested.filter((r) => !r.includes('*') && !names.has(r));
}

/** "h1,h2" as a list; empty parts are a mistake of the operator, reported by the caller. */
export function splitColumns(raw: string): string[] {
  return raw.split(',').map((c) => c.trim());
}

/** Rows of a _cat answer as aligned text columns (the order of `columns`, else of the first row). */
export function catTable(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string[] {
  const cols = columns?.length ? [...columns] : Object.keys(rows[0] ?? {});
  // Each cell one line: a tab or line break in a name is shown escaped, as the console shows it.
  const cells = rows.map((r) => cols.map((c) => (r[c] === null || r[c] === undefined ? '' : displayText(text(r[c])))));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(cols), ...cells.map(line)];
}

/** Whether an expression names exactly one index (no wildcard, no list, no exclusion). */
export function isSingleIndex(expr: string): boolean {
  return expr !== '' && !/[*?, ]/.test(expr) && !expr.startsWith('-') && expr !== '_all';
}
