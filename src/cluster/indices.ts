// Reads of indices beyond the live panes: what an expression matches, their settings, the index
// template, counts and samples of a query, and the retention leases a merge waits for.
import { type SampleDoc } from '../domain/delete/plan';
import { MODIFIED_AT, SOURCES, type Query } from '../domain/delete/query';
import { shardsRetainingDeletes } from '../domain/maintenance/merge';
import { FIELD_LIMIT_FILTER, FIELD_MAPPING_FILTER, fieldCounts, type FieldCount } from '../domain/inspect/field-limits';
import { ConnError, getJson, postJson, type EsTransport } from './connection';

const at = (expr: string, api: string) => `/${encodeURIComponent(expr)}/${api}`;

/** Every index but the hidden and system ones that start with a dot (*,-.*): reads over all indices never touch a system index. */
const NOT_DOT = '*,-.*';

export function indicesApi(es: EsTransport) {
  return {
    /**
     * The concrete indices an expression matches, hidden ones included; null when Elasticsearch says
     * a named index does not exist.
     */
    async resolveIndices(expr: string): Promise<string[] | null> {
      const m = await this.resolveIndexUuids(expr);
      return m ? [...m.keys()] : null;
    },

    /** The same, with each index's UUID (a name deleted and re-created is another index); null as above. */
    async resolveIndexUuids(expr: string): Promise<Map<string, string> | null> {
      try {
        const rows = await getJson<{ index: string; uuid: string }[]>(es, `/_cat/indices/${encodeURIComponent(expr)}`, {
          format: 'json',
          h: 'index,uuid',
          expand_wildcards: 'all',
        });
        return new Map(rows.map((r) => [r.index, r.uuid]));
      } catch (e) {
        if (e instanceof ConnError && e.status === 404 && e.esType === 'index_not_found_exception') return null;
        throw e;
      }
    },

    /**
     * The uuid of each named index (where its shards live on disk: <path.data>/indices/<uuid>).
     * Read when needed, not polled: the Indices pane does not show it.
     */
    async indexUuids(names: readonly string[]): Promise<Map<string, string>> {
      if (names.length === 0) return new Map();
      const rows = await getJson<{ index: string; uuid: string }[]>(es, `/_cat/indices/${names.map(encodeURIComponent).join(',')}`, {
        format: 'json',
        h: 'index,uuid',
        expand_wildcards: 'all',
      });
      return new Map(rows.map((r) => [r.index, r.uuid]));
    },

    /**
     * Every index's mapped field count against its index.mapping.total_fields.limit (fullest first).
     * Read when asked (the field-limits command, the doctor), never polled: the mappings of every
     * index travel (only their properties and runtime fields), and the limit only where it is set.
     */
    async fieldCounts(): Promise<FieldCount[]> {
      const [mappings, limits] = await Promise.all([
        // Every index but the dot ones: a system index (.tasks) read here would be logged as an access to it (issue 47).
        getJson(es, `/${NOT_DOT}/_mapping`, { filter_path: FIELD_MAPPING_FILTER, expand_wildcards: 'all' }),
        getJson(es, `/${NOT_DOT}/_settings/index.mapping.total_fields.limit`, { filter_path: FIELD_LIMIT_FILTER, expand_wildcards: 'all' }),
      ]);
      return fieldCounts(mappings, limits);
    },

    /** number_of_replicas of each index an expression matches. */
    async replicasOf(expr: string): Promise<Record<string, number>> {
      const body = await getJson<Record<string, { settings: Record<string, string> }>>(es, at(expr, '_settings/index.number_of_replicas'), {
        flat_settings: 'true',
        expand_wildcards: 'all',
      });
      return Object.fromEntries(Object.entries(body).map(([i, v]) => [i, Number(v.settings['index.number_of_replicas'])]));
    },

    /** The index template's own definition (index_template of GET _index_template/<name>), or null. */
    async indexTemplate(name: string): Promise<Record<string, unknown> | null> {
      try {
        const body = await getJson<{ index_templates: { name: string; index_template: Record<string, unknown> }[] }>(
          es,
          `/_index_template/${encodeURIComponent(name)}`,
        );
        return body.index_templates.find((t) => t.name === name)?.index_template ?? null;
      } catch (e) {
        if (e instanceof ConnError && e.status === 404) return null;
        throw e;
      }
    },

    /**
     * index.refresh_interval of an index (its own or the default, e.g. "1s"); with several indices,
     * the distinct values joined. How far a count without a refresh may lag behind.
     */
    async refreshInterval(expr: string): Promise<string | null> {
      const body = await getJson<Record<string, { settings?: Record<string, string>; defaults?: Record<string, string> }>>(
        es,
        at(expr, '_settings/index.refresh_interval'),
        {
          flat_settings: 'true',
          include_defaults: 'true',
          expand_wildcards: 'all',
        },
      );
      const values = new Set(
        Object.values(body)
          .map((i) => i.settings?.['index.refresh_interval'] ?? i.defaults?.['index.refresh_interval'])
          .filter(Boolean),
      );
      return values.size ? [...values].join(', ') : null;
    },

    /** The documents a query matches (no query: all of them). */
    async count(expr: string, query?: Query): Promise<number> {
      const body =
        query === undefined
          ? await getJson<{ count: number }>(es, at(expr, '_count'))
          : await postJson<{ count: number }>(es, at(expr, '_count'), { query });
      return Number(body.count);
    },

    /** A page of the documents a query matches, oldest first. */
    async samples(expr: string, query: Query, size: number, from: number): Promise<SampleDoc[]> {
      const page = await postJson<any>(es, at(expr, '_search'), {
        query,
        size,
        from,
        track_total_hits: false,
        _source: [MODIFIED_AT, SOURCES, 'title'],
        sort: [{ [MODIFIED_AT]: { order: 'asc', unmapped_type: 'date' } }, '_doc'],
      });
      return (page.hits?.hits ?? []).map((h: any) => ({
        index: h._index,
        id: h._id,
        modifiedAt: h._source?.[MODIFIED_AT] ?? null,
        sources: [h._source?.[SOURCES] ?? []].flat().map(String),
        title: h._source?.title ?? null,
      }));
    },

    /** Shard copies of the indices whose retention leases still hold deleted documents back from a merge. */
    async retainingShards(expr: string): Promise<number> {
      const stats = await getJson(es, at(expr, '_stats/docs'), {
        level: 'shards',
        expand_wildcards: 'all',
        filter_path: 'indices.*.shards.*.seq_no.max_seq_no,indices.*.shards.*.retention_leases.leases.retaining_seq_no',
      });
      return shardsRetainingDeletes(stats);
    },
  };
}
