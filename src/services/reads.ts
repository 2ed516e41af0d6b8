// One read of one resource: the request from cluster/requests.ts, parsed into domain types.
// Shared by the poller (on a timer) and the subcommands (once).
import type { Client } from '@elastic/elasticsearch';
import { read } from '../cluster/connection';
import { READS, type ReadName } from '../cluster/requests';
import {
  parseCatAllocation,
  parseCatIndices,
  parseCatNodes,
  parseCatShards,
  parseClusterHealth,
  parseClusterSettings,
  parseHealthReport,
  parseIndexBlocks,
  parseNodeSearchStats,
} from '../domain/parse';
import type { ResourceName, Snapshots } from '../store/console';

export type ResourceData<K extends ResourceName> = NonNullable<Snapshots[K]['data']>;

interface Resource<K extends ResourceName> {
  read: ReadName;
  parse: (body: any) => ResourceData<K>;
  /** Multiple of the base poll interval; settings change rarely. */
  every: number;
}

export const RESOURCES: { [K in ResourceName]: Resource<K> } = {
  health: { read: 'health', parse: parseClusterHealth, every: 1 },
  healthReport: { read: 'healthReport', parse: parseHealthReport, every: 2 },
  indices: { read: 'indices', parse: parseCatIndices, every: 1 },
  shards: { read: 'shards', parse: parseCatShards, every: 1 },
  allocation: { read: 'allocation', parse: parseCatAllocation, every: 1 },
  settings: { read: 'settings', parse: parseClusterSettings, every: 6 },
  blocks: { read: 'blocks', parse: parseIndexBlocks, every: 2 },
  nodes: { read: 'nodes', parse: parseCatNodes, every: 1 },
  nodeSearch: { read: 'nodeSearch', parse: parseNodeSearchStats, every: 1 },
};

export async function readResource<K extends ResourceName>(
  client: Client,
  url: string,
  name: K,
  signal?: AbortSignal,
): Promise<{ data: ResourceData<K>; bytes: number }> {
  const { body, bytes } = await read(client, url, READS[RESOURCES[name].read], signal);
  return { data: RESOURCES[name].parse(body), bytes };
}
