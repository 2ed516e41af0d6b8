// The poller's timing with fake timers: it is given its reads, so a node that fails (or answers)
// on cue needs no network. A failing resource backs off exponentially up to MAX_BACKOFF_MS; an
// answer brings it back to its own period; a slow read is never overlapped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnError } from '../../src/cluster/connection';
import type { ResourceName } from '../../src/cluster/resources';
import { backoffMs, MAX_BACKOFF_MS, Poller, type PollReads } from '../../src/services/poller';
import { createConsoleStore } from '../../src/store/console';
import type { PaneId } from '../../src/domain/panes';

const INTERVAL = 1000;
const HEALTH = {
  status: 'green',
  clusterName: 'c',
  numberOfNodes: 1,
  numberOfDataNodes: 1,
  activePrimaryShards: 0,
  activeShards: 0,
  relocatingShards: 0,
  initializingShards: 0,
  unassignedShards: 0,
  pendingTasks: 0,
};

/** Reads that fail while `down` is true, counting the calls per resource. */
function fakeReads() {
  const calls: Record<string, number[]> = {};
  const state = { down: true, delayMs: 0, status: 'green', initializing: 0 };
  const reads: PollReads = {
    resource: (async (name: ResourceName) => {
      (calls[name] ??= []).push(Date.now());
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.down) throw new ConnError('unreachable', 'nothing listens (connection refused)');
      return { data: name === 'health' ? { ...HEALTH, status: state.status, initializingShards: state.initializing } : [], bytes: 10 };
    }) as PollReads['resource'],
    healthDiagnoses: () => Promise.resolve({}),
  };
  return { reads, calls, state };
}

/** Reads that answer (health: HEALTH, the rest: []) unless `failure` gives an error for that resource now; each call's time kept. */
function readsWhere(
  failure: (name: ResourceName) => Error | undefined,
  data = (name: ResourceName): unknown => (name === 'health' ? HEALTH : []),
) {
  const calls: Record<string, number[]> = {};
  const reads: PollReads = {
    resource: ((name: ResourceName) => {
      (calls[name] ??= []).push(Date.now());
      const error = failure(name);
      return error ? Promise.reject(error) : Promise.resolve({ data: data(name), bytes: 10 });
    }) as PollReads['resource'],
    healthDiagnoses: () => Promise.resolve({}),
  };
  return { reads, calls };
}

const consoleOn = (pane: PaneId) =>
  createConsoleStore({ connection: { url: 'http://x', profile: 't', insecure: false, readOnly: false }, intervalMs: INTERVAL, pane });

describe('poller backoff (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('waits twice as long after each failure, up to the cap, and returns to its period after an answer', async () => {
    const { reads, calls, state } = fakeReads();
    const store = consoleOn('shards');
    const poller = new Poller(reads, store, ['indices']);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(0);
      // Each failure doubles the wait: 2 s, 4 s, 8 s, ... until 60 s.
      const expected = [0];
      for (let failures = 1; failures <= 8; failures++) expected.push(expected.at(-1)! + backoffMs(INTERVAL, failures));
      await vi.advanceTimersByTimeAsync(expected.at(-1)!);
      expect(calls.indices).toEqual(expected);
      expect(expected.at(-1)! - expected.at(-2)!).toBe(MAX_BACKOFF_MS);
      expect(store.getState().snapshots.indices).toMatchObject({ failures: 9, error: { kind: 'unreachable' } });
      // A waited-out read one millisecond early sends nothing.
      await vi.advanceTimersByTimeAsync(MAX_BACKOFF_MS - 1);
      expect(calls.indices).toHaveLength(9);
      // The node answers: the error clears and the next read comes one interval later.
      state.down = false;
      await vi.advanceTimersByTimeAsync(1);
      expect(calls.indices).toHaveLength(10);
      expect(store.getState().snapshots.indices).toMatchObject({ failures: 0, error: undefined, data: [] });
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(calls.indices).toHaveLength(11);
      expect(calls.indices.at(-1)! - calls.indices.at(-2)!).toBe(INTERVAL);
    } finally {
      poller.stop();
    }
  });

  it('health, the probe, is read every period while failing; when it answers, the reads backing off come back at once', async () => {
    const { reads, calls, state } = fakeReads();
    const store = consoleOn('shards');
    const poller = new Poller(reads, store, ['health', 'indices']);
    state.down = false;
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      // Down for ten minutes after answering (the status stays green in the store): indices backs
      // off to the 60 s cap, health keeps its period.
      state.down = true;
      const before = { health: calls.health.length, indices: calls.indices.length };
      await vi.advanceTimersByTimeAsync(600_000);
      expect(calls.health.length - before.health).toBeGreaterThanOrEqual(590);
      expect(calls.indices.length - before.indices).toBeLessThan(20);
      const lastIndices = calls.indices.at(-1)!;
      // Healed right after the indices read: its backoff would wait 60 s; the probe's next answer brings it back.
      state.down = false;
      const healedAt = Date.now();
      await vi.advanceTimersByTimeAsync(INTERVAL + 1);
      expect(store.getState().snapshots.health).toMatchObject({ failures: 0, error: undefined });
      expect(calls.indices.at(-1)).toBeGreaterThan(lastIndices);
      // One period at most (a timer of 0 is 1 ms in Node).
      expect(calls.indices.at(-1)! - healedAt).toBeLessThanOrEqual(INTERVAL + 1);
      expect(store.getState().snapshots.indices).toMatchObject({ failures: 0, error: undefined, data: [] });
    } finally {
      poller.stop();
    }
  });

  it("a pane's own read failing while health, the probe, answers: retried on its period, not its backoff, so it is back within one period of the heal", async () => {
    const state = { indicesDown: true };
    const { reads, calls } = readsWhere((name) =>
      name === 'indices' && state.indicesDown ? new ConnError('timeout', 'did not answer in time') : undefined,
    );
    const store = consoleOn('indices');
    const poller = new Poller(reads, store, ['health', 'indices']);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(60 * INTERVAL);
      // Failing for a minute while the node answers health: read every period (was 2, 4, 8, 16, 32 s apart).
      expect(calls.indices.length).toBeGreaterThanOrEqual(60);
      expect(store.getState().snapshots.indices).toMatchObject({ error: { kind: 'timeout' } });
      expect(store.getState().snapshots.indices.failures).toBeGreaterThanOrEqual(60);
      state.indicesDown = false;
      const healedAt = Date.now();
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(store.getState().snapshots.indices).toMatchObject({ failures: 0, error: undefined, data: [] });
      expect(calls.indices.at(-1)! - healedAt).toBeLessThanOrEqual(INTERVAL);
    } finally {
      poller.stop();
    }
  });

  it('a 429 with Retry-After: read again no sooner than the node asked (capped at 30 s), never sooner than its period; health, the probe, too', async () => {
    const state = { retryAfter: '20' as string | undefined, busy: true };
    const { reads, calls } = readsWhere(() =>
      state.busy ? new ConnError('busy', 'the node is too busy to answer (429)', 429, undefined, undefined, state.retryAfter) : undefined,
    );
    const store = consoleOn('shards');
    const poller = new Poller(reads, store, ['health', 'indices']);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(store.getState().snapshots.indices.error).toMatchObject({ kind: 'busy', retryAfterMs: 20_000 });
      // Asked for 20 s: nothing before (the probe's 1 s period and the indices' 2 s backoff wait too).
      await vi.advanceTimersByTimeAsync(20_000 - 1);
      expect(calls).toEqual({ health: [0], indices: [0] });
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toEqual({ health: [0, 20_000], indices: [0, 20_000] });
      // Asked for an hour: capped at 30 s.
      state.retryAfter = '3600';
      await vi.advanceTimersByTimeAsync(20_000);
      expect(calls.health).toEqual([0, 20_000, 40_000]);
      await vi.advanceTimersByTimeAsync(30_000);
      expect(calls.health).toEqual([0, 20_000, 40_000, 70_000]);
      // Asked for 0 s: the period (health) and the backoff (indices) still hold.
      state.retryAfter = '0';
      await vi.advanceTimersByTimeAsync(30_000);
      const h = calls.health.length;
      const i = calls.indices.length;
      await vi.advanceTimersByTimeAsync(INTERVAL - 1);
      expect(calls.health).toHaveLength(h);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls.health).toHaveLength(h + 1);
      // indices backs off as usual (32 s by now); healed right after one of its reads, the probe's
      // answer brings it back within a period, as a wait of 0 s asked for nothing.
      while (calls.indices.length === i) await vi.advanceTimersByTimeAsync(1);
      expect(calls.indices.at(-1)! - calls.indices.at(-2)!).toBeGreaterThan(10 * INTERVAL);
      state.busy = false;
      const healedAt = Date.now();
      await vi.advanceTimersByTimeAsync(INTERVAL + 1);
      expect(store.getState().snapshots.health).toMatchObject({ failures: 0, error: undefined });
      expect(store.getState().snapshots.indices).toMatchObject({ failures: 0, error: undefined });
      expect(calls.indices.at(-1)! - healedAt).toBeLessThanOrEqual(INTERVAL + 1);
    } finally {
      poller.stop();
    }
  });

  it('never has two reads of one resource in flight: a slow answer delays the next poll', async () => {
    const { reads, calls, state } = fakeReads();
    state.down = false;
    state.delayMs = 3 * INTERVAL;
    const store = consoleOn('shards');
    const poller = new Poller(reads, store, ['health']);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(0);
      await poller.pollOnce('health'); // a second read while the first is out: not sent, counted
      expect(poller.stats.overlaps).toBe(1);
      await vi.advanceTimersByTimeAsync(10 * INTERVAL);
      // Read at 0, answered at 3 s, next at 4 s, answered at 7 s, next at 8 s.
      expect(calls.health).toEqual([0, 4 * INTERVAL, 8 * INTERVAL]);
    } finally {
      poller.stop();
    }
  });
});

describe('a refresh after a change (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('shows an answer sent after it: a read already out (sent before the change) is awaited, then read again', async () => {
    // A node whose answer is what it held when the read was sent, 3 s later.
    const node = { status: 'red' };
    const sent: number[] = [];
    let out = 0;
    let mostOut = 0;
    const reads: PollReads = {
      resource: (async () => {
        sent.push(Date.now());
        mostOut = Math.max(mostOut, ++out);
        const status = node.status;
        await new Promise((r) => setTimeout(r, 3 * INTERVAL));
        out--;
        return { data: { ...HEALTH, status }, bytes: 10 };
      }) as PollReads['resource'],
      healthDiagnoses: () => Promise.resolve({}),
    };
    const store = consoleOn('health');
    const poller = new Poller(reads, store, ['health']);
    try {
      void poller.pollOnce('health'); // a poll, out when the change is sent
      await vi.advanceTimersByTimeAsync(INTERVAL);
      node.status = 'green'; // the change
      const refreshed = poller.refreshNow();
      let done = false;
      void refreshed.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      // The older read answered (red, what the change replaced); the refresh is not done with it.
      expect(sent).toEqual([0, 3 * INTERVAL]);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      await refreshed;
      expect(store.getState().snapshots.health.data?.status).toBe('green');
      expect(mostOut).toBe(1);
    } finally {
      poller.stop();
    }
  });
});

describe('what the poller reads (fake reads)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('the Health pane adds the shard list while the cluster is not green, and only then', async () => {
    const { reads, calls, state } = fakeReads();
    state.down = false;
    const store = consoleOn('health');
    const poller = new Poller(reads, store);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      expect(calls.shards).toBeUndefined(); // green
      state.status = 'yellow';
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      expect(calls.shards?.length ?? 0).toBeGreaterThan(0);
    } finally {
      poller.stop();
    }
  });
});

describe('the Shards pane reads recoveries (fake reads)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('only while the health says shards initialize or relocate, and only on that pane', async () => {
    const { reads, calls, state } = fakeReads();
    state.down = false;
    const store = createConsoleStore({
      connection: { url: 'http://x', profile: 't', insecure: false, readOnly: false },
      intervalMs: INTERVAL,
      pane: 'shards',
    });
    const poller = new Poller(reads, store);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      expect(calls.recoveries).toBeUndefined(); // nothing recovers
      state.initializing = 1;
      state.status = 'yellow';
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      const during = calls.recoveries?.length ?? 0;
      expect(during).toBeGreaterThan(0);
      // Another pane: not read, though shards still initialize.
      store.setState({ pane: 'indices' });
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      const elsewhere = calls.recoveries.length;
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      expect(calls.recoveries.length).toBe(elsewhere);
      // Back on Shards, the recovery done: not read any more.
      state.initializing = 0;
      store.setState({ pane: 'shards' });
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      const after = calls.recoveries.length;
      await vi.advanceTimersByTimeAsync(3 * INTERVAL);
      expect(calls.recoveries.length).toBe(after);
    } finally {
      poller.stop();
    }
  });
});

describe('disk samples for the doctor forecast (fake reads)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('keeps a sample per node each time the disks changed, on the Doctor pane too', async () => {
    let avail = 1000;
    const { reads } = readsWhere(
      () => undefined,
      (name) =>
        name === 'health'
          ? HEALTH
          : name === 'allocation'
            ? [
                {
                  node: 'n1',
                  host: null,
                  ip: null,
                  shards: 1,
                  indicesBytes: 0,
                  usedBytes: 2000 - avail,
                  availBytes: avail,
                  totalBytes: 2000,
                },
              ]
            : [],
    );
    const store = consoleOn('doctor');
    const poller = new Poller(reads, store);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(10);
      await vi.advanceTimersByTimeAsync(2 * INTERVAL); // unchanged: no new sample
      expect(store.getState().diskSamples?.n1).toEqual([{ t: expect.any(Number), availBytes: 1000, totalBytes: 2000 }]);
      avail = 900;
      await vi.advanceTimersByTimeAsync(INTERVAL);
      expect(store.getState().diskSamples?.n1.map((s) => s.availBytes)).toEqual([1000, 900]);
    } finally {
      poller.stop();
    }
  });

  it("a read the node's version lacks is asked once and never again, even when the pane is opened again", async () => {
    const { reads, calls } = readsWhere((name) =>
      name === 'healthReport' ? new ConnError('unsupported', 'the health report needs Elasticsearch 8.7 or newer') : undefined,
    );
    const store = consoleOn('health');
    const poller = new Poller(reads, store);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(10 * INTERVAL);
      expect(calls.healthReport).toHaveLength(1);
      expect(calls.health.length).toBeGreaterThan(5);
      expect(store.getState().snapshots.healthReport.error).toMatchObject({ kind: 'unsupported' });
      store.setState({ pane: 'disk' });
      store.setState({ pane: 'health' });
      await poller.refreshNow();
      await vi.advanceTimersByTimeAsync(10 * INTERVAL);
      expect(calls.healthReport).toHaveLength(1);
    } finally {
      poller.stop();
    }
  });

  it('a read the user may not make (403) is not retried on a timer; the refresh key asks again and puts it back on its timer', async () => {
    const state = { allowed: false };
    const { reads, calls } = readsWhere((name) =>
      name === 'blocks' && !state.allowed ? new ConnError('forbidden', 'user w lacks the cluster privilege monitor') : undefined,
    );
    const store = consoleOn('health');
    const poller = new Poller(reads, store, ['health', 'blocks']);
    poller.start();
    try {
      await vi.advanceTimersByTimeAsync(100 * INTERVAL);
      expect(calls.blocks).toHaveLength(1);
      expect(store.getState().snapshots.blocks.error).toMatchObject({ kind: 'forbidden' });
      state.allowed = true; // the role was granted meanwhile
      await poller.refreshNow();
      expect(calls.blocks).toHaveLength(2);
      expect(store.getState().snapshots.blocks.error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(10 * INTERVAL);
      expect(calls.blocks.length).toBeGreaterThan(4);
    } finally {
      poller.stop();
    }
  });
});
