// Force-merge wizard (get the disk back after deletes): deleted documents and store size per
// index, each node's headroom before the high watermark, a warning or a refusal (judgeMergeSpace),
// a keypress, the merge (only_expunge_deletes) as a task, and before -> after.
// The CLI twin is commands/forcemerge.ts.
import { goneTaskLines } from '../inspect/gone-task';
import { editLine, type LineEdit } from '../console/line-edit';
import { forcemergePlan, judgeMergeSpace } from '../maintenance/merge';
import { headroomText, type DiskRow } from '../nodes/disk';
import { formatBytes, formatCount, formatPercent, diskLevelTone, type Tone } from '../text/format';
import type { Applied } from '../mutation/audit';
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { checkIndexExpression, pinIndices, type TargetOptions } from '../mutation/targets';
import type { IndexRow } from '../types';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type Step } from './machine';

/** What a merge is judged on: docs.deleted and store size per index, each node's disk against the watermarks. */
export interface MergeFacts {
  indices: IndexRow[];
  disks: DiskRow[];
}

export interface MergeReview {
  target: string;
  indices: string[];
  before: MergeFacts;
  /** Shard copies whose retention leases still hold deleted documents back (the runner waits for them). */
  retaining: number;
  refuse?: string;
  warnings: string[];
  /** The flush that commits the deletes (when there are any), then the merge; sent in this order. */
  plans: MutationPlan[];
  plan: MutationPlan;
}

export type MergeState =
  | { phase: 'input'; target: string; error?: string }
  | { phase: 'inspecting'; target: string }
  | ({ phase: 'review' } & MergeReview)
  | ({ phase: 'applying'; task?: string; waitingLeases: boolean } & MergeReview)
  | ({
      phase: 'done';
      task: string;
      after: MergeFacts;
      failures: string[];
      /** Its task died with its node (the node restarted while it ran): the delete's words (domain/inspect/gone-task.ts). */
      gone?: GoneMergeReport;
    } & MergeReview)
  | (Ended & {
      review?: MergeReview;
      /** A plan was sent and this is what the cluster did (absent: nothing was sent). */
      applied?: Applied;
      /** The guard refused it (its RefusalKind): nothing was sent. */
      refused?: string;
      /** The merge task whose status could no longer be read. */
      lostTask?: string;
    });

export type MergeEvent =
  | CommonEvent
  | { type: 'edit'; value: string }
  /** A key typed into the target. */
  | { type: 'line'; edit: LineEdit }
  | { type: 'submit' }
  | { type: 'rejected'; message: string }
  | { type: 'inspected'; indices: string[]; facts: MergeFacts; retaining: number; asTask?: boolean }
  | { type: 'confirm'; confirmation: Confirmation }
  /** Backspace on the review: back to the target as typed (nothing erased). */
  | { type: 'back' }
  | { type: 'leasesCleared'; cleared: boolean }
  | { type: 'started'; task: string }
  | { type: 'notStarted'; message: string; applied?: Applied; refused?: string }
  | { type: 'lost'; message: string }
  /** The node answers again but knows the task no more: what it did, read back after the restart. */
  | { type: 'gone'; after: MergeFacts }
  | { type: 'merged'; after: MergeFacts; failures: string[] };

export type MergeEffect =
  | { type: 'inspect'; target: string }
  | {
      type: 'merge';
      target: string;
      flush?: MutationPlan;
      plan: MutationPlan;
      confirmation: Confirmation;
      waitForLeases: boolean;
      before: MergeFacts;
    };

/**
 * A merge keeps soft-deleted documents the last commit may still need for history (Lucene keeps
 * deletes above the safe commit's checkpoint), so right after a delete it would drop only the
 * delete tombstones. A flush commits the deletes first; it changes no data.
 */
export function flushPlan(target: string): MutationPlan {
  return {
    method: 'POST',
    path: `/${encodeURIComponent(target)}/_flush`,
    querystring: {},
    risk: 'reversible',
    target,
    summary: `flush ${target}: commit the deletes so the merge may drop them (no data changes)`,
  };
}

export const LEASES_NOTE = (n: number) =>
  `${n} shard ${n === 1 ? 'copy still retains' : 'copies still retain'} just-deleted documents (retention leases, synced every 30 s): the wizard waits for them before merging`;

export function buildMergeReview(target: string, indices: string[], before: MergeFacts, retaining: number, asTask = true): MergeReview {
  const space = judgeMergeSpace(
    before.indices.map((i) => ({ index: i.name, docsDeleted: i.docsDeleted, storeBytes: i.storeBytes })),
    before.disks,
  );
  const warnings = [...space.warnings];
  if (!before.indices.some((i) => i.docsDeleted > 0)) warnings.push('no deleted documents in these indices: a merge would reclaim nothing');
  if (retaining > 0) warnings.push(LEASES_NOTE(retaining));
  // Sent to the indices shown, not to the pattern (an index created meanwhile is not merged).
  const plan = pinIndices(forcemergePlan(target, asTask), target, indices);
  const deleted = before.indices.some((i) => i.docsDeleted > 0);
  return {
    target,
    indices,
    before,
    retaining,
    refuse: space.refuse,
    warnings,
    plans: deleted ? [pinIndices(flushPlan(target), target, indices), plan] : [plan],
    plan,
  };
}

export interface FactLine {
  text: string;
  tone?: Tone;
}

/** Per index: deleted docs and store size (before, or before -> after). */
export function mergeIndexLines(before: MergeFacts, after?: MergeFacts): FactLine[] {
  return before.indices.map((b) => {
    if (!after)
      return {
        text: `${b.name}: ${formatCount(b.docsDeleted)} deleted docs, store ${formatBytes(b.storeBytes)}`,
        tone: b.docsDeleted > 0 ? 'yellow' : undefined,
      };
    const a = after.indices.find((i) => i.name === b.name);
    const freed = a !== undefined && a.storeBytes < b.storeBytes;
    return {
      text: `${b.name}: deleted docs ${formatCount(b.docsDeleted)} -> ${formatCount(a?.docsDeleted)}, store ${formatBytes(b.storeBytes)} -> ${formatBytes(a?.storeBytes)}`,
      tone: a && a.docsDeleted < b.docsDeleted ? 'green' : freed ? 'green' : undefined,
    };
  });
}

/** Per node: disk used and the room left before the high watermark (before, or before -> after). */
export function mergeDiskLines(before: MergeFacts, after?: MergeFacts): FactLine[] {
  return before.disks.map((b) => {
    if (!after)
      return {
        text: `node ${b.node}: disk ${formatPercent(b.usedPercent)} used, ${headroomText(b.headroomToHighBytes)} (${formatPercent(b.marks.high)})`,
        tone: diskLevelTone(b.level),
      };
    const a = after.disks.find((d) => d.node === b.node);
    return {
      text: `node ${b.node}: disk used ${formatBytes(b.usedBytes)} -> ${formatBytes(a?.usedBytes)}`,
      tone: a ? diskLevelTone(a.level) : undefined,
    };
  });
}

export interface GoneMergeReport {
  ok: false;
  lines: string[];
}

/**
 * A merge whose task died with its node: what it merged away, read from docs.deleted now. Never
 * ok (it did not finish); the merge is safe to run again, so what to do is to preview it again.
 */
export function goneMergeReport(target: string, before: MergeFacts, after: MergeFacts): GoneMergeReport {
  const deleted = (f: MergeFacts) => f.indices.reduce((n, i) => n + i.docsDeleted, 0);
  const [was, now] = [deleted(before), deleted(after)];
  return {
    ok: false,
    lines: goneTaskLines({
      verb: 'merge',
      index: target,
      sentAt: '',
      did: `deleted docs in ${target}: ${formatCount(was)} before, ${formatCount(now)} now: about ${formatCount(Math.max(0, was - now))} were merged away (what it merged before the restart stays)`,
      left: now > 0,
      again: `shardeck forcemerge ${target} --expunge-deletes --dry-run`,
      nothingLeft: `no deleted documents are left in ${target}: nothing to merge`,
    }),
  };
}

/** targetOptions: what the target may name (--include-system). */
export function forcemergeMachine(
  initialTarget = '',
  start = false,
  targetOptions: TargetOptions = {},
): Machine<MergeState, MergeEvent, MergeEffect> {
  return {
    init: () =>
      start && !checkIndexExpression(initialTarget, targetOptions)
        ? go({ phase: 'inspecting', target: initialTarget }, { type: 'inspect', target: initialTarget })
        : stay({ phase: 'input', target: initialTarget }),
    step(s, e): Step<MergeState, MergeEffect> {
      const common = commonStep<MergeState, MergeEffect>(s, e);
      if (common) {
        const review = s.phase === 'review' || s.phase === 'applying' ? reviewOf(s) : undefined;
        return common.state.phase === 'failed' ? stay({ ...(common.state as Ended), review }) : common;
      }
      switch (s.phase) {
        case 'input':
          if (e.type === 'edit') return stay({ phase: 'input', target: e.value });
          if (e.type === 'line') return stay({ phase: 'input', target: editLine(s.target, e.edit) });
          if (e.type === 'submit') {
            const bad = checkIndexExpression(s.target.trim(), targetOptions);
            if (bad) return stay({ ...s, error: bad });
            return go({ phase: 'inspecting', target: s.target.trim() }, { type: 'inspect', target: s.target.trim() });
          }
          return stay(s);
        case 'inspecting':
          if (e.type === 'rejected') return stay({ phase: 'input', target: s.target, error: e.message });
          if (e.type === 'inspected')
            return stay({ phase: 'review', ...buildMergeReview(s.target, e.indices, e.facts, e.retaining, e.asTask) });
          return stay(s);
        case 'review':
          if (e.type === 'back') return stay({ phase: 'input', target: s.target });
          if (e.type === 'confirm' && !s.refuse)
            return go(
              { ...s, phase: 'applying', waitingLeases: s.plans.length > 1 || s.retaining > 0 },
              {
                type: 'merge',
                target: s.target,
                ...(s.plans.length > 1 ? { flush: s.plans[0] } : {}),
                plan: s.plan,
                confirmation: e.confirmation,
                // After the flush the leases move on at their next sync: wait (reading only) for it.
                waitForLeases: s.plans.length > 1 || s.retaining > 0,
                before: s.before,
              },
            );
          return stay(s);
        case 'applying':
          if (e.type === 'leasesCleared')
            return stay({
              ...s,
              waitingLeases: false,
              warnings: e.cleared
                ? s.warnings
                : [...s.warnings, 'leases still retain deleted documents: the merge may reclaim only part of them'],
            });
          if (e.type === 'started') return stay({ ...s, task: e.task, waitingLeases: false });
          if (e.type === 'notStarted')
            return stay({
              phase: 'failed',
              message: e.message,
              review: reviewOf(s),
              ...(e.applied ? { applied: e.applied } : {}),
              ...(e.refused ? { refused: e.refused } : {}),
            });
          if (e.type === 'lost')
            return stay({
              phase: 'failed',
              message:
                `lost task ${s.task ?? '?'}: its status could not be read (${e.message}); it was not retried. When the node answers again: shardeck tasks ${s.task ?? ''}`.trim(),
              review: reviewOf(s),
              ...(s.task ? { lostTask: s.task } : {}),
            });
          if (e.type === 'gone')
            return stay({
              ...reviewOf(s),
              phase: 'done',
              task: s.task ?? '',
              after: e.after,
              failures: [],
              gone: goneMergeReport(s.target, s.before, e.after),
            });
          if (e.type === 'merged') return stay({ ...reviewOf(s), phase: 'done', task: s.task ?? '', after: e.after, failures: e.failures });
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}

export function reviewOf(s: MergeReview): MergeReview {
  return {
    target: s.target,
    indices: s.indices,
    before: s.before,
    retaining: s.retaining,
    refuse: s.refuse,
    warnings: s.warnings,
    plans: s.plans,
    plan: s.plan,
  };
}
