// The recovery throttle changed through the guard with the value before kept first
// (config/throttle-record.ts), and put back from that record (`shardeck recovery throttle --restore`).
import os from 'node:os';
import type { EsApi } from '../cluster/api';
import { readThrottleRecord, removeThrottleRecord, writeThrottleRecord } from '../config/throttle-record';
import type { Confirmation } from '../domain/mutation/confirmation';
import type { MutationPlan } from '../domain/mutation/plan';
import {
  THROTTLE_KEYS,
  throttlePlan,
  throttleRecordBefore,
  type RecoveryThrottle,
  type ThrottleChange,
  type ThrottleKey,
  type ThrottleRecord,
} from '../domain/nodes/shard-recovery';
import type { Guard } from './guard';
import { performMutations } from './wizards/session';
import type { PlanResult } from '../domain/wizards/machine';

type ThrottleApi = Pick<EsApi, 'clusterUuid' | 'recoveryThrottle'>;

/** A transient value wins over the persistent one shardeck sets: such a change would not take effect. */
export function transientShadow(t: RecoveryThrottle, change: ThrottleChange): string | null {
  const k = (Object.keys(change) as ThrottleKey[]).find((x) => t[x].level === 'transient');
  return k ? `${k} is set transient (${t[k].value}), which wins over the persistent value shardeck sets: unset it first` : null;
}

/** The persistent values now of the keys a change touches (null: not set persistently). */
function persistentNow(t: RecoveryThrottle): ThrottleChange {
  const out: ThrottleChange = {};
  for (const k of THROTTLE_KEYS) out[k] = t[k].level === 'persistent' ? t[k].value : null;
  return out;
}

/** Records the values before (an earlier record kept), then sends the change through the guard. */
export async function changeThrottle(
  es: ThrottleApi,
  guard: Guard,
  change: ThrottleChange,
  confirmation: Confirmation,
): Promise<PlanResult> {
  const [uuid, t] = await Promise.all([es.clusterUuid(), es.recoveryThrottle()]);
  const plan = throttlePlan(change, 'set the recovery throttle');
  guard.assertWritable();
  const rec = throttleRecordBefore(readThrottleRecord(uuid), change, persistentNow(t), {
    clusterUuid: uuid,
    at: new Date().toISOString(),
    user: os.userInfo().username,
  });
  writeThrottleRecord(rec);
  const [result] = await performMutations(guard, { type: 'mutate', plans: [plan], confirmation });
  return result;
}

/** The plan that puts back what the record says was there (null: nothing recorded). */
export async function throttleRestore(es: ThrottleApi): Promise<{ record: ThrottleRecord; plan: MutationPlan } | null> {
  const record = readThrottleRecord(await es.clusterUuid());
  return record
    ? { record, plan: throttlePlan(record.before, 'put the recovery throttle back as it was before shardeck changed it') }
    : null;
}

/** Sends the restore; the record goes once the values read back as they were. */
export async function restoreThrottle(
  guard: Guard,
  r: { record: ThrottleRecord; plan: MutationPlan },
  c: Confirmation,
): Promise<PlanResult> {
  const [result] = await performMutations(guard, { type: 'mutate', plans: [r.plan], confirmation: c });
  if (result.ok && result.verified?.ok !== false) removeThrottleRecord(r.record.clusterUuid);
  return result;
}
