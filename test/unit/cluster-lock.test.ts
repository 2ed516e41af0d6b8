// The per-cluster change lock is held by a call chain: a change made inside another (the recovery
// checklist's last step refreshes the index through the guard) must not wait for itself, while two
// separate chains of one process still take turns.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterBusyError, withClusterLock } from '../../src/config/cluster-lock';

const URL = 'http://127.0.0.1:9200';
let dir: string;
let before: string | undefined;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-lock-'));
  before = process.env.SHARDECK_LOCK_DIR;
  process.env.SHARDECK_LOCK_DIR = dir;
});
afterAll(() => {
  if (before === undefined) delete process.env.SHARDECK_LOCK_DIR;
  else process.env.SHARDECK_LOCK_DIR = before;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('cluster lock', () => {
  it('a change inside a change of the same call chain goes on under the lock it holds', async () => {
    const inner = await withClusterLock(URL, 'outer', () => withClusterLock(URL, 'inner', async () => 'ran', { waitMs: 300 }), { waitMs: 300 });
    expect(inner).toBe('ran');
  });

  it('a second chain of the same process still waits for the holder, then is refused', async () => {
    let release!: () => void;
    const holding = withClusterLock(URL, 'first', () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    await expect(withClusterLock(URL, 'second', async () => 'ran', { waitMs: 300 })).rejects.toBeInstanceOf(ClusterBusyError);
    release();
    await holding;
  });
});
