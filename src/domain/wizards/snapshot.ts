// Snapshot repository and snapshot changes: register an fs repository (its location checked against
// every node's path.repo before anything is sent), verify it, remove it, take a snapshot of exactly
// the indices the preview names and follow it to its end. Pure: plans and the machine that the
// `snapshot` command (and the console's wizard, later) drive through services/wizards/snapshot.ts.
import { formatCount } from '../text/format';
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import {
  checkLocation,
  failureLines,
  progressLine,
  snapshotOutcome,
  type SnapshotInfo,
  type SnapshotProgress,
  type SnapshotRepository,
} from '../snapshots';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type PlanResult, type Step } from './machine';

export type SnapshotRequest =
  | { kind: 'repo-add'; name: string; location: string }
  | { kind: 'repo-verify'; name: string }
  | { kind: 'repo-remove'; name: string }
  /** indices: the operator's expression; absent = every open index that is not a system one, named one by one. */
  | { kind: 'create'; repository: string; name: string; indices?: string; wait: boolean; partial?: boolean };

/**
 * Elasticsearch's rules for repository and snapshot names (a snapshot's must be lower case too),
 * checked before connecting: undefined when fine, else the sentence.
 */
export function checkName(what: 'repository' | 'snapshot', name: string): string | undefined {
  if (!name) return `give the ${what}'s name`;
  if (name.startsWith('_') || name.startsWith('-')) return `a ${what} name cannot start with _ or -: ${name}`;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s,"*\\<|>/?#:\u0000-\u001f\u007f-\u009f]/.test(name))
    return `a ${what} name cannot hold whitespace, control characters or any of , " * \\ < | > / ? # :`;
  if (what === 'snapshot' && name !== name.toLowerCase()) return `a snapshot name must be lower case: ${name.toLowerCase()}`;
  if (name.length > 255) return `a ${what} name is at most 255 characters`;
  return undefined;
}

/** A snapshot named after when it was taken: shardeck-2026.11.26-01.02.03 (UTC; `now` from the caller). */
export function defaultSnapshotName(now: number, prefix = 'shardeck'): string {
  const d = new Date(now).toISOString();
  return `${prefix}-${d.slice(0, 10).replaceAll('-', '.')}-${d.slice(11, 19).replaceAll(':', '.')}`;
}

const seg = encodeURIComponent;

export function repoAddPlan(name: string, location: string): MutationPlan {
  return {
    method: 'PUT',
    path: `/_snapshot/${seg(name)}`,
    querystring: {},
    body: { type: 'fs', settings: { location } },
    risk: 'reversible',
    target: name,
    summary: `register the fs snapshot repository ${name} at ${location}`,
    verify: {
      path: `/_snapshot/${seg(name)}`,
      querystring: {},
      check(body) {
        const r = (body as Record<string, { type?: string; settings?: { location?: string } }> | undefined)?.[name];
        return r?.type === 'fs' && r.settings?.location === location
          ? { ok: true, message: `repository ${name} is registered at ${location}` }
          : { ok: false, message: `repository ${name} reads back as ${r ? `${r.type} ${r.settings?.location}` : 'missing'}` };
      },
    },
  };
}

/** POST _verify changes nothing on the cluster but writes a test file on every node: a guarded request all the same. */
export function repoVerifyPlan(name: string): MutationPlan {
  return {
    method: 'POST',
    path: `/_snapshot/${seg(name)}/_verify`,
    querystring: {},
    risk: 'reversible',
    target: name,
    summary: `verify the snapshot repository ${name} (every node writes and reads a test file in it)`,
  };
}

/** Unregisters the repository; its files stay where they are (add it again to see its snapshots). */
export function repoRemovePlan(name: string): MutationPlan {
  return {
    method: 'DELETE',
    path: `/_snapshot/${seg(name)}`,
    querystring: {},
    risk: 'reversible',
    target: name,
    summary: `unregister the snapshot repository ${name} (its files stay; registering it again brings its snapshots back)`,
    verify: {
      path: '/_snapshot',
      querystring: {},
      check(body) {
        return name in ((body as object | undefined) ?? {})
          ? { ok: false, message: `repository ${name} is still registered` }
          : { ok: true, message: `repository ${name} is no longer registered` };
      },
    },
  };
}

/**
 * Starts a snapshot of exactly these indices (never `*`), without the cluster's global state.
 * partial: take what can be taken when a primary is unassigned (else Elasticsearch refuses it all).
 */
export function createSnapshotPlan(repository: string, name: string, indices: readonly string[], partial = false): MutationPlan {
  return {
    method: 'PUT',
    path: `/_snapshot/${seg(repository)}/${seg(name)}`,
    querystring: { wait_for_completion: 'false' },
    body: { indices: indices.join(','), include_global_state: false, ignore_unavailable: false, partial },
    risk: 'reversible',
    target: `${repository}/${name}`,
    summary: `take the snapshot ${repository}/${name} of ${indices.length === 1 ? 'the index' : `${indices.length} indices:`} ${indices.join(', ')} (without the cluster's global state)`,
    verify: {
      path: `/_snapshot/${seg(repository)}/${seg(name)}`,
      // A snapshot that was never made is an empty list, not a 404 (which would leave its fate unknown).
      querystring: { filter_path: 'snapshots.snapshot,snapshots.state', ignore_unavailable: 'true' },
      check(body) {
        const s = (body as { snapshots?: { snapshot?: string; state?: string }[] } | undefined)?.snapshots?.[0];
        return s?.snapshot === name
          ? { ok: true, message: `snapshot ${repository}/${name} exists (${s.state ?? 'state unknown'})` }
          : { ok: false, message: `snapshot ${repository}/${name} is not in the repository` };
      },
    },
  };
}

export interface SnapshotFacts {
  repositories: SnapshotRepository[];
  /** repo-add: each node's path.repo. */
  pathRepo?: { node: string; paths: string[] }[];
  /** create: the exact indices the expression (or "every open index") names now. */
  indices?: string[];
  /** create: why the expression names nothing to take (a bad pattern, no such index). */
  indicesError?: string;
}

/**
 * Why nothing is sent: the input is wrong (exit 64) or what it names is missing (exit 5); field:
 * the console form's field it concerns (the form comes back with it, as typed).
 */
export type Refusal = { phase: 'refused'; kind: 'input' | 'missing'; message: string; field?: 'repository' | 'name' | 'indices' };

/** The plan for the request on these facts, or why there is none. */
export function reviewOf(req: SnapshotRequest, facts: SnapshotFacts): { plan: MutationPlan } | Omit<Refusal, 'phase'> {
  const names = facts.repositories.map((r) => r.name);
  const missing = (name: string) => ({
    kind: 'missing' as const,
    message: `no snapshot repository named ${name}${names.length ? ` (there are: ${names.join(', ')})` : ' (none is registered)'}`,
  });
  switch (req.kind) {
    case 'repo-add': {
      if (names.includes(req.name))
        return { kind: 'input', message: `a repository named ${req.name} is already registered: remove it first, or pick another name` };
      const bad = checkLocation(req.location, facts.pathRepo ?? []);
      return bad ? { kind: 'input', message: bad } : { plan: repoAddPlan(req.name, req.location) };
    }
    case 'repo-verify':
      return names.includes(req.name) ? { plan: repoVerifyPlan(req.name) } : missing(req.name);
    case 'repo-remove':
      return names.includes(req.name) ? { plan: repoRemovePlan(req.name) } : missing(req.name);
    case 'create': {
      if (!names.includes(req.repository)) return { ...missing(req.repository), field: 'repository' };
      // Checked here too (the command checks it before connecting): the form's name was never checked.
      const badName = checkName('snapshot', req.name);
      if (badName) return { kind: 'input', message: badName, field: 'name' };
      if (facts.indicesError) return { kind: 'input', message: facts.indicesError, field: 'indices' };
      if (!facts.indices?.length) return { kind: 'missing', message: 'no open index to take a snapshot of', field: 'indices' };
      return { plan: createSnapshotPlan(req.repository, req.name, facts.indices, req.partial) };
    }
  }
}

export type SnapshotState =
  | { phase: 'loading' }
  | Refusal
  | { phase: 'review'; facts: SnapshotFacts; plan: MutationPlan }
  | { phase: 'applying'; facts: SnapshotFacts; plan: MutationPlan }
  | { phase: 'following'; facts: SnapshotFacts; plan: MutationPlan; result: PlanResult; progress?: SnapshotProgress }
  /** snapshot: the finished snapshot (create --wait); nodes: who verified the repository. */
  | { phase: 'done'; facts: SnapshotFacts; plan: MutationPlan; result: PlanResult; snapshot?: SnapshotInfo; nodes?: string[] }
  | Ended;

export type SnapshotEvent =
  | CommonEvent
  | { type: 'loaded'; facts: SnapshotFacts }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'sent'; result: PlanResult; nodes?: string[] }
  | { type: 'progress'; progress: SnapshotProgress }
  | { type: 'finished'; snapshot: SnapshotInfo };

export type SnapshotEffect =
  | { type: 'load'; request: SnapshotRequest }
  | { type: 'send'; plan: MutationPlan; confirmation: Confirmation }
  | { type: 'follow'; repository: string; name: string };

export function snapshotMachine(req: SnapshotRequest): Machine<SnapshotState, SnapshotEvent, SnapshotEffect> {
  return {
    init: () => go({ phase: 'loading' }, { type: 'load', request: req }),
    step(s, e): Step<SnapshotState, SnapshotEffect> {
      // Once sent, following a snapshot cannot be cancelled from here (it runs on the cluster).
      if (e.type === 'cancel' && s.phase === 'following') return stay(s);
      const common = commonStep<SnapshotState, SnapshotEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading': {
          if (e.type !== 'loaded') return stay(s);
          const r = reviewOf(req, e.facts);
          return stay('plan' in r ? { phase: 'review', facts: e.facts, plan: r.plan } : { phase: 'refused', ...r });
        }
        case 'review':
          return e.type === 'confirm'
            ? go({ phase: 'applying', facts: s.facts, plan: s.plan }, { type: 'send', plan: s.plan, confirmation: e.confirmation })
            : stay(s);
        case 'applying':
          if (e.type !== 'sent') return stay(s);
          if (!e.result.ok) return stay({ phase: 'failed', message: e.result.message });
          if (req.kind === 'create' && req.wait)
            return go(
              { phase: 'following', facts: s.facts, plan: s.plan, result: e.result },
              { type: 'follow', repository: req.repository, name: req.name },
            );
          return stay({ phase: 'done', facts: s.facts, plan: s.plan, result: e.result, ...(e.nodes ? { nodes: e.nodes } : {}) });
        case 'following':
          if (e.type === 'progress') return stay({ ...s, progress: e.progress });
          if (e.type === 'finished') return stay({ phase: 'done', facts: s.facts, plan: s.plan, result: s.result, snapshot: e.snapshot });
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}

/** A snapshot still running, as _status says it (STARTED while shards are copied). */
export function stillRunning(state: string): boolean {
  return state === 'STARTED' || state === 'IN_PROGRESS' || state === 'INIT' || state === 'ABORTED';
}

/** A change a snapshot can be taken before ("snapshot first" in its wizard's review). */
export type SnapshotFirstChange = 'delete' | 'merge' | 'repair' | 'shrink' | 'split';

/** What Elasticsearch refuses in a snapshot name (checkName), replaced in an index name used in one. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const NOT_IN_NAME = /[\s,"*\\<|>/?#:\u0000-\u001f\u007f-\u009f]+/g;

/**
 * The snapshot named after the change: before-delete-logs-a-20261126-043000 (UTC; lower case, valid
 * for checkName; several indices: the first and how many more; long names cut).
 */
export function snapshotFirstName(change: SnapshotFirstChange, indices: readonly string[], now: number): string {
  const first = (indices[0] ?? 'indices').toLowerCase().replace(NOT_IN_NAME, '-').slice(0, 180);
  const what = indices.length > 1 ? `${first}-and-${indices.length - 1}-more` : first;
  const d = new Date(now).toISOString();
  return `before-${change}-${what}-${d.slice(0, 10).replaceAll('-', '')}-${d.slice(11, 19).replaceAll(':', '')}`;
}

/**
 * The snapshot to take before a change of exactly these indices, in the first repository (none:
 * nothing is offered). partial: a repair's index has a primary that cannot be copied; the snapshot
 * then takes what it can and says PARTIAL (the operator then chooses).
 */
export function snapshotFirstRequest(
  change: SnapshotFirstChange,
  indices: readonly string[],
  repositories: readonly SnapshotRepository[],
  now: number,
  partial = false,
): Extract<SnapshotRequest, { kind: 'create' }> | undefined {
  const repository = repositories[0]?.name;
  if (!repository || !indices.length) return undefined;
  return { kind: 'create', repository, name: snapshotFirstName(change, indices, now), indices: indices.join(','), wait: true, partial };
}

/**
 * Where a "snapshot first" stands, from its session's state: running (with a line), taken (every
 * shard in: the change may go on), or stopped (refused, failed or partial: the reason, and the
 * change waits for the operator's choice).
 */
export type SnapshotFirstVerdict =
  | { kind: 'running'; lines: string[]; progress?: SnapshotProgress }
  | { kind: 'taken'; line: string }
  | { kind: 'stopped'; lines: string[] };

export function snapshotFirstVerdict(s: SnapshotState, req: Extract<SnapshotRequest, { kind: 'create' }>): SnapshotFirstVerdict {
  const what = `${req.repository}/${req.name}`;
  switch (s.phase) {
    case 'refused':
      return { kind: 'stopped', lines: [`snapshot ${what} not taken: ${s.message}`] };
    case 'failed':
      return { kind: 'stopped', lines: [`snapshot ${what} failed: ${s.message}`] };
    case 'cancelled':
      return { kind: 'stopped', lines: [`snapshot ${what} not taken (cancelled)`] };
    case 'done': {
      if (!s.snapshot) return { kind: 'stopped', lines: [`snapshot ${what}: its end was not read`] };
      const { ok, total, failed } = s.snapshot.shards;
      const shards = `${formatCount(ok)}/${formatCount(total)} shards`;
      if (snapshotOutcome(s.snapshot) === 'ok') return { kind: 'taken', line: `snapshot taken (${shards}): ${what}` };
      return {
        kind: 'stopped',
        lines: [
          `snapshot ${s.snapshot.state}, ${shards} ok, ${formatCount(failed)} failed: ${what}`,
          ...failureLines(s.snapshot).map((l) => l.text),
        ],
      };
    }
    case 'following':
      return {
        kind: 'running',
        lines: [
          `taking the snapshot ${what} first…`,
          ...(s.progress ? [progressLine(s.progress).text] : ['started: waiting for its first progress…']),
        ],
        ...(s.progress ? { progress: s.progress } : {}),
      };
    default:
      return { kind: 'running', lines: [`taking the snapshot ${what} first…`] };
  }
}
