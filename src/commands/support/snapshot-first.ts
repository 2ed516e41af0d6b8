// `--snapshot-first` on the commands that change data (delete-by-query, forcemerge): the console's
// "snapshot first" (`s` on the wizard's review, ui/wizards/SnapshotFirst.tsx) for a script. A
// snapshot of exactly the indices the change touches, named after it, through the same session as
// `snapshot create` (audited, in the timeline), previewed with the change, confirmed with it (the
// change's confirmation covers both: the snapshot is listed first in its preview), taken and
// followed to its end before the change is sent. Not taken whole (refused, failed, PARTIAL): the
// change is not sent (a script cannot be asked, as the console asks), exit 5.
import type { EsApi } from '../../cluster/api';
import type { Confirmation } from '../../domain/mutation/confirmation';
import type { MutationPlan } from '../../domain/mutation/plan';
import { progressLine, type SnapshotInfo } from '../../domain/snapshots';
import { snapshotFirstRequest, snapshotFirstVerdict, type SnapshotFirstChange, type SnapshotRequest } from '../../domain/wizards/snapshot';
import { displayText } from '../../domain/text/display-text';
import type { Guard } from '../../services/guard';
import { snapshotSession } from '../../services/wizards/snapshot';
import type { CommandContext } from './common';
import { warnAudit } from './guarded';
import { err } from './output';
import { paint } from './paint';

export const SNAPSHOT_FIRST_OPTIONS = {
  'snapshot-first': { type: 'boolean' },
  'snapshot-repo': { type: 'string' },
} as const;

export const SNAPSHOT_FIRST_HELP = {
  'snapshot-first':
    'first take a snapshot of exactly the indices the change touches (before-<change>-<index>-<UTC time>, in the first registered repository), followed to its end; the change is sent only when every shard is in it (else exit 5)',
  'snapshot-repo': 'with --snapshot-first (or alone): the repository to take it in',
};

/** The repository asked for: undefined when no snapshot is asked for, null for the first registered one. */
export function snapshotFirstAsked(values: CommandContext['values']): string | null | undefined {
  if (typeof values['snapshot-repo'] === 'string') return values['snapshot-repo'];
  return values['snapshot-first'] ? null : undefined;
}

type CreateRequest = Extract<SnapshotRequest, { kind: 'create' }>;

export interface SnapshotFirstRun {
  req: CreateRequest;
  plan: MutationPlan;
  session: ReturnType<typeof snapshotSession>;
}

/** What the --json document says about it. */
export type SnapshotFirstReport =
  | { repository: string; name: string; taken: true; line: string; snapshot?: SnapshotInfo }
  | { repository: string; name: string; taken: false; lines: string[]; snapshot?: SnapshotInfo };

/**
 * The snapshot's session at its review (its plan, to preview with the change), or why there is
 * none (no repository, the one named is not registered, refused): nothing is sent then.
 */
export async function prepareSnapshotFirst(
  es: EsApi,
  guard: Guard,
  change: SnapshotFirstChange,
  indices: readonly string[],
  repository: string | null,
): Promise<SnapshotFirstRun | { error: string }> {
  const repos = await es.repositories();
  const chosen = repository === null ? repos : repos.filter((r) => r.name === repository);
  const registered = repos.map((r) => r.name).join(', ') || 'none';
  if (!chosen.length)
    return {
      error:
        repository === null
          ? 'no snapshot repository is registered: add one (shardeck snapshot repo add NAME --location PATH) or leave out --snapshot-first'
          : `no snapshot repository ${repository} (registered: ${registered})`,
    };
  const req = snapshotFirstRequest(change, indices, chosen, Date.now());
  if (!req) return { error: 'no index to take a snapshot of' };
  const session = snapshotSession(es, guard, req, { onAuditWarning: warnAudit });
  const state = await session.idle();
  if (state.phase === 'refused') return { error: `the snapshot first is refused: ${state.message}` };
  if (state.phase === 'failed') throw session.failure(state.message);
  if (state.phase !== 'review') throw new Error(`snapshot first stopped (${state.phase})`);
  return { req, plan: state.plan, session };
}

/** Sends the snapshot (the change's confirmation covers it) and follows it to its end, progress on stderr. */
export async function takeSnapshotFirst(run: SnapshotFirstRun, confirmation: Confirmation, json: boolean): Promise<SnapshotFirstReport> {
  const { req, session } = run;
  let last = '';
  const unsubscribe = session.subscribe(() => {
    const s = session.getState();
    if (json || s.phase !== 'following' || !s.progress) return;
    const line = progressLine(s.progress);
    if (line.text === last) return;
    last = line.text;
    err(`${paint(line.tone ?? '', displayText(line.text))}\n`);
  });
  if (!json) err(`taking the snapshot ${displayText(`${req.repository}/${req.name}`)} first...\n`);
  session.send({ type: 'confirm', confirmation });
  const state = await session.idle();
  unsubscribe();
  const v = snapshotFirstVerdict(state, req);
  const snapshot = state.phase === 'done' ? state.snapshot : undefined;
  const head = { repository: req.repository, name: req.name, ...(snapshot ? { snapshot } : {}) };
  if (v.kind === 'taken') return { ...head, taken: true, line: v.line };
  return { ...head, taken: false, lines: v.kind === 'stopped' ? v.lines : [`snapshot ${req.repository}/${req.name} did not end`] };
}
