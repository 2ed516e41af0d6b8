// Shards: why the cluster is yellow or red in one sentence, unassigned shards grouped by the
// allocation decider that blocks them (one allocation explain per distinct case, bounded), replicas
// that cannot be placed on one node, indices without a replica on several nodes (the seed's rule 3),
// corrupt primaries. Pure.
import type { ClusterHealth, IndexRow, ShardRow } from '../types';
import { FIXES, type Finding, type Fix } from './finding';
import { compareText } from '../text/order';

type Json = Record<string, any>;

/** At most this many allocation explains per doctor run. */
export const MAX_EXPLAINS = 8;

/** One distinct case of unassigned shards: same index, same kind of copy, same reason. */
export interface UnassignedCase {
  key: string;
  index: string;
  primary: boolean;
  reason: string | null;
  shards: ShardRow[];
}

/** Unassigned shards grouped into the cases worth one allocation explain each, primaries first, bounded. */
export function unassignedCases(shards: readonly ShardRow[], max = MAX_EXPLAINS): { cases: UnassignedCase[]; unexplained: number } {
  const by = new Map<string, UnassignedCase>();
  for (const s of shards) {
    if (s.state !== 'UNASSIGNED') continue;
    const key = `${s.index}|${s.primary ? 'p' : 'r'}|${s.unassignedReason ?? ''}`;
    const c = by.get(key) ?? { key, index: s.index, primary: s.primary, reason: s.unassignedReason, shards: [] };
    c.shards.push(s);
    by.set(key, c);
  }
  const all = [...by.values()].sort(
    (a, b) => Number(b.primary) - Number(a.primary) || b.shards.length - a.shards.length || compareText(a.index, b.index),
  );
  return { cases: all.slice(0, max), unexplained: all.slice(max).reduce((n, c) => n + c.shards.length, 0) };
}

/** What an allocation explain says blocks a shard: the deciders that said NO, or the verdict itself. */
export interface Blocker {
  /** e.g. "same_shard", "filter", "max_retry", "disk_threshold", or the verdict "no_valid_shard_copy". */
  decider: string;
  explanation: string;
}

export function blockersOf(explain: Json): Blocker[] {
  const out = new Map<string, string>();
  for (const n of explain?.node_allocation_decisions ?? []) {
    for (const d of n.deciders ?? []) if (d.decision === 'NO' && !out.has(d.decider)) out.set(d.decider, String(d.explanation ?? ''));
  }
  if (out.size === 0 && explain?.can_allocate && explain.can_allocate !== 'yes')
    out.set(explain.can_allocate, String(explain.allocate_explanation ?? ''));
  return [...out].map(([decider, explanation]) => ({ decider, explanation }));
}

export interface ExplainedCase extends UnassignedCase {
  explain: Json | null;
  /** Why the explain failed, when it did. */
  error?: string;
}

export const DECIDER_WORDS: Record<string, string> = {
  same_shard: 'a copy may not share a node with another copy of the same shard',
  filter: 'an allocation filter (index.routing.allocation.* or cluster.routing.allocation.*) excludes every node',
  max_retry: 'allocation failed too many times (index.allocation.max_retries)',
  disk_threshold: 'the nodes are past the low disk watermark',
  no_valid_shard_copy: 'no valid copy of the primary exists (stale or corrupt)',
  enable: 'allocation is disabled (cluster.routing.allocation.enable)',
  awareness: 'allocation awareness leaves no node',
  shards_limit: 'the shards-per-node limit is reached',
  throttled: 'allocation is throttled (it will come)',
  allocation_delayed: 'allocation is delayed after a node left (index.unassigned.node_left.delayed_timeout)',
};

function fixFor(decider: string, c: ExplainedCase, dataNodes: number): Fix | undefined {
  const s = c.shards[0];
  switch (decider) {
    case 'same_shard':
      return dataNodes <= 1 && !c.primary ? FIXES.replicas(c.index, 0) : FIXES.allocation(c.index, s.shard, s.primary);
    case 'max_retry':
      return FIXES.retryFailed(c.index, s.shard, s.primary);
    case 'no_valid_shard_copy':
      return FIXES.recoverCorrupt(c.index, s.shard);
    case 'disk_threshold':
      return FIXES.unblock();
    default:
      return FIXES.allocation(c.index, s.shard, s.primary);
  }
}

function remedyFor(decider: string, c: ExplainedCase, dataNodes: number): string {
  switch (decider) {
    case 'same_shard':
      return dataNodes <= 1
        ? `set number_of_replicas to 0 on ${c.index} and on its template (single node), so future indices are created correctly`
        : 'add a data node, or lower number_of_replicas';
    case 'filter':
      return `remove or correct the allocation filter (index.routing.allocation.* on ${c.index}, or cluster.routing.allocation.*) that excludes every node`;
    case 'max_retry':
      return 'fix the cause named in the explanation, then retry failed allocations (POST /_cluster/reroute?retry_failed)';
    case 'no_valid_shard_copy':
      return 'recover from replicas, snapshots or backups; otherwise the recovery checklist (CheckIndex with exorcise; documents in broken segments are lost)';
    case 'disk_threshold':
      return 'free disk space below the low watermark (about 20% free is needed to reassign shards)';
    default:
      return 'read the allocation explanation and lift what blocks it';
  }
}

export interface ShardInputs {
  health: ClusterHealth;
  indices: readonly IndexRow[];
  explained: readonly ExplainedCase[];
  unexplained: number;
}

export function shardFindings(i: ShardInputs): Finding[] {
  const out: Finding[] = [];
  const dataNodes = i.health.numberOfDataNodes;
  // Group the explained cases by what blocks them.
  const byDecider = new Map<string, { cases: ExplainedCase[]; explanation: string }>();
  for (const c of i.explained) {
    const blockers = c.explain ? blockersOf(c.explain) : [];
    const key = blockers.length
      ? blockers
          .map((b) => b.decider)
          .sort()
          .join('+')
      : c.error
        ? 'explain-failed'
        : 'unknown';
    const g = byDecider.get(key) ?? { cases: [], explanation: blockers[0]?.explanation ?? c.error ?? '' };
    g.cases.push(c);
    byDecider.set(key, g);
  }
  const reasons: string[] = [];
  for (const [key, g] of byDecider) {
    const n = g.cases.reduce((s, c) => s + c.shards.length, 0);
    const primaries = g.cases.filter((c) => c.primary).reduce((s, c) => s + c.shards.length, 0);
    const main = key.split('+')[0];
    const words = key
      .split('+')
      .map((d) => DECIDER_WORDS[d] ?? d)
      .join('; ');
    reasons.push(
      `${n} ${primaries ? (primaries === n ? 'primary' : 'primary and replica') : 'replica'} shard${n === 1 ? '' : 's'} blocked by ${key} (${words})`,
    );
    const c0 = g.cases[0];
    const corrupt = main === 'no_valid_shard_copy';
    out.push({
      id: `shards.${corrupt ? 'corrupt' : 'unassigned'}.${key}`,
      family: 'shards',
      severity: primaries ? 'critical' : 'warn',
      finding: `${n} unassigned shard${n === 1 ? '' : 's'}${primaries ? ` (${primaries} primary)` : ''} blocked by ${key}: ${words}`,
      evidence: [
        ...g.cases
          .slice(0, 6)
          .map(
            (c) =>
              `${c.index} ${c.primary ? 'primary' : 'replica'} shard${c.shards.length === 1 ? '' : 's'} ${c.shards.map((s) => s.shard).join(',')}: ${c.reason ?? '?'}${c.shards[0].unassignedDetails ? ` (${c.shards[0].unassignedDetails.slice(0, 160)})` : ''}`,
          ),
        ...(g.explanation ? [`allocation explain: ${g.explanation.slice(0, 300)}`] : []),
      ],
      remedy: remedyFor(main, c0, dataNodes),
      fix: fixFor(main, c0, dataNodes),
    });
  }
  // One sentence on the colour.
  const st = i.health.status;
  out.push({
    id: 'shards.health',
    family: 'shards',
    severity: st === 'green' ? 'ok' : st === 'yellow' ? 'warn' : 'critical',
    finding:
      st === 'green'
        ? `cluster ${i.health.clusterName} is green: every shard is assigned`
        : `cluster is ${st} because ${reasons.length ? reasons.join('; ') : `${i.health.unassignedShards} shard(s) are unassigned`}${i.unexplained ? ` (and ${i.unexplained} more not explained here: shardeck explain)` : ''}`,
    evidence: [
      `${i.health.activeShards} active, ${i.health.unassignedShards} unassigned (${i.health.unassignedPrimaryShards ?? 'how many'} primary), ${dataNodes} data node${dataNodes === 1 ? '' : 's'}`,
    ],
  });
  // The seed's states: replicas > 0 on a single node; rule 3: a replica per index with several nodes.
  const user = i.indices.filter((x) => !x.system);
  if (dataNodes === 1) {
    const withRep = user.filter((x) => (x.replicas ?? 0) > 0);
    out.push(
      withRep.length
        ? {
            id: 'shards.replicas-single-node',
            family: 'shards',
            severity: 'warn',
            finding: `${withRep.length} ${withRep.length === 1 ? 'index has' : 'indices have'} number_of_replicas > 0 on a single-node cluster: their replicas stay unassigned (yellow)`,
            evidence: withRep.slice(0, 8).map((x) => `${x.name}: number_of_replicas ${x.replicas}`),
            remedy: 'set number_of_replicas to 0 on the index and on its template (service_v9), so future indices are created correctly',
            fix: FIXES.replicas(withRep[0].name, 0),
          }
        : {
            id: 'shards.replicas-single-node',
            family: 'shards',
            severity: 'ok',
            finding: 'no index asks for a replica on this single node',
            evidence: [],
          },
    );
  } else if (dataNodes > 1) {
    const noRep = user.filter((x) => x.replicas === 0);
    out.push(
      noRep.length
        ? {
            id: 'shards.no-replica',
            family: 'shards',
            severity: 'warn',
            finding: `${noRep.length} ${noRep.length === 1 ? 'index has' : 'indices have'} no replica on a ${dataNodes}-node cluster: losing one node loses data (the seed's rule 3)`,
            evidence: noRep.slice(0, 8).map((x) => `${x.name}: number_of_replicas 0`),
            remedy: 'set at least one replica per index (on service_v9_* indices and their template)',
            fix: FIXES.replicas(noRep[0].name, 1),
          }
        : {
            id: 'shards.no-replica',
            family: 'shards',
            severity: 'ok',
            finding: `every index has a replica on the ${dataNodes} data nodes`,
            evidence: [],
          },
    );
  }
  return out;
}
