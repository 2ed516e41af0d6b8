// The poller against a real node: it asks only for what the visible pane needs, never has two
// requests in flight for one resource, stops asking while paused, and backs off from a dead node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, readRows } from '../../src/cluster/connection';
import { RESOURCES } from '../../src/cluster/resources';
import { catIndicesParser, parseCatIndices } from '../../src/domain/parse';
import { createEsApi } from '../../src/cluster/api';
import { Poller, PANE_RESOURCES } from '../../src/services/poller';
import { createConsoleStore, type ConsoleStore, type ResourceName } from '../../src/store/console';
import { waitUntil } from '../helpers/wait-until';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

/** Waits for a condition on the poller or its store (they change on their own; nothing to read). */
const until = (what: string, cond: () => boolean, timeoutMs = 10_000) => waitUntil(what, cond, Boolean, { timeoutMs, intervalMs: 20 });

/** Requests the poller has sent and not yet seen answered. */
const inFlight = (poller: Poller) => (poller as unknown as { inFlight: Set<ResourceName> }).inFlight.size;
/** Ticks scheduled: a tick that finds the console paused schedules no other. */
const timers = (poller: Poller) => (poller as unknown as { timers: Map<ResourceName, unknown> }).timers.size;

function fetched(store: ConsoleStore): ResourceName[] {
  const s = store.getState().snapshots;
  return (Object.keys(s) as ResourceName[]).filter((k) => s[k].fetchedAt !== undefined).sort();
}

describe('poller on a real node', () => {
  let node: SharedNode;
  beforeAll(async () => {
    node = await sharedNode();
  });
  afterAll(async () => {});

  const make = (url = node.url, intervalMs = 200) => {
    const store = createConsoleStore({ connection: { url, profile: 'test', insecure: false, readOnly: false }, intervalMs, pane: 'disk' });
    return { store, poller: new Poller(createEsApi(createClient({ url }), url), store) };
  };

  it('polls only what the visible pane needs, and starts the next pane at once', async () => {
    const { store, poller } = make();
    poller.start();
    try {
      await until('every disk resource fetched', () => fetched(store).length === PANE_RESOURCES.disk.length);
      // Another round of the disk pane's polls, and still nothing else was asked for.
      const round = poller.stats.requests;
      await until('another round of polls', () => poller.stats.requests >= round + PANE_RESOURCES.disk.length);
      expect(fetched(store)).toEqual([...PANE_RESOURCES.disk].sort());
      expect(store.getState().snapshots.indices.fetchedAt).toBeUndefined();
      store.setState({ pane: 'indices' });
      await until('the indices pane polled', () => store.getState().snapshots.indices.fetchedAt !== undefined, 2000);
    } finally {
      poller.stop();
    }
  });

  it('an unchanged answer moves only the time: no store notification, so an idle console draws nothing', async () => {
    const { store, poller } = make(node.url, 200);
    store.setState({ pane: 'health' });
    poller.start();
    try {
      await until('settings fetched', () => store.getState().snapshots.settings.fetchedAt !== undefined);
      const settings = store.getState().snapshots.settings;
      const first = settings.fetchedAt!;
      expect(settings.periodMs).toBe(200 * 6);
      let notified = 0;
      const off = store.subscribe((s, prev) => {
        if (s.snapshots.settings !== prev.snapshots.settings) notified++;
      });
      await until('settings fetched again', () => store.getState().snapshots.settings.fetchedAt! > first, 5000);
      off();
      // The same object, its time moved on, and nobody was told.
      expect(store.getState().snapshots.settings).toBe(settings);
      expect(notified).toBe(0);
    } finally {
      poller.stop();
    }
  });

  it('the big tables: read a slice at a time, the same rows as a plain JSON read; an unchanged table is the same rows; a write makes one new row', async () => {
    const put = (path: string, body: unknown) =>
      fetch(`${node.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (let i = 0; i < 30; i++)
      expect((await put(`/poller_rows_${i}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).ok).toBe(true);
    await fetch(`${node.url}/_cluster/health?wait_for_status=green&timeout=30s`);
    // Only refreshNow reads here: the timers it sets must not fire in the test (a timer's read in
    // flight when the refresh comes is not read twice, so the write below was missed once, loaded).
    const { store, poller } = make(node.url, 600_000);
    store.setState({ pane: 'indices' });
    await poller.refreshNow();
    const first = store.getState().snapshots.indices;
    const req = RESOURCES.indices.request;
    const plain = (await (await fetch(`${node.url}${req.path}?${new URLSearchParams(req.querystring).toString()}`)).json()) as Record<
      string,
      unknown
    >[];
    expect([...first.data!].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      parseCatIndices(plain).sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(first.data!.filter((r) => r.name.startsWith('poller_rows_'))).toHaveLength(30);
    let notified = 0;
    const off = store.subscribe((s, prev) => {
      if (s.snapshots.indices !== prev.snapshots.indices) notified++;
    });
    await poller.refreshNow();
    expect(store.getState().snapshots.indices).toBe(first);
    expect(notified).toBe(0);
    // One document in one index: that row is new, every other row is the one of the last poll.
    await fetch(`${node.url}/poller_rows_7/_doc/1?refresh=true`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"n":1}',
    });
    await poller.refreshNow();
    off();
    const next = store.getState().snapshots.indices.data!;
    expect(notified).toBe(1);
    const changed = next.filter((r) => !first.data!.includes(r));
    expect(changed.map((r) => r.name)).toEqual(['poller_rows_7']);
    expect(changed[0].docsCount).toBe(1);
  });

  it('a big table read that the node refuses is a clear error, as any other read', async () => {
    const es = { client: createClient({ url: node.url }), url: node.url };
    await expect(
      readRows(es, { method: 'GET', path: '/_cat/indices/no_such_index_here', querystring: { format: 'json' } }, catIndicesParser()),
    ).rejects.toMatchObject({ kind: 'not-found' });
    await es.client.close();
  });

  it('keeps one request in flight per resource', async () => {
    const { poller } = make();
    await Promise.all([poller.pollOnce('health'), poller.pollOnce('health'), poller.pollOnce('health')]);
    expect(poller.stats.requests).toBe(1);
    expect(poller.stats.overlaps).toBe(2);
  });

  it('sends nothing while paused', async () => {
    const { store, poller } = make();
    poller.start();
    try {
      await until('health fetched', () => store.getState().snapshots.health.fetchedAt !== undefined);
      store.setState({ paused: true });
      await until('the requests already in flight to land', () => inFlight(poller) === 0); // these may still count
      const before = poller.stats.requests;
      // Not a fixed sleep: every tick that was scheduled has fired and found the console paused, and
      // scheduled none after it. No timer and nothing in flight: nothing can be sent until resumed.
      await until('every scheduled tick fired and stopped', () => timers(poller) === 0 && inFlight(poller) === 0);
      expect(poller.stats.requests).toBe(before);
      store.setState({ paused: false });
      await until('a poll after resuming', () => poller.stats.requests > before, 2000);
    } finally {
      poller.stop();
    }
  });

  it('backs off from an unreachable node and marks the data stale with the reason', async () => {
    const { store, poller } = make('http://127.0.0.1:1', 100);
    store.setState({ pane: 'health' });
    poller.start();
    try {
      await until('four failed tries', () => store.getState().snapshots.health.failures >= 4, 20_000);
      const health = store.getState().snapshots.health;
      expect(health.error?.kind).toBe('unreachable');
      expect(health.error?.message).toMatch(/connection refused/);
      // The doubling waits between the tries are timed in test/unit/poller-backoff.test.ts (fake
      // timers), not here on the wall clock.
    } finally {
      poller.stop();
    }
  });

  it('fetches diagnoses on demand for the indicators that are not green', async () => {
    const { store, poller } = make();
    await fetch(`${node.url}/poller_blocked`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"settings":{"number_of_shards":1,"number_of_replicas":0}}',
    });
    await fetch(`${node.url}/poller_blocked/_settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ 'index.blocks.read_only_allow_delete': true }),
    });
    await poller.pollOnce('healthReport');
    const disk = store.getState().snapshots.healthReport.data!.indicators.find((i) => i.name === 'disk')!;
    expect(disk.status).not.toBe('green');
    expect(disk.diagnoses).toEqual([]); // the poll is verbose=false
    const before = poller.stats.requests;
    await poller.diagnose();
    const d = store.getState().diagnoses!;
    expect(poller.stats.requests - before).toBe(1); // only the indicator that is not green
    // Elasticsearch's own action for a blocked index, whole: another indicator's would not do.
    expect(d.byIndicator.disk[0].action).toBe(
      'Enable autoscaling (if applicable), add disk capacity or free up disk space to resolve this. If you have already taken action please wait for the rebalancing to complete.',
    );
    expect(d.byIndicator.disk[0].affectedIndices).toContain('poller_blocked');
  });

  it('the health pane reads the shard list only while the cluster is not green; other panes never', async () => {
    const { store, poller } = make(node.url, 200);
    store.setState({ pane: 'health' });
    poller.start();
    try {
      await until('the cluster to read green', () => store.getState().snapshots.health.data?.status === 'green');
      // Several more poll cycles (not a fixed time): the shard list is still never read.
      const polled = poller.stats.requests;
      await until('three more poll cycles', () => poller.stats.requests >= polled + 3 * PANE_RESOURCES.health.length);
      expect(store.getState().snapshots.shards.fetchedAt).toBeUndefined();
      // One node cannot hold a replica: the cluster turns yellow.
      await fetch(`${node.url}/poller_yellow`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"settings":{"number_of_shards":1,"number_of_replicas":1}}',
      });
      await until('the health pane to read the shard list', () => store.getState().snapshots.shards.fetchedAt !== undefined);
      expect(store.getState().snapshots.health.data?.status).toBe('yellow');
    } finally {
      poller.stop();
    }
    const other = make(node.url, 200);
    other.poller.start();
    try {
      await until('the cluster to read yellow', () => other.store.getState().snapshots.health.data?.status === 'yellow');
      const polled = other.poller.stats.requests;
      await until('three more poll cycles', () => other.poller.stats.requests >= polled + 3 * PANE_RESOURCES.disk.length);
      expect(other.store.getState().snapshots.shards.fetchedAt).toBeUndefined(); // the disk pane
    } finally {
      other.poller.stop();
      await fetch(`${node.url}/poller_yellow`, { method: 'DELETE' });
    }
  });
  it('reads each kind of index block from the cluster state, and none once they are lifted', async () => {
    const es = createEsApi(createClient({ url: node.url }), node.url);
    const put = async (p: string, body: unknown) => {
      const res = await fetch(node.url + p, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, await res.text()).toBe(200);
    };
    const blocks = { 'blk-ro': 'read_only', 'blk-write': 'write', 'blk-rodel': 'read_only_allow_delete' };
    await put('/blk-none', {});
    for (const [index, block] of Object.entries(blocks)) {
      await put(`/${index}`, {});
      await put(`/${index}/_settings`, { [`index.blocks.${block}`]: true });
    }
    // Only this test's indices (another test here leaves one of its own blocked).
    const ours = async () => (await es.data('blocks')).filter((b) => b.index.startsWith('blk-'));
    try {
      expect(await ours()).toEqual([
        { index: 'blk-ro', readOnly: true, readOnlyAllowDelete: false, write: false },
        { index: 'blk-rodel', readOnly: false, readOnlyAllowDelete: true, write: false },
        { index: 'blk-write', readOnly: false, readOnlyAllowDelete: false, write: true },
      ]);
    } finally {
      for (const [index, block] of Object.entries(blocks)) await put(`/${index}/_settings`, { [`index.blocks.${block}`]: null });
    }
    expect(await ours()).toEqual([]);
  });
});
