// The inspect reads: an index's settings, mappings, stats and shards, the index template that
// matches it, and the _cat commands. Every request is built here (INSPECT_REQUESTS) so the index
// detail can show it as a curl line and dev/record-detail-fixtures.ts can replay it. All reads: the
// template simulation is a POST but changes nothing, so it does not go through the guard.
import {
  groupMappings,
  parseCatCommands,
  parseCatHelp,
  parseIndexSettings,
  parseIndexStats,
  parseIndexTemplates,
  templateMatch,
  type CatColumn,
  type CatCommand,
  type IndexSettings,
  type MappingGroup,
  type StatsReport,
  type TemplateMatch,
} from '../domain/inspect/inspect';
import { aliasesByIndex, type IndexAlias } from '../domain/maintenance/aliases';
import { parseCatShards } from '../domain/parse';
import type { ShardRow } from '../domain/types';
import { ConnError, getJson, postJson, type EsTransport } from './connection';
import { RESOURCES } from './resources';

/** A read as the index detail shows it (method, path, query string): the simulation is a POST. */
export interface InspectRequest {
  method: 'GET' | 'POST';
  path: string;
  querystring: Record<string, string>;
}

const enc = encodeURIComponent;

const STATS_METRICS = 'docs,store,segments,merge,indexing,search,refresh,flush';
const STATS_FILTER = [
  '_all.total.docs',
  '_all.total.store.size_in_bytes',
  '_all.primaries.store.size_in_bytes',
  '_all.total.segments.count',
  '_all.total.merges',
  '_all.total.indexing',
  '_all.total.search',
  '_all.total.refresh.total',
  '_all.total.flush.total',
  'indices.*.health',
  'indices.*.status',
  'indices.*.total.docs',
  'indices.*.total.store.size_in_bytes',
  'indices.*.primaries.store.size_in_bytes',
  'indices.*.total.segments.count',
  'indices.*.total.merges',
  'indices.*.total.indexing',
  'indices.*.total.search',
  'indices.*.total.refresh.total',
  'indices.*.total.flush.total',
].join(',');

export const INSPECT_REQUESTS = {
  settings: (expr: string, all = false): InspectRequest => ({
    method: 'GET',
    path: `/${enc(expr)}/_settings`,
    querystring: { flat_settings: 'true', expand_wildcards: 'all', ...(all ? { include_defaults: 'true' } : {}) },
  }),
  mappings: (expr: string): InspectRequest => ({ method: 'GET', path: `/${enc(expr)}/_mapping`, querystring: { expand_wildcards: 'all' } }),
  aliases: (index: string): InspectRequest => ({ method: 'GET', path: `/${enc(index)}/_alias`, querystring: { expand_wildcards: 'all' } }),
  /** No expression: the whole node (GET /_stats). */
  stats: (expr?: string): InspectRequest => ({
    method: 'GET',
    path: expr === undefined ? `/_stats/${STATS_METRICS}` : `/${enc(expr)}/_stats/${STATS_METRICS}`,
    querystring: { expand_wildcards: 'all', filter_path: STATS_FILTER },
  }),
  shards: (index: string): InspectRequest => ({ ...RESOURCES.shards.request, path: `/_cat/shards/${enc(index)}` }),
  templates: (): InspectRequest => ({
    method: 'GET',
    path: '/_index_template',
    querystring: {
      filter_path:
        'index_templates.name,index_templates.index_template.index_patterns,index_templates.index_template.priority,index_templates.index_template.composed_of,index_templates.index_template.data_stream',
    },
  }),
  simulate: (index: string): InspectRequest => ({
    method: 'POST',
    path: `/_index_template/_simulate_index/${enc(index)}`,
    querystring: {},
  }),
  catList: (): InspectRequest => ({ method: 'GET', path: '/_cat', querystring: {} }),
  catHelp: (name: string): InspectRequest => ({
    method: 'GET',
    path: `/_cat/${name.split('/').map(enc).join('/')}`,
    querystring: { help: 'true' },
  }),
  cat: (name: string, target?: string, columns?: readonly string[]): InspectRequest => ({
    method: 'GET',
    path: `/_cat/${name.split('/').map(enc).join('/')}${target ? `/${enc(target)}` : ''}`,
    querystring: { format: 'json', bytes: 'b', ...(columns?.length ? { h: columns.join(',') } : {}) },
  }),
};

/** The request of each section of the index detail (its curl line). */
export function detailRequests(index: string): Record<'stats' | 'settings' | 'mappings' | 'shards' | 'template', InspectRequest> {
  return {
    stats: INSPECT_REQUESTS.stats(index),
    settings: INSPECT_REQUESTS.settings(index, true),
    mappings: INSPECT_REQUESTS.mappings(index),
    shards: INSPECT_REQUESTS.shards(index),
    template: INSPECT_REQUESTS.simulate(index),
  };
}

/** Sends one inspect request. */
export function send<T = any>(es: EsTransport, r: InspectRequest, signal?: AbortSignal): Promise<T> {
  return r.method === 'GET' ? getJson<T>(es, r.path, r.querystring, signal) : postJson<T>(es, r.path, undefined, r.querystring);
}

const notFound = (e: unknown) =>
  e instanceof ConnError && e.status === 404 && (e.esType === 'index_not_found_exception' || e.esType === undefined);

/** null instead of a 404 "no such index". */
async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (notFound(e)) return null;
    throw e;
  }
}

export function inspectApi(es: EsTransport) {
  return {
    /** Settings of each index an expression matches (with Elasticsearch's defaults when `all`), or null when none exists. */
    async indexSettings(expr: string, all = false, signal?: AbortSignal): Promise<IndexSettings[] | null> {
      const body = await orNull(send(es, INSPECT_REQUESTS.settings(expr, all), signal));
      return body === null ? null : parseIndexSettings(body);
    },

    /** The raw mapping of each index an expression matches (callers resolve and count first), or null. */
    async indexMappings(expr: string, signal?: AbortSignal): Promise<Record<string, { mappings?: unknown }> | null> {
      return orNull(send(es, INSPECT_REQUESTS.mappings(expr), signal));
    },

    /** The aliases of one index (and which it is the write index of), or null when it does not exist. */
    async aliasesOfIndex(index: string, signal?: AbortSignal): Promise<IndexAlias[] | null> {
      const body = await orNull(send(es, INSPECT_REQUESTS.aliases(index), signal));
      return body === null ? null : (aliasesByIndex(body)[index] ?? []);
    },

    /** Mappings grouped: indices with identical mappings share one group. */
    async mappingGroups(expr: string): Promise<MappingGroup[] | null> {
      const body = await orNull(send(es, INSPECT_REQUESTS.mappings(expr)));
      return body === null ? null : groupMappings(body);
    },

    /** Index stats of an expression (or of the whole node), or null when a named index does not exist. */
    async indexStats(expr?: string, signal?: AbortSignal): Promise<StatsReport | null> {
      const body = await orNull(send(es, INSPECT_REQUESTS.stats(expr), signal));
      return body === null ? null : parseIndexStats(body);
    },

    /** The shard copies of one index. */
    async indexShards(index: string, signal?: AbortSignal): Promise<ShardRow[] | null> {
      const body = await orNull(send(es, INSPECT_REQUESTS.shards(index), signal));
      return body === null ? null : parseCatShards(body);
    },

    /** The index template that matches an index name, and what Elasticsearch composes from it. */
    async templateFor(index: string, signal?: AbortSignal): Promise<TemplateMatch> {
      const [simulated, templates] = await Promise.all([
        send(es, INSPECT_REQUESTS.simulate(index), signal),
        send(es, INSPECT_REQUESTS.templates(), signal),
      ]);
      return templateMatch(index, simulated, parseIndexTemplates(templates));
    },

    /** The _cat commands the node offers. */
    async catCommands(): Promise<CatCommand[]> {
      return parseCatCommands(await send<string>(es, INSPECT_REQUESTS.catList()));
    },

    /** The columns of one _cat command (its ?help). */
    async catColumns(name: string): Promise<CatColumn[]> {
      return parseCatHelp(await send<string>(es, INSPECT_REQUESTS.catHelp(name)));
    },

    /** One _cat command as JSON rows; null when its target does not exist. */
    async cat(name: string, target?: string, columns?: readonly string[]): Promise<Record<string, unknown>[] | null> {
      return orNull(send(es, INSPECT_REQUESTS.cat(name, target, columns)));
    },
  };
}
