// The journal of a right-sizing: one file per cluster and operator (services/shrink.ts keeps it in
// the config folder, 0600) holding, per index, what was recorded of the original and each step,
// written BEFORE the step is sent ("started") and after it ("done" / "failed"). A run killed at any
// point is read back from it: which index and step it stopped at, whether it can still be rolled
// back (the original is still there) or must go on (only the copy holds the documents). Pure.
import type { NameHold } from './auto-create';
import type { AliasDefinition, Mode, StepId } from './plan';
import { STEPS } from './plan';

export interface StepRecord {
  status: 'started' | 'done' | 'failed';
  at: string;
  ms: number;
  message: string;
}

/** The original as recorded right after its writes were blocked: what each copy is compared with. */
export interface OriginalRecord {
  docs: number;
  replicas: number;
  settings: Record<string, string | null>;
  /** canonicalJson of its mapping. */
  mapping: string;
  aliases: Record<string, AliasDefinition>;
}

export interface IndexRun {
  index: string;
  uuid: string;
  tmp: string;
  /** The temporary index's uuid once it exists. */
  tmpUuid?: string;
  /** The clone's uuid once it exists under the name. */
  resultUuid?: string;
  from: number;
  to: number;
  /** The node that holds the copy. */
  node: string;
  steps: StepId[];
  snapshot?: { repository: string; name: string };
  /** index.blocks.write and the routing requirement before shardeck's block: what the lift puts back (recorded before the block is sent). */
  before?: { blocksWrite: string | null; routing: string | null };
  original?: OriginalRecord;
  /** The hold on the name, recorded before it is sent. */
  hold?: NameHold;
  done: Partial<Record<StepId, StepRecord>>;
  /** Rolled back: the original is as it was, the copy gone. */
  rolledBack?: { at: string; message: string };
}

export interface ShrinkProgress {
  version: 1;
  mode: Mode;
  clusterUuid: string;
  url: string;
  startedAt: string;
  user: string;
  pid: number;
  /** What the operator typed to confirm the deletes (the run's index names, comma-separated). */
  confirmText: string;
  runs: IndexRun[];
  finished?: boolean;
}

/** The first step of a run not done; null when the run is complete or rolled back. */
export function nextStep(r: IndexRun): StepId | null {
  if (r.rolledBack) return null;
  return r.steps.find((s) => r.done[s]?.status !== 'done') ?? null;
}

/** The first index not complete, and its step; null when every index is done. */
export function unfinishedRun(p: ShrinkProgress): { run: IndexRun; step: StepId } | null {
  for (const run of p.runs) {
    const step = nextStep(run);
    if (step) return { run, step };
  }
  return null;
}

export function recordStep(p: ShrinkProgress, index: string, id: StepId, rec: StepRecord, patch: Partial<IndexRun> = {}): ShrinkProgress {
  const runs = p.runs.map((r) => (r.index === index ? { ...r, ...patch, done: { ...r.done, [id]: rec } } : r));
  const next = { ...p, runs };
  return unfinishedRun(next) === null ? { ...next, finished: true } : next;
}

export function patchRun(p: ShrinkProgress, index: string, patch: Partial<IndexRun>): ShrinkProgress {
  const next = { ...p, runs: p.runs.map((r) => (r.index === index ? { ...r, ...patch } : r)) };
  return unfinishedRun(next) === null ? { ...next, finished: true } : next;
}

/** Whether the original has been (or may have been) deleted: from then on the run only goes forward. */
export function originalMayBeGone(r: IndexRun): boolean {
  return r.done['delete-original'] !== undefined;
}

/**
 * Whether the index under the name is the clone this run sent: its uuid as answered, or (killed
 * before the answer was saved) what only the clone can be: the clone was sent, and the index has the
 * new count and refuses writes, holding every document or not countable yet (its shards still
 * starting, for as long as the node takes). No wait decides it: check-result counts the clone before
 * the copy is deleted, so a wrong guess stops the run there with the copy kept.
 */
export function isRunsClone(r: IndexRun, u: { uuid: string; shards: number; docs: number | null; writeBlocked: boolean }): boolean {
  if (u.uuid === r.resultUuid) return true;
  return (
    r.done.clone !== undefined &&
    u.shards === r.to &&
    u.writeBlocked &&
    r.original !== undefined &&
    (u.docs === null || u.docs === r.original.docs)
  );
}

/** What the cluster holds now of one run, read before it resumes. */
export interface Presence {
  /** The name holds the original (its recorded uuid). */
  original: boolean;
  /** The temporary copy is there. */
  tmp: boolean;
  /** What the name holds when not the original: its uuid, shards and documents (null: nothing). */
  underName: { uuid: string; shards: number; docs: number | null; writeBlocked: boolean } | null;
}

export type ResumeDecision =
  | { kind: 'continue'; step: StepId; canRollBack: boolean; why: string }
  | { kind: 'rolled-back' }
  | { kind: 'complete' }
  /** Nothing is sent: a fact the operator must look at first (an index under the name that is not the clone; both copies gone). */
  | { kind: 'stop'; why: string };

/**
 * Where an unfinished run goes on. While the original is there it may go on or be rolled back; once
 * it is gone only forward (the copy holds the documents). An index under the name that is not
 * shardeck's clone (a write created it, or someone did) stops it: the copy stays, the operator decides.
 */
export function resumeDecision(r: IndexRun, at: Presence): ResumeDecision {
  if (r.rolledBack) return { kind: 'rolled-back' };
  const step = nextStep(r);
  if (!step) return { kind: 'complete' };
  if (at.original)
    return { kind: 'continue', step, canRollBack: true, why: `${r.index} is still the original: it can go on, or be rolled back` };
  if (!originalMayBeGone(r) && !at.original && r.done.record?.status === 'done')
    return {
      kind: 'stop',
      why: `${r.index} is no longer the index shardeck blocked (uuid ${r.uuid}) although shardeck did not delete it: nothing is sent; ${at.tmp ? `its copy ${r.tmp} is kept; ` : ''}look at the cluster (shardeck status) before going on`,
    };
  if (!originalMayBeGone(r))
    return { kind: 'stop', why: `${r.index} is not there: nothing is sent; look at the cluster (shardeck status)` };
  const u = at.underName;
  if (u && !isRunsClone(r, u))
    return {
      kind: 'stop',
      why: `an index that is not shardeck's clone now holds the name ${r.index} (uuid ${u.uuid}, ${u.shards} shards, ${u.docs ?? 'unknown'} documents; a write or someone created it): nothing is sent; the documents are safe in ${r.tmp}${at.tmp ? '' : ' (NOT found)'}. Look at that index; once it is deleted, shrink --resume clones the copy back`,
    };
  if (!at.tmp && !at.underName)
    return {
      kind: 'stop',
      why: `neither ${r.index} nor its copy ${r.tmp} is there: nothing is sent. ${r.snapshot ? `The snapshot ${r.snapshot.repository}/${r.snapshot.name} holds the index: restore it (shardeck restore)` : 'No snapshot was taken'}`,
    };
  return {
    kind: 'continue',
    step,
    canRollBack: false,
    why: `${r.index} was deleted: only its copy holds the documents, so the run goes on (no roll back)`,
  };
}

/** The steps a roll back takes, in order, from what exists: the copy deleted, the name's hold put back, the original's block and routing lifted. */
export type RollbackStep = 'drop-copy' | 'release-name' | 'unblock';

export function rollbackSteps(r: IndexRun, at: Presence, holdInForce: boolean): RollbackStep[] | string {
  // The cluster decides, not the journal: a delete journaled as started whose original is still
  // there (read back by uuid) never reached it, and the original can still be put back.
  if (!at.original)
    return `${r.index} was deleted (or is not the original any more): a roll back cannot bring it back; shrink --resume goes on with its copy ${r.tmp}`;
  const out: RollbackStep[] = [];
  if (at.tmp) out.push('drop-copy');
  if (holdInForce) out.push('release-name');
  if (r.done.block || r.done.route) out.push('unblock');
  return out;
}

// --- the file -------------------------------------------------------------------------------------

const STATUSES = new Set(['started', 'done', 'failed']);
const isStr = (x: unknown): x is string => typeof x === 'string';
const strOrNull = (x: unknown): x is string | null => x === null || typeof x === 'string';

/** A progress file's text, checked: anything else is not ours (null, ignored). */
export function parseShrinkProgress(text: string): ShrinkProgress | null {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return null;
  }
  const p = j as Partial<ShrinkProgress> | null;
  if (!p || p.version !== 1 || (p.mode !== 'shrink' && p.mode !== 'split')) return null;
  if (![p.clusterUuid, p.url, p.startedAt, p.user, p.confirmText].every(isStr) || !Array.isArray(p.runs)) return null;
  const runs: IndexRun[] = [];
  for (const raw of p.runs as unknown[]) {
    const r = raw as Partial<IndexRun> | null;
    if (!r || ![r.index, r.uuid, r.tmp, r.node].every(isStr) || !Number.isInteger(r.from) || !Number.isInteger(r.to)) return null;
    if (!Array.isArray(r.steps) || !r.steps.every((s) => (STEPS as readonly string[]).includes(s))) return null;
    const done: IndexRun['done'] = {};
    for (const [id, rec] of Object.entries(r.done ?? {})) {
      const x = rec as Partial<StepRecord>;
      if (!(STEPS as readonly string[]).includes(id) || !STATUSES.has(String(x?.status)) || !isStr(x?.at)) return null;
      done[id as StepId] = { status: x.status!, at: x.at, ms: Number(x.ms) || 0, message: String(x.message ?? '') };
    }
    const o = r.original;
    if (o && (!Number.isInteger(o.docs) || !isStr(o.mapping) || typeof o.settings !== 'object' || typeof o.aliases !== 'object'))
      return null;
    const b = r.before;
    if (b && (!strOrNull(b.blocksWrite) || !strOrNull(b.routing))) return null;
    const h = r.hold;
    if (h && (!isStr(h.value) || (h.level !== 'persistent' && h.level !== 'transient') || !h.before || !Array.isArray(h.names)))
      return null;
    runs.push({
      index: r.index!,
      uuid: r.uuid!,
      tmp: r.tmp!,
      ...(isStr(r.tmpUuid) ? { tmpUuid: r.tmpUuid } : {}),
      ...(isStr(r.resultUuid) ? { resultUuid: r.resultUuid } : {}),
      from: r.from!,
      to: r.to!,
      node: r.node!,
      steps: r.steps,
      ...(r.snapshot && isStr(r.snapshot.repository) && isStr(r.snapshot.name) ? { snapshot: r.snapshot } : {}),
      ...(b ? { before: { blocksWrite: b.blocksWrite, routing: b.routing } } : {}),
      ...(o ? { original: o } : {}),
      ...(h ? { hold: h } : {}),
      done,
      ...(r.rolledBack ? { rolledBack: r.rolledBack } : {}),
    });
  }
  return {
    version: 1,
    mode: p.mode,
    clusterUuid: p.clusterUuid!,
    url: p.url!,
    startedAt: p.startedAt!,
    user: p.user!,
    pid: Number(p.pid) || 0,
    confirmText: p.confirmText!,
    runs,
    ...(p.finished ? { finished: true } : {}),
  };
}

/** One line naming an unfinished run for status and the console: the index, the step, what it leaves (blocked, routed, the name held). */
export function unfinishedLine(p: ShrinkProgress, at?: Pick<Presence, 'original'>): string | null {
  const u = unfinishedRun(p);
  if (!u) return null;
  const { run, step } = u;
  const left: string[] = [];
  const started = (s: StepId) => run.done[s] !== undefined;
  if (started('block') && run.done.unblock?.status !== 'done') left.push('writes to it are refused (index.blocks.write)');
  if (started('route') && run.done.unblock?.status !== 'done') left.push('its shards are required on one node');
  if (started('hold-name') && run.done['release-name']?.status !== 'done') left.push('action.auto_create_index excludes its name');
  const gone = at ? !at.original : originalMayBeGone(run);
  if (gone) left.push(`the original was deleted: only ${run.tmp} or the clone holds its documents`);
  const index = p.runs.indexOf(run) + 1;
  return `a ${p.mode} of ${run.index} (${index} of ${p.runs.length}, started ${p.startedAt} by ${p.user}) stopped at step ${step}${left.length ? `: ${left.join('; ')}` : ''}; shardeck shrink --resume goes on${gone ? '' : ' (or --rollback puts the original back)'}`;
}
