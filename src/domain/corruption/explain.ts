// Recognising a primary whose every copy is corrupt, from allocation explain in the shape a real
// 8.19 node answers (see test/fixtures/corrupt/), and what recovers it without loss.

type Json = Record<string, any>;

/** One copy of the shard that allocation explain found on a node. */
export interface ShardCopy {
  node: string;
  nodeId: string;
  inSync: boolean;
  /** The node's store exception named a corrupt_index_exception. */
  corrupt: boolean;
  /** The store exception's reason, when there is one. */
  error?: string;
}

export interface CorruptFinding {
  index: string;
  shard: number;
  /** allocation explain's can_allocate (no_valid_shard_copy when every copy is stale or corrupt). */
  canAllocate: string;
  /** Lucene reported corruption (corrupt_index_exception / CorruptIndexException). */
  corrupt: boolean;
  /** One line: the most specific reason Elasticsearch gave. */
  reason: string;
  /** The file Lucene named, when it named one. */
  file?: string;
  /** The node holding the corrupt copy (the one the checklist runs on). */
  node?: { name: string; id: string };
  copies: ShardCopy[];
}

/** The store exception chain of one copy, outermost first. */
function exceptionChain(e: Json | undefined): Json[] {
  const out: Json[] = [];
  for (let x = e; x && out.length < 10; x = x.caused_by) out.push(x);
  return out;
}

const CORRUPT_TEXT = /CorruptIndexException|corrupt_index_exception|corrupt file/;

/**
 * The corruption of a primary, or null when allocation explain shows none (the primary is
 * assigned, or unassigned for another reason such as NODE_LEFT or the disk watermarks).
 */
export function findCorruption(r: Json): CorruptFinding | null {
  if (r.primary !== true || r.current_state !== 'unassigned') return null;
  // Stryker disable next-line ArrayDeclaration: equivalent, a filler element has no store and is filtered out
  const copies: ShardCopy[] = ((r.node_allocation_decisions as Json[] | undefined) ?? [])
    .filter((n) => n.store)
    .map((n) => {
      const chain = exceptionChain(n.store.store_exception);
      const deepestCorrupt = [...chain].reverse().find((x) => x.type === 'corrupt_index_exception');
      return {
        node: String(n.node_name),
        nodeId: String(n.node_id),
        inSync: Boolean(n.store.in_sync),
        corrupt: Boolean(deepestCorrupt),
        ...(chain.length ? { error: String((deepestCorrupt ?? chain[chain.length - 1]).reason) } : {}),
      };
    });
  const details = String(r.unassigned_info?.details ?? '');
  const detailNodeId = /failed shard on node \[([^\]]+)\]/.exec(details)?.[1];
  // While Elasticsearch still retries the allocation, the store reads fine and only the failure
  // details tell that the copy on that node is the corrupt one.
  if (CORRUPT_TEXT.test(details))
    for (const c of copies)
      if (c.nodeId === detailNodeId && !c.corrupt)
        Object.assign(c, { corrupt: true, error: /CorruptIndexException: ([^\n]+)/.exec(details)?.[1] ?? c.error });
  const corrupt = copies.some((c) => c.corrupt) || CORRUPT_TEXT.test(details);
  const canAllocate = String(r.can_allocate ?? '');
  if (!corrupt && canAllocate !== 'no_valid_shard_copy') return null;
  const holder = copies.find((c) => c.corrupt) ?? copies.find((c) => c.inSync);
  const reason =
    holder?.error ??
    (/CorruptIndexException: ([^\n]+)/.exec(details)?.[1] || details.split('\n')[0] || String(r.allocate_explanation ?? canAllocate));
  const file = /path="([^"]+)"/.exec(reason)?.[1] ?? /path="([^"]+)"/.exec(details)?.[1];
  return {
    index: String(r.index),
    shard: Number(r.shard),
    canAllocate,
    corrupt,
    reason,
    ...(file ? { file } : {}),
    ...(holder
      ? { node: { name: holder.node, id: holder.nodeId } }
      : detailNodeId
        ? { node: { name: detailNodeId, id: detailNodeId } }
        : {}),
    copies,
  };
}

export interface SnapshotHolding {
  repository: string;
  snapshot: string;
  state: string;
  endTime?: string;
}

/** What recovers the shard without losing documents, best first; empty when nothing does. */
export function losslessOptions(f: CorruptFinding, snapshots: SnapshotHolding[]): string[] {
  const out: string[] = [];
  for (const c of f.copies.filter((x) => !x.corrupt))
    out.push(
      c.inSync
        ? `node ${c.node} holds an in-sync copy that is not corrupt: bring that node back or explain why it is refused (shardeck explain ${f.index} ${f.shard} primary)`
        : `node ${c.node} holds a stale copy that is not corrupt: promoting it (allocate_stale_primary) loses the writes it missed`,
    );
  for (const s of snapshots.filter((x) => x.state === 'SUCCESS' || x.state === 'PARTIAL'))
    out.push(
      `snapshot ${s.repository}/${s.snapshot} (${s.state}${s.endTime ? `, ended ${s.endTime}` : ''}) holds ${f.index}: delete the index (closed, a red index keeps its shard locked), then POST _snapshot/${s.repository}/${s.snapshot}/_restore {"indices":"${f.index}"} (writes after the snapshot are lost)`,
    );
  out.push(
    `a file-level backup of the shard folder taken before the corruption: with the node stopped, put it back in place of the folder`,
  );
  return out;
}
