// The console's wizards get their sessions from here (through ui/wizards/services.tsx): one factory
// over the facade for reads and the Guard for changes, no client.
import type { EsApi } from '../../cluster/api';
import type { MutationPlan } from '../../domain/mutation/plan';
import type { Preview } from '../../domain/mutation/preview';
import type { ShardRef } from '../../domain/wizards/allocation';
import type { DeleteForm } from '../../domain/wizards/delete';
import type { ReplicasForm } from '../../domain/wizards/replicas';
import type { ComponentForm } from '../../domain/wizards/component-template';
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
import { snapshotSession } from './snapshot';
import { restoreSession } from './restore';
import type { RestoreForm } from '../../domain/wizards/restore';
import type { SnapshotRequest } from '../../domain/wizards/snapshot';
import type { WatchTuning } from './session';
import { unblockSession } from './unblock';

/** The engine wizard's: the node's URL (its remembered facts) and the profile's service commands and home. */
export interface EngineWizardTuning extends EngineTuning {
  engineUrl?: string;
  engineOverrides?: EngineOverrides;
}

export type RunnerTuning = WatchTuning & DeleteTuning & RecoveryTuning & EngineWizardTuning;

/**
 * The one list of what the TUI's wizards get (through ui/wizards/services.tsx): each entry makes
 * one service from `es` (every read) and `guard` (every change). WizardServices is derived from it.
 */
const SERVICES = {
  replicas: (es, guard, tuning) => (initial?: Partial<ReplicasForm>) => replicasSession(es, guard, initial, tuning),
  unblock: (es, guard) => () => unblockSession(es, guard),
  scroll: (es, guard) => () => scrollSession(es, guard),
  /** Snapshot repositories (add, verify, remove) and taking a snapshot, followed to its end (services/wizards/snapshot.ts). */
  snapshot: (es, guard) => (request: SnapshotRequest) => snapshotSession(es, guard, request),
  /** Restore beside or in place, followed until green, counts after (services/wizards/restore.ts). */
  restore: (es, guard, tuning) => (form: RestoreForm) => restoreSession(es, guard, form, tuning),
  allocation: (es, guard, tuning) => (shard?: ShardRef) => allocationSession(es, guard, shard, tuning),
  /** Query-before-delete (services/wizards/delete.ts). */
  deleteByQuery: (es, guard, tuning) => (initial?: Partial<DeleteForm>) => deleteSession(es, guard, initial, tuning),
  /** Expunge-deletes merge; `start` inspects the target at once (offered after a delete). */
  forcemerge: (es, guard, tuning) => (target?: string, start?: boolean) => forcemergeSession(es, guard, target, start, tuning),
  /** Corruption recovery: detection, lossless options, then the offline checklist (services/wizards/recovery.ts). */
  recovery: (es, guard, tuning) => (shard?: { index: string; shard: number }) => recoverySession(es, guard, shard, tuning),
  /** Component template that disables a field, composed into an index template. */
  componentTemplate: (es, guard) => (initial?: Partial<ComponentForm>) => componentTemplateSession(es, guard, initial),
  /** This host's engine: service and plugins (services/wizards/engine.ts), the same session as `shardeck service` / `shardeck plugin`. */
  engine: (es, guard, tuning) => () =>
    engineSession(es, guard, { ...tuning, url: tuning.engineUrl ?? '', overrides: tuning.engineOverrides }),
  /** Method, path, body and the curl line of a plan (throws the read-only refusal). */
  preview:
    (_es, guard, tuning) =>
    (plan: MutationPlan): Preview =>
      guard.preview(plan, tuning),
  /** The Documents view of one index: lookups and searches, reads only (services/documents.ts). */
  documents:
    (es) =>
    (index: string): DocumentsSession =>
      documentsSession(es, index),
  /** A read as it was sent, and the equivalent curl line (without the password). */
  curlOf:
    (_es, guard) =>
    (request: ShownRequest): { request: string; curl: string } =>
      requestLines(request, guard.previewConnection),
} satisfies Record<string, (es: EsApi, guard: Guard, tuning: RunnerTuning) => unknown>;

/** What the TUI's wizards get: sessions and previews, no client. */
export type WizardServices = { [K in keyof typeof SERVICES]: ReturnType<(typeof SERVICES)[K]> };

/** `es` for every read, `guard` for every change. */
export function createWizardServices(es: EsApi, guard: Guard, tuning: RunnerTuning = {}): WizardServices {
  const made = Object.entries(SERVICES).map(([name, make]) => [name, make(es, guard, tuning)]);
  return Object.fromEntries(made) as WizardServices;
}
