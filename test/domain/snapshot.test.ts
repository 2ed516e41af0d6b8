// How fresh a pane's data is, from the snapshots it draws from (plain values).
import { describe, expect, it } from 'vitest';
import { ageText, freshness, isStale } from '../../src/domain/snapshot';

const NOW = 1_000_000;

describe('snapshot freshness', () => {
  it('is as old as the oldest read, late past its own period, stale past three or on an error', () => {
    const fresh = { fetchedAt: NOW - 1000, failures: 0 };
    const slow = { fetchedAt: NOW - 7000, failures: 0, periodMs: 30_000 };
    expect(freshness([fresh, slow], NOW, 5000)).toEqual({
      ageMs: 7000,
      late: false,
      stale: false,
      error: undefined,
      failures: 0,
      loading: false,
    });
    expect(ageText(freshness([fresh, slow], NOW, 5000))).toBe('just now');
    expect(freshness([{ fetchedAt: NOW - 6000, failures: 0 }], NOW, 5000).late).toBe(true);
    expect(isStale({ fetchedAt: NOW - 15_001, failures: 0 }, NOW, 5000)).toBe(true);
    // A pane just switched to: its reads were not polled while hidden; not stale until three
    // periods pass on screen without an answer (no red flash on a switch), an error is at once.
    expect(isStale({ fetchedAt: NOW - 600_000, failures: 0 }, NOW, 5000, NOW - 100)).toBe(false);
    expect(isStale({ fetchedAt: NOW - 600_000, failures: 0 }, NOW, 5000, NOW - 15_001)).toBe(true);
    expect(isStale({ fetchedAt: NOW - 600_000, failures: 1, error: { kind: 'network', message: 'x' } }, NOW, 5000, NOW - 100)).toBe(true);
    expect(isStale({ fetchedAt: NOW - 15_001, failures: 0, periodMs: 30_000 }, NOW, 5000)).toBe(false);
    const broken = { fetchedAt: NOW - 2000, failures: 3, error: { kind: 'unreachable', message: 'the node does not answer' } };
    const f = freshness([fresh, broken], NOW, 5000);
    expect(f).toMatchObject({ stale: true, error: 'the node does not answer', failures: 3 });
    expect(ageText(f)).toMatch(/^STALE /);
  });

  it('before the first answer: loading, or no data yet once a read failed', () => {
    expect(ageText(freshness([{ failures: 0 }], NOW, 5000))).toBe('loading…');
    expect(ageText(freshness([{ failures: 1, error: { kind: 'x', message: 'm' } }], NOW, 5000))).toBe('STALE no data yet');
  });
});
