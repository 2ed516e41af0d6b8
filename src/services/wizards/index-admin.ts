// The session behind the Indices pane's c, u and X (close, open, delete whole indices): the same
// preview as `shardeck index close|open|delete` (previewIndexAction: the names resolved by the
// guard's rules, each index's facts, the refusals), then the one plan through the guard.
import type { EsApi } from '../../cluster/api';
import type { IndexAction } from '../../domain/maintenance/index-admin';
import { indexAdminMachine, type IndexAdminEffect, type IndexAdminEvent, type IndexAdminState } from '../../domain/wizards/index-admin';
import type { Guard } from '../guard';
import { previewIndexAction } from '../index-admin';
import { performMutations, WizardSession } from './session';

export function indexAdminSession(es: EsApi, guard: Guard, action: IndexAction, target: string) {
  return new WizardSession<IndexAdminState, IndexAdminEvent, IndexAdminEffect>(indexAdminMachine(action, target), async (f, send) => {
    if (f.type === 'preview') {
      const p = await previewIndexAction(es, guard, f.action, f.target);
      if (!p.ok) return send({ type: 'rejected', message: p.error });
      send({ type: 'previewed', preview: { facts: p.facts, already: p.already, plan: p.plan, snapshotsRead: p.snapshotsRead } });
    } else {
      // Never retried: the guard checks each name is still the index previewed, then sends once.
      send({ type: 'applied', results: await performMutations(guard, f) });
    }
  });
}

/** The console's way to open it: `services.open(indexAdminWizard, action, target)`. */
export const indexAdminWizard = (es: EsApi, guard: Guard, _tuning: unknown, action: IndexAction, target: string) =>
  indexAdminSession(es, guard, action, target);
