// Snapshots: which of every registered repository's snapshots hold an index.
import { snapshotsHolding, type SnapshotHolding } from '../domain/corruption/explain';
import { getJson, type EsTransport } from './connection';

export function snapshotsApi(es: EsTransport) {
  return {
    async snapshotsHolding(index: string): Promise<SnapshotHolding[]> {
      const repos = Object.keys(await getJson<Record<string, unknown>>(es, '/_snapshot'));
      const all = await Promise.all(
        repos.map(async (repo) =>
          snapshotsHolding(
            index,
            repo,
            await getJson(es, `/_snapshot/${encodeURIComponent(repo)}/_all`, {
              filter_path: 'snapshots.snapshot,snapshots.indices,snapshots.state,snapshots.end_time',
            }),
          ),
        ),
      );
      return all.flat();
    },
  };
}
