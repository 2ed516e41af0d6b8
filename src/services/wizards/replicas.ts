// The replicas wizard's session: the target resolved and inspected, the plans sent, health watched until it settles.
import type { EsApi } from '../../cluster/api';
import type { TargetOptions } from '../../domain/mutation/targets';
import {
  replicasMachine,
  type ReplicasEffect,
  type ReplicasEvent,
  type ReplicasForm,
  type ReplicasState,
} from '../../domain/wizards/replicas';
import type { Guard } from '../guard';
import { waitUntil } from '../wait';
import { performMutations, WizardSession, type WatchTuning } from './session';

export function replicasSession(es: EsApi, guard: Guard, initial: Partial<ReplicasForm> = {}, tuning: WatchTuning & TargetOptions = {}) {
  return new WizardSession<ReplicasState, ReplicasEvent, ReplicasEffect>(replicasMachine(initial), async (f, send) => {
    if (f.type === 'inspect') {
      const res = await guard.resolveTarget(f.target, tuning);
      if (!res.ok) return send({ type: 'rejected', message: res.error });
      const [before, health, template] = await Promise.all([
        es.replicasOf(f.target),
        es.health(f.target),
        f.template ? es.indexTemplate(f.template) : Promise.resolve(undefined),
      ]);
      send({
        type: 'inspected',
        facts: { indices: res.indices, before, dataNodes: health.dataNodes, healthBefore: health.status, template },
      });
    } else if (f.type === 'mutate') {
      send({ type: 'applied', results: await performMutations(guard, f, tuning) });
    } else {
      // Watch the target's health until it settles at what it can reach, or the time is up.
      const { value: h, met } = await waitUntil(
        () => es.health(f.target),
        (h) => h.status === f.expected && h.moving === 0,
        {
          timeoutMs: tuning.watchTimeoutMs ?? 60_000,
          intervalMs: tuning.pollMs ?? 1000,
        },
      );
      const replicas = await es.replicasOf(f.target);
      send({ type: 'watched', health: h.status, replicas, timedOut: !met });
    }
  });
}

/** The console's way to open it: `services.open(replicasWizard, ...)` (services/wizards/index.ts). */
export const replicasWizard = (es: EsApi, guard: Guard, tuning: WatchTuning & TargetOptions, initial?: Partial<ReplicasForm>) =>
  replicasSession(es, guard, initial, tuning);
