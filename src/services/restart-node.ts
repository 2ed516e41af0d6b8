// Runs the rolling restart of this host's node (domain/maintenance/restart-node.ts) with real calls: the
// cluster changes through Guard.execute (allocation off is recorded before it is sent:
// services/guard.ts), the engine's stop and start through the service commands
// (services/engine.ts runService: Guard.runHostCommand, verified on the node). The progress is
// saved after every step in <configDir>/restarts/<node>.json (0600), so a re-run goes on where the
// last one stopped; a restart given up before the engine stopped puts allocation back at once.
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import { ClusterBusyError, withRestartLock } from '../config/cluster-lock';
import { readCapped } from '../boundary/files';
import { configDir, removePrivateFile, writePrivateFileAtomic } from '../config/files';
import { allocationEnablePlan } from '../domain/maintenance/allocation-limits';
import { serviceManagerMissing, type ServiceConfig } from '../domain/host/engine';
import { systemdRunning } from '../boundary/host-reads';
import type { Confirmation } from '../domain/mutation/confirmation';
import type { MutationPlan } from '../domain/mutation/plan';
import {
  flushPlan,
  FLUSH_TARGETS,
  newRestartProgress,
  nextRestartStep,
  parseRestartProgress,
  recordRestartStep,
  restartChecks,
  restartTimings,
  restoreAllocationNow,
  resumeFrom,
  stepTitle,
  type RestartChecks,
  type RestartProgress,
  type RestartStepId,
} from '../domain/maintenance/restart-node';
import { leftAllocation } from './allocation-record';
import { readEngine, runService, type EngineFacts, type EngineOverrides, type EngineTuning } from './engine';
import { GuardRefusal, type Guard } from './guard';
import type { TargetOptions } from '../domain/mutation/targets';
import { waitUntil } from './wait';

export function restartProgressFile(nodeName: string): string {
  return path.join(configDir(), 'restarts', `${nodeName.replace(/[^\w.-]/g, '_')}.json`);
}

/** An unfinished restart of the node, or null (none, finished, or a file that is not ours). */
export function loadRestartProgress(nodeName: string): RestartProgress | null {
  try {
    const r = readCapped(restartProgressFile(nodeName), 64 * 1024, { noFollow: true });
    if (r.owner !== (process.getuid?.() ?? 0)) return null;
    const p = parseRestartProgress(r.text);
    return p && !p.finished && p.node.name === nodeName ? p : null;
  } catch {
    return null;
  }
}

function save(p: RestartProgress): void {
  writePrivateFileAtomic(restartProgressFile(p.node.name), JSON.stringify(p, null, 2) + '\n');
}

export interface RestartOptions {
  url: string;
  overrides: EngineOverrides & ServiceConfig;
  tuning?: EngineTuning & { greenTimeoutMs?: number };
  /** Told each step before it runs (with its preview when it is a request) and after. */
  onStep?: (e: { id: RestartStepId; title: string; phase: 'start' | 'done' | 'failed'; message?: string; plan?: MutationPlan }) => void;
  onOutput?: (s: string) => void;
  /** The request of a step known only when it runs (allocation back: this operator's own record), before it is sent. */
  onPreview?: (plan: MutationPlan) => void;
}

export type RestartStart =
  | { kind: 'refused'; message: string }
  | {
      kind: 'ready';
      facts: EngineFacts;
      node: { name: string; id: string };
      checks: RestartChecks | null;
      progress: RestartProgress | null;
    };

/** The node, an unfinished restart of it (then no checks: it goes on), else the checks. */
export async function prepareRestart(es: EsApi, opts: RestartOptions): Promise<RestartStart> {
  const facts = await readEngine(es, opts.url, opts.overrides);
  if (facts.elsewhere)
    return { kind: 'refused', message: `${facts.elsewhere}: restart-node restarts the node of this host; nothing was changed` };
  // No node seen on this host: when the cluster does not answer either, say that (exit 3), not "no node here".
  if (!facts.node) await es.data('health');
  if (!facts.node)
    return {
      kind: 'refused',
      message: 'no node of this cluster runs on this host (and none was seen here): nothing to restart; nothing was changed',
    };
  const noManager = serviceManagerMissing(opts.overrides, { systemdRunning: systemdRunning() });
  if (noManager) return { kind: 'refused', message: noManager };
  const saved = loadRestartProgress(facts.node.name);
  if (saved) {
    const progress = resumeFrom(saved, (await leftAllocation(es)) !== null);
    return { kind: 'ready', facts, node: facts.node, checks: null, progress };
  }
  const [health, shards] = await Promise.all([es.data('health'), es.data('shards')]);
  const checks = restartChecks({
    node: facts.node.name,
    health: { status: health.status, relocating: health.relocatingShards, unassigned: health.unassignedShards },
    shards,
  });
  return { kind: 'ready', facts, node: facts.node, checks, progress: null };
}

async function send(
  guard: Guard,
  plan: MutationPlan,
  c: Confirmation,
  targets: TargetOptions = {},
): Promise<{ ok: boolean; message: string }> {
  try {
    const out = await guard.execute(plan, c, targets);
    const ok = out.applied === 'yes' && out.verified?.ok !== false;
    return { ok, message: out.verified?.message ?? (out.ok ? 'done' : (out.error?.message ?? `not applied (${out.applied})`)) };
  } catch (e) {
    if (e instanceof GuardRefusal) return { ok: false, message: e.message };
    throw e;
  }
}

async function runStep(
  id: RestartStepId,
  es: EsApi,
  guard: Guard,
  p: RestartProgress,
  facts: EngineFacts,
  c: Confirmation,
  opts: RestartOptions,
): Promise<{ ok: boolean; message: string }> {
  const name = p.node.name;
  const tuning = opts.tuning ?? {};
  const onOutput = opts.onOutput ?? (() => undefined);
  switch (id) {
    case 'allocation-off':
      return send(guard, allocationEnablePlan('primaries', `for the restart of node ${name}`), c);
    case 'flush':
      return p.indices.length
        ? send(guard, flushPlan(p.indices, name), c, FLUSH_TARGETS)
        : { ok: true, message: 'no index has a shard on the node: nothing to flush' };
    case 'stop':
    case 'start': {
      const r = await runService(es, guard, id, facts, opts.overrides, c, onOutput, tuning);
      return { ok: r.ok, message: r.lines.join('; ') };
    }
    case 'allocation-back': {
      // This operator's own record only: another operator's change (a drain in progress) or a
      // record planted in the shared folder is theirs, said at the start, never sent here (issue 40 N2).
      const left = await leftAllocation(es);
      if (!left) return { ok: true, message: 'allocation is already what it was before' };
      opts.onPreview?.(left.plan);
      return send(guard, left.plan, c);
    }
    case 'green': {
      const ms = tuning.greenTimeoutMs ?? 300_000;
      const { value, met } = await waitUntil(
        () => es.health(),
        (h) => h.status === 'green',
        { timeoutMs: ms, intervalMs: 1000 },
      );
      return met
        ? { ok: true, message: 'the cluster is green' }
        : {
            ok: false,
            message: `the cluster is ${value.status} after ${Math.round(ms / 1000)} s (${value.unassigned} unassigned): run it again to go on waiting, or see the Health pane`,
          };
    }
    case 'verify': {
      const [nodes, left] = await Promise.all([es.nodeFacts(), leftAllocation(es)]);
      if (!nodes.some((n) => n.name === name)) return { ok: false, message: `node ${name} is not in the cluster` };
      if (left) return { ok: false, message: left.message };
      return { ok: true, message: `node ${name} is in the cluster, allocation is as it was` };
    }
  }
}

/**
 * Runs the steps from the first one not done, saving after each, holding the cluster's restart
 * lock throughout (config/cluster-lock.ts withRestartLock: another restart running is refused with
 * its holder, nothing changed). Stops at the first failure (a re-run goes on from it); before the
 * engine stopped, a failure puts allocation back at once.
 */
export async function runRestart(
  es: EsApi,
  guard: Guard,
  start: Extract<RestartStart, { kind: 'ready' }>,
  confirmation: Confirmation,
  opts: RestartOptions,
): Promise<{ ok: boolean; progress: RestartProgress; message: string }> {
  guard.assertWritable();
  const p = start.progress ?? newRestartProgress(start.node, start.checks?.indices ?? [], new Date().toISOString());
  try {
    return await withRestartLock(await es.clusterUuid(), `restart of node ${p.node.name}`, () =>
      runSteps(es, guard, start, p, confirmation, opts),
    );
  } catch (e) {
    if (e instanceof ClusterBusyError) return { ok: false, progress: p, message: e.message };
    throw e;
  }
}

/** The steps, under the restart lock (runRestart). */
async function runSteps(
  es: EsApi,
  guard: Guard,
  start: Extract<RestartStart, { kind: 'ready' }>,
  from: RestartProgress,
  confirmation: Confirmation,
  opts: RestartOptions,
): Promise<{ ok: boolean; progress: RestartProgress; message: string }> {
  let p = from;
  save(p);
  for (let id = nextRestartStep(p); id; id = nextRestartStep(p)) {
    const title = stepTitle(id, p.node.name);
    opts.onStep?.({ id, title, phase: 'start' });
    const began = Date.now();
    let r: { ok: boolean; message: string };
    try {
      r = await runStep(id, es, guard, p, start.facts, confirmation, opts);
    } catch (e) {
      r = { ok: false, message: (e as Error).message };
    }
    p = recordRestartStep(p, id, {
      status: r.ok ? 'done' : 'failed',
      at: new Date().toISOString(),
      ms: Date.now() - began,
      message: r.message,
    });
    save(p);
    opts.onStep?.({ id, title, phase: r.ok ? 'done' : 'failed', message: r.message });
    if (!r.ok) {
      if (restoreAllocationNow(p)) {
        const back = await runStep('allocation-back', es, guard, p, start.facts, confirmation, opts).catch((e: Error) => ({
          ok: false,
          message: e.message,
        }));
        // Given up before anything was down: the next run starts over, checks first (not at the flush with allocation on).
        if (back.ok) removePrivateFile(restartProgressFile(p.node.name));
        return {
          ok: false,
          progress: p,
          message: `${id} failed: ${r.message}; the engine was not stopped, so ${back.ok ? `allocation was put back (${back.message}) and the restart given up` : `allocation could not be put back (${back.message}): shardeck allocation restore`}`,
        };
      }
      return { ok: false, progress: p, message: `${id} failed: ${r.message}; run shardeck restart-node again to go on from this step` };
    }
  }
  return { ok: true, progress: p, message: `restarted ${p.node.name}: ${restartTimings(p)}` };
}
