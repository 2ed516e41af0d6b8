// The rolling restart of the node shardeck runs on, as Elastic documents it: allocation of
// replicas off (cluster.routing.allocation.enable: primaries, recorded: domain/maintenance/allocation-limits.ts),
// flush, stop the engine (and wait for it to leave), start it (and wait for it to join), allocation
// back to what it was, wait for green, verify. The checks come first. The progress is saved after
// every step (services/restart-node.ts) so a dropped run resumes at the right step; the node
// shutdown API is not used (Elastic's orchestrators only). Pure.
import type { MutationPlan } from '../mutation/plan';
import type { TargetOptions } from '../mutation/targets';
import type { HealthStatus, ShardRow } from '../types';

export const RESTART_STEPS = ['allocation-off', 'flush', 'stop', 'start', 'allocation-back', 'green', 'verify'] as const;
export type RestartStepId = (typeof RESTART_STEPS)[number];

/** What each step does, as the preview and the audit say it. */
export function stepTitle(id: RestartStepId, node: string): string {
  switch (id) {
    case 'allocation-off':
      return 'allocation of replicas off (cluster.routing.allocation.enable: primaries; the value before is recorded)';
    case 'flush':
      return `flush the indices with shards on ${node}`;
    case 'stop':
      return `stop the engine of ${node} and wait for it to leave`;
    case 'start':
      return `start the engine of ${node} and wait for it to join`;
    case 'allocation-back':
      return 'allocation back to what it was before';
    case 'green':
      return 'wait for the cluster to be green';
    case 'verify':
      return `verify: ${node} in the cluster, allocation not limited by shardeck`;
  }
}

export interface RestartChecksInput {
  node: string;
  health: { status: HealthStatus; relocating: number; unassigned: number };
  shards: readonly Pick<ShardRow, 'index' | 'shard' | 'primary' | 'state' | 'node'>[];
}

export interface RestartChecks {
  /** Nothing is done while this holds (a relocation under way). */
  refusal: string | null;
  /** What the operator must accept to go on (not green; shards with no copy elsewhere). */
  warnings: string[];
  /** Shards whose only started copy is on the node: they go red while it is down. */
  noCopyElsewhere: { index: string; shard: number }[];
  /** The indices with a shard on the node (what is flushed). */
  indices: string[];
}

export function restartChecks(i: RestartChecksInput): RestartChecks {
  const onNode = i.shards.filter((s) => s.node === i.node);
  const indices = [...new Set(onNode.map((s) => s.index))].sort();
  const key = (s: { index: string; shard: number }) => `${s.index}\u0000${s.shard}`;
  const elsewhere = new Set(i.shards.filter((s) => s.node !== i.node && s.state === 'STARTED').map(key));
  const seen = new Set<string>();
  const noCopyElsewhere: { index: string; shard: number }[] = [];
  for (const s of onNode)
    if (!elsewhere.has(key(s)) && !seen.has(key(s))) {
      seen.add(key(s));
      noCopyElsewhere.push({ index: s.index, shard: s.shard });
    }
  // In name order, not the shard list's (which varies from one read to the next).
  noCopyElsewhere.sort((a, b) => (a.index === b.index ? a.shard - b.shard : a.index < b.index ? -1 : 1));
  const warnings: string[] = [];
  if (i.health.status !== 'green')
    warnings.push(
      `the cluster is ${i.health.status} (${i.health.unassigned} unassigned shard${i.health.unassigned === 1 ? '' : 's'}): Elastic's steps start from green; a restart now may leave more shards unassigned`,
    );
  if (noCopyElsewhere.length)
    warnings.push(
      `${noCopyElsewhere.length} shard${noCopyElsewhere.length === 1 ? ' has' : 's have'} no copy on another node and will be unavailable (red) while ${i.node} is down: ` +
        noCopyElsewhere
          .slice(0, 8)
          .map((s) => `${s.index}[${s.shard}]`)
          .join(', ') +
        (noCopyElsewhere.length > 8 ? `, and ${noCopyElsewhere.length - 8} more` : ''),
    );
  const refusal =
    i.health.relocating > 0
      ? `${i.health.relocating} shard${i.health.relocating === 1 ? ' is' : 's are'} relocating: wait until they have moved (the Shards pane), then run it again; nothing was changed`
      : null;
  return { refusal, warnings, noCopyElsewhere, indices };
}

export interface RestartStepRecord {
  status: 'done' | 'failed';
  at: string;
  /** How long the step took. */
  ms: number;
  message: string;
}

export interface RestartProgress {
  version: 1;
  node: { name: string; id: string };
  startedAt: string;
  /** The indices flushed (named, never `_all`). */
  indices: string[];
  steps: Partial<Record<RestartStepId, RestartStepRecord>>;
  finished?: boolean;
}

export function newRestartProgress(node: { name: string; id: string }, indices: string[], now: string): RestartProgress {
  return { version: 1, node, startedAt: now, indices, steps: {} };
}

/** The first step not done; null when the restart is complete. */
export function nextRestartStep(p: RestartProgress): RestartStepId | null {
  return RESTART_STEPS.find((id) => p.steps[id]?.status !== 'done') ?? null;
}

export function recordRestartStep(p: RestartProgress, id: RestartStepId, rec: RestartStepRecord): RestartProgress {
  const next = { ...p, steps: { ...p.steps, [id]: rec } };
  return nextRestartStep(next) === null ? { ...next, finished: true } : next;
}

/**
 * After a step failed or the operator stopped: whether allocation must be put back now. Before the
 * stop was tried nothing is down, so allocation goes back at once (a restart given up never
 * leaves it off); once the stop was tried, even if it failed or timed out (the engine may still be
 * stopping: issue 40 N8), the re-run goes on (stop, start, then allocation back), and until then
 * the record makes every shardeck on the host say it.
 */
export function restoreAllocationNow(p: RestartProgress): boolean {
  return p.steps['allocation-off']?.status === 'done' && p.steps.stop === undefined && p.steps['allocation-back']?.status !== 'done';
}

/**
 * Where a resumed restart goes on. Allocation was put back meanwhile (`shardeck allocation
 * restore`, or by hand) while the engine had not stopped yet: the restart starts again at
 * allocation off, so the engine never stops with replicas allocating.
 */
export function resumeFrom(p: RestartProgress, allocationStillOff: boolean): RestartProgress {
  if (allocationStillOff || p.steps.stop?.status === 'done' || p.steps['allocation-off']?.status !== 'done') return p;
  const steps = { ...p.steps };
  delete steps['allocation-off'];
  delete steps.flush;
  return { ...p, steps };
}

/** Each step's time, for the report ("allocation-off 0.2 s, flush 0.1 s, ..."). */
export function restartTimings(p: RestartProgress): string {
  return RESTART_STEPS.filter((id) => p.steps[id]?.status === 'done')
    .map((id) => `${id} ${(p.steps[id]!.ms / 1000).toFixed(1)} s`)
    .join(', ');
}

/** A progress file's text, checked: anything else is not ours (ignored). */
export function parseRestartProgress(text: string): RestartProgress | null {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return null;
  }
  const p = j as Partial<RestartProgress> | null;
  if (!p || p.version !== 1 || typeof p.node?.name !== 'string' || typeof p.node?.id !== 'string' || typeof p.startedAt !== 'string')
    return null;
  if (!Array.isArray(p.indices) || !p.indices.every((x) => typeof x === 'string')) return null;
  const steps: RestartProgress['steps'] = {};
  for (const [id, r] of Object.entries(p.steps ?? {})) {
    if (!(RESTART_STEPS as readonly string[]).includes(id)) return null;
    const rec = r as Partial<RestartStepRecord>;
    if ((rec.status !== 'done' && rec.status !== 'failed') || typeof rec.at !== 'string') return null;
    steps[id as RestartStepId] = { status: rec.status, at: rec.at, ms: Number(rec.ms) || 0, message: String(rec.message ?? '') };
  }
  return {
    version: 1,
    node: { name: p.node.name, id: p.node.id },
    startedAt: p.startedAt,
    indices: p.indices,
    steps,
    ...(p.finished ? { finished: true } : {}),
  };
}

/**
 * The flush names every index with a shard on the node, dot ones too (.security, a hidden index):
 * read from the node, named exactly, and a flush changes no data, so a node holding one is restarted too.
 */
export const FLUSH_TARGETS: TargetOptions = { includeSystem: true };

/** The flush of exactly the indices with shards on the node (Elastic's `POST _flush`, narrowed to them: never `_all`). */
export function flushPlan(indices: readonly string[], node: string): MutationPlan {
  return {
    method: 'POST',
    path: `/${indices.map(encodeURIComponent).join(',')}/_flush`,
    querystring: {},
    risk: 'reversible',
    target: indices.join(','),
    summary: `flush the ${indices.length} ${indices.length === 1 ? 'index' : 'indices'} with shards on ${node} before it stops (its translog need not be replayed)`,
  };
}
