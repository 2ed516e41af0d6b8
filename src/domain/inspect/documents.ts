// Documents of one index (seed: GET /{index}/_doc/{item_id}, GET/POST /{index}/_search with
// size and a body): what the operator asked for, checked before anything is sent (one index, a
// page inside index.max_result_window, fields the mapping has), and the hits as rows.
import { formatCount } from '../text/format';
import { NOT_IN_INDEX_NAMES } from '../naming';
import { pathWithQuery } from '../mutation/plan';
import { curlLine, type PreviewConnection } from '../mutation/preview';
import {
  MODIFIED_AT,
  olderThanQuery,
  parseOlderThan,
  parseQueryBody,
  parseUntil,
  SOURCES,
  sourceQuery,
  untilQuery,
  type Parsed,
  type Query,
} from '../delete/query';

/** Hits per page of `shardeck search` unless --size says otherwise (Elasticsearch's own default). */
export const DEFAULT_SIZE = 10;

/** Elasticsearch's default index.max_result_window: from + size may not go beyond it. */
export const DEFAULT_MAX_RESULT_WINDOW = 10_000;

/** The ways to say which documents: the seed's queries, a typed body, a file. */
export type DocQueryKind = 'olderThan' | 'until' | 'source' | 'body' | 'file';

export interface DocChoice {
  query: Query;
  /** The query in words ("modified_at up to and including 2026-01-31T23:59:59.999Z"). */
  described: string;
  /** Keys of a body beside "query" that are not sent. */
  ignored?: string[];
}

/**
 * The query of one kind from its text (a file's text for 'file'), flags named as the CLI names
 * them. `now` resolves ages and refuses future instants.
 */
export function docChoice(kind: DocQueryKind, text: string, now: number, name = 'the typed body'): Parsed<DocChoice> {
  if (kind === 'olderThan') {
    const at = parseOlderThan(text, now);
    return at.ok ? { ok: true, value: { query: olderThanQuery(at.value), described: `modified_at older than ${at.value}` } } : at;
  }
  if (kind === 'until') {
    const at = parseUntil(text, now);
    return at.ok ? { ok: true, value: { query: untilQuery(at.value), described: `modified_at up to and including ${at.value}` } } : at;
  }
  if (kind === 'source') {
    const q = sourceQuery(text.trim());
    return q.ok ? { ok: true, value: { query: q.value, described: `documents of source ${text.trim()}` } } : q;
  }
  const body = parseQueryBody(text, name);
  if (!body.ok) return body;
  const ignored = body.value.ignored;
  return {
    ok: true,
    value: {
      query: body.value.query,
      described: `the query of ${name}${ignored.length ? ` (only "query" is used; ignored: ${ignored.join(', ')})` : ''}`,
      ignored,
    },
  };
}

/**
 * One concrete index, as _doc and a paged search need: no pattern, list, exclusion or _all. Null
 * when the name can be sent as it is.
 */
export function checkOneIndex(name: string): string | null {
  const t = name.trim();
  if (t === '') return 'no index given: name one index such as service_v9_alpha';
  if (/[*?]/.test(t) || t.includes(',') || t === '_all')
    return `"${t}" names several indices: give exactly one index (the Indices pane or shardeck cat indices lists them)`;
  if (t.startsWith('-') || t.startsWith('_')) return `"${t}" is not an index name: give exactly one index such as service_v9_alpha`;
  if (NOT_IN_INDEX_NAMES.test(t)) return `"${t}" contains a character index names cannot have: check the spelling`;
  return null;
}

/** The index an alias or name resolved to must be one: else which ones it named. */
export function judgeOneIndex(name: string, matched: string[] | null): Parsed<string> {
  if (matched === null || matched.length === 0)
    return { ok: false, error: `no index "${name}" on this cluster: check the name (shardeck cat indices or the Indices pane lists them)` };
  if (matched.length > 1)
    return {
      ok: false,
      error: `"${name}" names ${matched.length} indices (${matched.slice(0, 3).join(', ')}${matched.length > 3 ? ', …' : ''}): give exactly one of them`,
    };
  return { ok: true, value: matched[0] };
}

/** A document id as the CLI and the console take it: not empty, not only spaces. */
export function checkDocId(id: string | undefined): string | null {
  if (id === undefined || id.trim() === '') return 'no document id given: shardeck get INDEX ID (the _id a search shows)';
  if (id.length > 512) return `the id is ${id.length} bytes long; Elasticsearch ids are at most 512 bytes: check it`;
  return null;
}

/** --size / --from: a whole number, at least `min`. */
export function parseCount(raw: string, flag: string, min: number): Parsed<number> {
  const t = raw.trim();
  if (!/^\d+$/.test(t) || Number(t) < min || !Number.isSafeInteger(Number(t)))
    return {
      ok: false,
      error: `${flag} "${raw}" is not a whole number${min > 0 ? ` of at least ${min}` : ''}: give e.g. ${flag} ${min > 0 ? 20 : 0}`,
    };
  return { ok: true, value: Number(t) };
}

/** from + size beyond index.max_result_window is refused by Elasticsearch: say it before sending. */
export function windowError(index: string, from: number, size: number, maxWindow: number): string | null {
  if (from + size <= maxWindow) return null;
  const what = from > 0 ? `--from ${from} + --size ${size} = ${from + size}` : `--size ${size}`;
  return `${what} is above index.max_result_window of ${index} (${maxWindow}): page with --from and a --size of at most ${Math.max(0, maxWindow - from)}; nothing was sent`;
}

// --- fields of a query and of a mapping -------------------------------------------------------

/** Queries whose object keys are field names ({term: {field: ...}}). */
const FIELD_KEYED = new Set([
  'term',
  'terms',
  'range',
  'match',
  'match_phrase',
  'match_phrase_prefix',
  'match_bool_prefix',
  'prefix',
  'wildcard',
  'regexp',
  'fuzzy',
  'term_set',
  'geo_distance',
  'geo_bounding_box',
  'geo_shape',
  'intervals',
  'span_term',
]);
/** Queries that name their field in a "field" key. */
const FIELD_VALUED = new Set(['exists', 'distance_feature']);
/** Keys of field-keyed queries that are options, not fields. */
const OPTION_KEYS = new Set(['boost', '_name', 'validation_method', 'distance', 'type', 'ignore_unmapped']);

/**
 * The field names a query body names, found by walking it (bool clauses, nested, constant_score,
 * and the field-keyed leaf queries). Fields inside wildcard patterns (query_string) are not named.
 */
export function queryFields(query: unknown): string[] {
  const found = new Set<string>();
  const walk = (q: unknown): void => {
    if (Array.isArray(q)) return q.forEach(walk);
    if (q === null || typeof q !== 'object') return;
    for (const [k, v] of Object.entries(q as Record<string, unknown>)) {
      if (FIELD_KEYED.has(k) && v && typeof v === 'object' && !Array.isArray(v)) {
        for (const f of Object.keys(v)) if (!OPTION_KEYS.has(f)) found.add(f);
      } else if (FIELD_VALUED.has(k) && v && typeof v === 'object') {
        const f = (v as Record<string, unknown>).field;
        if (typeof f === 'string') found.add(f);
      } else if (k === 'multi_match' && v && typeof v === 'object') {
        for (const f of ((v as { fields?: unknown }).fields as unknown[]) ?? [])
          if (typeof f === 'string' && !f.includes('*')) found.add(f.replace(/\^[\d.]+$/, ''));
      } else if (v && typeof v === 'object') walk(v);
    }
  };
  walk(query);
  return [...found];
}

/** Fields every index has without a mapping of its own. */
const META_FIELDS = ['_id', '_index', '_source', '_routing', '_seq_no', '_version', '_ignored', '_tier', '_doc_count'];

/** Every field path of a mapping (GET /{index}/_mapping: properties, object paths, multi-fields). */
export function mappedFields(mappings: unknown): Set<string> {
  const out = new Set<string>(META_FIELDS);
  const walk = (props: unknown, prefix: string): void => {
    if (!props || typeof props !== 'object') return;
    for (const [name, def] of Object.entries(props as Record<string, any>)) {
      const p = prefix + name;
      out.add(p);
      if (def?.properties) walk(def.properties, `${p}.`);
      if (def?.fields) walk(def.fields, `${p}.`);
    }
  };
  walk((mappings as any)?.properties, '');
  return out;
}

/**
 * The fields a query names that the index does not map. Elasticsearch answers such a query with
 * zero hits and no error, so it is said before anything is sent.
 */
export function unmappedFieldsError(index: string, query: Query, fields: Set<string>): string | null {
  const missing = queryFields(query).filter((f) => !fields.has(f) && !f.includes('*'));
  if (!missing.length) return null;
  const known = [...fields].filter((f) => !f.startsWith('_')).slice(0, 6);
  const names = missing.map((f) => `"${f}"`).join(', ');
  return `the query names ${missing.length === 1 ? 'field' : 'fields'} ${names}, which the mapping of ${index} does not have (it would match nothing, silently)${known.length ? `: mapped are ${known.join(', ')}${fields.size - META_FIELDS.length > known.length ? ', …' : ''}` : ''}; nothing was sent`;
}

// --- hits as rows ------------------------------------------------------------------------------

/** One search hit or fetched document, as Elasticsearch returns it. */
export interface RawHit {
  _index: string;
  _id: string;
  _source?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface HitRow {
  id: string;
  index: string;
  modifiedAt: string;
  sources: string;
  /** The other fields of _source as "name=value", shortest first, cut to a few. */
  fields: string;
}

/** A short text of any value (a long string or an object is cut; the JSON viewer shows it whole). */
export function shortValue(v: unknown, max = 40): string {
  const s = typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function hitRow(h: RawHit): HitRow {
  const src = h._source ?? {};
  const rest = Object.keys(src)
    .filter((k) => k !== MODIFIED_AT && k !== SOURCES)
    .slice(0, 4)
    .map((k) => `${k}=${shortValue(src[k], 30)}`);
  return {
    id: h._id,
    index: h._index,
    modifiedAt:
      typeof src[MODIFIED_AT] === 'string' ? src[MODIFIED_AT] : src[MODIFIED_AT] === undefined ? '-' : shortValue(src[MODIFIED_AT]),
    sources: [src[SOURCES] ?? []].flat().map(String).join(',') || '-',
    fields: rest.join('  '),
  };
}

export interface SearchTotal {
  value: number;
  /** "gte" when Elasticsearch stopped counting (never with track_total_hits: true). */
  relation: 'eq' | 'gte';
}

/** The body of a paged search: the query, exact total, oldest first (stable pages with from). */
export function searchBody(query: Query, size: number, from: number): Record<string, unknown> {
  return {
    query,
    size,
    from,
    track_total_hits: true,
    sort: [{ [MODIFIED_AT]: { order: 'asc', unmapped_type: 'date' } }, '_doc'],
  };
}

/** "1-10 of 1,234" for a page. */
export function pageText(from: number, shown: number, total: SearchTotal): string {
  const of = `${formatCount(total.value)}${total.relation === 'gte' ? '+' : ''}`;
  return shown === 0 ? `0 of ${of}` : `${formatCount(from + 1)}-${formatCount(from + shown)} of ${of}`;
}

// --- the request, as the operator would type it ------------------------------------------------

/** A read as it was sent: what the curl line and --json show. */
export interface ShownRequest {
  method: 'GET' | 'POST';
  path: string;
  querystring: Record<string, string>;
  body?: Record<string, unknown>;
}

/** "GET /idx/_doc/1" and the equivalent curl line (the password is asked by curl, never shown). */
export function requestLines(req: ShownRequest, conn: PreviewConnection): { request: string; curl: string } {
  return { request: `${req.method} ${pathWithQuery(req)}`, curl: curlLine(req, conn) };
}
