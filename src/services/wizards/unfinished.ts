// The unfinished-changes dialog's session: this cluster's changes left without an outcome (the
// audit log), then their read-back through the Guard (settleUnfinished: read, never resent).
import type { EsApi } from '../../cluster/api';
import { formatAuditRecord } from '../../domain/mutation/audit';
import { unfinishedMachine, type UnfinishedEffect, type UnfinishedEvent, type UnfinishedState } from '../../domain/wizards/unfinished';
import type { Guard } from '../guard';
import { WizardSession } from './session';

export function unfinishedSession(guard: Guard) {
  return new WizardSession<UnfinishedState, UnfinishedEvent, UnfinishedEffect>(unfinishedMachine(), async (f, send) => {
    if (f.type === 'load') send({ type: 'loaded', changes: guard.unfinished().map(formatAuditRecord) });
    else send({ type: 'settled', said: await guard.settleUnfinished() });
  });
}

/** The console's way to open it: `services.open(unfinishedWizard)`. */
export const unfinishedWizard = (_es: EsApi, guard: Guard) => unfinishedSession(guard);
