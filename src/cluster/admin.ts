// Reads for everyday administration (issue 43): the cluster settings with their defaults and each
// node's own settings, the indices a pattern matches with what the preview shows of them, aliases.
import { parseClusterSettings, type ClusterSettingsFacts } from '../domain/maintenance/cluster-settings';
import {
  lastWriteSearch,
  parseAliasRows,
  parseIndexFacts,
  parseLastWrites,
  type AliasRow,
  type IndexFacts,
} from '../domain/maintenance/index-admin';
import { parseCopies, type ShardCopy } from '../domain/maintenance/move-shard';
import { parseDangling, type DanglingIndex } from '../domain/maintenance/dangling';
import { allocationFilters, parseFilterNodes, type AllocationFilter } from '../domain/maintenance/allocation-filters';
import { getJson, postJson, type EsTransport } from './connection';

const list = (names: readonly string[]) => names.map(encodeURIComponent).join(',');

export function adminApi(es: EsTransport) {
  return {
    /** Every cluster setting set (persistent, transient), the defaults, and what each node's file sets. */
    async clusterSettingsFacts(): Promise<ClusterSettingsFacts> {
      const [settings, nodes] = await Promise.all([
        getJson(es, '/_cluster/settings', { include_defaults: 'true', flat_settings: 'true' }),
        getJson(es, '/_nodes/settings', { filter_path: 'nodes.*.name,nodes.*.settings' }),
      ]);
      return parseClusterSettings(settings, nodes);
    },
    /** Documents, size, status and hidden flag of these (concrete, existing) indices; `newestSnapshot` names the newest snapshot holding each. */
    async wholeIndexFacts(names: readonly string[], newestSnapshot: (index: string) => string | null): Promise<IndexFacts[]> {
      if (!names.length) return [];
      const [cat, settings, searched] = await Promise.all([
        getJson(es, `/_cat/indices/${list(names)}`, {
          format: 'json',
          h: 'index,uuid,status,health,docs.count,store.size',
          bytes: 'b',
          expand_wildcards: 'all',
        }),
        getJson(es, `/${list(names)}/_settings`, { expand_wildcards: 'all', filter_path: '*.settings.index.hidden' }),
        // The last write: the newest modified_at (closed indices are skipped: not searchable).
        postJson(es, `/${list(names)}/_search`, lastWriteSearch(names.length), {
          ignore_unavailable: 'true',
          expand_wildcards: 'all',
          filter_path: 'aggregations.by.buckets.key,aggregations.by.buckets.last.value',
        }).catch(() => ({})),
      ]);
      return parseIndexFacts(cat, settings, newestSnapshot, parseLastWrites(searched));
    },
    /** The copies of one index's shards, where each is and its state (a relocating one: where it goes). */
    async shardPlaces(index: string): Promise<ShardCopy[]> {
      return parseCopies(await getJson(es, `/_cat/shards/${encodeURIComponent(index)}`, { format: 'json', h: 'shard,prirep,state,node' }));
    },
    /** The names of the cluster's nodes. */
    async nodeNames(): Promise<string[]> {
      const rows = await getJson<{ name?: string }[]>(es, '/_cat/nodes', { format: 'json', h: 'name' });
      return rows.map((r) => String(r.name ?? '')).filter(Boolean);
    },
    /** What the deciders say of reroute commands, changing nothing (POST _cluster/reroute?dry_run=true&explain=true). */
    async rerouteDryRun(body: { commands: unknown[] }): Promise<unknown> {
      return postJson(es, '/_cluster/reroute', body, { dry_run: 'true', explain: 'true', filter_path: 'explanations' });
    },
    /** Every cluster and index level allocation filter, with the nodes each keeps shards off. */
    async allocationFilters(): Promise<AllocationFilter[]> {
      // Nested, not flat_settings, for the indices: filter_path cannot match dotted flat keys. Not the
      // dot (system) indices: reading those is a deprecated access Elasticsearch logs as such.
      const [cluster, indices, nodes] = await Promise.all([
        getJson(es, '/_cluster/settings', { flat_settings: 'true' }),
        getJson(es, '/*,-.*/_settings', { expand_wildcards: 'all', filter_path: '*.settings.index.routing.allocation' }),
        getJson(es, '/_nodes', { filter_path: 'nodes.*.name,nodes.*.host,nodes.*.ip,nodes.*.attributes' }),
      ]);
      return allocationFilters(cluster, indices, parseFilterNodes(nodes));
    },
    /** The dangling indices every node reports, with the names of the nodes holding each. */
    async danglingIndices(): Promise<DanglingIndex[]> {
      const [dangling, nodes] = await Promise.all([getJson(es, '/_dangling'), getJson(es, '/_nodes', { filter_path: 'nodes.*.name' })]);
      const names = Object.fromEntries(
        Object.entries((nodes as { nodes?: Record<string, { name?: string }> }).nodes ?? {}).map(([id, n]) => [id, String(n.name ?? id)]),
      );
      return parseDangling(dangling, names);
    },
    /** Every alias with its indices and write flag (hidden ones included). */
    async aliasRows(): Promise<AliasRow[]> {
      return parseAliasRows(
        await getJson(es, '/_cat/aliases', { format: 'json', h: 'alias,index,is_write_index', expand_wildcards: 'all' }),
      );
    },
  };
}
