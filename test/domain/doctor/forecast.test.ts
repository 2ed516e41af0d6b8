// The disk forecast on a series recorded from a real node's _cat/allocation while documents were
// written (dev/record-disk-series.mjs -> test/fixtures/doctor/disk-growth.json: the host's disk,
// with a merge that gave space back midway and the "UNASSIGNED" row _cat/allocation adds while a
// shard is unassigned), and on the free space the log prints with each watermark warning.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forecastFindings } from '../../../src/domain/doctor/disk';
import { diskSamplesFromLog, forecastDisk, freeSlope, type DiskSample } from '../../../src/domain/doctor/forecast';
import { parseLog } from '../../../src/domain/doctor/logs';
import { parseWatermark } from '../../../src/domain/nodes/disk';
import type { Watermarks } from '../../../src/domain/types';

const recorded = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'doctor', 'disk-growth.json'), 'utf8'));
const series: DiskSample[] = recorded.samples.filter((s: { node: string }) => s.node === 'doctor-explore');
const DEFAULTS: Watermarks = {
  low: parseWatermark('85%', '200gb'),
  high: parseWatermark('90%', '150gb'),
  flood: parseWatermark('95%', '100gb'),
  thresholdEnabled: true,
};
const H = 3_600_000;

describe('disk forecast on a recorded series', () => {
  const last = series[series.length - 1];
  const f = forecastDisk('doctor-explore', series, DEFAULTS, last.t, 'console')!;

  it('fits the growth through the noise (a merge gave space back midway)', () => {
    expect(series.length).toBeGreaterThanOrEqual(15);
    // What was written: about 0.8 GB in 90 s, i.e. tens of GB per hour.
    const firstToLast = ((series[0].availBytes - last.availBytes) / (last.t - series[0].t)) * H;
    expect(f.growthPerHour).toBeGreaterThan(firstToLast * 0.5);
    expect(f.growthPerHour).toBeLessThan(firstToLast * 2);
  });

  it('says when each watermark is reached: low before high before flood, from the free space left', () => {
    const [low, high, flood] = f.etas.map((e) => e.inMs!);
    expect(low).toBeGreaterThan(0);
    expect(high).toBeGreaterThan(low);
    expect(flood).toBeGreaterThan(high);
    // The arithmetic itself: free above the low mark divided by the rate.
    const needLow = last.totalBytes * 0.15;
    expect(low).toBeCloseTo(((last.availBytes - needLow) / f.growthPerHour) * H, -3);
  });

  it('a finding per node: critical when flood stage is within a day', () => {
    const [finding] = forecastFindings(['doctor-explore'], { 'doctor-explore': f });
    expect(finding.severity).toBe(f.etas[2].inMs! <= 24 * H ? 'critical' : f.etas[2].inMs! <= 7 * 24 * H ? 'warn' : 'ok');
    expect(finding.finding).toMatch(/^at \+[\d.]+gb\/h: low in .*, high in .*, flood in /);
    expect(finding.evidence[0]).toMatch(/samples over .* \(seen by the console\)/);
  });

  it('too few samples or too short a span says nothing; a shrinking disk reaches nothing', () => {
    expect(forecastDisk('n', series.slice(0, 2), DEFAULTS, last.t, 'console')).toBeNull();
    expect(freeSlope(series.slice(0, 3).map((s, i) => ({ ...s, t: i * 1000 })))).toBeNull();
    const shrinking = series.map((s, i) => ({ ...s, availBytes: s.availBytes + i * 1e8 }));
    expect(forecastDisk('n', shrinking, DEFAULTS, last.t, 'console')!.etas.map((e) => e.inMs)).toEqual([null, null, null]);
    expect(forecastFindings(['n'], { n: null })[0].severity).toBe('unknown');
  });

  it('a node already past a mark: 0', () => {
    const full = series.map((s) => ({ ...s, availBytes: s.availBytes - (last.availBytes - last.totalBytes * 0.12) }));
    expect(forecastDisk('n', full, DEFAULTS, last.t, 'console')!.etas.map((e) => e.inMs === 0)).toEqual([true, false, false]);
  });
});

describe('the fit and its limits, on plain values', () => {
  // Far from the epoch, as real samples are: a span or mean taken from 0 instead of the first sample shows.
  const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);
  const at = (ms: number, availBytes: number, totalBytes = 10_000): DiskSample => ({ t: T0 + ms, availBytes, totalBytes });
  const PCT: Watermarks = {
    low: parseWatermark('85%', undefined),
    high: parseWatermark('90%', undefined),
    flood: parseWatermark('95%', undefined),
    thresholdEnabled: true,
  };

  it('least squares, not first to last: a noisy series gives the fitted slope', () => {
    // Mean t 90 s, mean free 800: sum(dx*dy) = -30e6, sum(dx^2) = 18e9.
    expect(freeSlope([at(0, 1000), at(60_000, 700), at(120_000, 900), at(180_000, 600)])).toBeCloseTo(-30e6 / 18e9, 12);
    expect(freeSlope([at(0, 1000), at(60_000, 900), at(120_000, 800)])).toBeCloseTo(-100 / 60_000, 12);
    expect(freeSlope([at(0, 500), at(60_000, 800), at(120_000, 1100)])).toBeCloseTo(300 / 60_000, 12);
    expect(freeSlope([at(0, 800), at(60_000, 800), at(120_000, 800)])).toBe(0);
  });

  it('needs three samples over a minute at least: exactly that is enough', () => {
    expect(freeSlope([at(0, 1000), at(60_000, 900)])).toBeNull();
    expect(freeSlope([at(0, 1000), at(30_000, 950), at(60_000, 900)])).toBeCloseTo(-100 / 60_000, 12);
    expect(freeSlope([at(0, 1000), at(30_000, 950), at(59_999, 900)])).toBeNull();
    expect(forecastDisk('n', [at(0, 3000), at(59_999, 2000), at(30_000, 2500)], PCT, T0, 'console')).toBeNull();
  });

  it('sorts the samples, then counts from the last one to each mark at the fitted rate, from now', () => {
    // Total 10,000: low (85%) needs 1,500 free, high 1,000, flood 500; 100 bytes a minute.
    const samples = [at(120_000, 2800), at(0, 3000), at(60_000, 2900)];
    const now = T0 + 200_000;
    const f = forecastDisk('n1', samples, PCT, now, 'log')!;
    expect(f).toMatchObject({ node: 'n1', source: 'log', samples: 3, spanMs: 120_000 });
    expect(f.growthPerHour).toBeCloseTo(6000, 6);
    expect(f.etas.map((e) => e.stage)).toEqual(['low', 'high', 'flood']);
    const [low, high, flood] = f.etas.map((e) => e.inMs!);
    expect(low).toBeCloseTo(1300 * 600 - 80_000, 3);
    expect(high).toBeCloseTo(1800 * 600 - 80_000, 3);
    expect(flood).toBeCloseTo(2300 * 600 - 80_000, 3);
    // Long past the time the marks were due: 0, never a negative time.
    expect(forecastDisk('n1', samples, PCT, now + 10 * H, 'log')!.etas.map((e) => e.inMs)).toEqual([0, 0, 0]);
  });

  it('exactly at a mark is not past it; a flat or emptying disk reaches no mark it is not past', () => {
    const flat = forecastDisk('n', [at(0, 1500), at(60_000, 1500), at(120_000, 1500)], PCT, T0 + 120_000, 'console')!;
    expect(flat.growthPerHour === 0).toBe(true);
    expect(flat.etas.map((e) => e.inMs)).toEqual([null, null, null]);
    const emptying = forecastDisk('n', [at(0, 700), at(60_000, 800), at(120_000, 900)], PCT, T0 + 120_000, 'console')!;
    expect(emptying.growthPerHour).toBeCloseTo(-6000, 6);
    expect(emptying.etas.map((e) => e.inMs)).toEqual([0, 0, null]);
  });
});

describe('disk history from the log', () => {
  it("reads free space from Elasticsearch's watermark warnings", () => {
    const log = [
      '[2026-11-20T08:00:00,000][WARN ][o.e.c.r.a.DiskThresholdMonitor] [n1] high disk watermark [90%] exceeded on [abc][n1][/data/es] free: 20gb[10%], shards will be relocated away from this node; currently relocating away shards totalling [0b] and ...',
      '[2026-11-20T09:00:00,000][WARN ][o.e.c.r.a.DiskThresholdMonitor] [n1] high disk watermark [90%] exceeded on [abc][n1][/data/es] free: 18gb[9%], shards will be relocated away from this node',
      '[2026-11-20T10:00:00,000][WARN ][o.e.c.r.a.DiskThresholdMonitor] [n1] flood stage disk watermark [95%] exceeded on [abc][n1][/data/es] free: 16gb[8%], all indices on this node will be marked read-only',
    ].join('\n');
    const s = diskSamplesFromLog(parseLog(log));
    expect(s.n1.map((x) => x.availBytes)).toEqual([20, 18, 16].map((g) => g * 1024 ** 3));
    expect(s.n1[0].totalBytes).toBe(200 * 1024 ** 3);
    const f = forecastDisk('n1', s.n1, DEFAULTS, s.n1[2].t, 'log')!;
    expect(f.growthPerHour).toBeCloseTo(2 * 1024 ** 3, -6);
    // Flood at 5% of 200 GB = 10 GB free: 6 GB away at 2 GB/h.
    expect(f.etas[2].inMs).toBeCloseTo(3 * H, -4);
  });

  it('skips lines without a time or with a share of 0, and reads plain bytes', () => {
    const line = (node: string, free: string, pct: string) =>
      `low disk watermark [85%] exceeded on [id][${node}][/data] free: ${free}[${pct}%], replicas will not be assigned`;
    const s = diskSamplesFromLog([
      { t: 1, text: line('n1', '512b', '50') },
      { t: null, text: line('n1', '1gb', '10') },
      { t: 2, text: line('n1', '1gb', '0') },
      { t: 3, text: 'started' },
      { t: 4, text: line('n2', '1gb', '10') },
    ]);
    expect(s).toEqual({
      n1: [{ t: 1, availBytes: 512, totalBytes: 1024 }],
      n2: [{ t: 4, availBytes: 1024 ** 3, totalBytes: 10 * 1024 ** 3 }],
    });
  });
});
