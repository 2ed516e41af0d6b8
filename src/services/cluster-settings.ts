// A cluster setting changed through the guard with its values before kept first
// (config/settings-record.ts), and put back from that record (`cluster-settings restore KEY`).
import os from 'node:os';
import type { EsApi } from '../cluster/api';
import { readSettingsRecord, writeSettingsRecord } from '../config/settings-record';
import { levelsOf, recordBefore, withoutKey, type ClusterSettingsFacts, type SettingsRecord } from '../domain/maintenance/cluster-settings';
import type { MutationPlan } from '../domain/mutation/plan';
import type { Guard } from './guard';
import { oneChange } from './one-change';

type SettingsApi = Pick<EsApi, 'clusterUuid'>;

/** `set` or `reset`: the key's values now are kept (unless an earlier change kept them) before the plan is sent. */
export function changeSetting(es: SettingsApi, guard: Guard, key: string, facts: ClusterSettingsFacts, plan: MutationPlan) {
  return oneChange(guard, [plan], {
    async before() {
      const uuid = await es.clusterUuid();
      const head = { at: new Date().toISOString(), user: os.userInfo().username };
      writeSettingsRecord(recordBefore(readSettingsRecord(uuid), uuid, key, levelsOf(key, facts), head));
    },
  });
}

/** The record of this cluster (null: none kept). */
export async function settingsRecordOf(es: SettingsApi): Promise<SettingsRecord | null> {
  return readSettingsRecord(await es.clusterUuid());
}

/** `restore`: once the values read back as they were, the key leaves the record. */
export function restoreSetting(guard: Guard, record: SettingsRecord, key: string, plan: MutationPlan) {
  return oneChange(guard, [plan], {
    after(results) {
      if (results[0]?.ok && results[0].verified?.ok !== false)
        writeSettingsRecord(withoutKey(readSettingsRecord(record.clusterUuid) ?? record, key));
    },
  });
}
