// The rolling-restart wizard's session: prepareRestart for the checks, runRestart for the steps (services/restart-node.ts).
import type { EsApi } from '../../cluster/api';
import { nextRestartStep, RESTART_STEPS, stepTitle } from '../../domain/maintenance/restart-node';
import {
  restartWizardMachine,
  type RestartWizardEffect,
  type RestartWizardEvent,
  type RestartWizardState,
} from '../../domain/wizards/restart-node';
import type { Guard } from '../guard';
import { pathWithQuery } from '../../domain/mutation/plan';
import { prepareRestart, runRestart, type RestartOptions, type RestartStart } from '../restart-node';
import type { EngineWizardTuning } from './engine';
import { WizardSession } from './session';

export function restartNodeSession(es: EsApi, guard: Guard, opts: Omit<RestartOptions, 'onStep'>) {
  let start: Extract<RestartStart, { kind: 'ready' }> | undefined;
  return new WizardSession<RestartWizardState, RestartWizardEvent, RestartWizardEffect>(restartWizardMachine(), async (f, send) => {
    if (f.type === 'load') {
      const s = await prepareRestart(es, opts);
      if (s.kind === 'refused') throw new Error(s.message);
      if (s.checks?.refusal) throw new Error(s.checks.refusal);
      start = s;
      send({
        type: 'loaded',
        facts: {
          node: s.node.name,
          resumeAt: s.progress ? nextRestartStep(s.progress) : null,
          warnings: s.checks?.warnings ?? [],
          steps: RESTART_STEPS.map((id) => `${id}: ${stepTitle(id, s.node.name)}`),
        },
      });
      return;
    }
    const r = await runRestart(es, guard, start!, f.confirmation, {
      ...opts,
      onStep: (e) => send({ type: 'step', line: { id: e.id, phase: e.phase, text: e.phase === 'start' ? e.title : (e.message ?? '') } }),
      // Allocation back is known only when it runs (this operator's own record): its request shown before it is sent.
      onPreview: (plan) =>
        send({
          type: 'step',
          line: { id: 'allocation-back', phase: 'start', text: `sends ${plan.method} ${pathWithQuery(plan)} ${JSON.stringify(plan.body)}` },
        }),
    });
    send({ type: 'finished', ok: r.ok, message: r.message });
  });
}

/** The console's way to open it: `services.open(restartNodeWizard)`; the profile's service commands. */
export const restartNodeWizard = (es: EsApi, guard: Guard, tuning: EngineWizardTuning) =>
  restartNodeSession(es, guard, { url: tuning.engineUrl ?? '', overrides: tuning.engineOverrides ?? {}, tuning });
