// Read-only block wizard: the indices Elasticsearch blocked at flood stage, each node's disk
// against the high and flood-stage watermarks, and the seed's request that lifts the block.
// Refused while a node is still past flood stage: Elasticsearch would set the block again at once.
import type { DiskRow } from '../nodes/disk';
import type { Confirmation } from '../mutation/confirmation';
import { pathWithQuery, type MutationPlan } from '../mutation/plan';
import { MAX_REQUEST_LINE, type TargetOptions } from '../mutation/targets';
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
  /** Why clearing is refused now (a node past flood stage); the plans are absent then. */
  refusal?: string;
  /** Exactly the blocked indices, by name: one request, or several when the names would not fit one request line. */
  plans?: MutationPlan[];
  /** Blocked system (dot) indices left as they are (not asked for with --include-system). */
  leftSystem?: string[];
  notes: string[];
}

export function blockedIndices(blocks: IndexBlocks[]): string[] {
  return blocks.filter((b) => b.readOnlyAllowDelete).map((b) => b.index);
}

const UNBLOCK_BODY = { 'index.blocks.read_only_allow_delete': null };

/** One request for these blocked indices, by name (never `*` or `_all`), read back by name. */
function unblockPlan(names: string[], part: string): MutationPlan {
  const segment = names.map(encodeURIComponent).join(',');
  return {
    method: 'PUT',
    path: `/${segment}/_settings`,
    querystring: {},
    body: UNBLOCK_BODY,
    risk: 'reversible',
    target: names.length === 1 ? names[0] : `${names.length} blocked indices`,
    summary: `remove the flood-stage read-only block (index.blocks.read_only_allow_delete) from ${names.length === 1 ? names[0] : `${names.length} indices: ${names.join(', ')}`}${part}`,
    verify: {
      path: `/${segment}/_settings/index.blocks.read_only_allow_delete`,
      querystring: { flat_settings: 'true' },
      check(body) {
        const still = Object.entries((body ?? {}) as Record<string, { settings: Record<string, string> }>)
          .filter(([, v]) => v.settings?.['index.blocks.read_only_allow_delete'] === 'true')
          .map(([i]) => i);
        return still.length
          ? { ok: false, message: `still blocked: ${still.join(', ')}` }
          : {
              ok: true,
              message: `${names.length === 1 ? names[0] : `these ${names.length} indices`} no longer carr${names.length === 1 ? 'ies' : 'y'} the read-only block: writes are accepted again`,
            };
      },
    },
  };
}

/**
 * The requests that lift the block: exactly the indices listed as blocked, sorted, by name, as
 * few requests as fit Elasticsearch's request line (an index blocked later is not touched).
 */
export function unblockPlans(blocked: string[]): MutationPlan[] {
  const names = [...new Set(blocked)].sort();
  const chunks: string[][] = [];
  let cur: string[] = [];
  const fits = (list: string[]) =>
    `PUT ${pathWithQuery({ path: `/${list.map(encodeURIComponent).join(',')}/_settings`, querystring: {} })} HTTP/1.1`.length <=
    MAX_REQUEST_LINE;
  for (const n of names) {
    if (cur.length && !fits([...cur, n])) {
      chunks.push(cur);
      cur = [];
    }
    cur.push(n);
  }
  if (cur.length) chunks.push(cur);
  return chunks.map((c, i) => unblockPlan(c, chunks.length > 1 ? ` (part ${i + 1} of ${chunks.length})` : ''));
}

function pct(p: number): string {
  return `${p.toFixed(1)}%`;
}

/**
 * Past a real flood stage Elasticsearch blocks every index on the node, its own dot indices (.tasks,
 * ...) too: those are left unless asked for (targets.ts refuses dot names without it), so the
 * operator's indices are cleared and the system ones named, with how to lift them.
 */
export function buildUnblockReview(facts: UnblockFacts, opts: TargetOptions = {}): UnblockReview {
  const notes = [AUTO_RELEASE_NOTE];
  const leftSystem = opts.includeSystem ? [] : facts.blocked.filter((n) => n.startsWith('.')).sort();
  const targets = facts.blocked.filter((n) => !leftSystem.includes(n));
  if (leftSystem.length)
    notes.push(
      `left blocked: ${leftSystem.length} system (dot) ${leftSystem.length === 1 ? 'index' : 'indices'} (${leftSystem.join(', ')}): Elasticsearch lifts their block itself once every node is below the high watermark; to lift it now too: shardeck unblock --include-system`,
    );
  const left = leftSystem.length ? { leftSystem } : {};
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
      ...left,
      refusal: `node ${d.node} is still past flood stage (${pct(d.usedPercent)} used, flood stage at ${pct(d.marks.flood)}): free disk first (delete whole indices, add disk); Elasticsearch would set the block again at once`,
    };
  }
  if (high.length)
    notes.push(
      `${high.map((d) => d.node).join(', ')} still above the high watermark: Elasticsearch will not lift the block by itself yet; clearing it is safe below flood stage, but free disk soon`,
    );
  return targets.length ? { facts, notes, ...left, plans: unblockPlans(targets) } : { facts, notes, ...left };
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

export function unblockMachine(opts: TargetOptions = {}): Machine<UnblockState, UnblockEvent, UnblockEffect> {
  return {
    init: () => go({ phase: 'loading' }, { type: 'load' }),
    step(s, e): Step<UnblockState, UnblockEffect> {
      const common = commonStep<UnblockState, UnblockEffect>(s, e);
      if (common) return common;
      if (e.type === 'reload' && s.phase !== 'applying') return go({ phase: 'loading' }, { type: 'load' });
      if (s.phase === 'loading' && e.type === 'loaded') return stay({ phase: 'review', review: buildUnblockReview(e.facts, opts) });
      if (s.phase === 'review' && e.type === 'confirm' && s.review.plans?.length)
        return go({ phase: 'applying', review: s.review }, { type: 'mutate', plans: s.review.plans, confirmation: e.confirmation });
      if (s.phase === 'applying' && e.type === 'applied') {
        // One result for the whole unblock: the first that failed, else the last (each part stops the next on failure).
        const failed = e.results.find((r) => !r.ok);
        if (failed)
          return stay({ phase: 'failed', message: e.results.length > 1 ? `${failed.summary}: ${failed.message}` : failed.message });
        if (e.results.length < (s.review.plans?.length ?? 0)) return stay({ phase: 'failed', message: 'not every part was sent' });
        const last = e.results[e.results.length - 1];
        const verifiedOk = e.results.every((r) => r.verified?.ok !== false);
        const result =
          e.results.length === 1
            ? last
            : {
                ...last,
                summary: `remove the flood-stage read-only block from ${s.review.facts.blocked.length} indices in ${e.results.length} requests`,
                ...(last.verified
                  ? {
                      verified: {
                        ok: verifiedOk,
                        message: verifiedOk ? last.verified.message : e.results.find((r) => r.verified?.ok === false)!.verified!.message,
                      },
                    }
                  : {}),
              };
        return stay({ phase: 'done', review: s.review, result });
      }
      return stay(s);
    },
  };
}
