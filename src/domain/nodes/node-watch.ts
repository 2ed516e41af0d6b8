// Which nodes left the cluster while the console watched: the node count of _cluster/health
// dropping below the most seen (health is polled on every pane), the names from the last node
// list that still had them, and Elasticsearch's own word for a console started after the fact
// (shards unassigned with NODE_LEFT, allocation delayed). Pure: the poller feeds it each read.
import { formatAgo } from '../text/format';
import type { ClusterHealth, NodeInfo, ShardRow } from '../types';

export interface NodeWatch {
  /** The most nodes seen at once in this session. */
  peak: number;
  /** Every node name seen in this session. */
  known: string[];
  /** Set while fewer nodes than the peak are in the cluster. */
  left?: { count: number; names: string[]; since: number };
  /** Each node's roles as the node list last gave them (node.role letters), when it was read with them. */
  roles?: Record<string, string>;
  /** The elected masters in the order the console saw them, with when each was first seen (at most MAX_MASTERS). */
  masters?: { name: string; since: number }[];
}

/** Masters kept in the watch: enough to tell a flapping master from one election. */
export const MAX_MASTERS = 20;

/** What the node list says beyond the names: each node's roles and which is the elected master. */
export interface NodeListFacts {
  roles: Record<string, string>;
  master: string | null;
}

/** A node list's roles and elected master, for watchNodes. */
export const nodeListFacts = (nodes: readonly NodeInfo[] | undefined): NodeListFacts | undefined =>
  nodes ? { roles: Object.fromEntries(nodes.map((n) => [n.name, n.roles])), master: nodes.find((n) => n.master)?.name ?? null } : undefined;

/** The watch with the roles and the elected master of a node list added (nothing changes without one). */
function withFacts(w: NodeWatch, prev: NodeWatch | undefined, facts: NodeListFacts | undefined, now: number): NodeWatch {
  const roles = facts ? { ...(prev?.roles ?? {}), ...facts.roles } : prev?.roles;
  const last = prev?.masters?.[prev.masters.length - 1];
  const masters =
    facts?.master && facts.master !== last?.name
      ? [...(prev?.masters ?? []), { name: facts.master, since: now }].slice(-MAX_MASTERS)
      : prev?.masters;
  return { ...w, ...(roles ? { roles } : {}), ...(masters ? { masters } : {}) };
}

/** The watch after one read of health (count) and, when it was read too, the node list (names). */
export function watchNodes(
  w: NodeWatch | undefined,
  count: number | undefined,
  names: readonly string[] | undefined,
  now: number,
  facts?: NodeListFacts,
): NodeWatch {
  const peak = Math.max(w?.peak ?? 0, count ?? 0, names?.length ?? 0);
  const known = names ? [...new Set([...(w?.known ?? []), ...names])] : (w?.known ?? []);
  const current = count ?? names?.length;
  if (current === undefined || current >= peak) return withFacts({ peak, known }, w, facts, now);
  const gone = names ? known.filter((n) => !names.includes(n)) : (w?.left?.names ?? []);
  return withFacts({ peak, known, left: { count: peak - current, names: gone, since: w?.left?.since ?? now } }, w, facts, now);
}

/** A node list's names, for watchNodes. */
export const nodeNames = (nodes: readonly NodeInfo[] | undefined): string[] | undefined => nodes?.map((n) => n.name);

/** The node ids in NODE_LEFT details ("node_left [<id>]"), for when the console did not see it go. */
export function nodeLeftShards(shards: readonly ShardRow[] | undefined): { shards: number; nodeIds: string[] } {
  const left = (shards ?? []).filter((s) => s.state === 'UNASSIGNED' && s.unassignedReason === 'NODE_LEFT');
  const ids = new Set<string>();
  for (const s of left) {
    const id = /node_left\s*\[([^\]]+)\]/.exec(s.unassignedDetails ?? '')?.[1];
    if (id) ids.add(id);
  }
  return { shards: left.length, nodeIds: [...ids] };
}

/**
 * The header's words when nodes are missing, or '' when none is: "1 node left (node-3) 40s ago",
 * or, for a console started after the node left, what health says ("node left: 4 shards delayed").
 */
export function nodeLeftText(w: NodeWatch | undefined, health: ClusterHealth | undefined, now: number): string {
  if (w?.left) {
    const who = w.left.names.length ? ` (${w.left.names.join(', ')})` : '';
    return `${w.left.count} node${w.left.count === 1 ? '' : 's'} left${who} ${formatAgo(now - w.left.since)}`;
  }
  if (health && health.delayedUnassignedShards > 0)
    return `node left: ${health.delayedUnassignedShards} shard${health.delayedUnassignedShards === 1 ? '' : 's'} delayed`;
  return '';
}
