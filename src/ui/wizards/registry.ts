// Wizards shown modally by the console. The guarded-mutation work adds entries here and a keymap
// row (keys/keymap.ts, `dangerous: true`) whose id is the entry's commandId; App opens the wizard
// when that key is pressed in the entry's scope (read-only mode removes the key, so the wizard
// cannot be opened at all).
//
// What a wizard can reach, all through hooks of ui/app/context.tsx:
// - the row the operator had selected when the key was pressed:
//     const sel = useUi((s) => s.selection.indices)   // { index }
//     selection.shards  -> { index, shard, primary, node }
//     selection.nodes   -> { node }
//     selection.health  -> { indicator }
//   (undefined when that pane had no row under the cursor);
// - the cluster snapshots and connection: useConsole((s) => s.snapshots.indices.data), s.connection;
// - keys: useKeyLayer('dialog', (name, input) => consumed) from ui/input/router.tsx. While a wizard
//   is open, global and pane keys are off; Esc closes it unless the wizard consumes Esc itself.
import type React from 'react';
import type { Scope } from '../../keys/keymap';
import { DeleteWizard, ForceMergeWizard } from './DeleteWizard';
import { RecoveryWizard } from './RecoveryWizard';
import { ReplicasWizard } from './ReplicasWizard';
import { AllocationWizard, ScrollWizard, UnblockWizard } from './SimpleWizards';

export interface WizardEntry {
  id: string;
  title: string;
  /** The keymap command that opens it. */
  commandId: string;
  /** Where the key works: 'global' everywhere, or a pane's scope (e.g. 'indices'). */
  scope: Scope;
  component: React.ComponentType<{ onClose: () => void }>;
}

export const WIZARDS: WizardEntry[] = [
  { id: 'replicas', title: 'Replicas of an index or pattern', commandId: 'wizard.replicas', scope: 'indices', component: ReplicasWizard },
  { id: 'delete', title: 'Delete documents by query (preview first)', commandId: 'wizard.deleteByQuery', scope: 'indices', component: DeleteWizard },
  { id: 'forcemerge', title: 'Force merge: free the disk of deleted documents', commandId: 'wizard.forcemerge', scope: 'indices', component: ForceMergeWizard },
  { id: 'unblock', title: 'Read-only (flood-stage) block', commandId: 'wizard.unblock', scope: 'disk', component: UnblockWizard },
  { id: 'scroll', title: 'Scroll contexts', commandId: 'wizard.scroll', scope: 'nodes', component: ScrollWizard },
  { id: 'allocation', title: 'Why is this shard (un)assigned?', commandId: 'wizard.allocation', scope: 'shards', component: AllocationWizard },
  { id: 'recovery', title: 'Corrupt primary: recover it', commandId: 'wizard.recoverCorrupt', scope: 'shards', component: RecoveryWizard },
];
