// The console's wizards get their sessions from here (through ui/wizards/services.tsx): one factory
// over the facade for reads and the Guard for changes, no client.
import type { EsApi } from '../../cluster/api';
import type { MutationPlan, Preview } from '../../domain/mutation';
import type { AllocationEffect, AllocationEvent, AllocationState, ShardRef } from '../../domain/wizards/allocation';
import type { DeleteEffect, DeleteEvent, DeleteForm, DeleteState } from '../../domain/wizards/delete';
import type { MergeEffect, MergeEvent, MergeState } from '../../domain/wizards/forcemerge';
import type { ReplicasEffect, ReplicasEvent, ReplicasForm, ReplicasState } from '../../domain/wizards/replicas';
import type { ScrollEffect, ScrollEvent, ScrollState } from '../../domain/wizards/scroll';
import type { UnblockEffect, UnblockEvent, UnblockState } from '../../domain/wizards/unblock';
import type { Guard } from '../guard';
import { allocationSession } from './allocation';
import { deleteSession, type DeleteTuning } from './delete';
import { engineSession } from './engine';
import type { EngineOverrides, EngineTuning } from '../engine';
import { forcemergeSession } from './forcemerge';
import { recoverySession, type RecoveryTuning } from './recovery';
import { replicasSession } from './replicas';
import { scrollSession } from './scroll';
import type { WatchTuning, WizardSession } from './session';
import { unblockSession } from './unblock';

/** The engine wizard's: the node's URL (its remembered facts) and the profile's service commands and home. */
export interface EngineWizardTuning extends EngineTuning {
  engineUrl?: string;
  engineOverrides?: EngineOverrides;
}

export type RunnerTuning = WatchTuning & DeleteTuning & RecoveryTuning & EngineWizardTuning;

/** What the TUI's wizards get (through ui/wizards/services.tsx): sessions and previews, no client. */
export interface WizardServices {
  replicas(initial?: Partial<ReplicasForm>): WizardSession<ReplicasState, ReplicasEvent, ReplicasEffect>;
  unblock(): WizardSession<UnblockState, UnblockEvent, UnblockEffect>;
  scroll(): WizardSession<ScrollState, ScrollEvent, ScrollEffect>;
  allocation(shard?: ShardRef): WizardSession<AllocationState, AllocationEvent, AllocationEffect>;
  /** Query-before-delete (services/wizards/delete.ts). */
  deleteByQuery(initial?: Partial<DeleteForm>): WizardSession<DeleteState, DeleteEvent, DeleteEffect>;
  /** Expunge-deletes merge; `start` inspects the target at once (offered after a delete). */
  forcemerge(target?: string, start?: boolean): WizardSession<MergeState, MergeEvent, MergeEffect>;
  /** Corruption recovery: detection, lossless options, then the offline checklist (services/wizards/recovery.ts). */
  recovery(shard?: { index: string; shard: number }): ReturnType<typeof recoverySession>;
  /** This host's engine: service and plugins (services/wizards/engine.ts), the same session as `shardeck service` / `shardeck plugin`. */
  engine(): ReturnType<typeof engineSession>;
  /** Method, path, body and the curl line of a plan (throws the read-only refusal). */
  preview(plan: MutationPlan): Preview;
}

/** `es` for every read, `guard` for every change. */
export function createWizardServices(es: EsApi, guard: Guard, tuning: RunnerTuning = {}): WizardServices {
  return {
    replicas: (initial) => replicasSession(es, guard, initial, tuning),
    unblock: () => unblockSession(es, guard),
    scroll: () => scrollSession(es, guard),
    allocation: (shard) => allocationSession(es, guard, shard, tuning),
    deleteByQuery: (initial) => deleteSession(es, guard, initial, tuning),
    forcemerge: (target, start) => forcemergeSession(es, guard, target, start, tuning),
    recovery: (shard) => recoverySession(es, guard, shard, tuning),
    engine: () => engineSession(es, guard, { ...tuning, url: tuning.engineUrl ?? '', overrides: tuning.engineOverrides }),
    preview: (plan) => guard.preview(plan, tuning),
  };
}
