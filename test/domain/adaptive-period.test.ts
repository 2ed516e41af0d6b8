// What grows with the cluster is read less often when one read costs the node much.
import { describe, expect, it } from 'vitest';
import { adaptivePeriodMs, MAX_ADAPTIVE_PERIOD_MS, readShare, smoothCost } from '../../src/domain/snapshot';

describe('adaptive polling period', () => {
  it('a cheap read keeps its base period; a costly one is spread out to 0.25% of the node, in whole intervals, capped', () => {
    expect(adaptivePeriodMs(5000, 5000, undefined, 5000)).toBe(5000);
    expect(adaptivePeriodMs(5000, 5000, 10, 5000)).toBe(5000); // ~10 ms a read
    expect(adaptivePeriodMs(5000, 5000, 50, 5000)).toBe(20_000); // 50 ms / 0.0025 = 20 s
    expect(adaptivePeriodMs(5000, 5000, 51, 5000)).toBe(25_000);
    expect(adaptivePeriodMs(5000, 5000, 250, 5000)).toBe(100_000);
    expect(adaptivePeriodMs(5000, 5000, 5000, 5000)).toBe(MAX_ADAPTIVE_PERIOD_MS);
    expect(MAX_ADAPTIVE_PERIOD_MS).toBe(120_000);
  });

  it('a small table keeps its period however slow its answer (a busy machine, not a large cluster)', () => {
    expect(adaptivePeriodMs(500, 500, 300, 6)).toBe(500);
    expect(adaptivePeriodMs(500, 500, 300, 999)).toBe(500);
  });

  it("a pane with more than three grown reads splits 0.75% of the node between them (the Nodes pane's seven)", () => {
    expect(readShare(1)).toBe(0.0025);
    expect(readShare(3)).toBe(0.0025);
    expect(readShare(4)).toBeCloseTo(0.001875, 9);
    expect(readShare(6)).toBeCloseTo(0.00125, 9);
    // 50 ms a read: 0.25% -> every 20 s; a sixth of 0.75% -> every 40 s.
    expect(adaptivePeriodMs(5000, 5000, 50, 5000, readShare(6))).toBe(40_000);
    expect(adaptivePeriodMs(5000, 5000, 50, 5000, readShare(3))).toBe(20_000);
  });

  it('one slow answer moves the smoothed cost only part of the way', () => {
    expect(smoothCost(undefined, 100)).toBe(100);
    expect(smoothCost(100, 600)).toBe(300);
  });
});
