// Draining a node with real calls (domain/maintenance/drain.ts): the change to the exclude list goes through
// Guard.execute (which records the value before it: services/guard.ts), then the node is watched
// until it holds no shards, with what blocks the move (allocation explain of the copies still on it).
// Shared by `shardeck drain` and the Nodes pane's drain wizard.
import type { EsApi } from '../cluster/api';
import type { AllocationValues } from '../domain/maintenance/allocation-limits';
import {
  drainChange,
  drainProgress,
  drainRefusal,
  isDataNode,
  isDrained,
  moveBlockers,
  stuckShards,
  undoDrainChange,
  type DrainChange,
  type DrainProgress,
  type MoveBlocker,
} from '../domain/maintenance/drain';
import type { ShardRow } from '../domain/types';
import { waitUntil } from './wait';

type DrainApi = Pick<EsApi, 'data' | 'allocationSettings' | 'allocationExplain'>;

export interface DrainState {
  node: string;
  settings: AllocationValues;
  drained: boolean;
  change: DrainChange;
  progress: DrainProgress;
}

/** Reads what a drain (or its undo) of `node` would change and how many copies are on it now. */
export async function prepareDrain(es: DrainApi, node: string, undo: boolean): Promise<DrainState> {
  const [nodes, settings, shards] = await Promise.all([es.data('nodes'), es.allocationSettings(), es.data('shards')]);
  const change = undo
    ? undoDrainChange(node, settings)
    : drainChange(
        node,
        nodes.map((n) => n.name),
        settings,
        drainRefusal(
          node,
          nodes.filter((n) => isDataNode(n.roles)).map((n) => n.name),
          settings,
          shards,
        ),
      );
  return { node, settings, drained: isDrained(node, settings), change, progress: drainProgress(shards, node) };
}

/** What keeps the copies still on the node there (allocation explain of a few started ones, grouped by decider). */
export async function drainBlockers(es: DrainApi, node: string, shards?: readonly ShardRow[]): Promise<MoveBlocker[]> {
  const rows = shards ?? (await es.data('shards'));
  const explains = await Promise.all(
    stuckShards(rows, node).map((s) =>
      es.allocationExplain({ index: s.index, shard: s.shard, primary: s.primary, current_node: node }).catch(() => null),
    ),
  );
  return moveBlockers(explains.filter((x): x is Record<string, any> => x !== null));
}

export interface DrainWatch {
  progress: DrainProgress;
  /** Null while the copies still move; what blocks them once nothing has moved for a while. */
  blockers: MoveBlocker[] | null;
}

/**
 * Watches the node until it holds no shards or `timeoutMs` passes. When a read shows no copy
 * moving and none gone since the last one, asks allocation explain why (told through onPending).
 */
export async function watchDrain(
  es: DrainApi,
  node: string,
  opts: {
    timeoutMs: number;
    intervalMs?: number;
    atStart?: number;
    onProgress?: (w: DrainWatch) => void;
    /** True when whoever follows is gone (the wizard closed): the watch ends early. */
    stop?: () => boolean;
  },
): Promise<{ met: boolean; watch: DrainWatch }> {
  let atStart = opts.atStart;
  let lastLeft = -1;
  let blockers: MoveBlocker[] | null = null;
  const { value, met } = await waitUntil(
    async () => {
      const rows = await es.data('shards');
      const progress = drainProgress(rows, node, atStart);
      atStart = progress.atStart;
      // Nothing moving and nothing gone since the last read: ask why (a stalled drain says so).
      const stalled = progress.left > 0 && progress.relocating === 0 && progress.left === lastLeft;
      blockers = stalled ? await drainBlockers(es, node, rows) : progress.relocating > 0 ? null : blockers;
      lastLeft = progress.left;
      return { progress, blockers };
    },
    (w) => w.progress.left === 0 || (opts.stop?.() ?? false),
    { timeoutMs: opts.timeoutMs, intervalMs: opts.intervalMs ?? 1000, onPending: opts.onProgress },
  );
  return { met, watch: value };
}
