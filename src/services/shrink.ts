// Runs a right-sizing (domain/shrink/) with real calls: every change through Guard.execute
// (previewed, audited before sending, verified after, never retried), each step written to the
// journal before it is sent and after it (<configDir>/shrinks/<cluster>.json, 0600), so a run killed
// at any point goes on where it stopped (`shardeck shrink --resume`) or, while the original is
// still there, is rolled back to it (`--rollback`). Before a step is sent the cluster is read: a step
// the killed run had applied is not sent again (its read-back says so). The original is deleted
// only once its copy is green and holds the same documents, mapping and settings; the copy only
// once the clone under the name does. One run per cluster at a time (a lock in the shared folder).
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import type { NameHolder } from '../cluster/shrink';
import { clusterFileKey, clusterLockDir } from '../config/cluster-lock';
import { LockBusyError, withFileLock, writePrivateFileAtomic } from '../config/files';
import { urlForMessage } from '../domain/urls';
import { describeOutcome } from '../domain/mutation/audit';
import type { Confirmation } from '../domain/mutation/confirmation';
import type { MutationPlan } from '../domain/mutation/plan';
import { snapshotOutcome } from '../domain/snapshots';
import { createSnapshotPlan } from '../domain/wizards/snapshot';
import { holdNamePlan, holdOf, holdState, releaseNamePlan } from '../domain/shrink/auto-create';
import { differences } from '../domain/shrink/compare';
import {
  capacity,
  copiesOnNode,
  copiesPerProject,
  ROUTING_NAME,
  BLOCKS_WRITE,
  stepTitle,
  type ClusterFacts,
  type IndexFacts,
  type StepContext,
  type StepId,
} from '../domain/shrink/plan';
import {
  isRunsClone,
  nextStep,
  patchRun,
  recordStep,
  resumeDecision,
  rollbackSteps,
  unfinishedRun,
  type IndexRun,
  type RollbackStep,
  type ShrinkProgress,
  type StepRecord,
} from '../domain/shrink/progress';
import type { ShrinkReview } from '../domain/shrink/review';
import type { TemplateFacts } from '../domain/shrink/template';
import { blockPlan, clonePlan, copyPlan, deleteIndexPlan, refreshPlan, routePlan, unblockPlan } from '../domain/shrink/steps';
import type { ShrinkReport } from '../domain/wizards/shrink';
import type { AutoCreateValues } from '../domain/shrink/auto-create';
import { GuardRefusal, hostUser, type Guard } from './guard';
import { waitUntil } from './wait';
import { presenceOf, shrinkProgressFile } from './shrink-left';

function save(p: ShrinkProgress): void {
  writePrivateFileAtomic(shrinkProgressFile(p.clusterUuid), JSON.stringify(p) + '\n');
}

export interface ShrinkTuning {
  /** How long to wait for an index to be green (ms; default 30 min). */
  greenTimeoutMs?: number;
  /** How long to wait for the primaries to reach the node (ms; default 2 h). */
  moveTimeoutMs?: number;
  /** How long to follow the snapshot (ms; default 6 h). */
  snapshotTimeoutMs?: number;
  pollMs?: number;
  /** Told each step before it is sent (with its request) and after. */
  onStep?: (e: { index: string; step: StepId | RollbackStep; title: string; phase: 'start' | 'done' | 'failed'; message?: string }) => void;
  /** Each request right before it goes to the guard (the CLI prints its preview). */
  onPlan?: (plan: MutationPlan) => void;
  onAuditWarning?: (warning: string) => void;
}

// --- reading the cluster -----------------------------------------------------------------------

export interface ShrinkInspection {
  indices: IndexFacts[];
  cluster: ClusterFacts;
  autoCreate: AutoCreateValues;
}

/** Everything the plan needs, for the indices the guard resolved the expression to. */
export async function inspectShrink(es: EsApi, expr: string, names: readonly string[]): Promise<ShrinkInspection> {
  const [indices, all, disks, settings, repositories, autoCreate] = await Promise.all([
    es.shrinkIndexFacts(expr, names),
    es.data('indices'),
    es.data('allocation'),
    es.data('settings'),
    es.repositories(),
    es.autoCreateValues(),
  ]);
  const templates = await Promise.all([...new Set(indices.slice(0, 20).map((i) => i.name))].map((n) => es.shrinkTemplate(n)));
  const main = templates.find((t) => t.template !== null);
  const allowAutoCreate = [
    ...new Map(templates.filter((t) => t.allowAutoCreate && t.template).map((t) => [t.template!, t.indexPatterns])).entries(),
  ].map(([template, indexPatterns]) => ({ template, indexPatterns }));
  return {
    indices,
    autoCreate,
    cluster: {
      dataNodes: disks.map((d) => d.node),
      disks,
      watermarks: settings.watermarks,
      existing: new Set(all.map((i) => i.name)),
      repositories: repositories.map((r) => r.name),
      maxShardsPerNode: settings.maxShardsPerNode,
      openShards: openShardsOf(all),
      template:
        main?.template && main.shards !== null && main.replicas !== null
          ? { name: main.template, shards: main.shards, replicas: main.replicas }
          : null,
      allowAutoCreate,
    },
  };
}

function openShardsOf(rows: readonly { status: string; primaries: number; replicas: number }[]): number {
  return rows.filter((r) => r.status === 'open').reduce((s, r) => s + r.primaries * (1 + r.replicas), 0);
}

/** The index template with its component templates and the replicas a new index gets; null when it does not exist. */
export async function readTemplateFacts(es: EsApi, name: string): Promise<TemplateFacts | null> {
  const template = await es.indexTemplate(name);
  if (!template) return null;
  const composed = ((template.composed_of ?? []) as unknown[]).map(String);
  const [components, simulated] = await Promise.all([
    Promise.all(composed.map(async (c) => [c, await es.componentTemplate(c)] as const)),
    es.simulateTemplate(name).catch(() => null),
  ]);
  const replicas = Number(
    (simulated?.settings as { index?: { number_of_replicas?: unknown } } | undefined)?.index?.number_of_replicas ?? 1,
  );
  return { name, template, components: Object.fromEntries(components), replicas };
}

/** The template's count changed through the guard (the run's confirmation covers it); ok with nothing sent when it says that count already. */
export async function changeTemplate(
  guard: Guard,
  t: NonNullable<ShrinkReview['template']>,
  c: Confirmation,
  tuning: Pick<ShrinkTuning, 'onPlan' | 'onAuditWarning' | 'onStep'> = {},
): Promise<{ ok: boolean; message: string; platformJson: Record<string, unknown> }> {
  if (!t.plan)
    return {
      ok: true,
      message: `${t.setter.kind} template ${t.setter.name} says ${t.setter.shards} shards already`,
      platformJson: t.platformJson,
    };
  tuning.onPlan?.(t.plan);
  try {
    const out = await guard.execute(t.plan, c);
    if (out.auditWarning) tuning.onAuditWarning?.(out.auditWarning);
    const ok = out.applied === 'yes' && out.verified?.ok !== false;
    return { ok, message: ok ? (out.verified?.message ?? 'done') : describeOutcome(out), platformJson: t.platformJson };
  } catch (e) {
    if (e instanceof GuardRefusal) return { ok: false, message: e.message, platformJson: t.platformJson };
    throw e;
  }
}

// --- the run -----------------------------------------------------------------------------------

/** The journal of a new run from the plan the operator confirmed (the confirmation's text is what the deletes need). */
export function newShrinkProgress(review: ShrinkReview, clusterUuid: string, url: string, now = new Date()): ShrinkProgress {
  return {
    version: 1,
    mode: review.mode,
    clusterUuid,
    url: urlForMessage(url),
    startedAt: now.toISOString(),
    user: hostUser(),
    pid: process.pid,
    confirmText: review.confirmText,
    runs: review.plans.map((pl) => ({
      index: pl.index,
      uuid: pl.uuid,
      tmp: pl.tmp,
      from: pl.from,
      to: pl.to,
      node: pl.node,
      steps: pl.steps,
      ...(pl.snapshot ? { snapshot: pl.snapshot } : {}),
      done: {},
    })),
  };
}

type StepResult = { ok: boolean; message: string; patch?: Partial<IndexRun> };

/** The shrink lock: one run per cluster, whoever runs it on this host; a holder whose process is gone is taken over. */
async function withShrinkLock<T>(clusterUuid: string, what: string, fn: () => Promise<T>): Promise<T | { busy: string }> {
  const file = path.join(clusterLockDir(), `shrink-${clusterFileKey(clusterUuid)}.lock`);
  try {
    return await withFileLock(file, fn, { waitMs: 0, staleMs: Infinity, shared: true, info: `${hostUser()}: ${what}` });
  } catch (e) {
    if (e instanceof LockBusyError)
      return {
        busy: `another right-sizing of this cluster is under way${e.pid ? ` (pid ${e.pid})` : ''}: nothing was sent; run it again when that one has finished (one whose process is gone is taken over)`,
      };
    throw e;
  }
}

class Runner {
  private p: ShrinkProgress;
  private readonly started = Date.now();

  constructor(
    private readonly es: EsApi,
    private readonly guard: Guard,
    progress: ShrinkProgress,
    private readonly c: Confirmation,
    private readonly t: ShrinkTuning,
  ) {
    this.p = progress;
  }

  get progress(): ShrinkProgress {
    return this.p;
  }

  private run(index: string): IndexRun {
    return this.p.runs.find((r) => r.index === index)!;
  }

  private ctx(r: IndexRun): StepContext {
    return { index: r.index, tmp: r.tmp, from: r.from, to: r.to, node: r.node, mode: this.p.mode, snapshot: r.snapshot };
  }

  private patch(index: string, patch: Partial<IndexRun>): void {
    this.p = patchRun(this.p, index, patch);
    save(this.p);
  }

  /** One request through the guard; its outcome in one sentence. A refusal sends nothing. */
  private async send(plan: MutationPlan): Promise<{ ok: boolean; message: string; body?: unknown }> {
    this.t.onPlan?.(plan);
    try {
      const out = await this.guard.execute(plan, this.c);
      if (out.auditWarning) this.t.onAuditWarning?.(out.auditWarning);
      const ok = out.applied === 'yes' && out.verified?.ok !== false;
      const message = ok
        ? (out.verified?.message ?? 'done')
        : out.ok && out.verified
          ? `sent (${out.status}), but the cluster read back says: ${out.verified.message}`
          : describeOutcome(out);
      return { ok, message, body: out.body };
    } catch (e) {
      if (e instanceof GuardRefusal) return { ok: false, message: e.message };
      throw e;
    }
  }

  private async waitGreen(index: string): Promise<StepResult> {
    const ms = this.t.greenTimeoutMs ?? 30 * 60_000;
    const { value, met } = await waitUntil(
      () => this.es.health(index),
      (h) => h.status === 'green',
      { timeoutMs: ms, intervalMs: this.t.pollMs ?? 1000 },
    );
    return met
      ? { ok: true, message: `${index} is green` }
      : {
          ok: false,
          message: `${index} is ${value.status} after ${Math.round(ms / 1000)} s (${value.unassigned} unassigned): shrink --resume waits again`,
        };
  }

  /** The original still under its name (its uuid): else the step is not sent. */
  private async stillOriginal(r: IndexRun): Promise<NameHolder | string> {
    const h = await this.es.nameHolder(r.index);
    if (h?.uuid === r.uuid) return h;
    return `${r.index} is no longer the index the plan showed (uuid ${r.uuid}${h ? `; now ${h.uuid}` : '; it is gone'}): nothing was sent`;
  }

  private async copySnapshot(name: string, withAliases: boolean) {
    const [holder, mapping, aliases] = await Promise.all([
      this.es.nameHolder(name),
      this.es.mappingText(name),
      withAliases ? this.es.aliasDefinitions(name) : Promise.resolve(undefined),
    ]);
    return holder ? { docs: holder.docs ?? -1, shards: holder.shards, settings: holder.settings, mapping, aliases, holder } : null;
  }

  private async step(id: StepId, r: IndexRun): Promise<StepResult> {
    const c = this.p.confirmText;
    switch (id) {
      case 'snapshot': {
        const s = r.snapshot!;
        let info = await this.es.snapshotInfo(s.repository, s.name).catch(() => undefined);
        if (!info) {
          const sent = await this.send(createSnapshotPlan(s.repository, s.name, [r.index]));
          if (!sent.ok) return sent;
        }
        const { value, met } = await waitUntil(
          () => this.es.snapshotInfo(s.repository, s.name).catch(() => undefined),
          (x) => x !== undefined && x.state !== 'IN_PROGRESS' && x.state !== 'STARTED',
          { timeoutMs: this.t.snapshotTimeoutMs ?? 6 * 3_600_000, intervalMs: this.t.pollMs ?? 1000 },
        );
        info = value;
        if (!met || !info)
          return { ok: false, message: `the snapshot ${s.repository}/${s.name} has not ended: shrink --resume follows it again` };
        return snapshotOutcome(info) === 'ok'
          ? { ok: true, message: `snapshot ${s.repository}/${s.name} taken (${info.shards.ok}/${info.shards.total} shards)` }
          : {
              ok: false,
              message: `snapshot ${s.repository}/${s.name} ended ${info.state} (${info.shards.failed} shards failed): nothing else was sent`,
            };
      }
      case 'block': {
        const h = await this.stillOriginal(r);
        if (typeof h === 'string') return { ok: false, message: h };
        // The values before shardeck's block, recorded before it is sent (a resumed run keeps the first ones).
        if (!r.before)
          this.patch(r.index, { before: { blocksWrite: h.settings[BLOCKS_WRITE] ?? null, routing: h.settings[ROUTING_NAME] ?? null } });
        if (h.writeBlocked) return { ok: true, message: `${r.index} refuses writes (read back)` };
        return this.send(blockPlan(r.index));
      }
      case 'record': {
        const h = await this.stillOriginal(r);
        if (typeof h === 'string') return { ok: false, message: h };
        const refreshed = await this.send(refreshPlan(r.index));
        if (!refreshed.ok) return refreshed;
        const snap = await this.copySnapshot(r.index, true);
        if (!snap || snap.docs < 0) return { ok: false, message: `${r.index} could not be counted` };
        return {
          ok: true,
          message: `${r.index}: ${snap.docs} documents, ${Object.keys(snap.aliases ?? {}).length} aliases recorded`,
          patch: {
            original: {
              docs: snap.docs,
              replicas: Number(snap.settings['index.number_of_replicas'] ?? 0),
              settings: snap.settings,
              mapping: snap.mapping,
              aliases: snap.aliases ?? {},
            },
          },
        };
      }
      case 'route': {
        const h = await this.stillOriginal(r);
        if (typeof h === 'string') return { ok: false, message: h };
        if (h.settings[ROUTING_NAME] !== r.node) {
          const sent = await this.send(routePlan(r.index, r.node));
          if (!sent.ok) return sent;
        }
        const ms = this.t.moveTimeoutMs ?? 2 * 3_600_000;
        const { value, met } = await waitUntil(
          () => this.es.shardCopies(r.index),
          (copies) => copiesOnNode(copies, r.node).ready,
          { timeoutMs: ms, intervalMs: this.t.pollMs ?? 1000 },
        );
        const on = copiesOnNode(value, r.node);
        return met
          ? { ok: true, message: `a copy of every shard of ${r.index} is on ${r.node}` }
          : {
              ok: false,
              message: `${on.there} of ${on.shards} shards of ${r.index} have a copy on ${r.node} after ${Math.round(ms / 1000)} s: shrink --resume waits again (shardeck explain says what holds them)`,
            };
      }
      case 'copy': {
        const tmp = await this.es.nameHolder(r.tmp);
        if (tmp) return { ok: true, message: `${r.tmp} exists (read back)`, patch: { tmpUuid: tmp.uuid } };
        const h = await this.stillOriginal(r);
        if (typeof h === 'string') return { ok: false, message: h };
        const sent = await this.send(copyPlan(this.p.mode, r.index, r.tmp, r.to, r.original!.replicas));
        if (!sent.ok) return sent;
        const made = await this.es.nameHolder(r.tmp);
        return { ...sent, ...(made ? { patch: { tmpUuid: made.uuid } } : {}) };
      }
      case 'copy-green':
        return this.waitGreen(r.tmp);
      case 'check-copy': {
        const copy = await this.copySnapshot(r.tmp, false);
        if (!copy) return { ok: false, message: `${r.tmp} is not there` };
        const diffs = differences(r.original!, copy, r.to, false);
        return diffs.length
          ? { ok: false, message: `${r.tmp} differs from ${r.index}: ${diffs.map((d) => d.text).join('; ')}` }
          : { ok: true, message: `${r.tmp} holds the same ${copy.docs} documents, mapping and settings` };
      }
      case 'hold-name': {
        const now = await this.es.autoCreateValues();
        if (r.hold) {
          const state = holdState(r.hold, now);
          if (state === 'held') return { ok: true, message: 'the name is held (read back)' };
          if (state === 'changed')
            return {
              ok: false,
              message: `action.auto_create_index was changed by someone else meanwhile (${now[r.hold.level] ?? 'unset'}): nothing was sent`,
            };
          return this.send(holdNamePlan(r.hold));
        }
        const hold = holdOf(now, [r.index, ...Object.keys(r.original!.aliases)]);
        if (!hold) return { ok: true, message: 'action.auto_create_index allows no write to create an index: nothing to hold' };
        // Journaled before it is sent: whatever happens next, the value to put back is known.
        this.patch(r.index, { hold });
        return this.send(holdNamePlan(hold));
      }
      case 'delete-original': {
        const h = await this.es.nameHolder(r.index);
        if (h?.uuid !== r.uuid) return { ok: true, message: `${r.index} is deleted (read back)` };
        // The last look before the data of the original goes: its copy there, green, every document in it.
        const [copy, health] = await Promise.all([this.es.nameHolder(r.tmp), this.es.health(r.tmp)]);
        if (!copy || copy.uuid !== r.tmpUuid || copy.docs !== r.original!.docs || health.status !== 'green')
          return {
            ok: false,
            message: `${r.tmp} is not the green copy with ${r.original!.docs} documents it was (${copy ? `${copy.docs} documents, ${health.status}` : 'gone'}): ${r.index} was not deleted`,
          };
        return this.send(
          deleteIndexPlan(
            r.index,
            r.uuid,
            c,
            `its copy ${r.tmp} holds its ${r.original!.docs} documents; the name is free until the clone`,
          ),
        );
      }
      case 'clone': {
        const h = await this.es.nameHolder(r.index);
        if (h) {
          if (isRunsClone(r, h)) return { ok: true, message: `${r.index} is the clone (read back)`, patch: { resultUuid: h.uuid } };
          return {
            ok: false,
            message: `an index that is not the clone holds the name ${r.index} (${h.shards} shards, ${h.docs ?? 'unknown'} documents: a write or someone created it): the documents are safe in ${r.tmp}; look at that index, delete it, then shrink --resume`,
          };
        }
        const sent = await this.send(clonePlan(r.tmp, r.index, r.to, r.original!.replicas, r.original!.aliases));
        const made = await this.es.nameHolder(r.index);
        return { ...sent, ...(made ? { patch: { resultUuid: made.uuid } } : {}) };
      }
      case 'release-name': {
        if (!r.hold) return { ok: true, message: 'no hold to put back' };
        const state = holdState(r.hold, await this.es.autoCreateValues());
        if (state === 'released') return { ok: true, message: 'action.auto_create_index is back (read back)' };
        if (state === 'changed')
          return { ok: true, message: 'action.auto_create_index was changed by someone else meanwhile: left as it is' };
        return this.send(releaseNamePlan(r.hold));
      }
      case 'result-green':
        return this.waitGreen(r.index);
      case 'check-result': {
        const copy = await this.copySnapshot(r.index, true);
        if (!copy) return { ok: false, message: `${r.index} is not there` };
        const diffs = differences(r.original!, copy, r.to, true);
        return diffs.length
          ? {
              ok: false,
              message: `${r.index} differs from the original: ${diffs.map((d) => d.text).join('; ')}; its copy ${r.tmp} is kept`,
            }
          : {
              ok: true,
              message: `${r.index} holds the same ${copy.docs} documents, mapping, settings and aliases with ${r.to} shard${r.to === 1 ? '' : 's'}`,
            };
      }
      case 'unblock': {
        const h = await this.es.nameHolder(r.index);
        if (!h) return { ok: false, message: `${r.index} is not there` };
        const before = r.before ?? { blocksWrite: null, routing: null };
        if ((h.settings[BLOCKS_WRITE] ?? null) === before.blocksWrite && (h.settings[ROUTING_NAME] ?? null) === before.routing)
          return { ok: true, message: `${r.index} takes writes as before (read back)` };
        return this.send(unblockPlan(r.index, before));
      }
      case 'drop-copy': {
        const tmp = await this.es.nameHolder(r.tmp);
        if (!tmp) return { ok: true, message: `${r.tmp} is deleted (read back)` };
        if (r.tmpUuid && tmp.uuid !== r.tmpUuid) return { ok: false, message: `${r.tmp} is not the copy shardeck made: left as it is` };
        return this.send(deleteIndexPlan(r.tmp, tmp.uuid, c, `the temporary copy: ${r.index} holds its documents`));
      }
    }
  }

  /** Runs one step: journaled before it is sent ("started") and after. */
  async runStep(id: StepId, index: string): Promise<StepResult> {
    const r = this.run(index);
    const title = stepTitle(id, this.ctx(r));
    const began = Date.now();
    this.p = recordStep(this.p, index, id, { status: 'started', at: new Date().toISOString(), ms: 0, message: title });
    save(this.p);
    this.t.onStep?.({ index, step: id, title, phase: 'start' });
    let res: StepResult;
    try {
      res = await this.step(id, this.run(index));
    } catch (e) {
      res = { ok: false, message: (e as Error).message };
    }
    const rec: StepRecord = {
      status: res.ok ? 'done' : 'failed',
      at: new Date().toISOString(),
      ms: Date.now() - began,
      message: res.message,
    };
    this.p = recordStep(this.p, index, id, rec, res.patch ?? {});
    save(this.p);
    this.t.onStep?.({ index, step: id, title, phase: res.ok ? 'done' : 'failed', message: res.message });
    return res;
  }

  /** Each index from its first step not done; stops at the first failure (a re-run goes on from it). */
  async forward(): Promise<{ ok: boolean; message: string }> {
    save(this.p);
    for (const run of this.p.runs) {
      if (!nextStep(run)) continue;
      const d = resumeDecision(run, await presenceOf(this.es, run));
      if (d.kind === 'stop') return { ok: false, message: `${run.index}: ${d.why}` };
      for (let id = nextStep(this.run(run.index)); id; id = nextStep(this.run(run.index))) {
        const res = await this.runStep(id, run.index);
        if (res.ok) continue;
        // The copy differs from the original: it is never what replaces it. Rolled back at once.
        if (id === 'check-copy') {
          const back = await this.rollback(run.index);
          return { ok: false, message: `${run.index}: ${res.message}; ${back.message}` };
        }
        const canBack = (await presenceOf(this.es, this.run(run.index))).original;
        return {
          ok: false,
          message: `${run.index}, step ${id}: ${res.message}; shardeck shrink --resume goes on from this step${canBack ? ' (or --rollback puts the original back as it was)' : ''}`,
        };
      }
    }
    return { ok: true, message: `${this.p.runs.length} ${this.p.runs.length === 1 ? 'index' : 'indices'} right-sized` };
  }

  /** Puts the original back as it was (copy deleted, the name's hold put back, block and routing lifted); the rest of the run is not started. */
  async rollback(index: string): Promise<{ ok: boolean; message: string }> {
    const r = this.run(index);
    const now = await this.es.autoCreateValues();
    const held = r.hold ? holdState(r.hold, now) === 'held' : false;
    const steps = rollbackSteps(r, await presenceOf(this.es, r), held);
    if (typeof steps === 'string') return { ok: false, message: steps };
    for (const s of steps) {
      const title =
        s === 'drop-copy'
          ? `delete the temporary copy ${r.tmp} (roll back)`
          : s === 'release-name'
            ? 'put action.auto_create_index back (roll back)'
            : `lift the write block and the routing requirement of ${r.index} (roll back)`;
      this.t.onStep?.({ index, step: s, title, phase: 'start' });
      let res: { ok: boolean; message: string };
      if (s === 'drop-copy') {
        const tmp = await this.es.nameHolder(r.tmp);
        res = !tmp
          ? { ok: true, message: `${r.tmp} is not there` }
          : await this.send(deleteIndexPlan(r.tmp, tmp.uuid, this.p.confirmText, `the temporary copy, rolled back: ${r.index} is kept`));
      } else if (s === 'release-name') res = await this.send(releaseNamePlan(r.hold!));
      else res = await this.send(unblockPlan(r.index, r.before ?? { blocksWrite: null, routing: null }));
      this.t.onStep?.({ index, step: s, title, phase: res.ok ? 'done' : 'failed', message: res.message });
      if (!res.ok)
        return { ok: false, message: `the roll back stopped at "${title}": ${res.message}; shardeck shrink --rollback tries again` };
    }
    const at = new Date().toISOString();
    // The original is as it was; indices of the run not started are not started.
    for (const x of this.p.runs)
      if (x.index === index || !Object.keys(x.done).length)
        this.p = patchRun(this.p, x.index, {
          rolledBack: { at, message: x.index === index ? 'rolled back to the original' : 'not started (the run was rolled back)' },
        });
    save(this.p);
    return { ok: true, message: `rolled back: ${index} is the original again, as it was` };
  }

  elapsed(): number {
    return Date.now() - this.started;
  }
}

/** The report in numbers: per index, shards on each node before and after, the capacity, the time taken. */
async function reportOf(
  es: EsApi,
  p: ShrinkProgress,
  before: { node: string; shards: number }[],
  outcome: { ok: boolean; message: string },
  tookMs: number,
): Promise<ShrinkReport> {
  const [disks, all, settings] = await Promise.all([es.data('allocation'), es.data('indices'), es.data('settings')]).catch(
    () => [null, null, null] as const,
  );
  const nodes = [...new Set([...before.map((b) => b.node), ...(disks ?? []).map((d) => d.node)])].sort();
  const template = all && p.runs[0] ? await es.shrinkTemplate(p.runs[0].index).catch(() => null) : null;
  const per = copiesPerProject(
    template?.shards != null && template.replicas != null ? { shards: template.shards, replicas: template.replicas } : null,
  );
  const openNow = all ? all.filter((r) => r.status === 'open').reduce((s, r) => s + r.primaries * (1 + r.replicas), 0) : null;
  return {
    ok: outcome.ok,
    message: outcome.message,
    mode: p.mode,
    indices: p.runs.map((r) => ({
      index: r.index,
      from: r.from,
      to: r.to,
      docsBefore: r.original?.docs ?? null,
      docsAfter: r.done['check-result']?.status === 'done' ? (r.original?.docs ?? null) : null,
      ms: Object.values(r.done).reduce((s, x) => s + (x?.ms ?? 0), 0),
      outcome: r.rolledBack ? r.rolledBack.message : nextStep(r) === null ? 'done' : `stopped at ${nextStep(r)}`,
    })),
    shardsPerNode: nodes.map((node) => ({
      node,
      before: before.find((b) => b.node === node)?.shards ?? 0,
      after: disks?.find((d) => d.node === node)?.shards ?? 0,
    })),
    ...(settings && disks && openNow !== null
      ? {
          capacity: {
            before: capacity(
              openNow +
                p.runs
                  .filter((r) => nextStep(r) === null && !r.rolledBack)
                  .reduce((s, r) => s + (r.from - r.to) * (1 + (r.original?.replicas ?? 0)), 0),
              disks.length,
              settings.maxShardsPerNode,
              per,
            ),
            after: capacity(openNow, disks.length, settings.maxShardsPerNode, per),
          },
        }
      : {}),
    tookMs,
  };
}

export type RunMode = 'forward' | 'rollback';

/**
 * Runs (or resumes, or rolls back) a right-sizing under the shrink lock, journaled step by step.
 * `before`: each node's shard count before the run (the report compares).
 */
export async function runShrink(
  es: EsApi,
  guard: Guard,
  progress: ShrinkProgress,
  confirmation: Confirmation,
  tuning: ShrinkTuning = {},
  mode: RunMode = 'forward',
): Promise<ShrinkReport> {
  guard.assertWritable();
  const before = (await es.data('allocation')).map((d) => ({ node: d.node, shards: d.shards }));
  const runner = new Runner(es, guard, progress, confirmation, tuning);
  const what = `${progress.mode} of ${progress.runs.map((r) => r.index).join(', ')}`;
  const out = await withShrinkLock(progress.clusterUuid, what, async () => {
    if (mode === 'forward') return runner.forward();
    const u = unfinishedRun(runner.progress);
    if (!u) return { ok: false, message: 'nothing to roll back: the run is complete' };
    return runner.rollback(u.run.index);
  });
  const outcome = 'busy' in out ? { ok: false, message: out.busy } : out;
  return reportOf(es, runner.progress, before, outcome, runner.elapsed());
}
