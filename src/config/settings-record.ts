// Where shardeck keeps the cluster settings' values before it first changed them
// (domain/maintenance/cluster-settings.ts SettingsRecord), for `shardeck cluster-settings restore KEY`: one
// file per cluster in this operator's config folder, <configDir>/cluster-settings/<key>.json, the
// folder 0700 and the file 0600, written atomically before the change is sent.
import path from 'node:path';
import { parseSettingsRecord, type SettingsRecord } from '../domain/maintenance/cluster-settings';
import { configDir, removePrivateFile, writePrivateFileAtomic } from './files';
import { clusterFileKey } from './cluster-lock';
import { moveAsideRemedy, readLocalText, BrokenFileError } from './local-files';

export function settingsRecordFile(clusterUuid: string): string {
  return path.join(configDir(), 'cluster-settings', `${clusterFileKey(clusterUuid)}.json`);
}

/** The record of this cluster, or null when none was kept. A file that is not one is a BrokenFileError (exit 64, nothing sent). */
export function readSettingsRecord(clusterUuid: string): SettingsRecord | null {
  const file = settingsRecordFile(clusterUuid);
  const remedy = moveAsideRemedy(file, 'run again (the values it kept are then lost)');
  const text = readLocalText(file, 256 * 1024, remedy);
  if (text === null) return null;
  const rec = parseSettingsRecord(text);
  if (!rec || rec.clusterUuid !== clusterUuid) throw new BrokenFileError(file, 'is not a record of cluster settings', remedy);
  return rec;
}

/** Throws when it cannot be written (the change is then not sent). */
export function writeSettingsRecord(r: SettingsRecord): void {
  const file = settingsRecordFile(r.clusterUuid);
  if (Object.keys(r.before).length === 0) removePrivateFile(file);
  else writePrivateFileAtomic(file, JSON.stringify(r, null, 2) + '\n');
}
