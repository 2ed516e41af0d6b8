// The master and the nodes by role (issue 41): an elected master and elections (the health
// report's master_is_stable on 8.7+; the election term and the master in two reads a few seconds
// apart; the masters the console saw), a node that left named with its roles (the voting
// configuration names master-eligible nodes, NODE_LEFT shards the data nodes, the console every
// node it saw), the elected master's load, and whether master-eligible nodes are enough to survive
// one's loss. Pure.
import { formatAgo, formatPercent } from '../text/format';
import type { NodeSample } from '../nodes/node-history';
import { nodeLeftShards, type NodeWatch } from '../nodes/node-watch';
import { roleLetters } from '../nodes/roles';
import type { ShardRow } from '../types';
import type { Finding } from './finding';
import { findingFromIndicator, indicatorOf, type HealthReportView, type IndicatorDetail } from './health-report';
import type { DoctorSample, NodeCounters } from './sample';
import { windowText } from './sample';

export interface MasterInputs {
  health?: HealthReportView;
  /** The two reads of the run (the first may be missing when only one was taken). */
  first?: DoctorSample;
  second?: DoctorSample;
  /** The console's record of nodes and masters (undefined from the command line). */
  watch?: NodeWatch;
  /** The console's samples per node (CPU of the master). */
  history?: Record<string, readonly NodeSample[]>;
  /** Old generation use per node name (percent), from the pressure read. */
  oldGen?: Record<string, number | null>;
  shards?: readonly ShardRow[];
  now: number;
}

/** The elected master's CPU at or above this in both reads (or the console's last MASTER_CPU_SAMPLES) is a loaded master. */
export const MASTER_CPU = 90;
export const MASTER_CPU_SAMPLES = 6;
/** Its old generation above this (the "high JVM memory pressure" threshold) is a loaded master. */
export const MASTER_OLD_GEN = 85;

const nameOf = (s: DoctorSample | undefined, id: string | null) => (id ? (s?.nodes.find((n) => n.id === id)?.name ?? id) : null);

/** Roles in a few words: "master, data_hot, ingest" (every data_* as "data" when the node holds all of them). */
export function rolesText(roles: readonly string[]): string {
  if (!roles.length) return 'coordinating only';
  return roles.join(', ');
}

const isMasterEligible = (n: Pick<NodeCounters, 'roles'>) => n.roles.includes('master');
const isData = (n: Pick<NodeCounters, 'roles'>) => n.roles.some((r) => r === 'data' || r.startsWith('data_'));

/** master.stable: an elected master, and no election while the doctor (or the console) watched. */
export function masterStableFinding(i: MasterInputs): Finding {
  const d = indicatorOf(i.health, 'master_is_stable');
  const s = i.second;
  const evidence: string[] = [];
  const master = nameOf(s, s?.masterId ?? null);
  const elections: string[] = [];
  if (i.first && s) {
    const a = nameOf(i.first, i.first.masterId);
    const window = windowText(s.t - i.first.t);
    evidence.push(
      `elected master ${a ?? 'none'} then ${master ?? 'none'}, term ${i.first.term ?? '?'} then ${s.term ?? '?'} (two reads ${window} apart)`,
    );
    if (i.first.masterId !== s.masterId && i.first.masterId && s.masterId) elections.push(`the master changed from ${a} to ${master}`);
    else if (i.first.term !== null && s.term !== null && s.term > i.first.term)
      elections.push(`${s.term - i.first.term} election(s) in ${window} (term ${i.first.term} -> ${s.term})`);
  }
  const seen = i.watch?.masters ?? [];
  if (seen.length > 1) {
    elections.push(`the console saw ${seen.length} masters: ${seen.map((m) => `${m.name} (${formatAgo(i.now - m.since)})`).join(', ')}`);
    evidence.push(`masters the console saw: ${seen.map((m) => `${m.name} since ${new Date(m.since).toISOString()}`).join(', ')}`);
  } else if (!i.watch)
    evidence.push("elections before this run: needs the console's history (the term counts every election since the cluster formed)");
  if (d) {
    const recent = Array.isArray(d.details.recent_masters)
      ? (d.details.recent_masters as { name?: string }[]).map((m) => m.name ?? '?')
      : [];
    // The indicator looks back 30 minutes; while it is green, what the two reads or the console saw says more.
    if (d.indicator.status !== 'green')
      return findingFromIndicator(
        'master.stable',
        'master',
        d,
        recent.length ? [`recent masters: ${recent.join(', ')}`, ...evidence] : evidence,
      );
    evidence.unshift(
      `_health_report master_is_stable: green: ${d.indicator.symptom}${recent.length ? `; recent masters: ${recent.join(', ')}` : ''}`,
    );
  }
  if (s && !s.masterId)
    return {
      id: 'master.stable',
      family: 'master',
      severity: 'critical',
      finding: 'no elected master: the cluster cannot change its state (no index created, no shard allocated, settings refused)',
      evidence,
      remedy: `start enough master-eligible nodes to form a quorum of the voting configuration (${s.votingIds.length ? s.votingIds.join(', ') : 'its ids in the cluster state'}); their logs say why no election succeeds (discovery, cluster.initial_master_nodes, a network partition)`,
    };
  if (!s) return { id: 'master.stable', family: 'master', severity: 'unknown', finding: 'the cluster state was not read', evidence };
  if (elections.length)
    return {
      id: 'master.stable',
      family: 'master',
      severity: 'warn',
      finding: `master elections while watched: ${elections.join('; ')}`,
      evidence,
      remedy: MASTER_REMEDY,
    };
  return {
    id: 'master.stable',
    family: 'master',
    severity: 'ok',
    finding: `master ${master} elected, no election while watched (term ${s.term ?? '?'})`,
    evidence,
  };
}

/**
 * master.stable when the cluster cannot be read for want of a master: the node asked says it knows
 * none (its local cluster state), with the master_is_stable indicator's diagnoses where it has one.
 */
export function noMasterFinding(node: string, indicator?: IndicatorDetail): Finding {
  const evidence = [`the node answering (${node}) knows no elected master (GET _cluster/state/master_node?local=true)`];
  if (indicator && indicator.indicator.status !== 'green') return findingFromIndicator('master.stable', 'master', indicator, evidence);
  // Seen on 8.19: green with current_master null for a while after the master is gone.
  if (indicator)
    evidence.push(
      `_health_report master_is_stable: ${indicator.indicator.status}: ${indicator.indicator.symptom} (current_master null: the indicator waits before it turns red)`,
    );
  return {
    id: 'master.stable',
    family: 'master',
    severity: 'critical',
    finding: 'no elected master: the cluster answers no health, no search that needs the cluster state, no change',
    evidence,
    remedy:
      'start enough master-eligible nodes to form a quorum of the voting configuration; their logs say why no election succeeds (discovery.seed_hosts, cluster.initial_master_nodes, the network between them)',
  };
}

const MASTER_REMEDY =
  "read the master-eligible nodes' logs around the election (a long GC pause, a node that left, the network between them); a loaded master (see master.load) misses its checks and is replaced";

/** master.node-left: nodes that left, named with their roles where anything says them. */
export function nodeLeftFinding(i: MasterInputs): Finding {
  const s = i.second;
  const present = new Set(s?.nodes.map((n) => n.id) ?? []);
  const lines: string[] = [];
  const evidence: string[] = [];
  const roles = i.watch?.roles ?? {};
  if (i.watch?.left) {
    const names = i.watch.left.names;
    lines.push(
      names.length
        ? names.map((n) => `${n} (${roles[n] ? roleLetters(roles[n]) : 'roles not seen'})`).join(', ') +
            ` left ${formatAgo(i.now - i.watch.left.since)}`
        : `${i.watch.left.count} node(s) left ${formatAgo(i.now - i.watch.left.since)}, not named yet`,
    );
    evidence.push(`the console saw ${i.watch.peak} nodes at most; ${i.watch.peak - i.watch.left.count} now`);
  }
  if (s) {
    const gone = s.votingIds.filter((id) => !present.has(id));
    if (gone.length) {
      lines.push(`master-eligible node(s) ${gone.join(', ')} of the voting configuration are not in the cluster`);
      evidence.push(`metadata.cluster_coordination.last_committed_config: ${s.votingIds.join(', ')}`);
    }
  }
  const left = nodeLeftShards(i.shards ? [...i.shards] : undefined);
  const dataGone = left.nodeIds.filter((id) => !present.has(id));
  if (left.shards) {
    if (dataGone.length) lines.push(`data node(s) ${dataGone.join(', ')} left: ${left.shards} shard copies unassigned (NODE_LEFT)`);
    evidence.push(
      `${left.shards} unassigned shard copies with reason NODE_LEFT${left.nodeIds.length ? ` (node_left [${left.nodeIds.join(', ')}])` : ''}`,
    );
  }
  if (lines.length)
    return {
      id: 'master.node-left',
      family: 'master',
      severity: 'warn',
      finding: lines.join('; '),
      evidence,
      remedy:
        'bring the node back (its service, its disk, its network): its shards come back from its disk; if it is gone for good, its replicas are made again elsewhere after index.unassigned.node_left.delayed_timeout, and a master-eligible node is taken out of the voting configuration with POST _cluster/voting_config_exclusions?node_names=<name>',
    };
  const counts = s
    ? `${s.nodes.length} node(s): ${s.nodes.filter(isMasterEligible).length} master-eligible, ${s.nodes.filter(isData).length} data`
    : 'nodes not read';
  return {
    id: 'master.node-left',
    family: 'master',
    severity: 'ok',
    finding: `no node left (${counts})`,
    evidence: i.watch
      ? [`the console saw ${i.watch.peak} node(s) at most`]
      : ["from the voting configuration and NODE_LEFT shards: a coordinating-only node's leaving is seen only by the console's history"],
  };
}

/** master.load: the elected master's CPU and old generation. */
export function masterLoadFinding(i: MasterInputs): Finding {
  const s = i.second;
  const m = s?.nodes.find((n) => n.id === s.masterId);
  if (!s || !m) return { id: 'master.load', family: 'master', severity: 'unknown', finding: 'no elected master to look at', evidence: [] };
  const a = i.first?.nodes.find((n) => n.id === m.id);
  const seen = (i.history?.[m.name] ?? []).slice(-MASTER_CPU_SAMPLES).map((x) => x.cpuPercent);
  const cpuHigh =
    seen.length >= MASTER_CPU_SAMPLES
      ? seen.every((c) => c !== null && c >= MASTER_CPU)
      : a !== undefined && [a.cpuPercent, m.cpuPercent].every((c) => c !== null && c >= MASTER_CPU);
  const old = i.oldGen?.[m.name] ?? null;
  const heapHigh = old !== null && old > MASTER_OLD_GEN;
  const evidence = [
    `${m.name} (${rolesText(m.roles)}): CPU ${a?.cpuPercent ?? '-'}% then ${m.cpuPercent ?? '-'}%, heap ${m.heapPercent ?? '-'}%, old generation ${old === null ? '-' : formatPercent(old)}`,
    ...(seen.length >= MASTER_CPU_SAMPLES
      ? [`the console's last ${MASTER_CPU_SAMPLES} CPU samples: ${seen.map((c) => (c === null ? '-' : `${c}%`)).join(' ')}`]
      : []),
  ];
  if (!cpuHigh && !heapHigh)
    return {
      id: 'master.load',
      family: 'master',
      severity: 'ok',
      node: m.name,
      finding: `the elected master ${m.name} is not loaded`,
      evidence,
    };
  const what = [cpuHigh ? `CPU ${MASTER_CPU}% or more` : '', heapHigh ? `old generation ${formatPercent(old ?? 0)}` : '']
    .filter(Boolean)
    .join(' and ');
  return {
    id: 'master.load',
    family: 'master',
    severity: 'warn',
    node: m.name,
    finding: `the elected master ${m.name} is loaded (${what}): cluster-state updates slow down and a missed check makes it lose its place`,
    evidence,
    remedy: isData(m)
      ? 'the master also holds data: move searches and bulks off it (fewer shards on it, clients sent to the other nodes); on a cluster of several nodes, dedicated master-eligible nodes (node.roles: [ master ])'
      : 'fewer cluster-state changes (mapping updates, index creations, shard count), then more heap for the master-eligible nodes',
  };
}

/** master.ha: master-eligible nodes enough to lose one (three or more); one on the platform's single node is information. */
export function highAvailabilityFinding(i: MasterInputs): Finding {
  const s = i.second;
  if (!s) return { id: 'master.ha', family: 'master', severity: 'unknown', finding: 'the nodes were not read', evidence: [] };
  const eligible = s.nodes.filter(isMasterEligible);
  const evidence = [`master-eligible: ${eligible.map((n) => n.name).join(', ') || 'none'} of ${s.nodes.length} node(s)`];
  if (eligible.length >= 3)
    return {
      id: 'master.ha',
      family: 'master',
      severity: 'ok',
      finding: `${eligible.length} master-eligible nodes: the cluster survives losing one`,
      evidence,
    };
  if (eligible.length === 1 && s.nodes.length === 1)
    return {
      id: 'master.ha',
      family: 'master',
      severity: 'ok',
      finding:
        "one node, master-eligible: not highly available (the platform's single storage node: expected; its snapshots are the backup)",
      evidence,
    };
  return {
    id: 'master.ha',
    family: 'master',
    severity: 'warn',
    finding: `${eligible.length} master-eligible node(s) for ${s.nodes.length} nodes: losing ${eligible.length === 2 ? 'either of them may stop' : 'it stops'} elections, and the cluster with them`,
    evidence,
    remedy: 'three master-eligible nodes (node.roles includes master), so that one can be lost',
  };
}

export function masterFindings(i: MasterInputs): Finding[] {
  return [masterStableFinding(i), nodeLeftFinding(i), masterLoadFinding(i), highAvailabilityFinding(i)];
}
