// One change at a time per cluster, across every shardeck process on the host and every user: an
// advisory lock file per cluster in a folder all users share (sticky, like /tmp), holding the
// holder's pid, user and what it is doing, so a second operator is told who has it. The mechanism
// is the one of the token exchange and the recovery checklist (files.ts tryLock: O_EXCL, a dead
// holder's lock taken over by exactly one contender).
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterKey } from '../domain/timeline';
import { LockBusyError, lockInfo, withFileLock } from './files';

/** SHARDECK_LOCK_DIR overrides (tests); else <tmpdir>/shardeck-locks, mode 1777. */
export function clusterLockDir(): string {
  const dir = process.env.SHARDECK_LOCK_DIR ? path.resolve(process.env.SHARDECK_LOCK_DIR) : path.join(os.tmpdir(), 'shardeck-locks');
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    // mkdir's mode is masked by the umask: set the sticky, world-writable mode explicitly.
    fs.chmodSync(dir, 0o1777);
  }
  return dir;
}

export function clusterLockFile(url: string): string {
  return path.join(clusterLockDir(), `${clusterKey(url)}.lock`);
}

export interface ClusterLockHolder {
  pid: number | null;
  /** "user root: replicas of logs-*" as the holder wrote it. */
  info: string | null;
}

export function describeHolder(h: ClusterLockHolder): string {
  return `${h.info ?? 'another shardeck'}${h.pid ? ` (pid ${h.pid})` : ''}`;
}

export class ClusterBusyError extends Error {
  constructor(readonly holder: ClusterLockHolder, waitedMs: number) {
    super(`another change to this cluster is under way: ${describeHolder(holder)}; waited ${Math.round(waitedMs / 1000)}s, nothing was sent: try again when it has finished`);
    this.name = 'ClusterBusyError';
  }
}

/**
 * Runs fn holding the cluster's lock. While another process holds it, onWait is told who (once)
 * and this waits up to waitMs, then fails with ClusterBusyError (fn never runs without the lock).
 */
/** The cluster lock files the current async call chain holds (not the whole process: two changes of one process still take turns). */
const heldHere = new AsyncLocalStorage<ReadonlySet<string>>();

export async function withClusterLock<T>(
  url: string,
  what: string,
  fn: () => Promise<T>,
  /** onWait: told once who holds it while this waits, then null once this process has it. */
  opts: { waitMs?: number; onWait?: (holder: ClusterLockHolder | null) => void } = {},
): Promise<T> {
  const file = clusterLockFile(url);
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
    return await withFileLock(file, () => {
      if (waited) opts.onWait?.(null);
      return heldHere.run(new Set([...(mine ?? []), file]), fn);
    }, {
      waitMs,
      // A live holder keeps it as long as its change runs (a delete may take minutes): only a dead one is taken over.
      staleMs: Infinity,
      shared: true,
      info: `${user}: ${what}`,
      onWait: (pid, info) => {
        waited = true;
        opts.onWait?.({ pid, info });
      },
    });
  } catch (e) {
    if (e instanceof LockBusyError) {
      opts.onWait?.(null);
      throw new ClusterBusyError({ pid: e.pid, info: lockInfo(file) }, waitMs);
    }
    throw e;
  }
}
