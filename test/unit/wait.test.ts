// waitUntil, the one wait of services/: reads until the condition holds or the time is up, pausing
// between reads, with fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitUntil } from '../../src/services/wait';

describe('waitUntil', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('reads until the condition holds, pausing between reads, telling each pending value', async () => {
    const seen: number[] = [];
    let n = 0;
    const p = waitUntil(
      () => Promise.resolve(++n),
      (v) => v === 3,
      { timeoutMs: 10_000, intervalMs: 1000, onPending: (v) => seen.push(v) },
    );
    await vi.advanceTimersByTimeAsync(2000);
    await expect(p).resolves.toEqual({ value: 3, met: true });
    expect(seen).toEqual([1, 2]);
    expect(Date.now()).toBe(2000);
  });

  it('gives the last value, met: false, once the time is up; the read is told the time left (the pause may end past it: one last read)', async () => {
    const left: number[] = [];
    const p = waitUntil(
      (ms) => (left.push(ms), Promise.resolve('yellow')),
      (v) => v === 'green',
      { timeoutMs: 2500, intervalMs: 1000 },
    );
    await vi.advanceTimersByTimeAsync(5000);
    await expect(p).resolves.toEqual({ value: 'yellow', met: false });
    expect(left).toEqual([2500, 1500, 500, -500]);
  });

  it('a pause chosen from the value: none after a read that waited on the server itself', async () => {
    const at: number[] = [];
    let n = 0;
    const p = waitUntil(
      () => (at.push(Date.now()), Promise.resolve(++n)),
      (v) => v === 4,
      { timeoutMs: Infinity, intervalMs: (v) => (v % 2 ? 500 : 0) },
    );
    await vi.advanceTimersByTimeAsync(2000);
    await expect(p).resolves.toEqual({ value: 4, met: true });
    expect(at).toEqual([0, 500, 500, 1000]);
  });
});
