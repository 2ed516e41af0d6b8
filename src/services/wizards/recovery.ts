// The corruption recovery wizard's runner: detection for the TUI, then the same checklist runner
// as `shardeck recover-corrupt`, its questions answered by the operator's keys in the wizard.
import type { EsApi } from '../../cluster/api';
import { stepCommandLines, type PlanFacts } from '../../domain/corruption/plan';
import { newProgress, type RecoveryProgress } from '../../domain/corruption/progress';
import type { Confirmation } from '../../domain/mutation/confirmation';
import {
  recoveryMachine,
  restoreRoute,
  type RecoveryWizardEffect,
  type RecoveryWizardEvent,
  type RecoveryWizardState,
} from '../../domain/wizards/recovery';
import { detectCorruption, findingFactLines, planFacts, startRefusal, type CorruptShardReport } from '../corruption';
import type { Guard } from '../guard';
import { loadProgress, nextStepTitle, runChecklist, runEndLines, unfinishedProgress, type RunOptions } from '../recovery-runner';
import { WizardSession } from './session';
import { comparisonLines } from '../../domain/corruption/loss';
import { copyRefusal, type IndexCopyPlan } from '../../domain/corruption/copy';
import { formatBytes } from '../../domain/text/format';
import { countCopy, planIndexCopy, routeLosses, takeIndexCopy } from '../red-copy';

export interface RecoveryTuning extends RunOptions {
  /** Where copies of shard folders go (default: root's /var/backups/shardeck). */
  backupDir?: string;
  /** The profile's service commands (systemctl stop/start elasticsearch when absent). */
  serviceStop?: string;
  serviceStart?: string;
}

/** Not in read-only mode (where nothing is copied). */
function writable(guard: Guard): boolean {
  try {
    guard.assertWritable();
    return true;
  } catch {
    return false;
  }
}

export function recoverySession(es: EsApi, guard: Guard, shard: { index: string; shard: number } | undefined, tuning: RecoveryTuning = {}) {
  let facts: PlanFacts | null = null;
  let underWay: RecoveryProgress | null = null;
  let answer: ((c: Confirmation | null) => void) | null = null;
  // The corrupt shard as detected, and its folder on this host: what k copies and counts.
  let found: CorruptShardReport | null = null;
  let copy: IndexCopyPlan | null = null;
  /** Each way back's loss as lines, and whether k can count the repair's (a line saying what it copies). */
  const losses = async (c: CorruptShardReport) => {
    const whole = await planIndexCopy(es, c.index, tuning.backupDir);
    copy = { ...whole, here: whole.here.filter((f) => f.shard === c.shard) };
    const { routes } = await routeLosses(es, guard.previewConnection.url, c, copy);
    const exorcise = routes.find((r) => r.route === 'exorcise');
    const unpack = copy.here.reduce((n, f) => n + f.bytes, 0);
    const refusal = copyRefusal(copy, unpack);
    const countable =
      exorcise?.lost === null && copy.here.length && !refusal && writable(guard)
        ? `copy ${copy.here.map((f) => `${f.folder} (${formatBytes(f.bytes)})`).join(', ')} to ${copy.backupDir} (${copy.freeBytes === null ? 'free space unknown' : `${formatBytes(copy.freeBytes)} free`}) and count the repair's loss with CheckIndex; the copy is kept`
        : undefined;
    return {
      lines: comparisonLines(routes),
      ...(countable ? { countable } : {}),
      ...(refusal && exorcise?.lost === null ? { refusal } : {}),
    };
  };
  return new WizardSession<RecoveryWizardState, RecoveryWizardEvent, RecoveryWizardEffect>(recoveryMachine(), async (f, send) => {
    if (f.type === 'answer') {
      const a = answer;
      answer = null;
      a?.(f.confirmation);
      return;
    }
    if (f.type === 'compare') {
      if (!found || !copy) return send({ type: 'error', message: 'nothing to copy: detect the corrupt shard again' });
      const io = { output: (chunk: string) => send({ type: 'output', chunk }), info: (line: string) => send({ type: 'info', line }) };
      // The key (k) is the confirmation of copying: a reversible change of this host, audited.
      const taken = await takeIndexCopy(
        guard,
        copy,
        { by: 'key' },
        io,
        tuning.hostSecrets ?? { envNames: [], values: [] },
        `counting what repairing ${found.index} shard ${found.shard} would lose`,
      );
      if (!taken.ok) return send({ type: 'compared', losses: (await losses(found)).lines, message: taken.message });
      const engine = copy.engine;
      const counted = await countCopy(guard, taken.records[0], { java: engine?.java ?? null, home: engine?.home ?? '' }, io);
      return send({
        type: 'compared',
        losses: (await losses(found)).lines,
        message: counted.ok
          ? `copy kept: ${taken.records[0].archive}`
          : `the copy is kept (${taken.records[0].archive}) but CheckIndex could not count it: ${counted.message}`,
      });
    }
    if (f.type === 'detect') {
      underWay = (shard ? loadProgress(shard.index, shard.shard) : unfinishedProgress()[0]) ?? null;
      if (underWay?.finished) underWay = null;
      const resumeAt = underWay ? `${underWay.index} shard ${underWay.shard}: ${nextStepTitle(underWay)}` : undefined;
      let report;
      try {
        report = await detectCorruption(es, shard);
      } catch (e) {
        // The node may be down because a checklist stopped it: resuming needs no detection.
        if (underWay)
          return send({ type: 'detected', finding: null, resumeAt, message: `the node does not answer (${(e as Error).message})` });
        throw e;
      }
      const c = report.corrupt[0];
      if (!c) {
        const where = shard ? `${shard.index} shard ${shard.shard}` : 'the cluster';
        return send({
          type: 'detected',
          finding: null,
          resumeAt,
          message: `no corrupt primary in ${where} (cluster ${report.status}, ${report.unassignedPrimaries} unassigned primaries): nothing to repair`,
        });
      }
      found = c;
      const compared = await losses(c).catch((e: unknown) => ({ lines: [`what each way back loses: not read (${(e as Error).message})`] }));
      const planned = planFacts(c, { serviceStop: tuning.serviceStop, serviceStart: tuning.serviceStart }, guard.previewConnection);
      // A restore needs no access to the node's host: offered wherever shardeck runs.
      const restore = restoreRoute(c.index, c.snapshots);
      // Not this host's node: the findings and lossless options are shown, the checklist is not offered.
      const elsewhere = startRefusal(c);
      facts = typeof planned === 'string' || elsewhere ? null : planned;
      return send({
        type: 'detected',
        finding: {
          index: c.index,
          shard: c.shard,
          lines: findingFactLines(c),
          options: c.options,
          shardTool: c.hasShardTool !== false && facts !== null,
          ...(elsewhere ? { elsewhere } : {}),
          ...(restore ? { restore } : {}),
          losses: compared.lines,
          ...('countable' in compared && compared.countable ? { countable: compared.countable } : {}),
        },
        resumeAt,
        message: typeof planned === 'string' ? planned : undefined,
      });
    }
    if (f.type !== 'run') return;
    const progress = f.method === 'resume' ? underWay : facts ? newProgress(f.method, facts, new Date().toISOString()) : null;
    if (!progress) return send({ type: 'error', message: 'nothing to run: the plan could not be made (see above)' });
    const end = await runChecklist(
      es,
      guard,
      progress,
      {
        announce: (step, n, total, need) =>
          send({
            type: 'announced',
            step: {
              n,
              total,
              title: step.title,
              commandLines: stepCommandLines(step, guard.previewConnection),
              note: step.note,
              losesData: Boolean(step.losesData),
            },
            need,
          }),
        confirm: () => new Promise((resolve) => (answer = resolve)),
        output: (chunk) => send({ type: 'output', chunk }),
        info: (line) => send({ type: 'info', line }),
      },
      tuning,
    );
    send({ type: 'ended', status: end.status === 'busy' || end.status === 'refused' ? 'failed' : end.status, lines: runEndLines(end) });
  });
}

/** The console's way to open it: `services.open(recoveryWizard, ...)` (services/wizards/index.ts). */
export const recoveryWizard = (es: EsApi, guard: Guard, tuning: RecoveryTuning, shard?: { index: string; shard: number }) =>
  recoverySession(es, guard, shard, tuning);
