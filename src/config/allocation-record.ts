// Where shardeck keeps the record of an allocation setting it changed (domain/allocation-limits.ts):
// one small file per cluster (by its UUID) in this user's own folder under the change-lock folder,
// <lockDir>/allocation.<uid>/<key>.json, the folder 0700 and the file 0600 (the private-file
// helpers: a folder another user owns or can open is refused, the file is written atomically).
// Beside the locks, not in the config folder: the lock folder is per host and survives a profile
// or SHARDECK_CONFIG_DIR change, so every shardeck of this user on the host sees it.
import fs from 'node:fs';
import path from 'node:path';
import { parseAllocationRecord, type AllocationRecord } from '../domain/allocation-limits';
import { clusterFileKey, clusterLockDir } from './cluster-lock';
import { ensurePrivateDir, readCapped, writePrivateFileAtomic } from './files';

const MAX_RECORD_BYTES = 64 * 1024;
const uid = (): number => process.getuid?.() ?? 0;

export function allocationRecordDir(): string {
  return path.join(clusterLockDir(), `allocation.${uid()}`);
}

export function allocationRecordFile(clusterUuid: string): string {
  return path.join(allocationRecordDir(), `${clusterFileKey(clusterUuid)}.json`);
}

/** Whether this user has any record at all (no request is worth making otherwise). Never throws. */
export function hasAllocationRecords(): boolean {
  try {
    return fs.readdirSync(allocationRecordDir()).some((n) => n.endsWith('.json'));
  } catch {
    return false;
  }
}

/** The record of this cluster, or null: none, or a file that is not this user's private record (ignored). */
export function readAllocationRecord(clusterUuid: string): AllocationRecord | null {
  try {
    ensurePrivateDir(allocationRecordDir());
    const r = readCapped(allocationRecordFile(clusterUuid), MAX_RECORD_BYTES, { noFollow: true });
    const mode = fs.statSync(allocationRecordFile(clusterUuid)).mode & 0o777;
    if (r.owner !== uid() || r.truncated || mode & 0o077) return null;
    const rec = parseAllocationRecord(r.text);
    return rec?.clusterUuid === clusterUuid ? rec : null;
  } catch {
    return null;
  }
}

/** Written before the change it records; throws when it cannot be (the change is then not sent). */
export function writeAllocationRecord(r: AllocationRecord): void {
  ensurePrivateDir(allocationRecordDir());
  writePrivateFileAtomic(allocationRecordFile(r.clusterUuid), JSON.stringify(r, null, 2) + '\n');
}

export function removeAllocationRecord(clusterUuid: string): void {
  fs.rmSync(allocationRecordFile(clusterUuid), { force: true });
}
