// The per-cluster change lock: held by a call chain (a change made inside another goes on under it,
// two separate chains of one process take turns), keyed by the cluster's UUID, and never fooled or
// hung by what another user left in the shared folder: a lock naming a process that is not its
// owner's, a FIFO, a folder owned by someone else. Other users are uids the test chowns files to
// and runs a process as (it runs as root, like the integration suites).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClusterBusyError, clusterLockFile, restartLockFile, withClusterLock, withRestartLock } from '../../src/config/cluster-lock';

const UUID = 'Xq3kTn0PQ9a2mR6oVw1bYg';
/** Another user: no passwd entry is needed for a uid to own files and run a process. */
const OTHER_UID = 54_321;
let dir: string;
let before: string | undefined;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-lock-'));
  before = process.env.SHARDECK_LOCK_DIR;
  process.env.SHARDECK_LOCK_DIR = dir;
});
afterEach(() => {
  process.env.SHARDECK_LOCK_DIR = dir;
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
});
afterAll(() => {
  if (before === undefined) delete process.env.SHARDECK_LOCK_DIR;
  else process.env.SHARDECK_LOCK_DIR = before;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A lock file as another user would leave it: its text, owned by that uid, in the shared folder. */
function plant(text: string, uid = OTHER_UID): string {
  const file = clusterLockFile(UUID);
  fs.writeFileSync(file, text, { mode: 0o644 });
  fs.chownSync(file, uid, uid);
  return file;
}

describe('cluster lock', () => {
  it('a change inside a change of the same call chain goes on under the lock it holds', async () => {
    const inner = await withClusterLock(
      UUID,
      'outer',
      () => withClusterLock(UUID, 'inner', () => Promise.resolve('ran'), { waitMs: 300 }),
      { waitMs: 300 },
    );
    expect(inner).toBe('ran');
  });

  it('a second chain of the same process still waits for the holder, then is refused', async () => {
    let release!: () => void;
    let held!: () => void;
    const holds = new Promise<void>((r) => (held = r));
    const holding = withClusterLock(UUID, 'first', () => {
      held(); // the first chain has the lock now: no guessing with a sleep
      return new Promise<void>((r) => (release = r));
    });
    await holds;
    await expect(withClusterLock(UUID, 'second', () => Promise.resolve('ran'), { waitMs: 300 })).rejects.toBeInstanceOf(ClusterBusyError);
    release();
    await holding;
    expect(await withClusterLock(UUID, 'third', () => Promise.resolve('ran'), { waitMs: 300 })).toBe('ran');
  });

  it('is keyed by the cluster, not the URL: one file per UUID, none per address', () => {
    expect(clusterLockFile(UUID)).toBe(clusterLockFile(UUID));
    expect(clusterLockFile(UUID)).not.toBe(clusterLockFile('another-cluster-uuid'));
    expect(path.basename(clusterLockFile(UUID))).toMatch(/^cluster-[0-9a-f]{16}\.lock$/);
  });

  it('a lock another user planted naming a live process that is not theirs (pid 1) does not block: it is taken over', async () => {
    plant('1 0123456789abcdef\nroot: a change that never ends\n');
    expect(await withClusterLock(UUID, 'mine', () => Promise.resolve('ran'), { waitMs: 300 })).toBe('ran');
  });

  it('a live holder of another user is reported with the owner the file system gives, its text made inert, and a way out', async () => {
    const sleeper = spawn('sleep', ['60'], { uid: OTHER_UID, gid: OTHER_UID, stdio: 'ignore' });
    children.push(sleeper);
    await new Promise((r) => sleeper.once('spawn', r));
    const file = plant(`${sleeper.pid} 0123456789abcdef\nroot: \u001b]0;pwned\u0007official maintenance\n`);
    const err = await withClusterLock(UUID, 'mine', () => Promise.resolve('ran'), { waitMs: 200 }).catch((e) => e);
    expect(err).toBeInstanceOf(ClusterBusyError);
    expect((err as Error).message).toContain(`pid ${sleeper.pid}, lock owned by uid ${OTHER_UID}`);
    expect((err as Error).message).toContain(
      `its owner removes ${file}, or root takes it over: shardeck lock take --holder uid ${OTHER_UID}`,
    );
    expect((err as Error).message).toContain(`reach its holder: ps -o user,tty,etime,args -p ${sleeper.pid}`);
    // eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
    expect((err as Error).message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('a FIFO in place of the lock fails at once, naming it and its owner: nothing blocks', async () => {
    const file = clusterLockFile(UUID);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    fs.chownSync(file, OTHER_UID, OTHER_UID);
    const err = await withClusterLock(UUID, 'mine', () => Promise.resolve('ran'), { waitMs: 60_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(ClusterBusyError);
    expect((err as Error).message).toMatch(
      /is not a lock file \(a FIFO, owned by uid 54321\): nothing was sent; remove it \(as its owner or root\)/,
    );
  });

  it('a symbolic link or a huge file in place of the lock is not read as one', async () => {
    const file = clusterLockFile(UUID);
    fs.symlinkSync('/dev/zero', file);
    await expect(withClusterLock(UUID, 'mine', () => Promise.resolve('ran'), { waitMs: 300 })).rejects.toThrow(
      /is not a lock file \(a symbolic link/,
    );
    fs.rmSync(file);
    fs.writeFileSync(file, 'x'.repeat(100_000));
    await expect(withClusterLock(UUID, 'mine', () => Promise.resolve('ran'), { waitMs: 300 })).rejects.toThrow(
      /is not a lock file \(100000 bytes/,
    );
  });

  it('a lock folder owned by another user is not trusted, and says how to get out', async () => {
    const theirs = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-lock-theirs-'));
    try {
      fs.chmodSync(theirs, 0o1777);
      fs.chownSync(theirs, OTHER_UID, OTHER_UID);
      process.env.SHARDECK_LOCK_DIR = theirs;
      await expect(withClusterLock(UUID, 'mine', () => Promise.resolve('ran'), { waitMs: 300 })).rejects.toThrow(
        new RegExp(
          `${theirs} is owned by uid ${OTHER_UID}, who could remove or replace any lock in it: it is not trusted.*SHARDECK_LOCK_DIR`,
        ),
      );
      // Ours, but writable by all without the sticky bit: anyone could replace a lock.
      fs.chownSync(theirs, 0, 0);
      fs.chmodSync(theirs, 0o777);
      await expect(withClusterLock(UUID, 'mine', () => Promise.resolve('ran'), { waitMs: 300 })).rejects.toThrow(
        /has mode 0777 \(writable by others without the sticky bit\)/,
      );
    } finally {
      fs.rmSync(theirs, { recursive: true, force: true });
    }
  });

  it('the restart lock: a second restart is refused at once naming the first; changes still go through; released when the run throws; a dead holder is taken over', async () => {
    let release!: () => void;
    let held!: () => void;
    const holds = new Promise<void>((r) => (held = r));
    const first = withRestartLock(UUID, 'restart of node a', () => {
      held();
      return new Promise<void>((r) => (release = r));
    });
    await holds;
    const err = await withRestartLock(UUID, 'restart of node b', () => Promise.resolve('ran')).catch((e) => e);
    expect(err).toBeInstanceOf(ClusterBusyError);
    expect((err as Error).message).toMatch(/another rolling restart of this cluster is under way: .*: restart of node a \(pid \d+/);
    // Its own lock: another operator's change (an allocation restore) is not held up by a restart.
    expect(await withClusterLock(UUID, 'allocation restore', () => Promise.resolve('ran'), { waitMs: 300 })).toBe('ran');
    release();
    await first;
    expect(fs.existsSync(restartLockFile(UUID))).toBe(false);
    // A run that fails half-way lets the next one in.
    await expect(withRestartLock(UUID, 'x', () => Promise.reject(new Error('stop failed')))).rejects.toThrow('stop failed');
    expect(fs.existsSync(restartLockFile(UUID))).toBe(false);
    // A restart killed (SIGKILL) leaves its lock; the next one takes it over.
    const gone = spawnSync('true').pid;
    fs.writeFileSync(restartLockFile(UUID), `${gone} 0123456789abcdef\nroot: restart of node a\n`, { mode: 0o644 });
    expect(await withRestartLock(UUID, 'restart of node a', () => Promise.resolve('ran'))).toBe('ran');
  });
});
