// The console's wizards get their sessions from here (through ui/wizards/services.tsx): one factory
// over the facade for reads and the Guard for changes, no client.
import type { EsApi } from '../../cluster/api';
import type { MutationPlan } from '../../domain/mutation/plan';
import type { HotNode, HotThreadsOptions } from '../../domain/nodes/hot-threads';
import type { Preview } from '../../domain/mutation/preview';
import { requestLines, type ShownRequest } from '../../domain/inspect/documents';
import { documentsSession, type DocumentsSession } from '../documents';
import type { Guard } from '../guard';
import type { DeleteTuning } from './delete';
import type { EngineWizardTuning } from './engine';
import type { RecoveryTuning } from './recovery';
import type { WatchTuning } from './session';
import { xrayOf } from '../xray';

export type { EngineWizardTuning };

export type RunnerTuning = WatchTuning & DeleteTuning & RecoveryTuning & EngineWizardTuning;

/**
 * How a wizard's session module lets the console open it (`replicasWizard` of ./replicas.ts): from
 * `es`, the Guard and the console's tuning, and what the wizard was opened on. The screens pass it
 * to `open` and never hold `es` or the Guard; a new wizard needs no entry here.
 */
export type WizardMaker<A extends unknown[], S> = (es: EsApi, guard: Guard, tuning: RunnerTuning, ...args: A) => S;

/**
 * The one list of what the TUI's wizards get (through ui/wizards/services.tsx): each entry makes
 * one service from `es` (every read) and `guard` (every change). WizardServices is derived from it.
 */
const SERVICES = {
  /** A wizard's session: `services.open(replicasWizard, initial)` (the maker its session module exports). */
  open:
    (es, guard, tuning) =>
    <A extends unknown[], S>(make: WizardMaker<A, S>, ...args: A): S =>
      make(es, guard, tuning, ...args),
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
  /** Hot threads of one node (by id): the node samples for the interval, then answers (read on demand). */
  hotThreads:
    (es) =>
    (node: string, o: HotThreadsOptions): Promise<HotNode[]> =>
      es.hotThreads(node, o),
  /** The x-ray of one index (x on the Indices pane): the same tree as shardeck xray. */
  xray: (es) => (index: string, templateVersion?: string) => xrayOf(es, index, templateVersion),
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
