// Read-only block wizard: the indices Elasticsearch blocked at flood stage, each node's disk
// against the high and flood-stage watermarks, and the seed's request that lifts the block.
// Refused while a node is still past flood stage: Elasticsearch would set the block again at once.
import type { DiskRow } from '../disk';
import { UNBLOCK_ALL_REQUEST, type Confirmation, type MutationPlan } from '../mutation';
import type { IndexBlocks } from '../types';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type MutateEffect, type PlanResult, type Step } from './machine';

export const AUTO_RELEASE_NOTE =
  'Elasticsearch 8 lifts the block by itself once every node is below the HIGH watermark (it checks every cluster.info.update.interval, 30s by default)';

export interface UnblockFacts {
  /** Indices carrying index.blocks.read_only_allow_delete. */
  blocked: string[];
  disks: DiskRow[];
}

export interface UnblockReview {
  facts: UnblockFacts;
  /** Why clearing is refused now (a node past flood stage); the plan is absent then. */
  refusal?: string;
  plan?: MutationPlan;
  notes: string[];
}

export function blockedIndices(blocks: IndexBlocks[]): string[] {
  return blocks.filter((b) => b.readOnlyAllowDelete).map((b) => b.index);
}

export function unblockPlan(blocked: string[]): MutationPlan {
  return {
    ...UNBLOCK_ALL_REQUEST,
    risk: 'reversible',
    target: 'all indices',
    summary: `remove the flood-stage read-only block (index.blocks.read_only_allow_delete) from every index (${blocked.length} blocked now)`,
    verify: {
      path: '/*/_settings/index.blocks.read_only_allow_delete',
      querystring: { flat_settings: 'true' },
      check(body) {
        const still = Object.entries((body ?? {}) as Record<string, { settings: Record<string, string> }>)
          .filter(([, v]) => v.settings?.['index.blocks.read_only_allow_delete'] === 'true')
          .map(([i]) => i);
        return still.length ? { ok: false, message: `still blocked: ${still.join(', ')}` } : { ok: true, message: 'no index carries the read-only block any more: writes are accepted again' };
      },
    },
  };
}

function pct(p: number): string {
  return `${p.toFixed(1)}%`;
}

export function buildUnblockReview(facts: UnblockFacts): UnblockReview {
  const notes = [AUTO_RELEASE_NOTE];
  const flood = facts.disks.filter((d) => d.level === 'flood');
  const high = facts.disks.filter((d) => d.level === 'high');
  if (facts.blocked.length === 0) {
    notes.unshift('no index is blocked: nothing to clear (if there was a block, Elasticsearch has already lifted it)');
    return { facts, notes };
  }
  if (flood.length) {
    const d = flood[0];
    return {
      facts,
      notes,
      refusal: `node ${d.node} is still past flood stage (${pct(d.usedPercent)} used, flood stage at ${pct(d.marks.flood)}): free disk first (delete whole indices, add disk); Elasticsearch would set the block again at once`,
    };
  }
  if (high.length)
    notes.push(`${high.map((d) => d.node).join(', ')} still above the high watermark: Elasticsearch will not lift the block by itself yet; clearing it is safe below flood stage, but free disk soon`);
  return { facts, notes, plan: unblockPlan(facts.blocked) };
}

export type UnblockState =
  | { phase: 'loading' }
  | { phase: 'review'; review: UnblockReview }
  | { phase: 'applying'; review: UnblockReview }
  | { phase: 'done'; review: UnblockReview; result: PlanResult }
  | Ended;

export type UnblockEvent =
  | CommonEvent
  | { type: 'loaded'; facts: UnblockFacts }
  | { type: 'reload' }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; results: PlanResult[] };

export type UnblockEffect = { type: 'load' } | MutateEffect;

export function unblockMachine(): Machine<UnblockState, UnblockEvent, UnblockEffect> {
  return {
    init: () => go({ phase: 'loading' }, { type: 'load' }),
    step(s, e): Step<UnblockState, UnblockEffect> {
      const common = commonStep<UnblockState, UnblockEffect>(s, e);
      if (common) return common as Step<UnblockState, UnblockEffect>;
      if (e.type === 'reload' && s.phase !== 'applying') return go({ phase: 'loading' }, { type: 'load' });
      if (s.phase === 'loading' && e.type === 'loaded') return stay({ phase: 'review', review: buildUnblockReview(e.facts) });
      if (s.phase === 'review' && e.type === 'confirm' && s.review.plan)
        return go({ phase: 'applying', review: s.review }, { type: 'mutate', plans: [s.review.plan], confirmation: e.confirmation });
      if (s.phase === 'applying' && e.type === 'applied') {
        const r = e.results[0];
        return stay(r.ok ? { phase: 'done', review: s.review, result: r } : { phase: 'failed', message: r.message });
      }
      return stay(s);
    },
  };
}
