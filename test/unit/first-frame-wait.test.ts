// The console's first frame waits for the cluster's health when it is about to come, never longer
// than its cap (store/console.ts snapshotRead): with real timers and the console's own store.
import { describe, expect, it } from 'vitest';
import { createConsoleStore, setSnapshot, snapshotRead } from '../../src/store/console';

const newStore = () => createConsoleStore({ connection: { url: 'http://127.0.0.1:9', profile: 't', insecure: false, readOnly: false } });
const health = { status: 'yellow' } as never;

/** How long `p` took to settle, ms. */
async function took(p: Promise<void>): Promise<number> {
  const t0 = performance.now();
  await p;
  return performance.now() - t0;
}

describe('snapshotRead (the first frame waits for health)', () => {
  it('resolves at once when health is already read', async () => {
    const store = newStore();
    setSnapshot(store, 'health', { data: health, fetchedAt: Date.now(), failures: 0 });
    expect(await took(snapshotRead(store, 'health', 5_000))).toBeLessThan(50);
  });

  it('resolves when the answer arrives, not at the cap', async () => {
    const store = newStore();
    setTimeout(() => setSnapshot(store, 'health', { data: health, fetchedAt: Date.now(), failures: 0 }), 30);
    const ms = await took(snapshotRead(store, 'health', 5_000));
    expect(ms).toBeGreaterThanOrEqual(25);
    expect(ms).toBeLessThan(2_000);
  });

  it('an error is an answer too: the frame says it at once', async () => {
    const store = newStore();
    setTimeout(() => setSnapshot(store, 'health', { error: { kind: 'unreachable', message: 'refused' }, failures: 1 }), 30);
    expect(await took(snapshotRead(store, 'health', 5_000))).toBeLessThan(2_000);
  });

  it('another resource arriving does not end the wait; the cap does', async () => {
    const store = newStore();
    setTimeout(() => setSnapshot(store, 'allocation', { data: [] as never, fetchedAt: Date.now(), failures: 0 }), 10);
    const ms = await took(snapshotRead(store, 'health', 150));
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(2_000);
  });
});
