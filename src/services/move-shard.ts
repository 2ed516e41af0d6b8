// Moving one started shard copy (issue 43 item 3): the copy, the nodes allocation explain accepts,
// the reroute dry run, then the move through the guard and the copy followed until it is started
// on its new node (reads only: the move is never resent).
import type { EsApi } from '../cluster/api';
import {
  chooseCopy,
  dryRunRefusal,
  moveCommand,
  moveDone,
  movePlan,
  moveTargets,
  refusedTarget,
  type MoveRef,
  type MoveTargets,
  type ShardCopy,
} from '../domain/maintenance/move-shard';
import type { MutationPlan } from '../domain/mutation/plan';
import { isPattern } from '../domain/mutation/targets';
import type { Guard } from './guard';
import { waitUntil } from './wait';

type MoveApi = Pick<EsApi, 'shardPlaces' | 'nodeNames' | 'rerouteDryRun' | 'allocationExplain' | 'recoveries'>;

export type MovePreview =
  { ok: false; error: string } | { ok: true; copy: ShardCopy; targets: MoveTargets; move?: { ref: MoveRef; plan: MutationPlan } };

/** The copy and its possible targets; with `to`, the checked move (explain, then the dry run). */
export async function prepareMove(
  es: MoveApi,
  guard: Guard,
  index: string,
  shard: number,
  opts: { to?: string; from?: string },
): Promise<MovePreview> {
  if (isPattern(index)) return { ok: false, error: `"${index}" is a pattern or a list: name the one index whose shard moves` };
  const r = await guard.resolveTarget(index);
  if (!r.ok) return r;
  const chosen = chooseCopy(index, shard, await es.shardPlaces(index), opts.from);
  if (!chosen.ok) return chosen;
  const { copy } = chosen;
  const explain = await es.allocationExplain({ index, shard, primary: copy.primary, current_node: copy.node ?? undefined });
  const targets = moveTargets(explain ?? {});
  if (opts.to === undefined) return { ok: true, copy, targets };
  const no = refusedTarget(opts.to, targets, await es.nodeNames(), copy.node ?? '');
  if (no) return { ok: false, error: `${no}; nothing was sent` };
  const ref: MoveRef = { index, shard, from: copy.node ?? '', to: opts.to };
  const dry = dryRunRefusal(await es.rerouteDryRun(moveCommand(ref)));
  if (dry) return { ok: false, error: `${dry}; nothing was sent` };
  return { ok: true, copy, targets, move: { ref, plan: movePlan(ref, copy.primary) } };
}

/** Reads until the copy is started on its new node (or the time is up); `progress` hears the recovery's percent. */
export async function followMove(
  es: MoveApi,
  ref: MoveRef,
  timeoutMs: number,
  progress: (percent: number | null) => void,
): Promise<{ done: boolean; copies: ShardCopy[] }> {
  const { value, met } = await waitUntil(
    async () => {
      const [copies, recs] = await Promise.all([es.shardPlaces(ref.index), es.recoveries(true, [ref.index])]);
      const rec = recs.find((x) => x.shard === ref.shard && x.targetNode === ref.to);
      return { copies, percent: rec && rec.bytesTotal > 0 ? Math.round((100 * rec.bytesRecovered) / rec.bytesTotal) : null };
    },
    (v) => moveDone(ref, v.copies),
    { timeoutMs, intervalMs: 1000, onPending: (v) => progress(v.percent) },
  );
  return { done: met, copies: value.copies };
}
