// The allocation-restore wizard's session: what shardeck left (services/allocation-record.ts), then its restore through the guard.
import type { EsApi } from '../../cluster/api';
import {
  allocationRestoreMachine,
  type AllocationRestoreEffect,
  type AllocationRestoreEvent,
  type AllocationRestoreState,
} from '../../domain/wizards/allocation-restore';
import { leftAllocation } from '../allocation-record';
import type { Guard } from '../guard';
import { performMutations, WizardSession } from './session';

export function allocationRestoreSession(es: EsApi, guard: Guard) {
  return new WizardSession<AllocationRestoreState, AllocationRestoreEvent, AllocationRestoreEffect>(
    allocationRestoreMachine(),
    async (f, send) => {
      if (f.type === 'load') {
        const left = await leftAllocation(es);
        send({ type: 'loaded', facts: { message: left?.message ?? null, plan: left?.plan ?? null } });
      } else {
        send({ type: 'applied', results: await performMutations(guard, f) });
      }
    },
  );
}

/** The console's way to open it: `services.open(allocationRestoreWizard)`. */
export const allocationRestoreWizard = (es: EsApi, guard: Guard) => allocationRestoreSession(es, guard);
