// What shardeck left of an allocation change on this cluster (its record still there and the
// settings still not what they were before): read at the start of every command and of the
// console, which offer to put it back (`shardeck allocation restore`, the console's dialog).
import type { EsApi } from '../cluster/api';
import { hasAllocationRecords, readAllocationRecord, removeAllocationRecord } from '../config/allocation-record';
import { describeLeft, differences, restorePlan, type AllocationDiff, type AllocationRecord } from '../domain/allocation-limits';
import { displayText } from '../domain/display-text';
import type { MutationPlan } from '../domain/mutation/plan';

export interface LeftAllocation {
  record: AllocationRecord;
  diffs: AllocationDiff[];
  /** The guarded plan that puts the settings back. */
  plan: MutationPlan;
  /** One line for the operator (the cluster's values made safe to print). */
  message: string;
}

/**
 * This user's record of the cluster when what it recorded still differs; null otherwise. A record
 * whose settings are all back (put back by hand, or never applied) is removed. No request at all
 * while this user has no record.
 */
export async function leftAllocation(es: Pick<EsApi, 'clusterUuid' | 'allocationSettings'>): Promise<LeftAllocation | null> {
  if (!hasAllocationRecords()) return null;
  const uuid = await es.clusterUuid();
  const record = readAllocationRecord(uuid);
  if (!record) return null;
  const diffs = differences(record, await es.allocationSettings());
  const plan = restorePlan(record, diffs);
  if (!plan) {
    removeAllocationRecord(uuid);
    return null;
  }
  return { record, diffs, plan, message: displayText(describeLeft(record, diffs)) };
}
