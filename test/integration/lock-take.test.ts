// Issue 40 item 3: a cluster lock held by another local user's live process says who holds it and
// how to reach them, and root can take it over only explicitly: the holder's user name typed (also
// with --yes), audited before and after, refused in read-only mode. Real node, the built CLI, the
// holder a live process of another uid (nobody) with its lock file in the shared folder.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { allocationEnablePlan } from '../../src/domain/maintenance/allocation-limits';
import { Guard } from '../../src/services/guard';
import { fileTempDir } from '../helpers/file-temp';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const NOBODY = 65534;
let node: SharedNode;
let dir: string;
let env: Record<string, string>;
let holder: ChildProcess;
let lockFile: string;

const cli = (args: string[]) => runCli([...args, '--url', node.url], { env });

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  dir = fileTempDir('shardeck-lock-take-');
  env = { SHARDECK_CONFIG_DIR: path.join(dir, 'config'), SHARDECK_LOCK_DIR: path.join(dir, 'locks'), NO_COLOR: '1' };
  fs.mkdirSync(env.SHARDECK_LOCK_DIR, { mode: 0o700 });
  fs.chmodSync(env.SHARDECK_LOCK_DIR, 0o1777);
  // Another user's shardeck, alive and holding the cluster's change lock.
  holder = spawn('runuser', ['-u', 'nobody', '--', 'sleep', '600'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const sleeper = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .find((d) => {
      try {
        return fs.statSync(`/proc/${d}`).uid === NOBODY && fs.readFileSync(`/proc/${d}/cmdline`, 'latin1').startsWith('sleep\x00600');
      } catch {
        return false;
      }
    });
  expect(sleeper).toBeDefined();
  const uuid = (await esCall(node.url, 'GET', '/_cluster/state/metadata?filter_path=metadata.cluster_uuid')).body.metadata.cluster_uuid;
  lockFile = path.join(env.SHARDECK_LOCK_DIR, `cluster-${crypto.createHash('sha256').update(uuid).digest('hex').slice(0, 16)}.lock`);
  fs.writeFileSync(lockFile, `${sleeper} 0123456789abcdef\nnobody: replicas of service_v9_x\n`, { mode: 0o644 });
  fs.chownSync(lockFile, NOBODY, NOBODY);
});

afterAll(() => {
  holder?.kill('SIGKILL');
});

it('a change meanwhile is refused naming the holder, how to reach them and how root takes over', async () => {
  const client = createClient({ url: node.url });
  const saved = { lock: process.env.SHARDECK_LOCK_DIR, config: process.env.SHARDECK_CONFIG_DIR };
  process.env.SHARDECK_LOCK_DIR = env.SHARDECK_LOCK_DIR;
  process.env.SHARDECK_CONFIG_DIR = env.SHARDECK_CONFIG_DIR;
  try {
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'test', lockWaitMs: 200 });
    const err = await guard.execute(allocationEnablePlan('primaries', 'test'), { by: 'yes-flag' }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /another change to this cluster is under way: nobody: replicas of service_v9_x \(pid \d+, lock owned by nobody \(uid 65534\)\).*reach its holder: ps -o user,tty,etime,args -p \d+.*root takes it over: shardeck lock take --holder nobody/,
    );
  } finally {
    process.env.SHARDECK_LOCK_DIR = saved.lock;
    process.env.SHARDECK_CONFIG_DIR = saved.config;
    await client.close();
  }
});

it('lock names the holder from the file system, with its claim as its own word', async () => {
  const r = await cli(['lock']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(
    /change lock: held by nobody \(uid 65534\), pid \d+ running \(its own word: "nobody: replicas of service_v9_x"\)/,
  );
  expect(r.stdout).toMatch(/restart lock: free/);
});

it('take: refused in read-only mode, and without the holder typed; with it, removed and audited', async () => {
  const ro = await cli(['lock', 'take', '--holder', 'nobody', '--yes', '--read-only']);
  expect(ro.code).toBe(4);
  const wrong = await cli(['lock', 'take', '--holder', 'root', '--yes']);
  expect(wrong.code).toBe(64);
  expect(wrong.stderr).toMatch(/type nobody \(the lock's owner\) to take over their change lock; nothing was changed/);
  expect(fs.existsSync(lockFile)).toBe(true);

  const took = await cli(['lock', 'take', '--holder', 'nobody', '--yes']);
  expect(took.code, took.stdout + took.stderr).toBe(0);
  expect(took.stdout).toMatch(/its process still runs: a change of yours may then run beside theirs/);
  expect(took.stdout).toMatch(/ok: the change lock of nobody \(uid 65534\) was removed \(audited\)/);
  expect(fs.existsSync(lockFile)).toBe(false);
  const audit = (await runCli(['audit', '--last', '5'], { env })).stdout;
  expect(audit).toMatch(/\$ rm -- \S+\/locks\/cluster-[0-9a-f]{16}\.lock -> ok/);

  // The next change goes through.
  expect((await cli(['allocation', 'enable', 'primaries', '--yes'])).code).toBe(0);
  expect((await cli(['allocation', 'restore', '--yes'])).code).toBe(0);
});
