// Dangling indices (issue 43 item 6): index folders a node holds that the cluster does not know
// (a node with old disks rejoined), listed by uuid; importing or deleting one loses data either way
// (an import may bring back stale documents, a delete removes them), so each needs the uuid typed.
import type { MutationPlan } from '../mutation/plan';

export interface DanglingIndex {
  uuid: string;
  name: string;
  /** ISO time the index was created (null when the node does not say). */
  created: string | null;
  /** The nodes holding it, by name where known (else the node id). */
  nodes: string[];
}

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** GET _dangling, with the node names from GET _nodes (id -> name). */
export function parseDangling(body: unknown, nodeNames: Record<string, string>): DanglingIndex[] {
  const list = ((body ?? {}) as { dangling_indices?: Json[] }).dangling_indices ?? [];
  return list
    .map((d) => ({
      uuid: str(d.index_uuid),
      name: str(d.index_name),
      created: typeof d.creation_date_millis === 'number' ? new Date(d.creation_date_millis).toISOString() : null,
      nodes: (Array.isArray(d.node_ids) ? d.node_ids.map(str) : []).map((id) => nodeNames[id] ?? id).sort(),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.uuid < b.uuid ? -1 : 1));
}

export type DanglingAction = 'import' | 'delete';

/** One dangling index imported or deleted, accept_data_loss, confirmed by its uuid typed; read back from GET _dangling. */
export function danglingPlan(action: DanglingAction, d: DanglingIndex): MutationPlan {
  return {
    method: action === 'import' ? 'POST' : 'DELETE',
    path: `/_dangling/${encodeURIComponent(d.uuid)}`,
    querystring: { accept_data_loss: 'true' },
    risk: 'destructive',
    target: `${d.name} (${d.uuid})`,
    confirmText: d.uuid,
    summary:
      action === 'import'
        ? `import the dangling index ${d.name} (uuid ${d.uuid}, on ${d.nodes.join(', ')}) back into the cluster: its documents may be stale`
        : `delete the dangling index ${d.name} (uuid ${d.uuid}) from ${d.nodes.join(', ')}: its documents are lost`,
    verify: {
      path: '/_dangling',
      querystring: {},
      check(body) {
        const left = parseDangling(body, {}).some((x) => x.uuid === d.uuid);
        return left
          ? { ok: false, message: `${d.uuid} is still dangling` }
          : { ok: true, message: `${d.name} (${d.uuid}) ${action === 'import' ? 'imported' : 'deleted'}: no longer dangling` };
      },
    },
  };
}
