// Unassigned-shards wizard: allocation explain in plain words, and retrying failed allocations
// (POST _cluster/reroute?retry_failed=true) with a report of what moved.
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { shellPath } from '../mutation/preview';
import type { ShardRow } from '../types';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type MutateEffect, type PlanResult, type Step } from './machine';
import { compareText } from '../text/order';
import { displayBlock } from '../text/display-text';
import { wrapText } from '../text/text';

export interface ShardRef {
  index: string;
  shard: number;
  primary: boolean;
}

export interface NodeVerdict {
  node: string;
  decision: string;
  /** The deciders that said no (or throttle), in Elasticsearch's words. */
  reasons: string[];
}

export interface AllocationExplanation {
  shard: ShardRef;
  state: string;
  /** Elasticsearch's one-line verdict (allocate_explanation), or our own when it has none. */
  verdict: string;
  unassignedReason?: string;
  unassignedDetails?: string;
  lastStatus?: string;
  nodes: NodeVerdict[];
  /** What the operator can do next, in plain words. */
  advice: string[];
}

type Json = Record<string, any>;

const REASONS: Record<string, string> = {
  INDEX_CREATED: 'the index was just created',
  CLUSTER_RECOVERED: 'the cluster restarted',
  NODE_LEFT: 'the node holding it left the cluster',
  ALLOCATION_FAILED: 'allocating it failed',
  REPLICA_ADDED: 'a replica was added',
  REROUTE_CANCELLED: 'a reroute cancelled it',
  REINITIALIZED: 'it was re-initialised',
  PRIMARY_FAILED: 'its primary failed',
};

export function explainAllocation(r: Json): AllocationExplanation {
  const shard: ShardRef = { index: String(r.index), shard: Number(r.shard), primary: Boolean(r.primary) };
  const ui = r.unassigned_info as Json | undefined;
  const nodes: NodeVerdict[] = ((r.node_allocation_decisions as Json[] | undefined) ?? []).map((n) => ({
    node: String(n.node_name),
    decision: String(n.node_decision ?? n.decision ?? '?'),
    reasons: ((n.deciders as Json[] | undefined) ?? []).filter((d) => d.decision !== 'YES').map((d) => `${d.decider}: ${d.explanation}`),
  }));
  const advice: string[] = [];
  const deciders = nodes.flatMap((n) => n.reasons.map((x) => x.split(':')[0]));
  if (ui?.reason === 'ALLOCATION_FAILED' || /max_retry|retry_failed/.test(JSON.stringify(r)))
    advice.push(
      'allocation failed too often (index.allocation.max_retries): fix the cause, then retry with shardeck reroute --retry-failed',
    );
  if (deciders.includes('same_shard'))
    // As many copies as there are nodes to hold them: the command runs as printed (issue 47 item 3).
    advice.push(
      `a replica needs a node of its own: add a data node or lower number_of_replicas (shardeck replicas set ${shellPath(shard.index)} ${Math.max(0, nodes.length - 1)})`,
    );
  if (deciders.includes('disk_threshold'))
    advice.push('the nodes are past the disk watermarks: free disk (see the Disk pane); about 20% free is needed to place shards');
  if (ui?.reason === 'NODE_LEFT')
    advice.push('the node holding it left: it is reassigned when the node returns or after the delayed timeout');
  if (r.can_allocate === 'no_valid_shard_copy')
    advice.push('no valid copy of this primary remains (corruption or lost data): recover from a replica, a snapshot or a backup');
  const verdict =
    String(r.allocate_explanation ?? r.rebalance_explanation ?? '') ||
    (r.current_state === 'started' ? `the shard is started on ${r.current_node?.name ?? 'a node'}` : `the shard is ${r.current_state}`);
  return {
    shard,
    state: String(r.current_state ?? '?'),
    verdict,
    unassignedReason: ui?.reason ? `${ui.reason}${REASONS[ui.reason] ? ` (${REASONS[ui.reason]})` : ''}` : undefined,
    unassignedDetails: ui?.details,
    lastStatus: ui?.last_allocation_status,
    nodes,
    advice,
  };
}

export function explanationLines(x: AllocationExplanation): string[] {
  const out = [`${x.shard.index} shard ${x.shard.shard} ${x.shard.primary ? 'primary' : 'replica'}: ${x.state}`, `why: ${x.verdict}`];
  if (x.unassignedReason) out.push(`unassigned because ${x.unassignedReason}`);
  // What to do before each node's deciders: a decider's reason, like the failure's details, can
  // carry a whole Java stack trace (max_retry quotes the failure), which would bury the advice.
  for (const a of x.advice) out.push(`-> ${a}`);
  for (const n of x.nodes) {
    out.push(`  ${n.node}: ${n.decision}`);
    for (const r of n.reasons) out.push(`    ${r}`);
  }
  if (x.unassignedDetails) out.push(`details: ${x.unassignedDetails}`);
  return out;
}

/**
 * explanationLines as the rows of a screen `width` columns wide: each line shown as the terminal
 * will show it (displayBlock), wrapped, its indent kept on every row. A failed allocation's reason
 * can hold a whole Java stack trace, its own line breaks and tabs included: each of its lines is a
 * row or more under the same indent, a tab a space, so every row is counted before it is drawn.
 */
export function explanationRows(lines: string[], width: number): string[] {
  return lines.flatMap((line) => {
    const indent = /^ */.exec(line)?.[0] ?? '';
    return displayBlock(line.slice(indent.length))
      .split('\n')
      .flatMap((part) => wrapText(part.replace(/\s+/g, ' ').trim(), width - indent.length).map((row) => indent + row));
  });
}

/** The command that prints a shard's explanation whole. */
export function explainCommand(shard: ShardRef): string {
  return `shardeck explain ${shellPath(shard.index)} ${shard.shard} ${shard.primary ? 'primary' : 'replica'}`;
}

export const NO_UNASSIGNED = 'no shard is unassigned: nothing to explain (give INDEX SHARD primary|replica to explain an assigned shard)';

export function retryFailedPlan(unassigned: number): MutationPlan {
  return {
    method: 'POST',
    path: '/_cluster/reroute',
    querystring: { retry_failed: 'true' },
    risk: 'reversible',
    target: 'failed shard allocations',
    summary: `retry the allocation of shards that failed too often (${unassigned} unassigned now)`,
  };
}

export interface ShardMove {
  index: string;
  shard: number;
  primary: boolean;
  from: string;
  to: string;
  node: string | null;
}

function shardKey(s: Pick<ShardRow, 'index' | 'shard' | 'primary'>, n: number): string {
  return `${s.index}/${s.shard}/${s.primary ? 'p' : 'r'}/${n}`;
}

/** Keys copies of the same shard by their order, so replicas of one shard pair up before/after. */
function keyed(rows: ShardRow[]): Map<string, ShardRow> {
  const seen = new Map<string, number>();
  const out = new Map<string, ShardRow>();
  const sorted = [...rows].sort((a, b) => compareText(a.node ?? '~', b.node ?? '~'));
  for (const r of sorted) {
    const base = shardKey(r, 0);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(shardKey(r, n), r);
  }
  return out;
}

/** What changed state (or node) between two reads of _cat/shards. */
export function diffShards(before: ShardRow[], after: ShardRow[]): ShardMove[] {
  const a = keyed(before);
  const b = keyed(after);
  const moves: ShardMove[] = [];
  for (const [k, now] of b) {
    const was = a.get(k);
    if (!was || was.state !== now.state || was.node !== now.node)
      moves.push({ index: now.index, shard: now.shard, primary: now.primary, from: was?.state ?? 'absent', to: now.state, node: now.node });
  }
  return moves.sort((x, y) => compareText(x.index, y.index) || x.shard - y.shard);
}

export type AllocationState =
  | { phase: 'explaining'; shard?: ShardRef }
  /** failed: the unassigned copies whose allocation failed (ALLOCATION_FAILED): the only ones a retry helps. */
  | { phase: 'explained'; explanation: AllocationExplanation | null; unassigned: number; failed: number }
  | { phase: 'retryReview'; plan: MutationPlan; explanation: AllocationExplanation | null; unassigned: number }
  | { phase: 'applying'; plan: MutationPlan }
  | { phase: 'done'; result: PlanResult; moves: ShardMove[]; stillUnassigned: number }
  | Ended;

export type AllocationEvent =
  | CommonEvent
  | { type: 'explained'; explanation: AllocationExplanation | null; unassigned: number; failed: number }
  /** asked: the command line's explicit --retry-failed (sent even when no copy failed); the console offers it only when one did. */
  | { type: 'retry'; asked?: boolean }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; results: PlanResult[]; moves: ShardMove[]; stillUnassigned: number };

export type AllocationEffect = { type: 'explain'; shard?: ShardRef } | (MutateEffect & { compareShards: true });

export function allocationMachine(shard?: ShardRef): Machine<AllocationState, AllocationEvent, AllocationEffect> {
  return {
    init: () => go({ phase: 'explaining', shard }, { type: 'explain', shard }),
    step(s, e): Step<AllocationState, AllocationEffect> {
      const common = commonStep<AllocationState, AllocationEffect>(s, e);
      if (common) return common;
      if (s.phase === 'explaining' && e.type === 'explained')
        return stay({ phase: 'explained', explanation: e.explanation, unassigned: e.unassigned, failed: e.failed });
      // Offered only when a copy has failed (issue 47 item 9): otherwise the retry would move nothing.
      if (s.phase === 'explained' && e.type === 'retry' && (s.failed > 0 || e.asked))
        return stay({ phase: 'retryReview', plan: retryFailedPlan(s.unassigned), explanation: s.explanation, unassigned: s.unassigned });
      if (s.phase === 'retryReview' && e.type === 'confirm')
        return go(
          { phase: 'applying', plan: s.plan },
          { type: 'mutate', plans: [s.plan], confirmation: e.confirmation, compareShards: true },
        );
      if (s.phase === 'applying' && e.type === 'applied') {
        const r = e.results[0];
        return stay(
          r.ok ? { phase: 'done', result: r, moves: e.moves, stillUnassigned: e.stillUnassigned } : { phase: 'failed', message: r.message },
        );
      }
      return stay(s);
    },
  };
}
