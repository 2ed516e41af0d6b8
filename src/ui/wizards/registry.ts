// Wizards shown modally by the console. Each entry names the keymap row that opens it
// (keys/keymap.ts, `dangerous: true`; a misspelt id fails the typecheck); App opens the wizard when
// that key is pressed where the row's scope says (read-only mode removes the key, so the wizard
// cannot be opened at all).
//
// What a wizard can reach, all through hooks of ui/app/context.tsx:
// - the row the operator had selected when the key was pressed:
//     const sel = useUi((s) => s.selection.indices)   // { index }
//     selection.shards  -> { index, shard, primary, node }
//     selection.nodes   -> { node }
//     selection.health  -> { indicator }
//     selection.templates -> { template, kind: 'index' | 'component' }
//   (undefined when that pane had no row under the cursor);
// - the cluster snapshots and connection: useConsole((s) => s.snapshots.indices.data), s.connection;
// - its session: withServices (./services.tsx), then services.open(<name>Wizard, ...) with the maker
//   its session module exports (services/wizards/<name>.ts); no list of sessions to add it to;
// - keys: useDialogKeys (ui/wizards/dialog-keys.ts): keys by command id from the keymap ('dialog'
//   and the wizard's own scope), typed characters as line edits for the machine, any key closes a
//   finished wizard, Esc cancels. While a wizard is open, global and pane keys are off.
import type React from 'react';
import type { CommandId } from '../../keys/keymap';
import { AllocationWizard } from './AllocationWizard';
import { AllocationRestoreWizard } from './AllocationRestoreWizard';
import { ComponentTemplateWizard } from './ComponentTemplateWizard';
import { DeleteWizard } from './DeleteWizard';
import { DrainWizard } from './DrainWizard';
import { EngineWizard } from './EngineWizard';
import { ForceMergeWizard } from './ForceMergeWizard';
import { IndexCloseWizard, IndexDeleteWizard, IndexOpenWizard } from './IndexAdminWizard';
import { MoveShardWizard } from './MoveShardWizard';
import { RecoveryWizard } from './RecoveryWizard';
import { ReplicasWizard } from './ReplicasWizard';
import { RestartNodeWizard } from './RestartNodeWizard';
import { RestoreWizard } from './RestoreWizard';
import { ScrollWizard } from './ScrollWizard';
import { ShrinkWizard } from './ShrinkWizard';
import { SnapshotWizard } from './SnapshotWizard';
import { TaskCancelWizard, TaskRethrottleWizard } from './TaskControlWizard';
import { UnblockWizard } from './UnblockWizard';
import { UnfinishedWizard } from './UnfinishedWizard';

export interface WizardEntry {
  id: string;
  title: string;
  /** The keymap command that opens it; where its key works is that row's scope. */
  commandId: CommandId;
  component: React.ComponentType<{ onClose: () => void }>;
}

export const WIZARDS: WizardEntry[] = [
  { id: 'replicas', title: 'Replicas of an index or pattern', commandId: 'wizard.replicas', component: ReplicasWizard },
  { id: 'delete', title: 'Delete documents by query (preview first)', commandId: 'wizard.deleteByQuery', component: DeleteWizard },
  {
    id: 'forcemerge',
    title: 'Force merge: free the disk of deleted documents',
    commandId: 'wizard.forcemerge',
    component: ForceMergeWizard,
  },
  { id: 'shrink', title: 'Right-size shards: fewer, same name', commandId: 'wizard.shrink', component: ShrinkWizard },
  { id: 'indexClose', title: 'Close whole indices (data kept)', commandId: 'wizard.indexClose', component: IndexCloseWizard },
  { id: 'indexOpen', title: 'Open closed indices', commandId: 'wizard.indexOpen', component: IndexOpenWizard },
  { id: 'indexDelete', title: 'Delete whole indices (documents and all)', commandId: 'wizard.indexDelete', component: IndexDeleteWizard },
  { id: 'unblock', title: 'Read-only (flood-stage) block', commandId: 'wizard.unblock', component: UnblockWizard },
  { id: 'scroll', title: 'Scroll contexts', commandId: 'wizard.scroll', component: ScrollWizard },
  { id: 'allocation', title: 'Why is this shard (un)assigned?', commandId: 'wizard.allocation', component: AllocationWizard },
  { id: 'restartNode', title: "Rolling restart of this host's node", commandId: 'wizard.restartNode', component: RestartNodeWizard },
  { id: 'drain', title: 'Drain a node (or undo its drain)', commandId: 'wizard.drain', component: DrainWizard },
  {
    id: 'allocationRestore',
    title: 'Allocation left changed by shardeck: put it back',
    commandId: 'wizard.allocationRestore',
    component: AllocationRestoreWizard,
  },
  {
    id: 'unfinished',
    title: 'Changes left without an answer: read them back',
    commandId: 'wizard.unfinished',
    component: UnfinishedWizard,
  },
  {
    id: 'componentTemplate',
    title: 'Component template that disables a field',
    commandId: 'wizard.componentTemplate',
    component: ComponentTemplateWizard,
  },
  { id: 'moveShard', title: 'Move a shard copy to another node', commandId: 'wizard.moveShard', component: MoveShardWizard },
  { id: 'recovery', title: 'Corrupt primary: recover it', commandId: 'wizard.recoverCorrupt', component: RecoveryWizard },
  { id: 'engine', title: "This host's engine: service and plugins", commandId: 'wizard.engine', component: EngineWizard },
  { id: 'restore', title: 'Restore from a snapshot', commandId: 'wizard.restore', component: RestoreWizard },
  { id: 'snapshot', title: 'Take a snapshot', commandId: 'wizard.snapshot', component: SnapshotWizard },
  { id: 'taskCancel', title: 'Cancel a task', commandId: 'wizard.taskCancel', component: TaskCancelWizard },
  {
    id: 'taskRethrottle',
    title: 'Rethrottle a by-query or reindex task',
    commandId: 'wizard.taskRethrottle',
    component: TaskRethrottleWizard,
  },
];
