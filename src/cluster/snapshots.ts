// Snapshots: repositories, their snapshots newest first, a snapshot's size and progress, restores
// in progress (_recovery), SLM policies, each node's path.repo, and which snapshots hold an index.
import type { SnapshotHolding } from '../domain/corruption/explain';
import { aliasesByIndex, type IndexAlias } from '../domain/maintenance/aliases';
import {
  holdingIndex,
  parseNodesPathRepo,
  parseRecovery,
  parseSlmPolicies,
  parseSnapshotStatus,
  parseSnapshots,
  slmMissing,
  type ShardRecovery,
  type SlmState,
  type SnapshotInfo,
  type SnapshotProgress,
  type SnapshotRepository,
} from '../domain/snapshots';
import { ConnError, getJson, type EsTransport } from './connection';
import { RESOURCES, type ResourceData } from './resources';

const seg = encodeURIComponent;

export function snapshotsApi(es: EsTransport) {
  // The pane's reads (cluster/resources.ts), asked once by a command: one request, one parser.
  const asResource = async <K extends 'snapshotRepositories' | 'runningSnapshots'>(name: K): Promise<ResourceData<K>> => {
    const r = RESOURCES[name];
    return r.parse(await getJson(es, r.request.path, r.request.querystring)) as ResourceData<K>;
  };
  const repositories = (): Promise<SnapshotRepository[]> => asResource('snapshotRepositories');
  const snapshots = async (repository: string): Promise<SnapshotInfo[]> =>
    parseSnapshots(
      await getJson(es, `/_snapshot/${seg(repository)}/_all`, { verbose: 'true', sort: 'start_time', order: 'desc' }),
      repository,
    );
  return {
    repositories,
    /** The repository's snapshots, newest first (verbose: shards, failures, times). */
    snapshots,
    /** One snapshot (verbose, with each index's shards and size), or undefined when the repository no longer has it. */
    async snapshotInfo(repository: string, snapshot: string): Promise<SnapshotInfo | undefined> {
      return parseSnapshots(
        await getJson(es, `/_snapshot/${seg(repository)}/${seg(snapshot)}`, { verbose: 'true', index_details: 'true' }),
        repository,
      )[0];
    },
    /** The aliases each of these indices has now (those that exist; missing ones are left out). */
    async indexAliases(indices: readonly string[]): Promise<Record<string, IndexAlias[]>> {
      if (!indices.length) return {};
      return aliasesByIndex(
        await getJson(es, `/${indices.map(seg).join(',')}/_alias`, { ignore_unavailable: 'true', expand_wildcards: 'all' }),
      );
    },
    /** One snapshot's size and progress (GET _snapshot/<repo>/<snap>/_status: costs the node, read for one at a time). */
    async snapshotStatus(repository: string, snapshot: string): Promise<SnapshotProgress | undefined> {
      return parseSnapshotStatus(await getJson(es, `/_snapshot/${seg(repository)}/${seg(snapshot)}/_status`))[0];
    },
    /** The snapshots running now, in every repository (GET _snapshot/_status). */
    runningSnapshots: (): Promise<SnapshotProgress[]> => asResource('runningSnapshots'),
    /** Shard recoveries (a restore's are type SNAPSHOT); only those running with activeOnly. */
    async recoveries(activeOnly: boolean, indices?: readonly string[]): Promise<ShardRecovery[]> {
      const path = indices?.length ? `/${indices.map(seg).join(',')}/_recovery` : '/_recovery';
      return parseRecovery(await getJson(es, path, activeOnly ? { active_only: 'true' } : {}));
    },
    /** SLM policies; a node without SLM (or a user who may not read them) is said, not thrown. */
    async slmPolicies(): Promise<SlmState> {
      try {
        return parseSlmPolicies(await getJson(es, '/_slm/policy'));
      } catch (e) {
        if (e instanceof ConnError && slmMissing(e.status))
          return { available: false, reason: `this node has no snapshot lifecycle management (GET _slm/policy: HTTP ${e.status})` };
        if (e instanceof ConnError && e.status === 403)
          return { available: false, reason: 'not allowed to read the SLM policies (needs the read_slm or manage_slm privilege)' };
        throw e;
      }
    },
    /** Each node's path.repo (where fs repositories may live). */
    async nodesPathRepo(): Promise<{ node: string; paths: string[] }[]> {
      return parseNodesPathRepo(await getJson(es, '/_nodes/settings', { filter_path: 'nodes.*.name,nodes.*.settings.path.repo' }));
    },
    /** The snapshots, in every registered repository, that hold a whole copy of the index. */
    async snapshotsHolding(index: string): Promise<SnapshotHolding[]> {
      const all = await Promise.all((await repositories()).map(async (r) => holdingIndex(await snapshots(r.name), index)));
      return all.flat().map((s) => ({
        repository: s.repository,
        snapshot: s.name,
        state: s.state,
        ...(s.endMs ? { endTime: new Date(s.endMs).toISOString() } : {}),
      }));
    },
  };
}
