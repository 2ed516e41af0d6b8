// What shardeck left of an allocation change on this cluster (its record still there and the
// settings still not what they were before): read at the start of every command and of the
// console, which offer to put it back (`shardeck allocation restore`, the console's dialog).
import type { EsApi } from '../cluster/api';
import { hasAllocationRecords, readAllocationRecords, removeAllocationRecord } from '../config/allocation-record';
import {
  describeLeft,
  differences,
  restorePlan,
  type AllocationDiff,
  type AllocationRecord,
  type AllocationValues,
} from '../domain/allocation-limits';
import { displayText } from '../domain/display-text';
import type { MutationPlan } from '../domain/mutation/plan';

export interface LeftAllocation {
  record: AllocationRecord;
  /** Whose record it is, from the file system ("alice (uid 1001)"); the record's own text only claims it. */
  owner: string;
  mine: boolean;
  diffs: AllocationDiff[];
  /** The guarded plan that puts the settings back. */
  plan: MutationPlan;
  /** One line for the operator (the cluster's values made safe to print). */
  message: string;
}

/**
 * The oldest record of the cluster, of any operator of the host, whose settings still differ from
 * what they were before; null otherwise. Records whose settings are all back (put back by hand, by
 * another operator, or never applied) are removed where this user may (its own; root: any); the
 * others count for nothing. No request at all while nobody on the host has a record.
 */
export async function leftAllocation(es: Pick<EsApi, 'clusterUuid' | 'allocationSettings'>): Promise<LeftAllocation | null> {
  if (!hasAllocationRecords()) return null;
  const uuid = await es.clusterUuid();
  const found = readAllocationRecords(uuid);
  if (found.length === 0) return null;
  const now = await es.allocationSettings();
  let left: LeftAllocation | null = null;
  for (const f of found) {
    const diffs = differences(f.record, now);
    const plan = restorePlan(f.record, diffs);
    if (!plan) removeAllocationRecord(uuid, f.owner);
    else if (!left) {
      const whose = f.mine ? '' : ` (the record of ${f.ownerName}, another operator of this host)`;
      left = {
        record: f.record,
        owner: f.ownerName,
        mine: f.mine,
        diffs,
        plan,
        message: displayText(describeLeft(f.record, diffs) + whose),
      };
    }
  }
  return left;
}

/** After a change: every record of the cluster whose settings are all back goes, where this user may remove it. */
export function dropRecordsBack(uuid: string, now: AllocationValues): void {
  for (const f of readAllocationRecords(uuid)) if (differences(f.record, now).length === 0) removeAllocationRecord(uuid, f.owner);
}
