// Where shardeck keeps the record of an allocation setting it changed (domain/allocation-limits.ts):
// in the cluster locks' shared sticky folder, seen by every operator of the host (issue 27: "the
// next shardeck start on that cluster, any command, any operator, sees it"). One file per cluster
// and writer: <lockDir>/<key>.allocation.<uid>.json, owned by its writer, 0644 (it holds only the
// allocation settings before, who, when and the URL without credentials; the sticky folder keeps
// others from replacing or removing it), written atomically. A reader trusts a file only when it is
// a regular file (O_NOFOLLOW, non-blocking, size-capped), its owner is the uid in its name, nobody
// else can write it and it parses as a record of that cluster; whose it is comes from the file
// system, never from its text. Only its writer or root can remove it (the sticky bit): a record put
// back by another operator stays until its writer's or root's next start finds it back and drops it,
// and until then counts for nothing (nothing differs).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllocationRecord, type AllocationRecord } from '../domain/allocation-limits';
import { clusterFileKey, clusterLockDir } from './cluster-lock';
import { readCapped } from '../boundary/files';
import { ownerName } from '../boundary/users';

const MAX_RECORD_BYTES = 64 * 1024;
const uid = (): number => process.getuid?.() ?? 0;
const NAME = /^([0-9a-f]{16})\.allocation\.(\d+)\.json$/;

export function allocationRecordFile(clusterUuid: string, owner = uid()): string {
  return path.join(clusterLockDir(), `${clusterFileKey(clusterUuid)}.allocation.${owner}.json`);
}

/** A record as found on the host: whose it is (from the file system) and whether this user wrote it. */
export interface FoundAllocationRecord {
  record: AllocationRecord;
  owner: number;
  /** "alice (uid 1001)", from the file's owner. */
  ownerName: string;
  mine: boolean;
}

/** Whether any operator of the host has a record at all (no request is worth making otherwise). Never throws. */
export function hasAllocationRecords(): boolean {
  try {
    return fs.readdirSync(clusterLockDir()).some((n) => NAME.test(n));
  } catch {
    return false;
  }
}

/** One file, checked: null when it is not a trusted record of this cluster by the uid in its name. */
function readOne(file: string, owner: number, clusterUuid: string): AllocationRecord | null {
  try {
    const r = readCapped(file, MAX_RECORD_BYTES, { noFollow: true });
    // The mode after the read (readCapped checks the owner from the same descriptor): lstat, never followed.
    const mode = fs.lstatSync(file).mode & 0o777;
    if (r.owner !== owner || r.truncated || mode & 0o022) return null;
    const rec = parseAllocationRecord(r.text);
    return rec?.clusterUuid === clusterUuid ? rec : null;
  } catch {
    return null;
  }
}

/** Every operator's trusted record of this cluster, the oldest first. */
export function readAllocationRecords(clusterUuid: string): FoundAllocationRecord[] {
  let names: string[];
  try {
    names = fs.readdirSync(clusterLockDir());
  } catch {
    return [];
  }
  const key = clusterFileKey(clusterUuid);
  const out: FoundAllocationRecord[] = [];
  for (const n of names) {
    const m = NAME.exec(n);
    if (!m || m[1] !== key) continue;
    const owner = Number(m[2]);
    const record = readOne(path.join(clusterLockDir(), n), owner, clusterUuid);
    if (record) out.push({ record, owner, ownerName: ownerName(owner), mine: owner === uid() });
  }
  return out.sort((a, b) => (a.record.at < b.record.at ? -1 : a.record.at > b.record.at ? 1 : 0));
}

/** This user's own record of the cluster, or null. */
export function readAllocationRecord(clusterUuid: string): AllocationRecord | null {
  return readOne(allocationRecordFile(clusterUuid), uid(), clusterUuid);
}

/**
 * Written before the change it records; throws when it cannot be (the change is then not sent):
 * a temp file made with O_EXCL and O_NOFOLLOW, then renamed over this user's file (a file another
 * user planted under that name cannot be replaced in the sticky folder: refused).
 */
export function writeAllocationRecord(r: AllocationRecord): void {
  const file = allocationRecordFile(r.clusterUuid);
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
  try {
    fs.fchmodSync(fd, 0o644); // the umask may have narrowed it: other operators must read it
    fs.writeSync(fd, JSON.stringify(r, null, 2) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Removes a record (this user's by default); false when this user may not (another operator's, not root). */
export function removeAllocationRecord(clusterUuid: string, owner = uid()): boolean {
  try {
    fs.rmSync(allocationRecordFile(clusterUuid, owner), { force: true });
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'EACCES') return false;
    throw e;
  }
}
