// Where shardeck keeps the record of an allocation setting it changed (domain/maintenance/allocation-limits.ts):
// in the cluster locks' shared sticky folder, so the next shardeck start on that cluster finds a
// crashed run's `primaries` (issue 27). One file per cluster and writer:
// <lockDir>/<key>.allocation.<uid>.json, owned by its writer, 0600, written through the boundary
// (boundary/records.ts: exclusive, never through a link). A record is trusted as this user's own
// only when it is a regular file, owned by this user, whose uid its name carries, and parses as a
// record of that cluster. Another user's record is listed with its owner (root reads them all;
// others see that one exists) and is never acted on unless the operator chooses it (issue 40 N2:
// a forged record once decided what root's restart sent).
import path from 'node:path';
import { readRecordFiles, recordNames, removeRecordFile, writeRecordFile } from '../boundary/records';
import { ownerName } from '../boundary/users';
import { parseAllocationRecord, type AllocationRecord } from '../domain/maintenance/allocation-limits';
import { clusterFileKey, clusterLockDir } from './cluster-lock';

const MAX_RECORD_BYTES = 64 * 1024;
const uid = (): number => process.getuid?.() ?? 0;
const NAME = /^([0-9a-f]{16})\.allocation\.(\d+)\.json$/;

export function allocationRecordFile(clusterUuid: string, owner = uid()): string {
  return path.join(clusterLockDir(), `${clusterFileKey(clusterUuid)}.allocation.${owner}.json`);
}

/** A record as found on the host: whose it is (from the file system) and whether this user wrote it. */
export interface FoundAllocationRecord {
  /** Null when it could not be read or trusted (`why` says why): another user's 0600 record, a planted file. */
  record: AllocationRecord | null;
  why?: string;
  owner: number;
  /** "alice (uid 1001)", from the file's owner. */
  ownerName: string;
  mine: boolean;
}

/** Every record of this cluster in the shared folder, trusted or not, the oldest trusted first. */
export function readAllocationRecords(clusterUuid: string): FoundAllocationRecord[] {
  let dir: string;
  try {
    dir = clusterLockDir();
  } catch {
    return [];
  }
  const key = clusterFileKey(clusterUuid);
  const found = readRecordFiles(
    dir,
    (name) => {
      const m = NAME.exec(name);
      return m && m[1] === key ? Number(m[2]) : null;
    },
    MAX_RECORD_BYTES,
  ).map((f): FoundAllocationRecord => {
    const parsed = f.text === null ? null : parseAllocationRecord(f.text);
    const record = parsed?.clusterUuid === clusterUuid ? parsed : null;
    const why = f.why ?? (record ? undefined : 'not a record of this cluster');
    return { record, owner: f.owner, ownerName: ownerName(f.owner), mine: f.mine && record !== null, ...(why ? { why } : {}) };
  });
  const at = (f: FoundAllocationRecord) => f.record?.at ?? '~';
  return found.sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
}

/** Whether any record of this cluster is there at all (no request is worth making otherwise). Never throws. */
export function hasAllocationRecords(): boolean {
  try {
    return recordNames(clusterLockDir(), (n) => NAME.test(n)).length > 0;
  } catch {
    return false;
  }
}

/** This user's own record of the cluster, or null. */
export function readAllocationRecord(clusterUuid: string): AllocationRecord | null {
  return readAllocationRecords(clusterUuid).find((f) => f.mine)?.record ?? null;
}

/** Written before the change it records; throws when it cannot be (the change is then not sent). */
export function writeAllocationRecord(r: AllocationRecord): void {
  writeRecordFile(allocationRecordFile(r.clusterUuid), JSON.stringify(r, null, 2) + '\n');
}

/** Removes a record (this user's by default); false when this user may not (another operator's, not root). */
export function removeAllocationRecord(clusterUuid: string, owner = uid()): boolean {
  return removeRecordFile(allocationRecordFile(clusterUuid, owner), owner);
}
