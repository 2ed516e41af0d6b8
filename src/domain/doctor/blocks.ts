// Blocks that refuse writes (issue 41): the cluster-wide cluster.blocks.read_only and
// read_only_allow_delete (every index), and an index's index.blocks.write or read_only. Each is
// critical and names the exact request that lifts it, for the indices it is on (never a pattern).
// The flood-stage block (index.blocks.read_only_allow_delete) stays with the disk checks
// (disk.read-only), whose unblock wizard lifts it once the disk is freed. Pure.
import type { ClusterSettingsView, IndexBlocks } from '../types';
import type { Finding } from './finding';
import { liftRequest } from '../refusal';

/** The most indices a finding names in its evidence and request (the rest are counted). */
const NAMED = 8;

function indexBlockFinding(
  id: string,
  setting: 'index.blocks.write' | 'index.blocks.read_only',
  blockId: number,
  indices: string[],
  what: string,
): Finding {
  const shown = indices.slice(0, NAMED);
  return {
    id,
    family: 'blocks',
    severity: 'critical',
    finding: `${indices.length} ${indices.length === 1 ? 'index has' : 'indices have'} ${setting}: ${what}`,
    evidence: shown.map((i) => `${i}: ${setting}=true`).concat(indices.length > NAMED ? [`... and ${indices.length - NAMED} more`] : []),
    remedy: `if nothing of shardeck's (a shrink) or of the operator's is under way on ${indices.length === 1 ? 'it' : 'them'}: ${liftRequest({ id: blockId, level: 'index', setting, indices: shown, description: '' })}${indices.length > NAMED ? ' (and the same for the others)' : ''}`,
  };
}

export function blockFindings(settings: Pick<ClusterSettingsView, 'clusterBlocks'>, blocks: readonly IndexBlocks[]): Finding[] {
  const out: Finding[] = [];
  const cb = settings.clusterBlocks;
  const clusterSetting = cb.readOnly ? 'cluster.blocks.read_only' : cb.readOnlyAllowDelete ? 'cluster.blocks.read_only_allow_delete' : null;
  out.push(
    clusterSetting
      ? {
          id: 'blocks.cluster',
          family: 'blocks',
          severity: 'critical',
          finding: `${clusterSetting} is set: every index refuses writes${cb.readOnly ? ', deletes and new indices' : ' and new indices (deletes still allowed)'}, and changes to it are refused with 403 cluster_block_exception`,
          evidence: [
            ...(cb.readOnly ? ['cluster.blocks.read_only = true'] : []),
            ...(cb.readOnlyAllowDelete ? ['cluster.blocks.read_only_allow_delete = true'] : []),
          ],
          // Under a cluster-wide block only a settings request that touches the block alone is accepted.
          remedy: [
            ...(cb.readOnly
              ? [liftRequest({ id: 6, level: 'cluster', setting: 'cluster.blocks.read_only', indices: [], description: '' })]
              : []),
            ...(cb.readOnlyAllowDelete
              ? [liftRequest({ id: 13, level: 'cluster', setting: 'cluster.blocks.read_only_allow_delete', indices: [], description: '' })]
              : []),
          ].join('; then '),
        }
      : { id: 'blocks.cluster', family: 'blocks', severity: 'ok', finding: 'no cluster-wide block', evidence: [] },
  );
  const write = blocks.filter((b) => b.write).map((b) => b.index);
  const readOnly = blocks.filter((b) => b.readOnly).map((b) => b.index);
  out.push(
    write.length
      ? indexBlockFinding(
          'blocks.index-write',
          'index.blocks.write',
          8,
          write,
          'writes to it are refused (reads and deletes of the index still work)',
        )
      : { id: 'blocks.index-write', family: 'blocks', severity: 'ok', finding: 'no index has a write block', evidence: [] },
    readOnly.length
      ? indexBlockFinding('blocks.index-read-only', 'index.blocks.read_only', 5, readOnly, 'writes and changes of its settings are refused')
      : { id: 'blocks.index-read-only', family: 'blocks', severity: 'ok', finding: 'no index has a read-only block', evidence: [] },
  );
  return out;
}
