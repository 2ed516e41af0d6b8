// Reads of documents (seed: GET /{index}/_doc/{item_id}, /{index}/_search with size and a body):
// one document by id, a page of a search with its exact total, and what a search is checked
// against before it is sent (the one index a name means, its max_result_window, its mapped
// fields). Each answer carries the request as it was sent, for the curl line the console shows.
import {
  DEFAULT_MAX_RESULT_WINDOW,
  mappedFields,
  searchBody,
  type RawHit,
  type SearchTotal,
  type ShownRequest,
} from '../domain/inspect/documents';
import type { Query } from '../domain/delete/query';
import { ConnError, getJson, postJson, read, type EsTransport } from './connection';

const at = (index: string, api: string) => `/${encodeURIComponent(index)}/${api}`;

export type DocumentLookup =
  { found: true; doc: RawHit; request: ShownRequest } | { found: false; indexMissing: boolean; request: ShownRequest };

export interface SearchPage {
  total: SearchTotal;
  hits: RawHit[];
  tookMs: number;
  request: ShownRequest;
}

export interface IndexFacts {
  /** The concrete index the name (or alias) stands for. */
  index: string;
  maxResultWindow: number;
  /** Every mapped field path, meta fields included. */
  fields: Set<string>;
}

export function documentsApi(es: EsTransport) {
  return {
    /** GET /{index}/_doc/{id}: the document, or whether the index or only the id is missing. */
    async getDocument(index: string, id: string): Promise<DocumentLookup> {
      const request: ShownRequest = {
        method: 'GET',
        path: `/${encodeURIComponent(index)}/_doc/${encodeURIComponent(id)}`,
        querystring: {},
      };
      try {
        const { body } = await read<RawHit & { found: boolean }>(es, {
          method: 'GET',
          path: request.path,
          querystring: request.querystring,
        });
        return body.found ? { found: true, doc: body, request } : { found: false, indexMissing: false, request };
      } catch (e) {
        if (e instanceof ConnError && e.status === 404)
          return { found: false, indexMissing: e.esType === 'index_not_found_exception', request };
        throw e;
      }
    },

    /** A page of a query's hits with the exact total, oldest modified_at first. */
    async searchDocuments(index: string, query: Query, size: number, from: number): Promise<SearchPage> {
      const request: ShownRequest = { method: 'POST', path: at(index, '_search'), querystring: {}, body: searchBody(query, size, from) };
      const body = await postJson<{ took: number; hits: { total: SearchTotal; hits: RawHit[] } }>(es, request.path, request.body);
      return { total: body.hits.total, hits: body.hits.hits, tookMs: body.took, request };
    },

    /**
     * What a search of one index is checked against: the concrete indices the name means (null:
     * none), and for one index its index.max_result_window and mapped fields.
     */
    async indexFacts(name: string): Promise<{ matched: string[] | null; facts?: IndexFacts }> {
      let matched: string[];
      try {
        matched = (
          await getJson<{ index: string }[]>(es, `/_cat/indices/${encodeURIComponent(name)}`, {
            format: 'json',
            h: 'index',
            expand_wildcards: 'all',
          })
        ).map((r) => r.index);
      } catch (e) {
        if (e instanceof ConnError && e.status === 404) return { matched: null };
        throw e;
      }
      if (matched.length !== 1) return { matched };
      const index = matched[0];
      const [settings, mapping] = await Promise.all([
        getJson<Record<string, { settings?: Record<string, string>; defaults?: Record<string, string> }>>(
          es,
          at(index, '_settings/index.max_result_window'),
          {
            flat_settings: 'true',
            include_defaults: 'true',
          },
        ),
        getJson<Record<string, { mappings: unknown }>>(es, at(index, '_mapping')),
      ]);
      const s = settings[index];
      const window = Number(s?.settings?.['index.max_result_window'] ?? s?.defaults?.['index.max_result_window']);
      return {
        matched,
        facts: {
          index,
          maxResultWindow: Number.isFinite(window) && window > 0 ? window : DEFAULT_MAX_RESULT_WINDOW,
          fields: mappedFields(mapping[index]?.mappings),
        },
      };
    },
  };
}
