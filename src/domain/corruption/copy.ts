// A copy of a red index's shard folders before anything deletes it (issue 48), taken with the
// checklist's own backup and verify steps (plan.ts: a new 0600 tar in a 0700 folder, its listing
// compared with the folder's): what is copied, where, whether it fits, what cannot be copied from
// this host, and the record kept beside each archive until the operator removes it.
import { displayText } from '../text/display-text';
import { formatBytes, minuteUtc } from '../text/format';
import type { CheckIndexResult } from './tool-output';

/** One shard folder of this host and what copying it takes. */
export interface CopyFolder {
  shard: number;
  folder: string;
  bytes: number;
  files: number;
  dirs: number;
  /** The archive it is copied to. */
  archive: string;
  /** A verified copy of this folder taken earlier (its archive): checked again, not taken twice. */
  reuse?: string;
}

export interface IndexCopyPlan {
  index: string;
  uuid: string;
  backupDir: string;
  /** The node of this host holding the folders (they are copied as root, checked as its user). */
  node: string | null;
  here: CopyFolder[];
  /** Shards whose folders are on another host (or no node reports one): not copied. */
  elsewhere: { shard: number; node: string; host?: string }[];
  /** Folders that should be here but cannot be read (or do not exist): the copy is refused. */
  unreadable: { folder: string; error: string }[];
  /** Free bytes where the archives go; null when unknown. */
  freeBytes: number | null;
  /** The time in the new archives' names. */
  stamp: string;
  /** The engine of this host as the checklist's backup step needs it (null: no node of the cluster runs here). */
  engine: { node: { name: string; id: string }; pid?: number; home: string; java: string | null; esUser: string } | null;
}

/** What GNU tar writes for `bytes` in `files` files and `dirs` folders: 512-byte blocks, a header each, the end and the record padding. */
export function tarBytes(bytes: number, files: number, dirs: number): number {
  const blocks = Math.ceil(bytes / 512) + files + dirs + 2;
  return Math.ceil((blocks * 512) / 10240) * 10240 + files * 512;
}

/** The bytes the archives not taken yet need. */
export function copyNeedBytes(plan: Pick<IndexCopyPlan, 'here'>): number {
  return plan.here.filter((f) => !f.reuse).reduce((n, f) => n + tarBytes(f.bytes, f.files, f.dirs), 0);
}

/**
 * Why the copy cannot be taken (one sentence, nothing sent), or null. `extraBytes`: room needed
 * beside the archives while they are read (CheckIndex reads an unpacked copy).
 */
export function copyRefusal(plan: IndexCopyPlan, extraBytes = 0): string | null {
  const name = displayText(plan.index);
  if (plan.unreadable.length)
    return `${plan.unreadable.map((u) => `${displayText(u.folder)}: ${displayText(u.error)}`).join('; ')}: the shard folders of ${name} cannot be copied, so nothing was sent`;
  const need = copyNeedBytes(plan) + extraBytes;
  if (plan.freeBytes !== null && need > plan.freeBytes)
    return `the copy of ${name} needs ${formatBytes(need)} (${need} bytes${extraBytes ? `, ${formatBytes(extraBytes)} of them to read it with CheckIndex` : ''}) and ${displayText(plan.backupDir)} has ${formatBytes(plan.freeBytes)} (${plan.freeBytes} bytes) free: free space or choose another backup folder (--backup-dir); nothing was sent`;
  return null;
}

/** Whether some folder of the index cannot be copied from this host: then the operator's typed confirmation accepts it. */
export function copyMissing(plan: Pick<IndexCopyPlan, 'elsewhere' | 'here'>): boolean {
  return plan.elsewhere.length > 0 || plan.here.length === 0;
}

/** What the operator types to accept deleting without a copy of every folder: the names, then this. */
export const WITHOUT_COPY = ':without-copy';

/** What the preview says of the copy, a line each. */
export function copyLines(plan: IndexCopyPlan): string[] {
  const t = displayText;
  const lines: string[] = [];
  for (const f of plan.here)
    lines.push(
      f.reuse
        ? `copy of ${t(plan.index)} shard ${f.shard}: the copy taken before (${t(f.reuse)}) is checked against the folder again and kept`
        : `copy of ${t(plan.index)} shard ${f.shard}: ${t(f.folder)} (${formatBytes(f.bytes)}, ${f.files} files) -> ${t(f.archive)} (0600 in a 0700 folder, checked after copying)`,
    );
  if (plan.here.some((f) => !f.reuse))
    lines.push(
      `  needs ${formatBytes(copyNeedBytes(plan))}; ${plan.freeBytes === null ? 'free space unknown' : `${formatBytes(plan.freeBytes)} free`} in ${t(plan.backupDir)}; kept until you remove it`,
    );
  for (const e of plan.elsewhere)
    lines.push(
      `NOT copied: ${t(plan.index)} shard ${e.shard} is on node ${t(e.node)}${e.host ? ` (host ${t(e.host)})` : ''}, not on this host: its folder is deleted with the index`,
    );
  if (plan.here.length === 0 && plan.elsewhere.length === 0) lines.push(`NOT copied: no folder of ${t(plan.index)} is on this host`);
  return lines;
}

/** The record kept beside each archive (`<archive>.json`), until the operator removes both. */
export interface CopyRecord {
  version: 1;
  index: string;
  uuid: string;
  shard: number;
  /** The shard folder copied. */
  folder: string;
  node: string;
  archive: string;
  takenAt: string;
  /** Why it was taken ("before deleting the red index for a restore in place"). */
  why: string;
  /** The bytes of the folder's files. */
  bytes: number;
  /** The node's java and home (lib/) when it was taken: what CheckIndex reads the copy with. */
  tools?: { java: string | null; home: string };
  /** Lucene CheckIndex's read of the copy (no -exorcise), when it was counted. */
  check?: CheckIndexResult;
  checkedAt?: string;
}

/** A record's JSON, or null when the text is not one (a record of another version, a torn file). */
export function parseCopyRecord(text: string): CopyRecord | null {
  try {
    const r = JSON.parse(text) as CopyRecord;
    if (r?.version !== 1 || typeof r.index !== 'string' || typeof r.archive !== 'string' || typeof r.shard !== 'number') return null;
    return r;
  } catch {
    return null;
  }
}

/** The newest copy of this very folder (the same index uuid and shard, the same path). */
export function copyOf(records: readonly CopyRecord[], uuid: string, shard: number, folder: string): CopyRecord | undefined {
  return records
    .filter((r) => r.uuid === uuid && r.shard === shard && r.folder === folder)
    .sort((a, b) => Date.parse(b.takenAt) - Date.parse(a.takenAt))[0];
}

/** One line naming a copy kept (status, the console): where, what, when, how to drop it. */
export function copyKeptLine(r: CopyRecord): string {
  const t = displayText;
  return `copy kept: ${t(r.archive)} (${t(r.index)} shard ${r.shard}, ${formatBytes(r.bytes)}, ${minuteUtc(r.takenAt)}${r.check ? `; CheckIndex: ${r.check.lostDocs} of ${r.check.totalDocs} documents in broken segments` : ''}): remove it and its .json when no longer needed`;
}
