// Everything about one index (shardeck xray, x on the Indices pane): its row, settings and
// mapping fields, aliases, shards with their nodes' disks, the templates, the snapshots holding it
// and the tasks running on it, read at once. domain/inspect/xray.ts makes the tree.
import { parseCatAllocation, parseCatIndices, parseCatShards, parseTasks } from '../domain/parse';
import type { XrayFacts } from '../domain/inspect/xray';
import { aliasesByIndex } from '../domain/maintenance/aliases';
import { ConnError, getJson, type EsTransport } from './connection';
import { RESOURCES } from './resources';
import { snapshotsApi } from './snapshots';
import { templatesApi } from './templates';

type Json = Record<string, any>;

const seg = encodeURIComponent;

export function xrayApi(es: EsTransport) {
  return {
    /** The facts of one index by its exact name; null when no index has that name. */
    async xray(index: string): Promise<XrayFacts | null> {
      // _cat/shards takes no expand_wildcards (a hidden index is found by its exact name anyway).
      const cat = (r: { path: string; querystring: Record<string, string> }, path: string) => getJson<Json[]>(es, path, r.querystring);
      let rows: Json[];
      try {
        rows = await cat(RESOURCES.indices.request, `/_cat/indices/${seg(index)}`);
      } catch (e) {
        if (e instanceof ConnError && e.status === 404) return null;
        throw e;
      }
      const row = parseCatIndices(rows).find((r) => r.name === index);
      if (!row) return null;
      const [settings, mapping, aliases, shards, disks, templates, tasks, snapshots] = await Promise.all([
        getJson<Json>(es, `/${seg(index)}/_settings`, { flat_settings: 'true', expand_wildcards: 'all' }),
        getJson<Json>(es, `/${seg(index)}/_mapping`, { expand_wildcards: 'all' }),
        getJson<Json>(es, `/${seg(index)}/_alias`, { expand_wildcards: 'all' }),
        cat(RESOURCES.shards.request, `/_cat/shards/${seg(index)}`),
        getJson<Json[]>(es, RESOURCES.allocation.request.path, RESOURCES.allocation.request.querystring),
        templatesApi(es).templates(),
        getJson<Json>(es, '/_tasks', { detailed: 'true', group_by: 'none' }),
        // No repository, or no right to list them: the tree says none were read, not that none hold it.
        snapshotsApi(es)
          .snapshotsHolding(index)
          .catch((e: Error) => ({ error: e.message })),
      ]);
      return {
        index,
        row,
        settings: (settings?.[index]?.settings ?? {}) as Record<string, string>,
        fields: Object.keys(mapping?.[index]?.mappings?.properties ?? {}),
        aliases: aliasesByIndex(aliases)[index] ?? [],
        shards: parseCatShards(shards),
        disks: parseCatAllocation(disks),
        templates,
        tasks: parseTasks(tasks),
        snapshots,
      };
    },
  };
}
