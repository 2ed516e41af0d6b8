// Where shardeck keeps the recovery throttle's values before it first changed them
// (domain/nodes/shard-recovery.ts ThrottleRecord), for `shardeck recovery throttle --restore`: one file
// per cluster beside the allocation records, <lockDir>/recovery-throttle.<uid>/<key>.json, the
// folder 0700 and the file 0600, written before the change. The folder sits in the shared sticky
// lock folder, so it is made and checked through the boundary (never a link another user planted
// there: issue 40 N4), and the file is written exclusively and renamed into place.
import path from 'node:path';
import { readCapped } from '../boundary/files';
import { ensurePrivateFolder, lstatOf } from '../boundary/host-files';
import { removeRecordFile, writeRecordFile } from '../boundary/records';
import { parseThrottleRecord, type ThrottleRecord } from '../domain/nodes/shard-recovery';
import { clusterFileKey, clusterLockDir } from './cluster-lock';

const uid = (): number => process.getuid?.() ?? 0;
const dir = (): string => path.join(clusterLockDir(), `recovery-throttle.${uid()}`);
const file = (clusterUuid: string): string => path.join(dir(), `${clusterFileKey(clusterUuid)}.json`);

/** The record of this cluster, or null: none, or a file that is not this user's private record (ignored). */
export function readThrottleRecord(clusterUuid: string): ThrottleRecord | null {
  try {
    ensurePrivateFolder(dir());
    const r = readCapped(file(clusterUuid), 16 * 1024, { noFollow: true });
    const mode = lstatOf(file(clusterUuid))?.mode ?? 0o777;
    if (r.owner !== uid() || r.truncated || mode & 0o077) return null;
    const rec = parseThrottleRecord(r.text);
    return rec?.clusterUuid === clusterUuid ? rec : null;
  } catch {
    return null;
  }
}

/** Throws when it cannot be written (the change is then not sent). */
export function writeThrottleRecord(r: ThrottleRecord): void {
  ensurePrivateFolder(dir());
  writeRecordFile(file(r.clusterUuid), JSON.stringify(r, null, 2) + '\n');
}

export function removeThrottleRecord(clusterUuid: string): void {
  ensurePrivateFolder(dir());
  removeRecordFile(file(clusterUuid), uid());
}
