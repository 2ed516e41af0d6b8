// The drain wizard's session (domain/wizards/drain.ts): prepareDrain for the change (an undo when
// the node is drained already), the guard for sending it, watchDrain to follow the node to empty.
import type { EsApi } from '../../cluster/api';
import { blockerLines, progressLine, undoDrainChange } from '../../domain/maintenance/drain';
import { drainWizardMachine, type DrainWizardEffect, type DrainWizardEvent, type DrainWizardState } from '../../domain/wizards/drain';
import { prepareDrain, watchDrain } from '../drain';
import type { Guard } from '../guard';
import { performMutations, WizardSession, type WatchTuning } from './session';

export function drainSession(es: EsApi, guard: Guard, node: string | undefined, tuning: WatchTuning = {}) {
  const session: WizardSession<DrainWizardState, DrainWizardEvent, DrainWizardEffect> = new WizardSession(
    drainWizardMachine(),
    async (f, send) => {
      if (f.type === 'load') {
        if (!node) return send({ type: 'nothing', message: 'select a node on the Nodes pane first' });
        const state = await prepareDrain(es, node, false);
        const change = state.drained ? undoDrainChange(node, state.settings) : state.change;
        if (change.kind !== 'plan') return send({ type: 'nothing', message: change.message });
        send({ type: 'loaded', facts: { node, undo: state.drained, plan: change.plan, progress: progressLine(state.progress) } });
        return;
      }
      const [result] = await performMutations(guard, { type: 'mutate', plans: [f.plan], confirmation: f.confirmation });
      send({ type: 'applied', result });
      if (!f.follow || session.getState().phase !== 'following') return;
      const { watch } = await watchDrain(es, node!, {
        timeoutMs: tuning.watchTimeoutMs ?? 3_600_000,
        intervalMs: tuning.pollMs ?? 1000,
        // Esc ends the following (the drain itself stays, recorded).
        stop: () => session.getState().phase !== 'following',
        onProgress: (w) => send({ type: 'progress', progress: progressLine(w.progress), blockers: blockerLines(w.blockers ?? []) }),
      });
      send({ type: 'followed', progress: progressLine(watch.progress), blockers: blockerLines(watch.blockers ?? []) });
    },
  );
  return session;
}

/** The console's way to open it: `services.open(drainWizard, node)` (the Nodes pane's selected node). */
export const drainWizard = (es: EsApi, guard: Guard, tuning: WatchTuning, node?: string) => drainSession(es, guard, node, tuning);
