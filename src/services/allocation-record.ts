// What shardeck left of an allocation change on this cluster (a record still there and the
// settings still not what they were before): read at the start of every command and of the
// console. Only this operator's own record is offered back (`shardeck allocation restore`, the
// console's dialog, the restart's "allocation back"); another operator's is shown with its owner
// and restored only when the operator names it (`allocation restore --of USER`, previewed like
// any change): a record is another user's claim, and a forged one must steer nothing (issue 40 N2).
import type { EsApi } from '../cluster/api';
import { hasAllocationRecords, readAllocationRecords, removeAllocationRecord } from '../config/allocation-record';
import {
  describeLeft,
  differences,
  restorePlan,
  type AllocationDiff,
  type AllocationRecord,
  type AllocationValues,
} from '../domain/maintenance/allocation-limits';
import { displayText } from '../domain/text/display-text';
import type { MutationPlan } from '../domain/mutation/plan';

export interface LeftAllocation {
  record: AllocationRecord;
  /** Whose record it is, from the file system ("alice (uid 1001)"); the record's own text only claims it. */
  owner: string;
  ownerUid: number;
  mine: boolean;
  diffs: AllocationDiff[];
  /** The guarded plan that puts the settings back. */
  plan: MutationPlan;
  /** One line for the operator (the cluster's values made safe to print). */
  message: string;
}

export interface AllocationLeft {
  /** This operator's own record, still differing: what "put back" restores. */
  own: LeftAllocation | null;
  /** Other operators' records still differing, named by their owner; never acted on unless chosen. */
  others: LeftAllocation[];
  /** Records of others this user cannot read or trust, one line each ("a record of root (uid 0), not readable by you"). */
  unread: string[];
}

/**
 * What every operator of the host left on this cluster. This user's own records whose settings
 * are all back are removed; others' are left where they are (they count for nothing while nothing
 * differs). No request at all while nobody on the host has a record.
 */
export async function allocationLeft(es: Pick<EsApi, 'clusterUuid' | 'allocationSettings'>): Promise<AllocationLeft> {
  const none: AllocationLeft = { own: null, others: [], unread: [] };
  if (!hasAllocationRecords()) return none;
  const uuid = await es.clusterUuid();
  const found = readAllocationRecords(uuid);
  if (found.length === 0) return none;
  const now = await es.allocationSettings();
  const out: AllocationLeft = { own: null, others: [], unread: [] };
  for (const f of found) {
    if (!f.record) {
      if (!f.mine)
        out.unread.push(displayText(`a record of ${f.ownerName} in the shared lock folder (${f.why ?? 'not trusted'}): not acted on`));
      continue;
    }
    const diffs = differences(f.record, now);
    const plan = restorePlan(f.record, diffs);
    if (!plan) {
      if (f.mine) removeAllocationRecord(uuid, f.owner);
      continue;
    }
    const left: LeftAllocation = {
      record: f.record,
      owner: f.ownerName,
      ownerUid: f.owner,
      mine: f.mine,
      diffs,
      plan,
      message: displayText(
        // Another user's text names its writer only by its own word: the owner comes from the file system.
        describeLeft(f.mine ? f.record : { ...f.record, user: `"${f.record.user}" by its own word` }, diffs) +
          (f.mine
            ? ''
            : ` (the record of ${f.ownerName}, another operator of this host: not acted on; to put it back yourself: shardeck allocation restore --of ${f.ownerName.split(' (')[0]})`),
      ),
    };
    if (f.mine) out.own ??= left;
    else out.others.push(left);
  }
  return out;
}

/** This operator's own record still differing: what "put back" restores; null otherwise. */
export async function leftAllocation(es: Pick<EsApi, 'clusterUuid' | 'allocationSettings'>): Promise<LeftAllocation | null> {
  return (await allocationLeft(es)).own;
}

/** Every line for the operator: their own left change, then the others', then the records not read. */
export function leftAllocationLines(all: AllocationLeft): string[] {
  return [...(all.own ? [all.own.message] : []), ...all.others.map((l) => l.message), ...all.unread];
}

/** After a change: this user's records whose settings are all back go; another operator's stay theirs. */
export function dropRecordsBack(uuid: string, now: AllocationValues): void {
  for (const f of readAllocationRecords(uuid))
    if (f.mine && f.record && differences(f.record, now).length === 0) removeAllocationRecord(uuid, f.owner);
}

/** After the operator chose another operator's record and it is back: that record goes where this user may remove it (root). */
export function dropChosenRecord(uuid: string, left: LeftAllocation): void {
  if (readAllocationRecords(uuid).some((r) => r.owner === left.ownerUid && r.record?.at === left.record.at))
    removeAllocationRecord(uuid, left.ownerUid);
}
