// The read-only block wizard's session: blocked indices and each node's disk, then the one unblock request.
import type { EsApi } from '../../cluster/api';
import { diskRows } from '../../domain/disk';
import { blockedIndices, unblockMachine, type UnblockEffect, type UnblockEvent, type UnblockState } from '../../domain/wizards/unblock';
import type { Guard } from '../guard';
import { performMutations, WizardSession } from './session';

export function unblockSession(es: EsApi, guard: Guard) {
  return new WizardSession<UnblockState, UnblockEvent, UnblockEffect>(unblockMachine(), async (f, send) => {
    if (f.type === 'load') {
      const [blocks, allocation, settings] = await Promise.all([es.data('blocks'), es.data('allocation'), es.data('settings')]);
      send({ type: 'loaded', facts: { blocked: blockedIndices(blocks), disks: diskRows(allocation, settings.watermarks) } });
    } else {
      send({ type: 'applied', results: await performMutations(guard, f) });
    }
  });
}
