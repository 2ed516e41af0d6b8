// Why shards move: the desired-balance allocator (8.6+) computes where every shard copy should be
// (each node's shard count, forecast write load and disk use, weighed by
// cluster.routing.allocation.balance.*), then moves copies towards that a few at a time. Its
// state is GET _internal/desired_balance: its computed stats, per node what it holds and how much
// of it is not where it wants it, and (the whole answer) every copy with node_is_desired and the
// desired nodes. This turns that into plain sentences. Pure.
import { compareText } from '../text/order';
import { formatBytes, type Tone } from '../text/format';

type Json = Record<string, any>;

export interface BalanceStats {
  /** A computation is running now: what it wants may still change. */
  computing: boolean;
  /** Assigned copies, and those of them not on a node the balancer wants. */
  allocations: number;
  undesired: number;
  /** Copies it could not place anywhere (unassigned in its computation). */
  unassigned: number;
  /** Moves its last computation asked for, in total since the master started. */
  computedMoves: number;
}

export interface BalanceNode {
  id: string;
  name: string;
  shards: number;
  /** Copies on this node that the balancer wants elsewhere. */
  undesired: number;
  forecastWriteLoad: number | null;
  forecastDiskBytes: number | null;
  actualDiskBytes: number | null;
}

export interface BalanceSummary {
  stats: BalanceStats;
  nodes: BalanceNode[];
}

/** One copy not where the balancer wants it (or moving there now). */
export interface MisplacedCopy {
  index: string;
  shard: number;
  primary: boolean;
  /** Node name it is on. */
  node: string;
  /** Where the balancer wants it instead (names): desired nodes of the shard that hold no desired copy yet. */
  wanted: string[];
  /** Relocating now: to which node, and whether that is where the balancer wants it. */
  movingTo?: string;
}

/** Copies of a shard the balancer found no node for (the computation's "ignored"). */
export interface UnplacedShard {
  index: string;
  shard: number;
  copies: number;
}

export interface DesiredBalance extends BalanceSummary {
  misplaced: MisplacedCopy[];
  unplaced: UnplacedShard[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The stats and the per-node part (what the Nodes pane polls with filter_path). */
export function parseBalanceSummary(body: Json): BalanceSummary {
  const s = body?.stats ?? {};
  const nodes = Object.entries((body?.cluster_balance_stats?.nodes ?? {}) as Record<string, Json>).map(([name, n]) => ({
    id: String(n.node_id ?? name),
    name,
    shards: num(n.shard_count) ?? 0,
    undesired: num(n.undesired_shard_allocation_count) ?? 0,
    forecastWriteLoad: num(n.forecast_write_load),
    forecastDiskBytes: num(n.forecast_disk_usage_bytes),
    actualDiskBytes: num(n.actual_disk_usage_bytes),
  }));
  return {
    stats: {
      computing: s.computation_active === true,
      allocations: num(s.total_allocations) ?? 0,
      undesired: num(s.undesired_allocations) ?? 0,
      unassigned: num(s.unassigned_shards) ?? 0,
      computedMoves: num(s.computed_shard_movements) ?? 0,
    },
    nodes: nodes.sort((a, b) => compareText(a.name, b.name)),
  };
}

/** The whole answer: the summary, and from its routing table every misplaced copy and every shard it cannot place. */
export function parseDesiredBalance(body: Json): DesiredBalance {
  const summary = parseBalanceSummary(body);
  const names = new Map<string, string>(summary.nodes.map((n) => [n.id, n.name]));
  for (const [id, n] of Object.entries((body?.cluster_info?.nodes ?? {}) as Record<string, Json>))
    if (!names.has(id) && typeof n?.node_name === 'string') names.set(id, n.node_name);
  const name = (id: unknown) => (typeof id === 'string' ? (names.get(id) ?? id) : '?');
  const misplaced: MisplacedCopy[] = [];
  const unplaced: UnplacedShard[] = [];
  for (const [index, shards] of Object.entries((body?.routing_table ?? {}) as Record<string, Record<string, Json>>))
    for (const [shardId, s] of Object.entries(shards ?? {})) {
      const shard = Number(shardId);
      const copies: Json[] = Array.isArray(s?.current) ? s.current : [];
      const desired: string[] = Array.isArray(s?.desired?.node_ids) ? s.desired.node_ids.map(String) : [];
      const settled = new Set(copies.filter((c) => c.node && c.node_is_desired).map((c) => String(c.node)));
      const wanted = desired.filter((id) => !settled.has(id)).map(name);
      for (const c of copies) {
        if (!c.node) continue;
        const moving = c.relocating_node ? name(c.relocating_node) : undefined;
        if (c.node_is_desired && !moving) continue;
        if (c.node_is_desired && moving) continue; // leaving a desired node: not the balancer's move
        misplaced.push({ index, shard, primary: c.primary === true, node: name(c.node), wanted, ...(moving ? { movingTo: moving } : {}) });
      }
      const ignored = num(s?.desired?.ignored) ?? 0;
      if (ignored > 0) unplaced.push({ index, shard, copies: ignored });
    }
  const order = (a: { index: string; shard: number }, b: { index: string; shard: number }) =>
    compareText(a.index, b.index) || a.shard - b.shard;
  return { ...summary, misplaced: misplaced.sort(order), unplaced: unplaced.sort(order) };
}

/** Why the balancer's wish is not carried out, as far as the cluster's settings say (allocation-limits' text). */
export interface BalanceContext {
  /** Allocation or rebalancing limited now (domain/maintenance/allocation-limits.ts allocationLimits' text). */
  limits: string[];
  /** Per misplaced copy (index/shard/primary), what allocation explain says blocks it, when it was asked. */
  blockedBy?: Record<string, string>;
}

export const copyKey = (c: { index: string; shard: number; primary: boolean }): string => `${c.index}/${c.shard}/${c.primary ? 'p' : 'r'}`;

const HOW =
  "The desired-balance allocator (Elasticsearch 8.6+) computes where each shard copy should be from every node's shard count, forecast write load and disk use (weights cluster.routing.allocation.balance.shard, .index, .write_load, .disk_usage), then moves copies towards it a few at a time (cluster.routing.allocation.cluster_concurrent_rebalance, node_concurrent_recoveries).";

/** The explanation in plain words: the headline, then per node, per misplaced copy (with why it stays) and per unplaceable shard. */
export function explainBalance(b: DesiredBalance, ctx: BalanceContext): { text: string; tone?: Tone }[] {
  const out: { text: string; tone?: Tone }[] = [];
  const s = b.stats;
  out.push(
    s.undesired
      ? {
          text: `${s.undesired} of ${s.allocations} assigned shard copies are not on the node the balancer wants${s.computing ? ' (it is computing again now: this may change)' : ''}`,
          tone: 'yellow',
        }
      : {
          text: `every assigned shard copy (${s.allocations}) is where the balancer wants it${s.computing ? ' (it is computing again now)' : ''}`,
          tone: 'green',
        },
  );
  out.push({ text: HOW });
  for (const n of b.nodes) out.push({ text: nodeBalanceLine(n), ...(n.undesired ? { tone: 'yellow' } : {}) });
  const generic = ctx.limits.length
    ? `allocation is limited: ${ctx.limits.join('; ')}`
    : 'waiting its turn: copies move a few at a time, and only where every allocation rule allows it (shardeck explain INDEX SHARD says which rule)';
  for (const c of b.misplaced) {
    const what = `${c.index}[${c.shard}] ${c.primary ? 'primary' : 'replica'} on ${c.node}`;
    const to = c.wanted.length ? c.wanted.join(', ') : 'another node';
    out.push(
      c.movingTo
        ? { text: `${what}: moving now to ${c.movingTo}${c.wanted.includes(c.movingTo) ? ', where the balancer wants it' : ''}` }
        : { text: `${what}: the balancer wants it on ${to}; not moved: ${ctx.blockedBy?.[copyKey(c)] ?? generic}`, tone: 'yellow' },
    );
  }
  for (const u of b.unplaced)
    out.push({
      text: `${u.index}[${u.shard}]: ${u.copies === 1 ? '1 copy' : `${u.copies} copies`} the balancer found no node for (stays unassigned: shardeck explain ${u.index} ${u.shard} says why)`,
      tone: 'yellow',
    });
  return out;
}

/** One node's part: what it holds and how much of it the balancer wants elsewhere. */
export function nodeBalanceLine(n: BalanceNode): string {
  const load = n.forecastWriteLoad === null ? '' : `, forecast write load ${n.forecastWriteLoad.toFixed(2)}`;
  const disk = n.forecastDiskBytes === null ? '' : `, forecast disk ${formatBytes(n.forecastDiskBytes)}`;
  return `${n.name}: ${n.shards} shard${n.shards === 1 ? '' : 's'}, ${n.undesired ? `${n.undesired} not where the balancer wants them` : 'all where the balancer wants them'}${load}${disk}`;
}

/**
 * What an older node answers: 8.5 and before have no _internal/desired_balance (a 400 "no handler
 * found" or a 404/405): the sentence that it needs 8.6, or null when the failure is something else.
 */
export function balanceUnsupported(status: number | undefined, reason: string | undefined, version?: string): string | null {
  const missing = status === 404 || status === 405 || (status === 400 && /no handler found|incorrect http method/i.test(reason ?? ''));
  return missing
    ? `not on this version: the desired balance (GET _internal/desired_balance) needs Elasticsearch 8.6 or newer${version ? ` (this node runs ${version})` : ''}`
    : null;
}

/** What allocation explain of an assigned copy says keeps it where it is, in one line; null when it says nothing useful. */
export function explainBlock(explain: Json | null): string | null {
  if (!explain) return null;
  const decisions: Json[] = [...(explain.can_rebalance_cluster_decisions ?? []), ...(explain.can_remain_decisions ?? [])];
  const block = decisions.find((d) => d?.decision === 'NO' || d?.decision === 'THROTTLE' || d?.decision === 'THROTTLED');
  if (block) return `${block.decider}: ${String(block.explanation ?? block.decision)}`;
  const rebalance = explain.rebalance_explanation;
  return typeof rebalance === 'string' && rebalance ? rebalance : null;
}
