// Force merge (only_expunge_deletes) after a delete: its guarded plan, whether the disk has room
// for it, and whether retention leases still keep the deleted documents.
import type { MutationPlan } from '../mutation/plan';

/**
 * Frees the disk the deleted documents still take; runs as a task, or (asTask false: 8.0, which
 * has no wait_for_completion, domain/capabilities.ts) in the request itself.
 */
export function forcemergePlan(expr: string, asTask = true): MutationPlan {
  return {
    method: 'POST',
    path: `/${encodeURIComponent(expr)}/_forcemerge`,
    querystring: { only_expunge_deletes: 'true', ...(asTask ? { wait_for_completion: 'false' } : {}) },
    risk: 'reversible',
    target: expr,
    summary: `merge away the deleted documents of ${expr} (only_expunge_deletes)`,
  };
}

export interface MergeTarget {
  index: string;
  docsDeleted: number;
  storeBytes: number;
}

/**
 * A merge rewrites segments and may briefly need up to the size of what it rewrites; refused when
 * a node is already past the high watermark, warned when the largest index exceeds its headroom.
 */
export function judgeMergeSpace(
  targets: MergeTarget[],
  nodes: { node: string; level: string; headroomToHighBytes: number }[],
): { refuse?: string; warnings: string[] } {
  const past = nodes.filter((n) => n.level === 'high' || n.level === 'flood');
  if (past.length)
    return {
      refuse: `${past.map((n) => n.node).join(', ')} ${past.length === 1 ? 'is' : 'are'} past the high disk watermark; a merge needs extra space while it runs: free disk first (delete whole indices or add nodes), then merge`,
      warnings: [],
    };
  const largest = Math.max(0, ...targets.map((t) => t.storeBytes));
  const warnings = nodes
    .filter((n) => n.headroomToHighBytes < largest)
    .map((n) => `${n.node} has less room before the high watermark than the largest index to merge: the merge may push it past`);
  return { warnings };
}

/**
 * Shards whose history retention leases still retain operations (GET <index>/_stats?level=shards):
 * soft-deleted documents under a lease survive a merge, so an expunge-deletes merge right after a
 * delete reclaims nothing until the leases advance (Elasticsearch syncs them every 30 s).
 */
export function shardsRetainingDeletes(stats: any): number {
  let behind = 0;
  for (const index of Object.values<any>(stats?.indices ?? {}))
    for (const copies of Object.values<any>(index?.shards ?? {}))
      for (const copy of copies ?? []) {
        const max = Number(copy?.seq_no?.max_seq_no ?? -1);
        const leases: any[] = copy?.retention_leases?.leases ?? [];
        if (leases.some((l) => Number(l.retaining_seq_no) <= max)) behind++;
      }
  return behind;
}
