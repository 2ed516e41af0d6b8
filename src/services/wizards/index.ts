// The console's wizards get their sessions from here (through ui/wizards/services.tsx): one factory
// over the facade for reads and the Guard for changes, no client.
import type { EsApi } from '../../cluster/api';
import type { MutationPlan } from '../../domain/mutation/plan';
import type { Preview } from '../../domain/mutation/preview';
import type { AllocationEffect, AllocationEvent, AllocationState, ShardRef } from '../../domain/wizards/allocation';
import type { DeleteEffect, DeleteEvent, DeleteForm, DeleteState } from '../../domain/wizards/delete';
import type { MergeEffect, MergeEvent, MergeState } from '../../domain/wizards/forcemerge';
import type { ReplicasEffect, ReplicasEvent, ReplicasForm, ReplicasState } from '../../domain/wizards/replicas';
import type { ComponentForm } from '../../domain/wizards/component-template';
import type { ScrollEffect, ScrollEvent, ScrollState } from '../../domain/wizards/scroll';
import type { UnblockEffect, UnblockEvent, UnblockState } from '../../domain/wizards/unblock';
import { requestLines, type ShownRequest } from '../../domain/documents';
import { documentsSession, type DocumentsSession } from '../documents';
import type { Guard } from '../guard';
import { allocationSession } from './allocation';
import { componentTemplateSession } from './component-template';
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
  /** Component template that disables a field, composed into an index template. */
  componentTemplate(initial?: Partial<ComponentForm>): ReturnType<typeof componentTemplateSession>;
  /** This host's engine: service and plugins (services/wizards/engine.ts), the same session as `shardeck service` / `shardeck plugin`. */
  engine(): ReturnType<typeof engineSession>;
  /** Method, path, body and the curl line of a plan (throws the read-only refusal). */
  preview(plan: MutationPlan): Preview;
  /** The Documents view of one index: lookups and searches, reads only (services/documents.ts). */
  documents(index: string): DocumentsSession;
  /** A read as it was sent, and the equivalent curl line (without the password). */
  curlOf(request: ShownRequest): { request: string; curl: string };
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
    componentTemplate: (initial) => componentTemplateSession(es, guard, initial),
    engine: () => engineSession(es, guard, { ...tuning, url: tuning.engineUrl ?? '', overrides: tuning.engineOverrides }),
    preview: (plan) => guard.preview(plan, tuning),
    documents: (index) => documentsSession(es, index),
    curlOf: (request) => requestLines(request, guard.previewConnection),
  };
}
