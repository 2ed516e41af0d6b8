// A wizard run: a session holds a machine's state (domain/wizards/), performs its effects with real
// calls (reads through the facade, changes only through the Guard) and sends the results back as
// events. The console's wizards and the CLI twins drive the same sessions (one file per wizard here).
import { taskIdOf } from '../../domain/delete/task';
import { describeOutcome, type Applied } from '../../domain/mutation/audit';
import type { Confirmation } from '../../domain/mutation/confirmation';
import type { MutationPlan } from '../../domain/mutation/plan';
import type { TargetOptions } from '../../domain/mutation/targets';
import type { Machine, MutateEffect, PlanResult } from '../../domain/wizards/machine';
import { GuardRefusal, type Guard, type MutationOutcome, type RefusalKind } from '../guard';

/** How long a session watches the cluster settle after a change. */
export interface WatchTuning {
  /** How long the replicas and allocation wizards watch health (ms). */
  watchTimeoutMs?: number;
  pollMs?: number;
}

/** What sending one plan needs beyond the plan: target options, and who hears of an unrecorded outcome. */
export interface SendTuning extends TargetOptions {
  /** A change went out but its outcome is missing from the audit log (the CLI says so on stderr). */
  onAuditWarning?: (warning: string) => void;
}

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

export type NotSent = { message: string; applied?: Applied; refused?: RefusalKind };

/** Sends one plan through the guard: its outcome, or the guard's refusal (nothing was sent). */
export async function sendOne(
  guard: Guard,
  plan: MutationPlan,
  confirmation: Confirmation,
  tuning: SendTuning,
): Promise<{ out: MutationOutcome } | { refusal: NotSent }> {
  try {
    const out = await guard.execute(plan, confirmation, tuning);
    if (out.auditWarning) tuning.onAuditWarning?.(out.auditWarning);
    return { out };
  } catch (e) {
    if (e instanceof GuardRefusal) return { refusal: { message: e.message, refused: e.kind } };
    throw e;
  }
}

/** A delete or merge sent as a task: its id, or why it did not start (and what the cluster did). */
export async function startTask(
  guard: Guard,
  effect: { plan: MutationPlan; confirmation: Confirmation },
  tuning: SendTuning,
  what: string,
): Promise<{ task: string } | NotSent> {
  const sent = await sendOne(guard, effect.plan, effect.confirmation, tuning);
  if ('refusal' in sent) return sent.refusal;
  const { out } = sent;
  const task = out.ok ? taskIdOf(out.body) : null;
  if (task) return { task };
  const message = out.ok
    ? `the ${what} was not accepted: no task id in the answer (not retried; see shardeck audit)`
    : `the ${what}: ${describeOutcome(out)}`;
  return { message, applied: out.applied };
}
