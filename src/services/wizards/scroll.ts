// The scroll-context wizard's session: open contexts per node against the limit, then raising it.
import type { EsApi } from '../../cluster/api';
import { scrollMachine, type ScrollEffect, type ScrollEvent, type ScrollState } from '../../domain/wizards/scroll';
import type { Guard } from '../guard';
import { performMutations, WizardSession } from './session';

export function scrollSession(es: EsApi, guard: Guard, initialInput = '') {
  return new WizardSession<ScrollState, ScrollEvent, ScrollEffect>(scrollMachine(initialInput), async (f, send) => {
    if (f.type === 'load') {
      const [figures, settings] = await Promise.all([es.data('nodeStats'), es.data('settings')]);
      send({ type: 'loaded', facts: { nodes: figures.search, limit: settings.maxOpenScrollContext } });
    } else {
      send({ type: 'applied', results: await performMutations(guard, f) });
    }
  });
}

/** The console's way to open it: `services.open(scrollWizard, ...)` (services/wizards/index.ts). */
export const scrollWizard = (es: EsApi, guard: Guard) => scrollSession(es, guard);
