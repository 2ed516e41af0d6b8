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
import { detectCorruption, findingFactLines, planFacts, startRefusal } from '../corruption';
import type { Guard } from '../guard';
import { loadProgress, nextStepTitle, runChecklist, runEndLines, unfinishedProgress, type RunOptions } from '../recovery-runner';
import { WizardSession } from './session';

export interface RecoveryTuning extends RunOptions {
  /** The profile's service commands (systemctl stop/start elasticsearch when absent). */
  serviceStop?: string;
  serviceStart?: string;
}

export function recoverySession(es: EsApi, guard: Guard, shard: { index: string; shard: number } | undefined, tuning: RecoveryTuning = {}) {
  let facts: PlanFacts | null = null;
  let underWay: RecoveryProgress | null = null;
  let answer: ((c: Confirmation | null) => void) | null = null;
  return new WizardSession<RecoveryWizardState, RecoveryWizardEvent, RecoveryWizardEffect>(recoveryMachine(), async (f, send) => {
    if (f.type === 'answer') {
      const a = answer;
      answer = null;
      a?.(f.confirmation);
      return;
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
        },
        resumeAt,
        message: typeof planned === 'string' ? planned : undefined,
      });
    }
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
