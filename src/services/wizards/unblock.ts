// The read-only block wizard's session: blocked indices and each node's disk, then the unblock requests naming exactly them.
import type { EsApi } from '../../cluster/api';
import { diskRows } from '../../domain/nodes/disk';
import { blockedIndices, unblockMachine, type UnblockEffect, type UnblockEvent, type UnblockState } from '../../domain/wizards/unblock';
import type { TargetOptions } from '../../domain/mutation/targets';
import type { Guard } from '../guard';
import { performMutations, WizardSession } from './session';

export function unblockSession(es: EsApi, guard: Guard, opts: TargetOptions = {}) {
  return new WizardSession<UnblockState, UnblockEvent, UnblockEffect>(unblockMachine(opts), async (f, send) => {
    if (f.type === 'load') {
      const [blocks, allocation, settings] = await Promise.all([es.data('blocks'), es.data('allocation'), es.data('settings')]);
      send({ type: 'loaded', facts: { blocked: blockedIndices(blocks), disks: diskRows(allocation, settings.watermarks) } });
    } else {
      // System (dot) indices are in the plans only when asked for (buildUnblockReview).
      send({ type: 'applied', results: await performMutations(guard, f, opts) });
    }
  });
}

/** The console's way to open it: `services.open(unblockWizard, ...)` (services/wizards/index.ts). */
export const unblockWizard = (es: EsApi, guard: Guard) => unblockSession(es, guard);
