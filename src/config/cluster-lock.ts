// One change at a time per cluster, across every shardeck process on the host and every user: an
// advisory lock file per cluster (keyed by the cluster's UUID, so `localhost` and `127.0.0.1`, or
// two profiles, are one cluster) in a folder all users share (sticky, like /tmp), holding the
// holder's pid, user and what it is doing, so a second operator is told who has it. The mechanism
// is the one of the token exchange and the recovery checklist (files.ts tryLock: O_EXCL, a dead
// holder's lock taken over by exactly one contender, every read non-blocking and size-capped).
// No lock library fits: proper-lockfile reclaims stale locks by rm-then-create (files.ts says why
// that is unsafe) and none is installed; the owner and folder checks here are shardeck's own.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ForeignLockError,
  holderAlive,
  LockBusyError,
  lockHolder,
  lockInfo,
  lockOwner,
  NotALockError,
  ownerName,
  UsageError,
  withFileLock,
} from './files';

/** Why a lock folder is not trusted, or null: a real folder (not a link) owned by root or this user, and nobody else may remove our files (0700-like, or sticky). */
export function lockDirProblem(st: fs.Stats, uid: number): string | null {
  if (!st.isDirectory() || st.isSymbolicLink()) return 'is not a folder';
  if (st.uid !== 0 && st.uid !== uid) return `is owned by ${ownerName(st.uid)}, who could remove or replace any lock in it`;
  const mode = st.mode & 0o7777;
  if ((mode & 0o022) !== 0 && (mode & 0o1000) === 0)
    return `has mode ${mode.toString(8).padStart(4, '0')} (writable by others without the sticky bit)`;
  return null;
}

/** SHARDECK_LOCK_DIR overrides (tests); else <tmpdir>/shardeck-locks, mode 1777. Checked every time: the owner and mode, never trusted as found. */
export function clusterLockDir(): string {
  const dir = process.env.SHARDECK_LOCK_DIR ? path.resolve(process.env.SHARDECK_LOCK_DIR) : path.join(os.tmpdir(), 'shardeck-locks');
  // Made here just now: shared with every user, sticky, as /tmp (mkdir's mode is masked by the umask).
  if (fs.mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) fs.chmodSync(dir, 0o1777);
  const problem = lockDirProblem(fs.lstatSync(dir), process.getuid?.() ?? 0);
  if (problem)
    throw new UsageError(
      `the change-lock folder ${dir} ${problem}: it is not trusted, nothing was sent; remove it (as its owner or root) or point SHARDECK_LOCK_DIR at a folder owned by you or root (mode 1777 to share with other users, or 0700)`,
    );
  return dir;
}

/** The lock file of one cluster, by its UUID (what a cluster is, whatever URL or profile reaches it). */
export function clusterLockFile(clusterUuid: string): string {
  return path.join(clusterLockDir(), `cluster-${clusterFileKey(clusterUuid)}.lock`);
}

/** What a cluster's files in the lock folder are named by: a hash of its UUID. */
export function clusterFileKey(clusterUuid: string): string {
  return crypto.createHash('sha256').update(clusterUuid).digest('hex').slice(0, 16);
}

export interface ClusterLockHolder {
  pid: number | null;
  /** "root: replicas of logs-*" as the holder wrote it (control characters removed). */
  info: string | null;
  /** The lock file's owner, from the file system: who really holds it, whatever the text says. */
  owner?: string;
}

export function describeHolder(h: ClusterLockHolder): string {
  return `${h.info ?? 'another shardeck'}${h.pid ? ` (pid ${h.pid}` : ''}${h.owner ? `${h.pid ? ', ' : ' ('}lock owned by ${h.owner})` : h.pid ? ')' : ''}`;
}

export class ClusterBusyError extends Error {
  constructor(
    readonly holder: ClusterLockHolder,
    waitedMs: number,
    lockFile?: string,
    message?: string,
  ) {
    super(
      message ??
        `another change to this cluster is under way: ${describeHolder(holder)}; waited ${Math.round(waitedMs / 1000)}s, nothing was sent: try again when it has finished` +
          (holder.pid ? `; to reach its holder: ps -o user,tty,etime,args -p ${holder.pid}` : '') +
          (lockFile
            ? `; if that process is not a shardeck making a change, its owner removes ${lockFile}, or root takes it over: shardeck lock take --holder ${holder.owner?.split(' (')[0] ?? 'USER'}`
            : ''),
    );
    this.name = 'ClusterBusyError';
  }
}

/** The cluster lock files the current async call chain holds (not the whole process: two changes of one process still take turns). */
const heldHere = new AsyncLocalStorage<ReadonlySet<string>>();

function holderOf(file: string, pid: number | null): ClusterLockHolder {
  const owner = lockOwner(file);
  return { pid, info: lockInfo(file), ...(owner !== null ? { owner: ownerName(owner) } : {}) };
}

/**
 * Runs fn holding the cluster's lock. While another process holds it, onWait is told who (once)
 * and this waits up to waitMs, then fails with ClusterBusyError (fn never runs without the lock).
 * Something that is not a lock in its place, or another user's dead lock this user may not
 * replace, fails at once with what it is, whose, and how to clear it (ClusterBusyError too).
 */
export async function withClusterLock<T>(
  clusterUuid: string,
  what: string,
  fn: () => Promise<T>,
  /** onWait: told once who holds it while this waits, then null once this process has it. */
  opts: { waitMs?: number; onWait?: (holder: ClusterLockHolder | null) => void } = {},
): Promise<T> {
  return withSharedLock(clusterLockFile(clusterUuid), what, fn, opts);
}

/** The lock a rolling restart holds from its first step to its end (restart-node). */
export function restartLockFile(clusterUuid: string): string {
  return path.join(clusterLockDir(), `restart-${clusterFileKey(clusterUuid)}.lock`);
}

/**
 * Runs a whole rolling restart holding the cluster's restart lock: a second restart of any node of
 * the cluster, by any operator of the host, is refused at once with who runs the first (two nodes
 * down together could take every copy of a shard). Its own lock, not the change lock: other
 * operators' changes (an allocation restore) still go through while a restart waits minutes for
 * green. Released on every way out of fn; a holder that died (crash, SIGKILL, a lost session) is
 * taken over by the next restart.
 */
export async function withRestartLock<T>(clusterUuid: string, what: string, fn: () => Promise<T>): Promise<T> {
  const file = restartLockFile(clusterUuid);
  try {
    return await withSharedLock(file, what, fn, { waitMs: 0 });
  } catch (e) {
    if (e instanceof ClusterBusyError && e.holder.pid !== null)
      throw new ClusterBusyError(
        e.holder,
        0,
        file,
        `another rolling restart of this cluster is under way: ${describeHolder(e.holder)}; nothing was changed: run it again when that one has finished (a restart whose process is gone is taken over); if that process is not a shardeck restart, its owner or root removes ${file}`,
      );
    throw e;
  }
}

async function withSharedLock<T>(
  file: string,
  what: string,
  fn: () => Promise<T>,
  opts: { waitMs?: number; onWait?: (holder: ClusterLockHolder | null) => void },
): Promise<T> {
  // Already held by this call chain: a change made inside another (the recovery checklist's last
  // step refreshes the index through the guard) goes on under it instead of waiting for itself.
  const mine = heldHere.getStore();
  if (mine?.has(file)) return fn();
  const waitMs = opts.waitMs ?? 120_000;
  let user = String(process.getuid?.() ?? '?');
  try {
    user = os.userInfo().username;
  } catch {
    // no passwd entry: the uid says it
  }
  let waited = false;
  try {
    return await withFileLock(
      file,
      () => {
        if (waited) opts.onWait?.(null);
        return heldHere.run(new Set([...(mine ?? []), file]), fn);
      },
      {
        waitMs,
        // A live holder keeps it as long as its change runs (a delete may take minutes): only a dead one is taken over.
        staleMs: Infinity,
        shared: true,
        info: `${user}: ${what}`,
        onWait: (pid) => {
          waited = true;
          opts.onWait?.(holderOf(file, pid));
        },
      },
    );
  } catch (e) {
    if (e instanceof LockBusyError) {
      opts.onWait?.(null);
      throw new ClusterBusyError(holderOf(file, e.pid), waitMs, file);
    }
    if (e instanceof NotALockError || e instanceof ForeignLockError) {
      if (waited) opts.onWait?.(null);
      throw new ClusterBusyError({ pid: null, info: null }, 0, file, e.message);
    }
    throw e;
  }
}

/** One of a cluster's locks as found now: who holds it (the file's owner), their claim, and whether their process runs. */
export interface LockState {
  kind: 'change' | 'restart';
  file: string;
  held: boolean;
  pid: number | null;
  /** The lock file's owner, from the file system ("alice (uid 1001)"). */
  owner: string | null;
  ownerUid: number | null;
  /** What the holder wrote it holds the lock for: its own word, control characters removed. */
  claim: string | null;
  /** Its process still runs, as that owner. */
  alive: boolean;
}

/** The change lock and the restart lock of a cluster, as they are now. */
export function clusterLocks(clusterUuid: string): LockState[] {
  return (
    [
      ['change', clusterLockFile(clusterUuid)],
      ['restart', restartLockFile(clusterUuid)],
    ] as const
  ).map(([kind, file]) => {
    const ownerUid = lockOwner(file);
    const pid = ownerUid === null ? null : lockHolder(file);
    return {
      kind,
      file,
      held: ownerUid !== null,
      pid,
      owner: ownerUid === null ? null : ownerName(ownerUid),
      ownerUid,
      claim: ownerUid === null ? null : lockInfo(file),
      alive: pid !== null && ownerUid !== null && holderAlive(pid, ownerUid),
    };
  });
}
