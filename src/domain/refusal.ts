// Why the node refused a request, told apart in one place (issue 41): a block (the cluster's or an
// index's: 403 cluster_block_exception, which is not a missing privilege), a missing privilege
// (403 security_exception), or a conflict with the cluster's state (409, or an index that exists).
// Each with a sentence that names the block and the exact request that lifts it, or the privilege.
// Pure: cluster/connection.ts turns every refusal into a ConnError with it.

export type RefusalKind = 'block' | 'privilege' | 'conflict' | 'other';

/** One block the node named, as Elasticsearch's ClusterBlock ids say it (the same in every 8.x). */
export interface NamedBlock {
  level: 'cluster' | 'index';
  /** The setting that sets it, or null for a block no setting controls (a closed index, no master). */
  setting: string | null;
  /** The indices it was reported on (index blocks). */
  indices: string[];
  /** Its words as the node wrote them. */
  description: string;
  id: number;
}

/** Block ids of Elasticsearch 8 (Metadata and IndexMetadata) and the setting behind each. */
const BLOCKS: Record<number, { level: 'cluster' | 'index'; setting: string | null }> = {
  6: { level: 'cluster', setting: 'cluster.blocks.read_only' },
  13: { level: 'cluster', setting: 'cluster.blocks.read_only_allow_delete' },
  4: { level: 'index', setting: null }, // index closed
  5: { level: 'index', setting: 'index.blocks.read_only' },
  7: { level: 'index', setting: 'index.blocks.read' },
  8: { level: 'index', setting: 'index.blocks.write' },
  9: { level: 'index', setting: 'index.blocks.metadata' },
  12: { level: 'index', setting: 'index.blocks.read_only_allow_delete' },
};

/** The blocks a cluster_block_exception's reason names: "index [x] blocked by: [FORBIDDEN/8/index write (api)];" or "blocked by: [FORBIDDEN/13/cluster read-only / allow delete (api)];". */
export function blocksOfReason(reason: string): NamedBlock[] {
  const indices = [...reason.matchAll(/index \[([^\]]+)\]/g)].map((m) => m[1]);
  const out: NamedBlock[] = [];
  for (const m of reason.matchAll(/\[[A-Z_]+\/(\d+)\/([^\]]*)\]/g)) {
    const id = Number(m[1]);
    const known = BLOCKS[id];
    const level = known?.level ?? (/^cluster|no master|state not recovered/i.test(m[2]) ? 'cluster' : 'index');
    out.push({ id, level, setting: known?.setting ?? null, indices: level === 'index' ? indices : [], description: m[2].trim() });
  }
  return out;
}

const NULL_BODY = (setting: string) => JSON.stringify({ [setting]: null });

/** The request that lifts one block, as the operator would send it, or why none does. */
export function liftRequest(b: NamedBlock): string {
  if (b.id === 4) return `open the index: POST /${b.indices.join(',') || '<index>'}/_open`;
  if (b.setting === null) return 'no setting lifts it: see shardeck doctor';
  if (b.level === 'cluster') return `PUT /_cluster/settings {"persistent":${NULL_BODY(b.setting)}}`;
  const path = b.indices.length ? b.indices.join(',') : '<index>';
  const lift = `PUT /${path}/_settings ${NULL_BODY(b.setting)}`;
  // The flood-stage block: the disk first, or it comes back (8.x lifts it itself below the high watermark).
  return b.id === 12 ? `free disk below the high watermark (8.x then lifts it itself), or ${lift} (shardeck unblock)` : lift;
}

/** One sentence for a block refusal: which block, on what, and the request that lifts it. */
export function blockSentence(blocks: NamedBlock[]): string {
  if (!blocks.length) return 'refused by a block of the cluster (403 cluster_block_exception): shardeck doctor names it';
  return blocks
    .map((b) => {
      const what = b.setting ?? b.description;
      const where = b.level === 'cluster' ? 'the cluster-wide block' : `the index block on ${b.indices.join(', ') || 'the index'}:`;
      return `refused by ${where} ${what} (${b.description}), not a missing privilege: lift it with ${liftRequest(b)}`;
    })
    .join('; ');
}

/** Which kind of refusal an error answer is, from its status and Elasticsearch's error type. */
export function refusalKind(status: number, esType: string | undefined): RefusalKind {
  if (esType === 'cluster_block_exception') return 'block';
  if (status === 403 || esType === 'security_exception') return 'privilege';
  if (status === 409 || esType === 'version_conflict_engine_exception' || esType === 'resource_already_exists_exception') return 'conflict';
  return 'other';
}
