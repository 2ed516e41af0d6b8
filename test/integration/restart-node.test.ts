// The rolling restart of this host's node, on a real 8.19 node run as a service by the harness
// (dev/es-service.mjs, as in engine-service.test.ts), through the built CLI:
// 1. a restart killed after allocation was turned off (its stop command hangs; shardeck is killed
//    with SIGKILL once it announced the stop; meanwhile a second restart is refused by the restart
//    lock): the next command says allocation was left off by shardeck, and `allocation restore`
//    puts it back;
// 2. the same restart run again goes on (allocation off again first, as it was put back), stops
//    and starts the engine (a new process), puts allocation back to what it was (unset), waits for
//    green and verifies; every step audited, timings printed.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { esCall } from '../helpers/real-node';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';

const NAME = 'restart-me';
let node: Awaited<ReturnType<typeof startNode>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-restart-'));
const env = { SHARDECK_CONFIG_DIR: path.join(dir, 'config'), SHARDECK_LOCK_DIR: path.join(dir, 'locks'), NO_COLOR: '1' };
const svc = (verb: string) => `${process.execPath} ${path.resolve('dev/es-service.mjs')} ${verb} ${node.baseDir}`;
const cli = (args: string[]) => runCli([...args, '--url', node.url], { env });

async function enableSetting(): Promise<string | undefined> {
  const r = await esCall(node.url, 'GET', '/_cluster/settings?flat_settings=true');
  return r.body.persistent['cluster.routing.allocation.enable'];
}

async function pid(): Promise<number> {
  const r = await esCall(node.url, 'GET', '/_nodes/process?filter_path=nodes.*.process.id');
  return (Object.values(r.body.nodes)[0] as { process: { id: number } }).process.id;
}

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: NAME });
  await esCall(node.url, 'PUT', '/restart_v1', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await esCall(node.url, 'PUT', '/restart_v1/_doc/1?refresh=true', { n: 1 });
  // A hidden dot index on the node, as storage nodes hold: its flush is part of the restart.
  await esCall(node.url, 'PUT', '/.restart-internal', { settings: { 'index.hidden': true, number_of_shards: 1, number_of_replicas: 0 } });
}, 300_000);

afterAll(async () => {
  try {
    await node?.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (node?.baseDir) fs.rmSync(node.baseDir, { recursive: true, force: true });
  }
});

it('killed after allocation went off: the next command says so and allocation restore puts it back', async () => {
  // Its own process group, so the hanging stop command goes with it when the test kills it.
  const child = spawn(
    process.execPath,
    [CLI, 'restart-node', '--url', node.url, '--yes', '--node-name', NAME, '--stop-cmd', 'exec tail -f /dev/null', '--start-cmd', 'true'],
    { env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((r) => child.on('close', r));
  // Killed once it says it is stopping the engine: allocation is off and the flush done by then.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (/\nstop: stop the engine/.test(stdout)) resolve();
    });
    child.on('close', () => reject(new Error(`restart-node ended before the stop: ${stdout} ${stderr}`)));
  });
  // Meanwhile a second restart (another operator, another terminal) is refused at once, naming the
  // first: the restart lock is held over the whole run, not per step.
  const second = await cli(['restart-node', '--yes', '--node-name', NAME, '--stop-cmd', 'true', '--start-cmd', 'true']);
  expect(second.code).toBe(5);
  expect(second.stdout).toMatch(
    new RegExp(
      `FAILED: another rolling restart of this cluster is under way: [^:]+: restart of node ${NAME} \\(pid ${child.pid}, lock owned by root`,
    ),
  );
  expect(second.stdout).not.toMatch(/\nstop: /);
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
  // Killed: its lock stays, and is taken over by the next restart (the second test).
  expect(fs.readdirSync(env.SHARDECK_LOCK_DIR).filter((f) => /^restart-.*\.lock$/.test(f))).toHaveLength(1);
  expect(stdout).toMatch(/allocation-off: allocation of replicas off/);
  expect(stdout).toMatch(/done: cluster.routing.allocation.enable is primaries/);
  expect(await enableSetting()).toBe('primaries');

  const next = await cli(['status', '--json']);
  expect(next.code).toBe(1);
  expect(next.stderr).toMatch(
    /shardeck changed allocation at .*for the restart of node restart-me.* cluster.routing.allocation.enable is primaries \(persistent; it was unset\); put it back with: shardeck allocation restore/,
  );
  const back = await cli(['allocation', 'restore', '--yes']);
  expect(back.code).toBe(0);
  expect(await enableSetting()).toBeUndefined();
}, 120_000);

it('run again: goes on (allocation off again), restarts the engine, puts allocation back, green, verified', async () => {
  const before = await pid();
  const r = await cli([
    'restart-node',
    '--yes',
    '--node-name',
    NAME,
    '--stop-cmd',
    svc('stop'),
    '--start-cmd',
    svc('start'),
    '--green-timeout',
    '120',
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/an unfinished restart of restart-me .* goes on at: allocation-off/);
  for (const step of ['allocation-off', 'flush', 'stop', 'start', 'allocation-back', 'green', 'verify'])
    expect(r.stdout).toMatch(new RegExp(`\\n${step}: `));
  expect(r.stdout).toMatch(
    /ok: restarted restart-me: allocation-off \d+\.\d s, flush \d+\.\d s, stop \d+\.\d s, start \d+\.\d s, allocation-back \d+\.\d s, green \d+\.\d s, verify \d+\.\d s/,
  );

  console.log(r.stdout.split('\n').find((l) => l.startsWith('ok: restarted')));
  // The killed run's restart lock was taken over, and this run released it.
  expect(fs.readdirSync(env.SHARDECK_LOCK_DIR).filter((f) => /^restart-/.test(f))).toEqual([]);
  expect(await pid()).not.toBe(before);
  expect(await enableSetting()).toBeUndefined();
  const st = await cli(['status', '--json']);
  expect(st.code).toBe(0);
  expect(st.stderr).toBe('');
  expect(JSON.parse(st.stdout).status).toBe('green');
  const audit = (await runCli(['audit', '--last', '20'], { env })).stdout;
  expect(audit).toMatch(/es-service\.mjs stop/);
  expect(audit).toMatch(/es-service\.mjs start/);
  // The node's hidden dot index is flushed with the rest (named exactly, never a pattern).
  expect(audit).toMatch(/POST \/\.restart-internal,restart_v1\/_flush/);
  // A finished restart is not resumed: the next run starts with the checks.
  const dry = await cli(['restart-node', '--dry-run', '--stop-cmd', svc('stop'), '--start-cmd', svc('start')]);
  expect(dry.stdout).toMatch(/restart of node restart-me \(this host\)/);
  expect(dry.stdout).toMatch(
    /warning: 2 shards have no copy on another node and will be unavailable \(red\) while restart-me is down: \.restart-internal\[0\], restart_v1\[0\]/,
  );
}, 300_000);

it('issue 47 item 1: on a host with no systemd and no commands of its own, the restart is refused before it starts, naming the flags', async () => {
  // This host, as CI's, runs no systemd (a container): systemctl could neither stop nor start the node.
  expect(fs.existsSync('/run/systemd/system')).toBe(false);
  const auditBefore = (await runCli(['audit', '--last', '50'], { env })).stdout;
  for (const args of [['--yes', '--node-name', NAME], ['--dry-run']]) {
    const r = await cli(['restart-node', ...args]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /this host has no service manager .*systemd is not running here.* --stop-cmd and --start-cmd.*nothing was changed/,
    );
  }
  expect(await enableSetting()).toBeUndefined();
  expect((await runCli(['audit', '--last', '50'], { env })).stdout).toBe(auditBefore);
}, 120_000);

it('a record another local user forged (allocation off, every node excluded, an old date) steers nothing: the restart puts back only its own change, previewed (issue 40 N2)', async () => {
  const uuid = (await esCall(node.url, 'GET', '/_cluster/state/metadata?filter_path=metadata.cluster_uuid')).body.metadata.cluster_uuid;
  const key = crypto.createHash('sha256').update(uuid).digest('hex').slice(0, 16);
  const NOBODY = 65534;
  const forged = path.join(env.SHARDECK_LOCK_DIR, `${key}.allocation.${NOBODY}.json`);
  fs.mkdirSync(env.SHARDECK_LOCK_DIR, { recursive: true });
  fs.chmodSync(env.SHARDECK_LOCK_DIR, 0o1777);
  fs.writeFileSync(
    forged,
    JSON.stringify({
      version: 1,
      clusterUuid: uuid,
      url: node.url,
      at: '2000-01-01T00:00:00.000Z',
      user: 'root',
      pid: 1,
      what: 'for the restart of node restart-me',
      before: {
        persistent: { 'cluster.routing.allocation.enable': 'none', 'cluster.routing.allocation.exclude._name': '*' },
        transient: {},
      },
    }),
    { mode: 0o644 },
  );
  fs.chownSync(forged, NOBODY, NOBODY);
  const r = await cli([
    'restart-node',
    '--yes',
    '--node-name',
    NAME,
    '--stop-cmd',
    svc('stop'),
    '--start-cmd',
    svc('start'),
    '--green-timeout',
    '120',
  ]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  // Named by its owner at the start, never offered or sent.
  expect(r.stderr).toMatch(/the record of nobody \(uid 65534\), another operator of this host: not acted on/);
  // Allocation back: this run's own value (unset), shown before it is sent.
  expect(r.stdout).toMatch(
    /allocation-back: [^\n]*\n(?:[^\n]*\n)*?\s+PUT \/_cluster\/settings\?flat_settings=true\n\s+\{"persistent":\{"cluster\.routing\.allocation\.enable":null\}\}/,
  );
  expect(r.stdout).not.toMatch(/exclude\._name":/);
  const flat = (await esCall(node.url, 'GET', '/_cluster/settings?flat_settings=true')).body.persistent;
  expect(flat['cluster.routing.allocation.enable']).toBeUndefined();
  expect(flat['cluster.routing.allocation.exclude._name']).toBeUndefined();
  expect(fs.existsSync(forged)).toBe(true);
  fs.rmSync(forged);
}, 300_000);
