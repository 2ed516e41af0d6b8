// Every pane as the operator sees it, at 80x24 and at 120x40, on data recorded from a real node
// (test/fixtures/yellow and red) and on the full health report (test/fixtures/full). Colour is kept
// and written as visible markers (test/ui/markers.ts), one file per screen in __screens__/, so a
// change in what the operator sees is a readable diff in the commit.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parseHealthReport } from '../../src/domain/parse';
import type { PaneId } from '../../src/store/console';
import { PANE_SPECS } from '../../src/store/panes';
import { parsedAsPolled } from '../helpers/recorded';
import { failOnConsoleError, fixture, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';
import * as resourcesModule from '../../src/cluster/resources';
import { setSnapshot } from '../../src/store/console';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const PANES: PaneId[] = ['health', 'indices', 'shards', 'disk', 'nodes', 'templates'];
// 80x23: an 80x24 terminal less a tmux status line, the most common way the console is run.
const SIZES = [
  [80, 24],
  [80, 23],
  [120, 40],
] as const;

async function screen(scenario: string, pane: PaneId, columns: number, rows: number, prepare?: (r: Rendered) => void): Promise<string> {
  const store = makeStore();
  loadScenario(store, scenario);
  store.setState({ pane });
  r = await renderApp(store, { columns, rows });
  if (prepare) {
    prepare(r);
    await r.settled();
  }
  return withColourMarkers(r.frame());
}

describe.each(['yellow', 'red', 'full'])('%s scenario', (scenario) => {
  for (const pane of PANES)
    for (const [columns, rows] of SIZES)
      it(`${pane} pane at ${columns}x${rows}`, async () => {
        await expect(await screen(scenario, pane, columns, rows)).toMatchFileSnapshot(
          `__screens__/${scenario}-${pane}-${columns}x${rows}.txt`,
        );
      });
});

describe('Health pane with the verbose diagnoses fetched (d)', () => {
  for (const [columns, rows] of SIZES)
    it(`full report at ${columns}x${rows}`, async () => {
      const text = await screen('full', 'health', columns, rows, (app) => {
        const byIndicator = Object.fromEntries(
          parseHealthReport(fixture('full', 'healthReport-verbose') as never).indicators.map((i) => [i.name, i.diagnoses]),
        );
        app.store.setState({ diagnoses: { byIndicator, fetchedAt: Date.now(), inFlight: false } });
      });
      expect(text).toContain('do: Increase the number of nodes'); // the diagnosis' action is on screen
      await expect(text).toMatchFileSnapshot(`__screens__/full-health-diagnosed-${columns}x${rows}.txt`);
    });
});

// Recorded from a real 8.6.2 node (npx tsx dev/record-fixtures.ts --old): no _health_report, so
// the pane shows what is missing and shardeck's own diagnosis, with the allocation explain on d.
describe('Health pane before 8.7 (test/fixtures/red-8.6.2)', () => {
  const OLD = 'red-8.6.2';
  async function oldScreen(columns: number, rows: number, explained: boolean): Promise<string> {
    const { RESOURCES } = await import('../../src/cluster/resources');
    const { setSnapshot } = await import('../../src/store/console');
    const { missingText, parseEsVersion } = await import('../../src/domain/capabilities');
    const { explanationDiagnoses } = await import('../../src/domain/panes/health');
    const { explainAllocation } = await import('../../src/domain/wizards/allocation');
    const { EXPLAIN_KEY } = await import('../../src/services/poller');
    const store = makeStore();
    for (const name of Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]) {
      // No _health_report before 8.7; the Tasks pane's read was recorded on 8.19 only (not drawn here).
      if (name === 'healthReport' || name === 'tasks') continue;
      // Pending tasks were recorded on 8.19 only: none drawn (the section shows only while tasks wait).
      if (name === 'pendingTasks') continue;
      // The Nodes pane's maintenance reads were recorded on 8.19 only (not drawn here).
      if (name === 'desiredBalance' || name === 'nodeShutdown') continue;
      // The Shards pane's recovery read was recorded on 8.19 only (not drawn here).
      if (name === 'recoveries') continue;
      // Recorded before the Snapshots pane existed; the Health pane does not draw from its reads.
      if (PANE_SPECS.snapshots.reads.includes(name) && !PANE_SPECS.health.reads.includes(name)) continue;
      setSnapshot(store, name, { data: RESOURCES[name].parse(fixture(OLD, name) as never) as never, fetchedAt: NOW - 3000, failures: 0 });
    }
    const version = parseEsVersion((fixture(OLD, 'root') as { version: { number: string } }).version.number)!;
    setSnapshot(store, 'healthReport', { error: { kind: 'unsupported', message: missingText(version, 'healthReport') }, failures: 1 });
    store.setState({ pane: 'health' });
    if (explained)
      store.setState({
        diagnoses: {
          byIndicator: { [EXPLAIN_KEY]: explanationDiagnoses(explainAllocation(fixture(OLD, 'allocationExplain') as never)) },
          fetchedAt: NOW,
          inFlight: false,
        },
      });
    r = await renderApp(store, { columns, rows });
    return withColourMarkers(r.frame());
  }
  for (const [columns, rows] of SIZES)
    for (const explained of [false, true])
      it(`${explained ? 'with the allocation explain (d)' : 'first poll'} at ${columns}x${rows}`, async () => {
        const text = await oldScreen(columns, rows, explained);
        expect(text).toContain("shardeck's diagnosis (no health report)");
        expect(text).not.toMatch(/STALE|retrying every|unrecognized parameter/);
        expect(text).toContain('Elasticsearch 8.6.2');
        if (explained) expect(text).toContain('cause: ');
        await expect(text).toMatchFileSnapshot(`__screens__/${OLD}-health${explained ? '-explained' : ''}-${columns}x${rows}.txt`);
      });
});

// Recorded by dev/record-pending.ts from a real 8.19 node made busy on purpose (200 index creations
// at once: 206 tasks queued), in the yellow scenario's place of "none pending".
describe('Health pane with pending cluster tasks', () => {
  for (const [columns, rows] of SIZES)
    it(`the busy node's queue at ${columns}x${rows}`, async () => {
      const text = await screen('yellow', 'health', columns, rows, (app) => {
        const data = resourcesModule.RESOURCES.pendingTasks.parse(fixture('pending', 'pendingTasks'));
        setSnapshot(app.store, 'pendingTasks', { data, fetchedAt: NOW - 3000, failures: 0 });
        // The health answer of the same moment counts them too.
        const health = { ...app.store.getState().snapshots.health.data!, pendingTasks: data.length };
        setSnapshot(app.store, 'health', { data: health, fetchedAt: NOW - 3000, failures: 0 });
      });
      expect(text).toMatch(/pending cluster tasks 206, oldest 1\.8s in queue/);
      expect(text).toMatch(/… 204 more: shardeck pending/);
      await expect(text).toMatchFileSnapshot(`__screens__/health-pending-${columns}x${rows}.txt`);
    });
});

// Recorded by dev/record-hot-spots.ts from a real 3-node 8.19 cluster with a hot spot made on
// purpose (16 one-shard indices held on node-1 by an allocation filter, 3 left to the balancer):
// every read of the Nodes pane in the yellow scenario's place.
describe('Nodes pane with a hot spot', () => {
  for (const [columns, rows] of SIZES)
    it(`3 nodes, node-1 with 2x the average shards at ${columns}x${rows}`, async () => {
      // Before the first frame, so no selection moves.
      const store = makeStore();
      loadScenario(store, 'yellow');
      for (const name of ['allocation', 'nodes', 'nodeStats', 'nodeJvm', 'settings', 'health'] as const)
        setSnapshot(store, name, { data: parsedAsPolled('hot-spots', name) as never, fetchedAt: NOW - 3000, failures: 0 });
      store.setState({ pane: 'nodes' });
      r = await renderApp(store, { columns, rows });
      const text = withColourMarkers(r.frame());
      expect(text).toMatch(/hot spot: node-1 shards 16 \(2\.\dx the average 6\)/);
      await expect(text).toMatchFileSnapshot(`__screens__/nodes-hot-spot-${columns}x${rows}.txt`);
    });
});

// Recorded by dev/record-pressure.ts from a real 8.19 node made sick on purpose: a write pool of one
// thread and a queue of one flooded with bulk requests, a request breaker tripped by a lowered limit
// (test/fixtures/pressure: the pressure answer before, _nodes/stats after and its node list).
describe('Nodes pane pressure (P)', () => {
  for (const [columns, rows] of SIZES)
    it(`the sick node's pressure and history at ${columns}x${rows}`, async () => {
      const { RESOURCES } = resourcesModule;
      const { nodeSamples, addSamples } = await import('../../src/domain/nodes/node-history');
      // The sick node's reads in place of the yellow scenario's before the first frame (no selection moves).
      const store = makeStore();
      loadScenario(store, 'yellow');
      const before = RESOURCES.nodeStats.parse(fixture('pressure', 'before'));
      const after = RESOURCES.nodeStats.parse(fixture('pressure', 'nodeStats'), before);
      for (const [name, data] of [
        ['nodes', parsedAsPolled('pressure', 'nodes')],
        ['nodeStats', after],
      ] as const)
        setSnapshot(store, name, { data: data as never, fetchedAt: NOW - 3000, failures: 0 });
      store.setState({
        pane: 'nodes',
        nodeHistory: addSamples(
          addSamples(undefined, nodeSamples(before.pressure, after.stats, NOW - 8000)),
          nodeSamples(after.pressure, after.stats, NOW - 3000),
        ),
      });
      r = await renderApp(store, { columns, rows });
      await r.press('P');
      const text = withColourMarkers(r.frame());
      expect(text).toMatch(/a\/q\/rej write 0\/0\/\d+ \+\d+/);
      expect(text).toMatch(/request .* tripped \d+ \+\d+/);
      expect(text).toMatch(/heap +[▁-█ ]+ +\d+%/);
      await expect(text).toMatchFileSnapshot(`__screens__/nodes-pressure-${columns}x${rows}.txt`);
    });
});

// Recorded by dev/record-tasks.ts from a real 8.19 node running a delete-by-query in 2 slices and an
// unsliced one, both throttled to 1 document a second (test/fixtures/tasks: its _tasks and node list).
describe('Tasks pane', () => {
  const tasksScreen = (columns: number, rows: number, tasks?: unknown[]) =>
    screen('yellow', 'tasks', columns, rows, (app) => {
      const { RESOURCES } = resourcesModule;
      for (const name of ['tasks', 'nodes'] as const)
        setSnapshot(app.store, name, {
          data: (tasks && name === 'tasks' ? tasks : RESOURCES[name].parse(fixture('tasks', name) as never)) as never,
          fetchedAt: NOW - 3000,
          failures: 0,
        });
    });
  for (const [columns, rows] of SIZES)
    it(`running tasks at ${columns}x${rows}`, async () => {
      const text = await tasksScreen(columns, rows);
      expect(text).toContain('(+2)'); // the sliced delete's 2 slices, folded
      await expect(text).toMatchFileSnapshot(`__screens__/tasks-running-${columns}x${rows}.txt`);
    });
  it('the sliced delete-by-query highlighted at 80x23: its slices summed', async () => {
    await tasksScreen(80, 23);
    await r!.press(KEYS.down); // the node's own health-node task runs longest; the delete is next
    const text = withColourMarkers(r!.frame());
    expect(text).toMatch(/deleted \d+ \/ 200 \(\d+%\) · \d+ batches/);
    expect(text).toContain('2 child tasks: indices:data/write/delete/byquery');
    await expect(text).toMatchFileSnapshot('__screens__/tasks-sliced-80x23.txt');
  });
  it('no task at 80x23', async () => {
    const text = await tasksScreen(80, 23, []);
    expect(text).toContain('no task is running');
    await expect(text).toMatchFileSnapshot('__screens__/tasks-empty-80x23.txt');
  });
});

describe('sharing and the incident timeline', () => {
  const timeline = [
    {
      kind: 'health' as const,
      time: '2026-11-24T00:01:00.000Z',
      from: null,
      to: 'green' as const,
      unassigned: 0,
      unassignedPrimaries: 0,
      shards: [],
    },
    {
      kind: 'health' as const,
      time: '2026-11-24T00:02:00.000Z',
      from: 'green' as const,
      to: 'yellow' as const,
      unassigned: 2,
      unassignedPrimaries: 0,
      shards: ['logs[0] r UNASSIGNED INDEX_CREATED', 'logs[1] r UNASSIGNED INDEX_CREATED'],
    },
    { kind: 'note' as const, time: '2026-11-24T00:02:30.000Z', author: 'bob', text: 'replicas on a one-node cluster, setting 0' },
    {
      kind: 'change' as const,
      time: '2026-11-24T00:03:00.000Z',
      who: 'alice',
      summary: 'set number_of_replicas of logs to 0',
      target: 'logs',
      result: 'ok (200)',
      approvedBy: 'bob',
    },
    {
      kind: 'health' as const,
      time: '2026-11-24T00:03:05.000Z',
      from: 'yellow' as const,
      to: 'green' as const,
      unassigned: 0,
      unassignedPrimaries: 0,
      shards: [],
    },
  ];
  for (const [columns, rows] of SIZES)
    it(`Timeline pane of a leader sharing with two followers at ${columns}x${rows}`, async () => {
      const text = await screen('yellow', 'timeline', columns, rows, (app) =>
        app.store.setState({
          timeline,
          share: {
            role: 'leader',
            socket: '/run/user/1000/shardeck-1000/console-4242.sock',
            followers: [
              { id: 1, user: 'bob', via: 'uid' },
              { id: 2, user: 'carol', via: 'uid' },
            ],
            refused: [],
            requireApproval: true,
          },
        }),
      );
      expect(text).toContain('note by bob');
      await expect(text).toMatchFileSnapshot(`__screens__/share-leader-timeline-${columns}x${rows}.txt`);
    });

  it('a follower whose leader is gone keeps the last data, marked stale', async () => {
    const message = 'the leader is gone: the data shown is the last it sent (00:03:05 UTC), stale';
    const text = await screen('yellow', 'health', 80, 24, (app) => {
      const s = app.store.getState();
      app.store.setState({
        connection: { ...s.connection, readOnly: true },
        paused: true,
        snapshots: Object.fromEntries(
          Object.entries(s.snapshots).map(([k, v]) => [k, { ...v, error: { kind: 'leader-gone', message } }]),
        ) as never,
        share: { role: 'follower', leader: 'alice pid 4242', followers: [], refused: [], leaderGone: true, following: true, message },
      });
    });
    expect(text).toContain('LEADER GONE');
    await expect(text).toMatchFileSnapshot('__screens__/share-follower-leader-gone-80x24.txt');
  });

  it('a follower asked to approve a change sees the same preview and confirmation', async () => {
    const text = await screen('yellow', 'indices', 80, 24, (app) =>
      app.store.setState({
        share: {
          role: 'follower',
          leader: 'alice pid 4242',
          followers: [],
          refused: [],
          following: true,
          approval: {
            id: 'a1',
            summary: 'set number_of_replicas of logs to 0',
            target: 'logs',
            risk: 'reversible',
            method: 'PUT',
            path: '/logs/_settings',
            body: { index: { number_of_replicas: 0 } },
            curl: "curl -X PUT 'http://127.0.0.1:9200/logs/_settings' -H 'content-type: application/json' -d '{\"index\":{\"number_of_replicas\":0}}'",
            need: { kind: 'key' },
            proposedBy: 'alice',
          },
        },
      }),
    );
    expect(text).toContain('y approves');
    await expect(text).toMatchFileSnapshot('__screens__/share-follower-approval-80x24.txt');
  });
});

// A report `shardeck doctor --json` made on a real node with findings (test/fixtures/doctor/report-red.json).
describe('Doctor pane', () => {
  const report = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'doctor', 'report-red.json'), 'utf8'));
  for (const [columns, rows] of SIZES)
    it(`findings of a red node at ${columns}x${rows}, the second one selected`, async () => {
      const text = await screen('red', 'doctor', columns, rows, (app) => {
        app.store.setState({ doctor: { report, fetchedAt: NOW - 5000, inFlight: false } });
        app.ui.setState((s) => ({ tables: { ...s.tables, doctor: { ...s.tables.doctor, cursor: 1 } } }));
      });
      expect(text).toContain('remedy: remove or correct the allocation filter');
      await expect(text).toMatchFileSnapshot(`__screens__/red-doctor-${columns}x${rows}.txt`);
    });
});

// A node shutdown record an orchestrator left (the reference's example answer, on the recorded node):
// the Nodes pane names it under the node and counts it in its title.
describe('Nodes pane with a shutdown record', () => {
  it('at 80x24', async () => {
    const { parseShutdownRecords } = await import('../../src/domain/maintenance/shutdown');
    const example = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'shutdown', 'reference-example.json'), 'utf8'));
    const text = await screen('yellow', 'nodes', 80, 24, (app) => {
      const id = app.store.getState().snapshots.nodes.data![0].id;
      example.nodes[0].node_id = id;
      example.nodes[0].shutdown_startedmillis = NOW - 3 * 86_400_000;
      setSnapshot(app.store, 'nodeShutdown', { data: parseShutdownRecords(example), fetchedAt: NOW, failures: 0 });
    });
    expect(text).toContain('1 shutdown record');
    await expect(text).toMatchFileSnapshot('__screens__/yellow-nodes-shutdown-80x24.txt');
  });
});

// Recorded by dev/record-recovery.ts from a real 2-node cluster during a replica recovery slowed by
// a 1mb throttle (test/fixtures/recovery: the Shards pane's health, shards and recoveries reads).
describe('Shards pane during a replica recovery', () => {
  /** The yellow scenario's other reads, the recorded cluster's health, shards and recoveries, before the first frame. */
  async function recoveryScreen(columns: number, rows: number, prepare?: (r: Rendered) => void): Promise<string> {
    const store = makeStore();
    loadScenario(store, 'yellow');
    for (const name of ['health', 'shards', 'recoveries'] as const)
      setSnapshot(store, name, { data: parsedAsPolled('recovery', name) as never, fetchedAt: NOW - 1000, failures: 0 });
    store.setState({ pane: 'shards' });
    r = await renderApp(store, { columns, rows });
    if (prepare) {
      prepare(r);
      await r.settled();
    }
    return withColourMarkers(r.frame());
  }
  for (const [columns, rows] of SIZES)
    it(`the recovery section with its bar at ${columns}x${rows}`, async () => {
      const text = await recoveryScreen(columns, rows);
      expect(text).toContain('recoveries: 1 active');
      expect(text).toContain('service_v9_orders[0]r peer/index node-2 -> node-1');
      expect(text).toMatch(/8\.1% of 15\.5 ?MB/i);
      await expect(text).toMatchFileSnapshot(`__screens__/recovery-shards-${columns}x${rows}.txt`);
    });
  it('no section once the health says nothing initializes or relocates (the last recoveries read is not shown)', async () => {
    const text = await recoveryScreen(80, 24, (app) => {
      const h = app.store.getState().snapshots.health.data!;
      setSnapshot(app.store, 'health', { data: { ...h, initializingShards: 0 }, fetchedAt: NOW, failures: 0 });
    });
    expect(text).not.toContain('recoveries:');
  });
});
