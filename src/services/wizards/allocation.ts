// The allocation wizard's session: explain a shard, retry failed allocations, report what moved.
import type { EsApi } from '../../cluster/api';
import {
  explainAllocation,
  type AllocationEffect,
  type AllocationEvent,
  type AllocationState,
  allocationMachine,
  diffShards,
  type ShardRef,
} from '../../domain/wizards/allocation';
import type { Guard } from '../guard';
import { waitUntil } from '../wait';
import { performMutations, WizardSession, type WatchTuning } from './session';

export function allocationSession(es: EsApi, guard: Guard, shard?: ShardRef, tuning: WatchTuning = {}) {
  return new WizardSession<AllocationState, AllocationEvent, AllocationEffect>(allocationMachine(shard), async (f, send) => {
    if (f.type === 'explain') {
      // One read of the shards counts both the unassigned copies and those whose allocation failed.
      const [body, shards] = await Promise.all([es.allocationExplain(f.shard), es.data('shards')]);
      const unassigned = shards.filter((s) => s.state === 'UNASSIGNED');
      send({
        type: 'explained',
        explanation: body ? explainAllocation(body) : null,
        unassigned: unassigned.length,
        failed: unassigned.filter((s) => s.unassignedReason === 'ALLOCATION_FAILED').length,
      });
    } else {
      const before = await es.data('shards');
      const results = await performMutations(guard, f);
      // Give the allocator time to start what it retried, then compare.
      await waitUntil(
        () => es.health(),
        (h) => !results[0]?.ok || h.moving === 0,
        { timeoutMs: tuning.watchTimeoutMs ?? 30_000, intervalMs: tuning.pollMs ?? 1000 },
      );
      const after = await es.data('shards');
      send({
        type: 'applied',
        results,
        moves: diffShards(before, after),
        stillUnassigned: after.filter((s) => s.state === 'UNASSIGNED').length,
      });
    }
  });
}

/** The console's way to open it: `services.open(allocationWizard, ...)` (services/wizards/index.ts). */
export const allocationWizard = (es: EsApi, guard: Guard, tuning: WatchTuning, shard?: ShardRef) =>
  allocationSession(es, guard, shard, tuning);
