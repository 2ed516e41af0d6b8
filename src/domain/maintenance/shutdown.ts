// Node shutdown records (GET _nodes/shutdown): what an orchestrator (Elastic Cloud, ECK) registers
// before it restarts, removes or replaces a node. Elasticsearch never removes them by itself, and
// one left behind keeps acting (a RESTART record delays the reallocation of that node's shards, a
// REMOVE record moves every shard off it), so shardeck shows them; it never creates or deletes one
// (direct use of the API is documented as not supported). Pure.

export interface ShutdownRecord {
  nodeId: string;
  /** RESTART, REMOVE, REPLACE, SIGTERM. */
  type: string;
  reason: string;
  /** Epoch ms when it was registered, when the node says. */
  startedAt: number | null;
  status: string;
  /** REPLACE: the node that takes this one's shards. */
  targetNodeName?: string;
  allocationDelay?: string;
  shardsRemaining?: number;
  explanation?: string;
}

type Json = Record<string, any>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * The records, or none. A node without the shutdown module answers GET _nodes/shutdown as node
 * info of a node named "shutdown" (`nodes` is then an object, empty): no records, nothing said.
 */
export function parseShutdownRecords(body: unknown): ShutdownRecord[] {
  const nodes = (body as Json | null)?.nodes;
  if (!Array.isArray(nodes)) return [];
  return nodes
    .filter((n): n is Json => !!n && typeof n === 'object' && typeof n.node_id === 'string')
    .map((n) => {
      // The reference's example names it shutdown_startedmillis; other versions shutdown_started_millis.
      const started = n.shutdown_started_millis ?? n.shutdown_startedmillis;
      const mig = (n.shard_migration ?? {}) as Json;
      return {
        nodeId: n.node_id,
        type: String(n.type ?? '?').toUpperCase(),
        reason: text(n.reason) ?? '',
        startedAt: typeof started === 'number' ? started : null,
        status: String(n.status ?? '?').toUpperCase(),
        ...(text(n.target_node_name) ? { targetNodeName: n.target_node_name } : {}),
        ...(text(n.allocation_delay) ? { allocationDelay: n.allocation_delay } : {}),
        ...(typeof mig.shard_migrations_remaining === 'number' ? { shardsRemaining: mig.shard_migrations_remaining } : {}),
        ...(text(mig.explanation) ? { explanation: mig.explanation } : {}),
      };
    });
}

const EFFECT: Record<string, string> = {
  RESTART: 'its shards wait for it instead of being reallocated when it leaves',
  REMOVE: 'every shard is being moved off it',
  REPLACE: 'its shards are moving to the replacement node',
  SIGTERM: 'it is being drained for a shutdown on SIGTERM',
};

/** One warning line per record (node name when known; the text still to be made safe by the caller). */
export function shutdownWarning(r: ShutdownRecord, nodeName: string | undefined, now: number): string {
  const who = nodeName ? `${nodeName} (${r.nodeId})` : r.nodeId;
  const age = r.startedAt === null ? '' : `, registered ${ageText(now - r.startedAt)} ago`;
  const effect = EFFECT[r.type] ?? 'it acts until it is deleted';
  const target = r.targetNodeName ? ` by ${r.targetNodeName}` : '';
  return `node shutdown record ${r.type}${target} for ${who}${age}, status ${r.status}: ${effect}; Elasticsearch never removes these records: if no orchestrator is working on this node, the one that made it (or DELETE _nodes/${r.nodeId}/shutdown) must remove it${r.reason ? ` (reason: ${r.reason})` : ''}`;
}

function ageText(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  return m < 60 ? `${m} min` : m < 48 * 60 ? `${Math.round(m / 60)} h` : `${Math.round(m / 1440)} days`;
}

const SHORT: Record<string, string> = {
  RESTART: 'its shards wait for it',
  REMOVE: 'shards move off it',
  REPLACE: 'shards move to the replacement',
  SIGTERM: 'drained on SIGTERM',
};

/** The Nodes pane's line (80 columns): the kind, its age, its status, what it does; `status` says the rest. */
export function shutdownShort(r: ShutdownRecord, now: number): string {
  const age = r.startedAt === null ? '' : `, ${ageText(now - r.startedAt)} old`;
  return `shutdown record ${r.type}${r.targetNodeName ? ` by ${r.targetNodeName}` : ''}${age}, ${r.status}: ${SHORT[r.type] ?? 'acts until deleted'} (never removed by itself; status says more)`;
}
