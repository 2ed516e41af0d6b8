// The poller against a real node: it asks only for what the visible pane needs, never has two
// requests in flight for one resource, stops asking while paused, and backs off from a dead node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { Poller, PANE_RESOURCES } from '../../src/services/poller';
import { createConsoleStore, type ConsoleStore, type ResourceName } from '../../src/store/console';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

function fetched(store: ConsoleStore): ResourceName[] {
  const s = store.getState().snapshots;
  return (Object.keys(s) as ResourceName[]).filter((k) => s[k].fetchedAt !== undefined).sort();
}

describe('poller on a real node', () => {
  let node: Awaited<ReturnType<typeof startNode>>;
  beforeAll(async () => {
    node = await startNode({ name: 'poller' });
  });
  afterAll(async () => {
    await node?.stop();
  });

  const make = (url = node.url, intervalMs = 200) => {
    const store = createConsoleStore({ connection: { url, profile: 'test', insecure: false, readOnly: false }, intervalMs, pane: 'disk' });
    return { store, poller: new Poller(createEsApi(createClient({ url }), url), store) };
  };

  it('polls only what the visible pane needs, and starts the next pane at once', async () => {
    const { store, poller } = make();
    poller.start();
    try {
      await until(() => fetched(store).length === PANE_RESOURCES.disk.length);
      await sleep(300);
      expect(fetched(store)).toEqual([...PANE_RESOURCES.disk].sort());
      expect(store.getState().snapshots.indices.fetchedAt).toBeUndefined();
      store.setState({ pane: 'indices' });
      await until(() => store.getState().snapshots.indices.fetchedAt !== undefined, 2000);
    } finally {
      poller.stop();
    }
  });

  it('an unchanged answer moves only the time: no store notification, so an idle console draws nothing', async () => {
    const { store, poller } = make(node.url, 200);
    store.setState({ pane: 'health' });
    poller.start();
    try {
      await until(() => store.getState().snapshots.settings.fetchedAt !== undefined);
      const settings = store.getState().snapshots.settings;
      const first = settings.fetchedAt!;
      expect(settings.periodMs).toBe(200 * 6);
      let notified = 0;
      const off = store.subscribe((s, prev) => {
        if (s.snapshots.settings !== prev.snapshots.settings) notified++;
      });
      await until(() => store.getState().snapshots.settings.fetchedAt! > first, 5000);
      off();
      // The same object, its time moved on, and nobody was told.
      expect(store.getState().snapshots.settings).toBe(settings);
      expect(notified).toBe(0);
    } finally {
      poller.stop();
    }
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
      await until(() => store.getState().snapshots.health.fetchedAt !== undefined);
      store.setState({ paused: true });
      await sleep(250); // let a request already in flight land
      const before = poller.stats.requests;
      await sleep(800); // four intervals
      expect(poller.stats.requests).toBe(before);
      store.setState({ paused: false });
      await until(() => poller.stats.requests > before, 2000);
    } finally {
      poller.stop();
    }
  });

  it('backs off from an unreachable node and marks the data stale with the reason', async () => {
    const { store, poller } = make('http://127.0.0.1:1', 100);
    store.setState({ pane: 'health' });
    poller.start();
    try {
      await sleep(2000);
      const health = store.getState().snapshots.health;
      expect(health.error?.kind).toBe('unreachable');
      expect(health.error?.message).toMatch(/connection refused/);
      // 20 intervals passed; with doubling backoff (200, 400, 800 ms...) only a handful of tries.
      expect(health.failures).toBeGreaterThanOrEqual(2);
      expect(health.failures).toBeLessThanOrEqual(5);
    } finally {
      poller.stop();
    }
  });

  it('fetches diagnoses on demand for the indicators that are not green', async () => {
    const { store, poller } = make();
    await fetch(`${node.url}/poller_blocked`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"settings":{"number_of_shards":1,"number_of_replicas":0}}' });
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
    expect(d.byIndicator.disk[0].action).toMatch(/disk/i);
    expect(d.byIndicator.disk[0].affectedIndices).toContain('poller_blocked');
  });
});
