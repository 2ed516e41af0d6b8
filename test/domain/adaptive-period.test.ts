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

  it("a pane's grown reads split 0.4% of the node between them, none more than 0.25% (issue 45: every pane under 0.5%)", () => {
    expect(readShare(1)).toBe(0.0025);
    expect(readShare(2)).toBe(0.002);
    expect(readShare(4)).toBe(0.001);
    // The Nodes pane's four: 50 ms a read, 0.1% -> every 50 s; alone at 0.25% -> every 20 s.
    expect(adaptivePeriodMs(5000, 5000, 50, 5000, readShare(4))).toBe(50_000);
    expect(adaptivePeriodMs(5000, 5000, 50, 5000, readShare(1))).toBe(20_000);
  });

  it('one slow answer moves the smoothed cost only part of the way', () => {
    expect(smoothCost(undefined, 100)).toBe(100);
    expect(smoothCost(100, 600)).toBe(300);
  });
});
