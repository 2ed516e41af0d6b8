// Runners of the wizard machines (domain/wizards/): a session holds a machine's state, performs
// its effects with real calls (reads through cluster/, mutations only through the Guard) and
// sends the results back as events. The TUI's wizard components and the CLI twins both use them.
import type { EsApi } from '../cluster/api';
import { diskRows } from '../domain/disk';
import { explainAllocation, type AllocationEffect, type AllocationEvent, type AllocationState, allocationMachine, diffShards, type ShardRef } from '../domain/wizards/allocation';
import type { Machine, MutateEffect, PlanResult } from '../domain/wizards/machine';
import { replicasMachine, type ReplicasEffect, type ReplicasEvent, type ReplicasForm, type ReplicasState } from '../domain/wizards/replicas';
import { scrollMachine, type ScrollEffect, type ScrollEvent, type ScrollState } from '../domain/wizards/scroll';
import { blockedIndices, unblockMachine, type UnblockEffect, type UnblockEvent, type UnblockState } from '../domain/wizards/unblock';
import { describeOutcome, type MutationPlan, type Preview, type TargetOptions } from '../domain/mutation';
import { GuardRefusal, type Guard } from './guard';
import { deleteSession, forcemergeSession, type DeleteTuning } from './delete-wizards';
import type { DeleteEffect, DeleteEvent, DeleteForm, DeleteState } from '../domain/wizards/delete';
import type { MergeEffect, MergeEvent, MergeState } from '../domain/wizards/forcemerge';
import { waitUntil } from './wait';
import { recoverySession, type RecoveryTuning } from './recovery-wizard';

type Listener = () => void;

export class WizardSession<S, E extends { type: string }, F> {
  private state: S;
  private listeners = new Set<Listener>();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  /** What an effect threw last: the machine keeps only its message, callers need its kind. */
  private lastError: unknown;

  constructor(
    private readonly machine: Machine<S, E, F>,
    private readonly perform: (effect: F, send: (e: E) => void) => Promise<void>,
  ) {
    const first = machine.init();
    this.state = first.state;
    this.run(first.effects);
  }

  getState = (): S => this.state;

  subscribe = (fn: Listener): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  send = (event: E): void => {
    const next = this.machine.step(this.state, event);
    this.state = next.state;
    for (const l of this.listeners) l();
    this.run(next.effects);
  };

  /** Resolves once no effect is running (the state then waits for the operator). */
  idle(): Promise<S> {
    return this.pending === 0 ? Promise.resolve(this.state) : new Promise((r) => this.idleWaiters.push(() => r(this.state)));
  }

  /**
   * The error behind a failed state: what the effect threw (a ConnError keeps its kind, so a
   * command exits 3 when the node cannot be reached), else a plain Error with the state's message.
   */
  failure(message: string): Error {
    return this.lastError instanceof Error ? this.lastError : new Error(message);
  }

  private run(effects: F[]): void {
    for (const f of effects) {
      this.pending++;
      this.perform(f, this.send)
        .catch((e) => {
          this.lastError = e;
          this.send({ type: 'error', message: (e as Error).message } as unknown as E);
        })
        .finally(() => {
          this.pending--;
          if (this.pending === 0) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }
}

/** Sends each plan through the guard in order; stops at the first failure (never retries). */
export async function performMutations(guard: Guard, effect: MutateEffect, opts: TargetOptions = {}): Promise<PlanResult[]> {
  const results: PlanResult[] = [];
  for (const plan of effect.plans) {
    try {
      const out = await guard.execute(plan, effect.confirmation, opts);
      results.push({
        summary: plan.summary,
        ok: out.applied === 'yes',
        applied: out.applied,
        message: describeOutcome(out),
        verified: out.verified,
        ...(out.auditWarning ? { auditWarning: out.auditWarning } : {}),
      });
    } catch (e) {
      if (!(e instanceof GuardRefusal)) throw e;
      results.push({ summary: plan.summary, ok: false, message: e.message });
    }
    if (!results[results.length - 1].ok) break;
  }
  return results;
}

export interface RunnerTuning extends TargetOptions, DeleteTuning {
  /** How long the replicas wizard watches health (ms). */
  watchTimeoutMs?: number;
  pollMs?: number;
}

export function replicasSession(es: EsApi, guard: Guard, initial: Partial<ReplicasForm> = {}, tuning: RunnerTuning = {}) {
  return new WizardSession<ReplicasState, ReplicasEvent, ReplicasEffect>(replicasMachine(initial), async (f, send) => {
    if (f.type === 'inspect') {
      const res = await guard.resolveTarget(f.target, tuning);
      if (!res.ok) return send({ type: 'rejected', message: res.error });
      const [before, health, template] = await Promise.all([
        es.replicasOf(f.target),
        es.health(f.target),
        f.template ? es.indexTemplate(f.template) : Promise.resolve(undefined),
      ]);
      send({ type: 'inspected', facts: { indices: res.indices, before, dataNodes: health.dataNodes, healthBefore: health.status, template } });
    } else if (f.type === 'mutate') {
      send({ type: 'applied', results: await performMutations(guard, f, tuning) });
    } else {
      // Watch the target's health until it settles at what it can reach, or the time is up.
      const { value: h, met } = await waitUntil(() => es.health(f.target), (h) => h.status === f.expected && h.moving === 0, {
        timeoutMs: tuning.watchTimeoutMs ?? 60_000,
        intervalMs: tuning.pollMs ?? 1000,
      });
      const replicas = await es.replicasOf(f.target);
      send({ type: 'watched', health: h.status, replicas, timedOut: !met });
    }
  });
}

export function unblockSession(es: EsApi, guard: Guard) {
  return new WizardSession<UnblockState, UnblockEvent, UnblockEffect>(unblockMachine(), async (f, send) => {
    if (f.type === 'load') {
      const [blocks, allocation, settings] = await Promise.all([es.data('blocks'), es.data('allocation'), es.data('settings')]);
      send({ type: 'loaded', facts: { blocked: blockedIndices(blocks), disks: diskRows(allocation, settings.watermarks) } });
    } else {
      send({ type: 'applied', results: await performMutations(guard, f) });
    }
  });
}

export function scrollSession(es: EsApi, guard: Guard, initialInput = '') {
  return new WizardSession<ScrollState, ScrollEvent, ScrollEffect>(scrollMachine(initialInput), async (f, send) => {
    if (f.type === 'load') {
      const [nodes, settings] = await Promise.all([es.data('nodeSearch'), es.data('settings')]);
      send({ type: 'loaded', facts: { nodes, limit: settings.maxOpenScrollContext } });
    } else {
      send({ type: 'applied', results: await performMutations(guard, f) });
    }
  });
}

export function allocationSession(es: EsApi, guard: Guard, shard?: ShardRef, tuning: RunnerTuning = {}) {
  return new WizardSession<AllocationState, AllocationEvent, AllocationEffect>(allocationMachine(shard), async (f, send) => {
    if (f.type === 'explain') {
      const [body, health] = await Promise.all([es.allocationExplain(f.shard), es.health()]);
      send({ type: 'explained', explanation: body ? explainAllocation(body) : null, unassigned: health.unassigned });
    } else {
      const before = await es.data('shards');
      const results = await performMutations(guard, f);
      // Give the allocator time to start what it retried, then compare.
      await waitUntil(() => es.health(), (h) => !results[0]?.ok || h.moving === 0, { timeoutMs: tuning.watchTimeoutMs ?? 30_000, intervalMs: tuning.pollMs ?? 1000 });
      const after = await es.data('shards');
      send({ type: 'applied', results, moves: diffShards(before, after), stillUnassigned: after.filter((s) => s.state === 'UNASSIGNED').length });
    }
  });
}

/** What the TUI's wizards get (through ui/wizards/services.tsx): sessions and previews, no client. */
export interface WizardServices {
  replicas(initial?: Partial<ReplicasForm>): WizardSession<ReplicasState, ReplicasEvent, ReplicasEffect>;
  unblock(): WizardSession<UnblockState, UnblockEvent, UnblockEffect>;
  scroll(): WizardSession<ScrollState, ScrollEvent, ScrollEffect>;
  allocation(shard?: ShardRef): WizardSession<AllocationState, AllocationEvent, AllocationEffect>;
  /** Query-before-delete (services/delete-wizards.ts). */
  deleteByQuery(initial?: Partial<DeleteForm>): WizardSession<DeleteState, DeleteEvent, DeleteEffect>;
  /** Expunge-deletes merge; `start` inspects the target at once (offered after a delete). */
  forcemerge(target?: string, start?: boolean): WizardSession<MergeState, MergeEvent, MergeEffect>;
  /** Corruption recovery: detection, lossless options, then the offline checklist (services/recovery-wizard.ts). */
  recovery(shard?: { index: string; shard: number }): ReturnType<typeof recoverySession>;
  /** Method, path, body and the curl line of a plan (throws the read-only refusal). */
  preview(plan: MutationPlan): Preview;
}

/** `es` for every read, `guard` for every change. */
export function createWizardServices(es: EsApi, guard: Guard, tuning: RunnerTuning & RecoveryTuning = {}): WizardServices {
  return {
    replicas: (initial) => replicasSession(es, guard, initial, tuning),
    unblock: () => unblockSession(es, guard),
    scroll: () => scrollSession(es, guard),
    allocation: (shard) => allocationSession(es, guard, shard, tuning),
    deleteByQuery: (initial) => deleteSession(es, guard, initial, tuning),
    forcemerge: (target, start) => forcemergeSession(es, guard, target, start, tuning),
    recovery: (shard) => recoverySession(es, guard, shard, tuning),
    preview: (plan) => guard.preview(plan, tuning),
  };
}
