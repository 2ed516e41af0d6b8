// Maintenance on a real 3-node 8.19 cluster through the built CLI (issue 27): draining a node
// (its exact name merged into cluster.routing.allocation.exclude._name, an exclude set beforehand
// kept; the value before recorded like every allocation change; the copies followed off the node;
// what blocks the move grouped by decider; undo removes exactly that name), and the recovery view
// during a replica recovery slowed by a 1mb throttle set (and put back) through shardeck, in the
// command and in the console's Shards pane (its recovery section, with the real poller).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until';
import { startCluster } from '../../dev/lib/es-node.mjs';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { Guard } from '../../src/services/guard';
import { Poller } from '../../src/services/poller';
import { createWizardServices } from '../../src/services/wizards';
import { createUiStore } from '../../src/ui/state';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { expectFits, plain, until, wizardsWith } from '../helpers/wizard-ui';
import { makeStore, renderApp } from '../ui/harness';

const EXCLUDE = 'cluster.routing.allocation.exclude._name';
const BLOCKED = 'service_v9_mt_everywhere';
const MOVES = 'service_v9_mt_moves';

let cluster: Awaited<ReturnType<typeof startCluster>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-maint-'));
const lockDir = path.join(dir, 'locks');
const env = { SHARDECK_CONFIG_DIR: path.join(dir, 'config'), SHARDECK_LOCK_DIR: lockDir };
/** This user's allocation records: <lockDir>/<cluster>.allocation.<uid>.json (config/allocation-record.ts). */
const records = (): string[] =>
  fs.existsSync(lockDir) ? fs.readdirSync(lockDir).filter((n) => n.endsWith(`.allocation.${process.getuid!()}.json`)) : [];
const cli = (args: string[]) => runCli([...args, '--url', cluster.url], { env });

async function excludeNow(): Promise<string | undefined> {
  const r = await esCall(cluster.url, 'GET', '/_cluster/settings?flat_settings=true');
  return r.body.persistent[EXCLUDE];
}
async function copiesOn(node: string): Promise<string[]> {
  const rows = (await esCall(cluster.url, 'GET', '/_cat/shards?format=json&h=index,shard,prirep,node')).body as Record<string, string>[];
  return rows.filter((r) => r.node === node || r.node?.startsWith(`${node} `)).map((r) => `${r.index}/${r.shard}${r.prirep}`);
}

beforeAll(async () => {
  ensureBuilt();
  cluster = await startCluster({ count: 3 });
  // One copy on every node (it cannot leave a drained node: same_shard everywhere else), and one that can move.
  for (const [index, settings] of [
    [BLOCKED, { number_of_shards: 1, number_of_replicas: 2 }],
    [MOVES, { number_of_shards: 3, number_of_replicas: 1 }],
  ] as const)
    expect((await esCall(cluster.url, 'PUT', `/${index}`, { settings })).status).toBe(200);
  const h = await esCall(cluster.url, 'GET', '/_cluster/health?wait_for_status=green&wait_for_no_relocating_shards=true&timeout=120s');
  expect(h.body.status).toBe('green');
  // An exclude someone set before: it must be kept.
  expect((await esCall(cluster.url, 'PUT', '/_cluster/settings', { persistent: { [EXCLUDE]: 'gone-node' } })).status).toBe(200);
});

afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('drain a node', () => {
  const victim = 'node-2';

  it('refuses a pattern and a name that is not a node; nothing is changed', async () => {
    const star = await cli(['drain', 'node-*', '--yes']);
    expect(star.code).toBe(64);
    expect(star.stderr).toMatch(/not a node's name: give one node's exact name/);
    const none = await cli(['drain', 'node-9', '--yes']);
    expect(none.code).toBe(64);
    expect(none.stderr).toMatch(/no node is named node-9 \(the nodes: node-1, node-2, node-3\)/);
    expect(await excludeNow()).toBe('gone-node');
  });

  it('refused before the preview when a copy on the node has nowhere to go (issue 47): nothing is changed', async () => {
    // The index has a copy on every node: the one on the victim can go nowhere.
    const r = await cli(['drain', victim, '--yes']);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(
      new RegExp(
        `1 shard copy on ${victim} has nowhere to go \\(every other node left holds a copy of the same shard\\): ${BLOCKED}\\[0\\]; lower their replicas first`,
      ),
    );
    expect(r.stdout).not.toMatch(/PUT \/_cluster\/settings/);
    expect(await excludeNow()).toBe('gone-node');
    expect(records()).toEqual([]);
  });

  it('previews the exact new value; the dry run sends nothing', async () => {
    // One copy, kept on the victim by an include filter: shardeck cannot know the filter wins until the move is tried.
    await esCall(cluster.url, 'PUT', `/${BLOCKED}/_settings`, {
      index: { number_of_replicas: 0, 'routing.allocation.include._name': victim },
    });
    await waitUntil(
      'the index only on the victim',
      () => copiesOn(victim),
      (c) => c.some((x) => x.startsWith(`${BLOCKED}/0`)),
      {
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    const dry = await cli(['drain', victim, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`"${EXCLUDE}":"gone-node,${victim}"`);
    expect(dry.stdout).toMatch(/dry run: nothing was sent/);
    expect(await excludeNow()).toBe('gone-node');
  });

  it('drains: the other exclude kept, recorded first, the movable copies leave, what blocks the last one is said', async () => {
    expect((await copiesOn(victim)).length).toBeGreaterThan(1);
    const r = await cli(['drain', victim, '--yes', '--json', '--wait-timeout', '30']);
    // The filtered copy cannot go anywhere: the follow ends without the node empty.
    expect(r.code).toBe(5);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ok: false, sent: true, change: { level: 'persistent', before: 'gone-node', after: `gone-node,${victim}` } });
    expect(j.progress.left).toBe(1);
    expect(j.blockers.map((b: { decider: string }) => b.decider)).toContain('filter');
    const filter = j.blockers.find((b: { decider: string }) => b.decider === 'filter');
    expect(filter.shards).toEqual([`${BLOCKED}[0]p`]);
    expect(filter.nodes.sort()).toEqual(['node-1', 'node-3']);
    expect(await excludeNow()).toBe(`gone-node,${victim}`);
    expect(await copiesOn(victim)).toEqual([`${BLOCKED}/0p`]);
    // Recorded before the change (the next shardeck offers to put it back).
    const [file] = records();
    expect(JSON.parse(fs.readFileSync(path.join(lockDir, file), 'utf8')).before.persistent).toEqual({ [EXCLUDE]: 'gone-node' });
    const st = await cli(['status', '--json']);
    expect(st.stderr).toMatch(/shardeck changed allocation at .*exclude\._name is gone-node,node-2 \(persistent; it was gone-node\)/);

    // Text: the blocker in plain words.
    const again = await cli(['drain', victim, '--wait-timeout', '3']);
    expect(again.code).toBe(5);
    expect(again.stdout).toMatch(/already drained/);
    expect(again.stdout).toMatch(
      /filter: an allocation filter keeps the shard off these nodes \(an exclude, include or require setting\); refused on node-[13], node-[13] for service_v9_mt_everywhere\[0\]p/,
    );

    // Lift the block: a re-run follows the node to empty.
    expect((await esCall(cluster.url, 'PUT', `/${BLOCKED}/_settings`, { 'index.routing.allocation.include._name': null })).status).toBe(
      200,
    );
    const done = await cli(['drain', victim, '--json', '--wait-timeout', '120']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ ok: true, sent: false, progress: { left: 0 } });
    expect(await copiesOn(victim)).toEqual([]);
  });

  it('undo removes exactly that name; the record is dropped; both changes are audited', async () => {
    const r = await cli(['drain', '--undo', victim, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`ok: ${EXCLUDE.replace(/\./g, '\\.')} is gone-node \\(persistent\\)`));
    expect(await excludeNow()).toBe('gone-node');
    expect(records()).toEqual([]);
    expect((await cli(['drain', '--undo', victim, '--yes'])).stdout).toMatch(/is not drained .*nothing to undo/);
    const audit = (await runCli(['audit', '--last', '5'], { env })).stdout;
    expect(audit).toContain(`{"persistent":{"${EXCLUDE}":"gone-node,${victim}"}} -> ok 200`);
    expect(audit).toContain(`{"persistent":{"${EXCLUDE}":"gone-node"}} -> ok 200`);
  });

  it('the console: D on the Nodes pane drains the selected node (the exact list previewed, followed to empty), D again undoes it', async () => {
    const saved = { cfg: process.env.SHARDECK_CONFIG_DIR, lock: process.env.SHARDECK_LOCK_DIR };
    process.env.SHARDECK_CONFIG_DIR = env.SHARDECK_CONFIG_DIR;
    process.env.SHARDECK_LOCK_DIR = lockDir;
    process.env.NO_COLOR = '1';
    const client = createClient({ url: cluster.url });
    try {
      const guard = new Guard({ client, conn: { url: cluster.url, readOnly: false }, profile: 'ui' });
      const services = createWizardServices(createEsApi(client, cluster.url), guard, { pollMs: 500 });
      const store = makeStore();
      store.setState({ pane: 'nodes' });
      const ui = createUiStore();
      const app = await renderApp(store, { columns: 80, rows: 24, wizards: wizardsWith(['drain'], services), ui });
      // The node under the cursor (the pane's rows come from the poller, not run here).
      ui.setState((s) => ({ selection: { ...s.selection, nodes: { node: 'node-3' } } }));
      await app.press('D');
      let f = await until(app, /y drain/, 60_000);
      expectFits(f);
      expect(f).toMatch(/drain node node-3/);
      // The curl line wraps inside the preview's box: joined again to find the exact new value.
      expect(plain(f).replace(/[│\s]/g, '')).toContain(`"${EXCLUDE}":"gone-node,node-3"`);
      await app.press('y');
      f = await until(app, /node node-3 holds no shards|FAILED/, 120_000);
      expect(f).toMatch(/ok: cluster\.routing\.allocation\.exclude\._name is gone-node,node-3/);
      expect(f).toMatch(/node node-3 holds no shards: it is drained/);
      expectFits(f);
      expect(await copiesOn('node-3')).toEqual([]);
      await app.press('x'); // a finished wizard closes on any key

      // The pane, shown again, set its (empty) selection: the node under the cursor once more.
      ui.setState((s) => ({ selection: { ...s.selection, nodes: { node: 'node-3' } } }));
      await app.press('D');
      f = await until(app, /y undo the drain/, 60_000);
      expect(f).toMatch(/undo the drain of node node-3/);
      await app.press('y');
      f = await until(app, /ok: |FAILED/, 60_000);
      expect(f).toMatch(/ok: cluster\.routing\.allocation\.exclude\._name is gone-node \(persistent\)/);
      expect(await excludeNow()).toBe('gone-node');
      expect(records()).toEqual([]);
      app.unmount();
    } finally {
      await client.close();
      for (const [k, v] of [
        ['SHARDECK_CONFIG_DIR', saved.cfg],
        ['SHARDECK_LOCK_DIR', saved.lock],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  }, 240_000);
});

describe('recovery', () => {
  const INDEX = 'service_v9_mt_recovering';

  it('throttle to 1mb (recorded), a replica added: recovery --json shows it with %, rate, source and target; --restore puts the throttle back', async () => {
    const set = await cli(['recovery', 'throttle', '--max-bytes-per-sec', '1mb', '--yes']);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/ok: indices\.recovery\.max_bytes_per_sec is 1mb/);
    expect(
      (await esCall(cluster.url, 'GET', '/_cluster/settings?flat_settings=true')).body.persistent['indices.recovery.max_bytes_per_sec'],
    ).toBe('1mb');

    // About 8 MB of incompressible text on one primary, flushed to segment files: a peer recovery copies them at 1mb/s.
    expect((await esCall(cluster.url, 'PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
    for (let batch = 0; batch < 8; batch++) {
      const lines = Array.from({ length: 1000 }, () =>
        [
          JSON.stringify({ index: {} }),
          JSON.stringify({ body: crypto.randomUUID().repeat(1) + Array.from({ length: 28 }, () => crypto.randomUUID()).join('') }),
        ].join('\n'),
      ).join('\n');
      const res = await fetch(`${cluster.url}/${INDEX}/_bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: lines + '\n',
      });
      expect(res.status).toBe(200);
    }
    expect((await esCall(cluster.url, 'POST', `/${INDEX}/_flush`)).status).toBe(200);
    expect((await esCall(cluster.url, 'PUT', `/${INDEX}/_settings`, { index: { number_of_replicas: 1 } })).status).toBe(200);

    // The console's Shards pane with the real poller: its recovery section (the _recovery read made
    // because the health says a shard initializes) shows the copy, where it goes and a bar, at 80x23.
    const client = createClient({ url: cluster.url });
    const store = makeStore();
    store.setState({ pane: 'shards', intervalMs: 1000 });
    const poller = new Poller(createEsApi(client, cluster.url), store);
    poller.start();
    try {
      const app = await renderApp(store, { columns: 80, rows: 23 });
      const f = await until(
        app,
        new RegExp(`recoveries: 1 active[\\s\\S]*${INDEX}\\[0\\]r peer/\\w+ node-\\d -> node-\\d\\s+\\[█*·*\\] \\d+\\.\\d% of`),
        30_000,
      );
      expectFits(f);
      expect(f.split('\n').length).toBeLessThanOrEqual(23);
      app.unmount();
    } finally {
      poller.stop();
      await client.close();
    }

    let seen: any;
    for (let i = 0; i < 60 && !seen; i++) {
      const r = await cli(['recovery', '--json']);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.throttle['indices.recovery.max_bytes_per_sec']).toEqual({ value: '1mb', level: 'persistent' });
      seen = j.recoveries.find(
        (x: any) => x.index === INDEX && x.type === 'PEER' && x.bytesRecovered > 0 && x.bytesRecovered < x.bytesTotal,
      );
    }
    expect(seen).toBeDefined();
    expect(seen.primary).toBe(false);
    expect(seen.sourceNode).toMatch(/^node-[123]$/);
    expect(seen.targetNode).toMatch(/^node-[123]$/);
    expect(seen.targetNode).not.toBe(seen.sourceNode);
    expect(seen.bytesPercent).toBeGreaterThan(0);
    expect(seen.bytesPercent).toBeLessThan(100);
    expect(seen.rate).toBeGreaterThan(0);
    expect(seen.etaMs).toBeGreaterThan(0);
    const text = await cli(['recovery']);
    expect(text.stdout).toMatch(/indices\.recovery\.max_bytes_per_sec = 1mb \(persistent\)/);

    const back = await cli(['recovery', 'throttle', '--restore', '--yes']);
    expect(back.code).toBe(0);
    expect(back.stdout).toMatch(/ok: indices\.recovery\.max_bytes_per_sec is unset/);
    expect(
      (await esCall(cluster.url, 'GET', '/_cluster/settings?flat_settings=true')).body.persistent['indices.recovery.max_bytes_per_sec'],
    ).toBeUndefined();
    expect((await cli(['recovery', 'throttle', '--restore', '--yes'])).stdout).toMatch(/nothing to put back/);
    const h = await esCall(cluster.url, 'GET', '/_cluster/health?wait_for_status=green&timeout=120s');
    expect(h.body.status).toBe('green');
  }, 300_000);
});
