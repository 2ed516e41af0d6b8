// The corruption checklist, run: each step shown, confirmed, run once through the guard (audit
// record, read-only refusal), its result recorded in a progress file saved after every step, so
// a dropped SSH session resumes at the right step. A failure stops the checklist where it is;
// nothing is retried. The CLI and the TUI both drive it through RunnerIO.
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import { displayText } from '../domain/text/display-text';
import { configDir, lockHolder, privateFolderFiles, releaseLock, tryLock, writePrivateFileAtomic } from '../config/files';
import { readLocalText } from '../config/local-files';
import { backupPaths, DEFAULT_SHARD_WAIT_S, recoveryPlan, type PlanStep } from '../domain/corruption/plan';
import {
  failureAdvice,
  lossReport,
  nextStep,
  progressSteps,
  recordStep,
  type RecoveryProgress,
  type StepRecord,
} from '../domain/corruption/progress';
import { parseCheckIndex, parseShardToolReroute } from '../domain/corruption/tool-output';
import { lossAfterwards } from '../domain/corruption/loss';
import type { HostSecrets } from '../domain/host/host-env';
import { describeOutcome } from '../domain/mutation/audit';
import { confirmationNeeded, type Confirmation, type ConfirmationNeed } from '../domain/mutation/confirmation';
import type { MutationPlan } from '../domain/mutation/plan';
import { elasticsearchRunsAs, processUid, uidOfUser } from './corruption';
import { refreshIndex } from './delete-by-query';
import type { Guard } from './guard';
import { dataFolderRefusal, programRefusal, writeBackup } from '../boundary/host-files';
import { runShell } from '../boundary/host-shell';
import { waitUntil } from './wait';

export interface RunnerIO {
  /** A step is about to be asked for: its number, and how it will be confirmed. */
  announce(step: PlanStep, n: number, total: number, need: ConfirmationNeed): void;
  /** Yes (how) or null (declined: the checklist stops before the step, resumable). */
  confirm(step: PlanStep, need: ConfirmationNeed): Promise<Confirmation | null>;
  /** The live output of a running command. */
  output(chunk: string): void;
  /** One line about what a step found. */
  info(line: string): void;
}

export interface RunOptions {
  /** How long the node may take to answer after the start step (default 180 s). */
  waitTimeoutMs?: number;
  /** How long the shard may take to come back after the restart (default 120 s). */
  shardTimeoutMs?: number;
  /** What is secret in shardeck's environment: kept out of every host command's (the name pattern applies always). */
  hostSecrets?: HostSecrets;
}

export type RunEnd =
  | { status: 'finished'; progress: RecoveryProgress; loss: ReturnType<typeof lossReport> }
  | { status: 'failed'; progress: RecoveryProgress; step: PlanStep; message: string; advice: string }
  | { status: 'declined'; progress: RecoveryProgress; step: PlanStep }
  /** A step that loses documents was confirmed by less than the index's name (--yes): it was not run. */
  | { status: 'refused'; progress: RecoveryProgress; step: PlanStep; message: string }
  /** Another shardeck process runs this checklist now (two operators on one node): nothing was run. */
  | { status: 'busy'; progress: RecoveryProgress; pid: number | null };

const recoveriesDir = () => path.join(configDir(), 'recoveries');
/** A checklist's progress is a few KB: more is not one. */
const PROGRESS_CAP = 4 * 1024 * 1024;

/** Where the progress of one shard's checklist is kept (0600 in the private config dir). */
export function progressFile(index: string, shard: number): string {
  return path.join(recoveriesDir(), `${index.replace(/[^\w.-]/g, '_')}-${shard}.json`);
}

export function saveProgress(p: RecoveryProgress): void {
  writePrivateFileAtomic(progressFile(p.index, p.shard), JSON.stringify(p, null, 2) + '\n');
}

export function loadProgress(index: string, shard: number): RecoveryProgress | null {
  const text = readLocalText(progressFile(index, shard), PROGRESS_CAP, 'move it aside to start the checklist again');
  return text === null ? null : (JSON.parse(text) as RecoveryProgress);
}

/** The checklists not finished yet, the most recently changed first. */
export function unfinishedProgress(): RecoveryProgress[] {
  return privateFolderFiles(recoveriesDir(), (n) => n.endsWith('.json'))
    .map((f) => readLocalText(f, PROGRESS_CAP, 'move it aside to start the checklist again'))
    .filter((t): t is string => t !== null)
    .map((t) => JSON.parse(t) as RecoveryProgress)
    .filter((p) => !p.finished);
}

export type StepOutcome = { ok: boolean; message: string; exitCode?: number | null; patch?: Partial<RecoveryProgress>; skip?: string[] };

/** What the step's own command or read says, judged step by step. */
async function carryOut(
  es: EsApi,
  guard: Guard,
  p: RecoveryProgress,
  step: PlanStep,
  io: RunnerIO,
  opts: Required<RunOptions>,
  confirmation: Confirmation,
): Promise<StepOutcome> {
  if (step.kind === 'request') {
    const outcome = await guard.execute(step.request as MutationPlan, confirmation);
    // No answer but read back as applied counts as done (never resent); unknown stops the checklist.
    return { ok: outcome.applied === 'yes', message: outcome.ok ? `accepted (${outcome.status})` : describeOutcome(outcome) };
  }
  if (step.kind === 'read') return read(es, guard, p, step, io, opts, confirmation);
  return carryOutHostStep(p, step, io, opts.hostSecrets);
}

/** The steps that act on the shard folder as the engine's user (and the stop before them). */
const FILE_STEPS = new Set(['stop', 'backup', 'verify-backup', 'check', 'exorcise', 'markers', 'shard-tool']);

/**
 * Why the facts a checklist saved no longer hold on this host, or null: the engine's user is not
 * root, is the user the engine runs as (while it runs), the shard folder is that user's with no
 * link out of the data path, and java and elasticsearch-shard cannot be changed by a third user.
 */
export function hostFactsRefusal(p: RecoveryProgress): string | null {
  const f = p.facts;
  const uid = uidOfUser(f.esUser);
  if (uid === null) return `user ${f.esUser} does not exist on this host: give the engine's user with --es-user`;
  if (uid === 0)
    return `the engine's user would be ${f.esUser} (uid 0): shardeck runs the file steps only as the engine's own, unprivileged user (give it with --es-user)`;
  if (f.pid !== undefined && elasticsearchRunsAs(f.pid)) {
    const running = processUid(f.pid);
    if (running !== null && running !== uid)
      return `the engine (pid ${f.pid}) runs as uid ${running}, not ${f.esUser} (uid ${uid}): give its user with --es-user`;
  }
  const cut = f.folder.lastIndexOf('/indices/');
  if (cut < 0) return `${f.folder} is not a shard folder (<path.data>/indices/<uuid>/<shard>)`;
  const program = p.method === 'shard-tool' ? `${f.home}/bin/elasticsearch-shard` : f.java;
  return dataFolderRefusal(f.folder.slice(0, cut), `${f.folder}/index`, uid) ?? (program ? programRefusal(program, uid) : null);
}

/** A step run on this host (kind 'shell'), judged by its own output. Called inside Guard.runHostCommand. */
export async function carryOutHostStep(
  p: RecoveryProgress,
  step: PlanStep,
  io: Pick<RunnerIO, 'output'>,
  hostSecrets: HostSecrets,
): Promise<StepOutcome> {
  // Every fact is checked again right before the step (a resumed checklist too): hours may have passed.
  const refusal = FILE_STEPS.has(step.id) ? hostFactsRefusal(p) : null;
  if (refusal) return { ok: false, message: `${refusal}; nothing was run` };
  if (step.id === 'backup') {
    // Not the shown shell line: shardeck checks the folder and opens the archive itself (see writeBackup).
    const { archive, indexDir, shardDir } = backupPaths(p.facts);
    const b = await writeBackup(indexDir, shardDir, archive, io.output);
    return {
      ok: b.ok,
      exitCode: b.exitCode,
      message: b.ok ? `archive ${archive}` : `${b.error}: nothing was written over, no partial archive is left`,
    };
  }
  const r = await runShell(step.command!, io.output, hostSecrets);
  switch (step.id) {
    case 'stop': {
      // A stop command that stopped another node (or nothing) must not let the folder be rewritten under a running node.
      const pid = p.facts.pid;
      if (r.ok && pid !== undefined && elasticsearchRunsAs(pid))
        return {
          ok: false,
          exitCode: r.exitCode,
          message: `the stop command succeeded but node ${p.facts.node.name} (pid ${pid}) still runs: it stopped something else`,
        };
      return { ok: r.ok, exitCode: r.exitCode, message: r.ok ? 'done' : (r.error ?? 'failed') };
    }
    case 'check': {
      // CheckIndex exits 1 when it finds corruption: the verdict in its output is what counts.
      const check = parseCheckIndex(r.output);
      if (!check || (r.exitCode !== 0 && r.exitCode !== 1))
        return { ok: false, exitCode: r.exitCode, message: `CheckIndex gave no verdict (${r.error ?? 'no report in its output'})` };
      return {
        ok: true,
        exitCode: r.exitCode,
        message: `${check.totalDocs} documents in ${check.segments.length} segments; ${check.brokenSegments} broken, holding ${check.lostDocs} documents that the repair loses`,
        patch: { check },
      };
    }
    case 'exorcise': {
      const after = parseCheckIndex(r.output);
      const ok = Boolean(after && (after.wroteNewSegments || after.brokenSegments === 0));
      return {
        ok,
        exitCode: r.exitCode,
        message: ok ? 'wrote a commit without the broken segments' : `CheckIndex -exorcise wrote no new commit (${r.error ?? 'no report'})`,
      };
    }
    case 'shard-tool': {
      const reroute = parseShardToolReroute(r.output);
      const check = parseCheckIndex(r.output);
      if (!r.ok || !reroute || !check?.wroteNewSegments)
        return {
          ok: false,
          exitCode: r.exitCode,
          message: `elasticsearch-shard did not finish its repair (${r.error ?? 'no reroute in its output'})`,
        };
      return {
        ok: true,
        exitCode: r.exitCode,
        message: `${check.totalDocs} documents, ${check.lostDocs} of them in broken segments, removed; reroute to node ${reroute.node}`,
        patch: { check, toolReroute: reroute },
      };
    }
    case 'verify-backup':
      return {
        ok: r.ok,
        exitCode: r.exitCode,
        message: r.ok ? 'every file of the folder is in the archive with its size' : `the archive does not match the folder (${r.error})`,
      };
    default:
      return { ok: r.ok, exitCode: r.exitCode, message: r.ok ? 'done' : (r.error ?? 'failed') };
  }
}

/**
 * The index's health once it is yellow, or after `waitMs` (then timed_out: true). Asked in short
 * waits, each as long as the node may wait: one long wait_for_status would outlast the client's
 * request timeout, which a single request cannot raise.
 */
export async function waitForIndexHealth(es: EsApi, index: string, waitMs: number): Promise<{ status: string; timed_out: boolean }> {
  return (
    await waitUntil(
      (left) => es.indexHealthWithin(index, left),
      (h) => !h.timed_out,
      { timeoutMs: waitMs, intervalMs: 0 },
    )
  ).value;
}

/** The steps shardeck does itself with the profile's credentials (shown as their curl equivalents). */
async function read(
  es: EsApi,
  guard: Guard,
  p: RecoveryProgress,
  step: PlanStep,
  io: RunnerIO,
  opts: Required<RunOptions>,
  confirmation: Confirmation,
): Promise<StepOutcome> {
  const ref = { index: p.index, shard: p.shard, primary: true };
  if (step.id === 'wait') {
    // Until the node answers at all: a failed read is a "not yet".
    const answer = (): Promise<{ status?: string; error?: string }> =>
      es.healthStatus().then(
        (status) => ({ status }),
        (e) => ({ error: (e as Error).message }),
      );
    const { value, met } = await waitUntil(answer, (a) => a.status !== undefined, { timeoutMs: opts.waitTimeoutMs, intervalMs: 1000 });
    return met
      ? { ok: true, message: `the node answers (cluster ${value.status})` }
      : { ok: false, message: `no answer within ${Math.round(opts.waitTimeoutMs / 1000)} s (${value.error})` };
  }
  if (step.id === 'allocation') {
    // Right after a restart the primary may still be fetching its store: wait for a verdict.
    const verdict = (e: Record<string, any> | null) => {
      const state = String(e?.current_state ?? 'unknown');
      const can = String(e?.can_allocate ?? '');
      return { e, state, can, decided: state === 'started' || state === 'initializing' || can === 'no_valid_shard_copy' || can === 'no' };
    };
    const { value: v, met } = await waitUntil(
      async () => verdict(await es.allocationExplain(ref)),
      (v) => v.decided,
      {
        timeoutMs: opts.shardTimeoutMs,
        intervalMs: 2000,
        onPending: (v) => io.info(`  waiting for the allocation decision (state ${v.state}${v.can ? `, ${v.can}` : ''})`),
      },
    );
    if (!met)
      return {
        ok: false,
        message: `no allocation verdict within ${Math.round(opts.shardTimeoutMs / 1000)} s (state ${v.state}, ${v.can || 'no decision'})`,
      };
    if (v.state === 'started' || v.state === 'initializing')
      return {
        ok: true,
        message: `the primary is ${v.state} on ${v.e?.current_node?.name ?? 'its node'}: no reroute needed`,
        skip: ['reroute'],
      };
    return {
      ok: true,
      message: `still unassigned (${v.can}): ${v.e?.allocate_explanation ?? 'Elasticsearch does not trust the repaired copy'}; the next step allocates it`,
    };
  }
  // verify: the index's health, then its document count against what CheckIndex counted.
  const h = await waitForIndexHealth(es, p.index, opts.shardTimeoutMs);
  if (h.timed_out) return { ok: false, message: `${p.index} is still ${h.status}` };
  // A refresh is a write: through the guard with this step's confirmation (audited, never retried).
  await refreshIndex(guard, p.index, `after recovering ${p.index}`, confirmation, { includeSystem: true }).catch(() => undefined);
  const count = await es.count(p.index);
  const loss = lossReport({ ...p, docsAfter: count });
  return {
    ok: true,
    message: `${p.index} is ${h.status}; documents ${loss.docsBefore ?? '?'} before -> ${count} after (${loss.lost ?? '?'} lost; CheckIndex said ${loss.predictedLost ?? '?'})`,
    patch: { docsAfter: count },
  };
}

/** How a step is confirmed: typing the index for the steps that lose documents, a key otherwise. */
function stepConfirmation(p: RecoveryProgress, step: PlanStep): ConfirmationNeed {
  return step.request ? confirmationNeeded(step.request) : step.losesData ? { kind: 'type', expected: p.index } : { kind: 'key' };
}

/** The title of the step a checklist goes on with. */
export function nextStepTitle(p: RecoveryProgress): string {
  return nextStep(p)?.title ?? 'its end';
}

/** Runs the checklist from its first open step until it ends, fails or is declined. */
export async function runChecklist(
  es: EsApi,
  guard: Guard,
  start: RecoveryProgress,
  io: RunnerIO,
  options: RunOptions = {},
): Promise<RunEnd> {
  guard.assertWritable();
  const lock = progressFile(start.index, start.shard).replace(/\.json$/, '.lock');
  if (!tryLock(lock)) return { status: 'busy', progress: start, pid: lockHolder(lock) };
  try {
    return await runLocked(es, guard, start, io, options);
  } finally {
    releaseLock(lock);
  }
}

async function runLocked(es: EsApi, guard: Guard, start: RecoveryProgress, io: RunnerIO, options: RunOptions): Promise<RunEnd> {
  const opts: Required<RunOptions> = {
    waitTimeoutMs: options.waitTimeoutMs ?? 180_000,
    shardTimeoutMs: options.shardTimeoutMs ?? DEFAULT_SHARD_WAIT_S * 1000,
    hostSecrets: options.hostSecrets ?? { envNames: [], values: [] },
  };
  let p = start;
  saveProgress(p);
  const total = progressSteps(p).length;
  for (let step = nextStep(p); step; step = nextStep(p)) {
    const n = progressSteps(p).findIndex((s) => s.id === step.id) + 1;
    const need = stepConfirmation(p, step);
    io.announce(step, n, total, need);
    const confirmation = await io.confirm(step, need);
    if (!confirmation) return { status: 'declined', progress: p, step };
    // --yes answers the other steps; one that loses documents needs the index's name itself. The
    // guard refuses it too; asked here first, the operator is told the flag that is missing.
    if (need.kind === 'type' && !(confirmation.by === 'typed' && confirmation.text === need.expected))
      return {
        status: 'refused',
        progress: p,
        step,
        message: `step ${n} "${step.title}" loses documents and --yes does not confirm it: add --accept-data-loss ${need.expected} (the index name) to run it; nothing of it was run`,
      };
    const current = step;
    const summary = `recover-corrupt ${p.index}/${p.shard} step ${n}: ${current.title}`;
    const risk = need.kind === 'type' ? 'destructive' : 'reversible';
    const outcome =
      current.kind === 'request'
        ? await carryOut(es, guard, p, current, io, opts, confirmation) // the guard audits the request itself
        : await guard.runHostCommand(
            { command: current.command ?? current.title, risk, target: p.index, summary },
            confirmation,
            async () => {
              try {
                return await carryOut(es, guard, p, current, io, opts, confirmation);
              } catch (e) {
                return { ok: false, message: (e as Error).message };
              }
            },
          );
    const rec: StepRecord = { status: outcome.ok ? 'done' : 'failed', at: new Date().toISOString(), message: outcome.message };
    p = recordStep({ ...p, ...outcome.patch }, current.id, rec);
    for (const id of outcome.skip ?? []) p = recordStep(p, id, { status: 'skipped', at: rec.at, message: outcome.message });
    saveProgress(p);
    io.info(`${outcome.ok ? 'ok' : 'FAILED'}: ${displayText(outcome.message)}`);
    if (!outcome.ok)
      return { status: 'failed', progress: p, step: current, message: outcome.message, advice: failureAdvice(current.id, p) };
  }
  p = { ...p, finished: true };
  saveProgress(p);
  const loss = lossReport(p);
  // What CheckIndex said the repair would lose against what was counted once back, in the audit (and so the timeline).
  if (loss.docsAfter !== null) {
    const a = lossAfterwards(
      p.index,
      p.method === 'shard-tool' ? 'shard-tool' : 'exorcise',
      { lost: loss.predictedLost, docsBefore: loss.docsBefore },
      loss.docsAfter,
    );
    await guard
      .runHostRead({ command: `GET /${encodeURIComponent(p.index)}/_count`, target: p.index, summary: a.text }, () =>
        Promise.resolve({ ok: true }),
      )
      .catch(() => undefined);
  }
  return { status: 'finished', progress: p, loss };
}

/** The end of a run as the operator reads it (first line: the verdict). */
export function runEndLines(end: RunEnd): string[] {
  const t = displayText;
  const index = t(end.progress.index);
  const where = `progress: ${t(progressFile(end.progress.index, end.progress.shard))}`;
  if (end.status === 'finished') {
    const l = end.loss;
    return [
      `recovered: ${index} shard ${end.progress.shard}`,
      `documents before ${l.docsBefore ?? '?'} -> after ${l.docsAfter ?? '?'}: ${l.lost ?? '?'} lost (CheckIndex counted ${l.predictedLost ?? '?'} in the broken segments, unidentified)`,
      `backup: ${t(recoveryPlan(end.progress.facts).archive)}`,
      where,
    ];
  }
  if (end.status === 'busy')
    return [
      `another shardeck${end.pid ? ` (pid ${end.pid})` : ''} is running this checklist now: nothing was run`,
      `wait for it to finish or stop; then shardeck recover-corrupt --resume ${index} ${end.progress.shard}`,
      where,
    ];
  if (end.status === 'declined')
    return [
      `stopped before "${t(end.step.title)}": nothing of it was run`,
      `go on with: shardeck recover-corrupt --resume ${index} ${end.progress.shard}`,
      where,
    ];
  if (end.status === 'refused')
    return [
      t(end.message),
      `go on with: shardeck recover-corrupt --resume ${index} ${end.progress.shard} --yes --accept-data-loss ${index}`,
      where,
    ];
  return [`step "${t(end.step.title)}" failed: ${t(end.message)}`, `next: ${t(end.advice)}`, where];
}
