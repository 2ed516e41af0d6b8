// The corruption checklist refuses to start on a host that does not run the node holding the
// corrupt copy. Two real 8.19.21 nodes in one cluster, laid out like two storage nodes:
//   - "local" runs here (this host), path.data = P;
//   - "remote" runs in its own PID and mount namespaces (unshare, test/helpers/ns-node.mjs), with
//     the SAME path.data P, which inside its namespace is a bind mount of a hidden folder. So, as on
//     a second machine with the same layout, the pid it reports is not its process here, and P here
//     is the local node's data.
// The corrupt primary is on "remote". A leftover folder of that shard is made under the local P
// (as a stale copy would be), so the folder check alone would pass: what refuses is that P here
// carries the local node's id, and that the reported pid is no Elasticsearch here. Before the fix
// shardeck, pointed at the local node, ran step 1 and stopped the healthy local node.
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { corruptShard, untilAllocationGaveUp } from '../../dev/corrupt.mjs';
import { ES_USER, freePort, startNode } from '../../dev/lib/es-node.mjs';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { Guard } from '../../src/services/guard';
import { recoverySession } from '../../src/services/wizards/recovery';
import { createWizardServices } from '../../src/services/wizards';
import { setSnapshot } from '../../src/store/console';
import { createUiStore } from '../../src/ui/state';
import { makeStore, renderApp, tick } from '../ui/harness';
import { expectFits, plain, until, wizardsWith } from '../helpers/wizard-ui';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';

const INDEX = 'service_v9_remote';
let local: Awaited<ReturnType<typeof startNode>> | undefined;
let remote:
  { child: ChildProcessByStdio<Writable, Readable, null>; lines: AsyncIterator<string>; url: string; baseDir: string } | undefined;
let cfg: string;
let work: string;
const cli = cliAgainst(
  () => local!.url,
  () => cfg,
);
const es = (method: string, p: string, body?: unknown) => esCall(local!.url, method, p, body);

async function nextLine(prefix: string): Promise<string> {
  for (;;) {
    const r = await remote!.lines.next();
    if (r.done) throw new Error('the namespaced node exited');
    if (r.value.startsWith(prefix)) return r.value;
  }
}

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-elsewhere-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-elsewhere-work-'));
  fs.chmodSync(work, 0o755);
  const dataDir = path.join(work, 'data'); // P: both nodes' path.data
  const hidden = path.join(work, 'remote-data'); // what P is inside the remote node's namespace
  fs.mkdirSync(dataDir);
  fs.mkdirSync(hidden);
  const [localT, remoteT] = [await freePort(), await freePort()];
  const clusterName = `shardeck-elsewhere-${localT}`;
  const seedHosts = [`127.0.0.1:${localT}`, `127.0.0.1:${remoteT}`];
  // startNode makes the shardeck-es user when it is missing, so nothing here needs it before.
  local = await startNode({
    name: 'local',
    clusterName,
    transportPort: localT,
    seedHosts,
    initialMasters: ['local'],
    dataDir,
    anyStatus: true,
  });
  const startOptions = {
    name: 'remote',
    clusterName,
    transportPort: remoteT,
    seedHosts,
    anyStatus: true,
    settings: { 'node.roles': 'data' },
  };
  const child = spawn(
    'unshare',
    [
      '--pid',
      '--fork',
      '--mount-proc',
      '--mount',
      '--kill-child',
      process.execPath,
      path.resolve('test/helpers/ns-node.mjs'),
      JSON.stringify({ hidden, dataDir, startOptions }),
    ],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  remote = { child, lines: readline.createInterface({ input: child.stdout })[Symbol.asyncIterator](), url: '', baseDir: '' };
  Object.assign(remote, JSON.parse((await nextLine('started ')).slice('started '.length)) as { url: string; baseDir: string });
  const ns = remote;
  // Every shard of the index on the remote node.
  await es('PUT', '/_index_template/remote-only', {
    index_patterns: [`${INDEX}*`],
    template: { settings: { 'index.routing.allocation.require._name': 'remote' } },
  });
  // The remote node's data as this host can reach it, to change a byte.
  await corruptShard({ url: ns.url, dataDir: hidden }, INDEX);
  // Red comes before Elasticsearch gives up allocating the corrupt copy (see recover-corrupt.test.tsx).
  await untilAllocationGaveUp(local.url, INDEX);
  // A leftover folder of the shard under the local node's P, as a stale copy would leave.
  const uuid = (await es('GET', `/_cat/indices/${INDEX}?h=uuid&format=json`)).body[0].uuid;
  const stale = path.join(dataDir, 'indices', uuid, '0', 'index');
  fs.mkdirSync(stale, { recursive: true });
  execFileSync('chown', ['-R', `${ES_USER}:`, path.join(dataDir, 'indices')]);
}, 420_000);

afterAll(async () => {
  // Each clean-up runs even when one before it fails.
  try {
    if (remote) {
      remote.child.stdin.end();
      await Promise.race([new Promise((r) => remote!.child.once('close', r)), new Promise((r) => setTimeout(r, 40_000))]);
    }
  } finally {
    try {
      if (remote && remote.child.exitCode === null) remote.child.kill('SIGKILL'); // --kill-child takes the namespace with it
    } finally {
      try {
        await local?.stop();
      } finally {
        for (const d of [cfg, work, local?.baseDir, remote?.baseDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
      }
    }
  }
}, 120_000);

it('refuses to start the checklist from a host whose Elasticsearch is not the node holding the corrupt copy', async () => {
  const localId = Object.keys((await es('GET', '/_nodes/_local?filter_path=nodes.*.name')).body.nodes)[0];
  // Detection (read-only) works from anywhere and says this host is not the one.
  const detect = await cli(['recover-corrupt', '--json']);
  expect(detect.code).toBe(2);
  const found = JSON.parse(detect.stdout).corrupt[0];
  expect(found).toMatchObject({
    index: INDEX,
    shard: 0,
    corrupt: true,
    node: { name: 'remote' },
    localNode: 'local',
    local: { ok: false },
  });
  // The folder exists here (the leftover), but P here carries the local node's id.
  expect(found.local.reason).toBe(
    `${path.join(work, 'data')} on this host belongs to node id ${localId}, not to node remote (id ${found.node.id}, pid ${found.nodeFacts.pid})`,
  );

  // --plan prints the plan and says where it may be run.
  const plan = await cli(['recover-corrupt', INDEX, '0', '--plan']);
  expect(plan.code).toBe(0);
  expect(plan.stdout).toMatch(/this host: NOT the node holding the copy/);
  expect(plan.stdout).toMatch(
    /not on this host: the corrupt copy of service_v9_remote shard 0 is on node remote on host 127\.0\.0\.1, not on this host's Elasticsearch \(node local\): .*run shardeck recover-corrupt on 127\.0\.0\.1, the host of node remote/,
  );
  expect(plan.stdout).toMatch(/Offline repair with Lucene CheckIndex/);

  // The run: refused before step 1; the stop command (which would stop the healthy local node) never runs.
  const marker = path.join(work, 'stop-ran');
  const stopCmd = `touch ${marker} && ${process.execPath} ${path.resolve('dev/es-service.mjs')} stop ${local!.baseDir}`;
  const run = await cli(['recover-corrupt', INDEX, '0', '--yes', '--accept-data-loss', INDEX, '--stop-cmd', stopCmd, '--json']);
  expect(run.code).toBe(5);
  expect(JSON.parse(run.stdout)).toMatchObject({
    ok: false,
    error: expect.stringMatching(/^the corrupt copy of service_v9_remote shard 0 is on node remote .*; nothing was run$/),
  });
  expect(run.stderr).toMatch(/run shardeck recover-corrupt on 127\.0\.0\.1, the host of node remote/);
  expect(fs.existsSync(marker)).toBe(false);
  expect(auditLinesIn(cfg)).toEqual([]);
  expect(fs.existsSync(path.join(cfg, 'recoveries', `${INDEX}-0.json`))).toBe(false);
  expect((await es('GET', '/_cluster/health')).status).toBe(200);

  // The console wizard shows the finding and the lossless options, and does not offer the checklist.
  const client = createClient({ url: local!.url });
  const api = createEsApi(client, local!.url);
  const guard = new Guard({ client, conn: { url: local!.url, readOnly: false }, profile: 'ui', auditFile: path.join(cfg, 'audit.log') });
  const session = recoverySession(api, guard, { index: INDEX, shard: 0 }, { serviceStop: stopCmd });
  let s = await session.idle();
  expect(s.phase).toBe('options');
  expect(s.finding?.elsewhere).toMatch(/is on node remote on host 127\.0\.0\.1/);
  session.send({ type: 'choose', method: 'checkindex' });
  s = await session.idle();
  expect(s.phase).toBe('options');
  expect(fs.existsSync(marker)).toBe(false);

  // On screen (C on the red primary, 80x24): why not here and where to go; c does nothing.
  process.env.NO_COLOR = '1';
  try {
    const store = makeStore();
    setSnapshot(store, 'shards', {
      data: [
        {
          index: INDEX,
          shard: 0,
          primary: true,
          state: 'UNASSIGNED',
          node: null,
          docs: null,
          storeBytes: null,
          unassignedReason: 'ALLOCATION_FAILED',
          unassignedDetails: null,
        },
      ],
      fetchedAt: Date.now(),
      failures: 0,
    });
    store.setState({ pane: 'shards' });
    const app = await renderApp(store, {
      columns: 80,
      rows: 24,
      wizards: wizardsWith(['recovery'], createWizardServices(api, guard, { serviceStop: stopCmd })),
      ui: createUiStore(),
    });
    await until(app, new RegExp(INDEX));
    await app.press('C');
    const f = await until(app, /offline repair not offered here/);
    expectFits(f);
    expect(f.replace(/\s+/g, ' ')).toMatch(/run shardeck recover-corrupt on 127\.0\.0\.1, the host of node remote/);
    expect(f).not.toMatch(/c offline repair with CheckIndex/);
    // c does nothing here: the screen (drawn again once press settles) is the same refusal, no
    // step of the offline repair, and the service command never ran.
    await app.press('c');
    await tick(500);
    const after = plain(app.frame());
    expect(after).toContain('offline repair not offered here');
    expect(after).not.toMatch(/step \d+\/\d+/);
    expect(fs.existsSync(marker)).toBe(false);
    app.unmount();
  } finally {
    delete process.env.NO_COLOR;
  }
}, 180_000);
