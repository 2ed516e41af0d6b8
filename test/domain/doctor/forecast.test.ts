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
import { parseWatermark } from '../../../src/domain/disk';
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
    const line = (node: string, free: string, pct: string) => `low disk watermark [85%] exceeded on [id][${node}][/data] free: ${free}[${pct}%], replicas will not be assigned`;
    const s = diskSamplesFromLog([
      { t: 1, text: line('n1', '512b', '50') },
      { t: null, text: line('n1', '1gb', '10') },
      { t: 2, text: line('n1', '1gb', '0') },
      { t: 3, text: 'started' },
      { t: 4, text: line('n2', '1gb', '10') },
    ]);
    expect(s).toEqual({ n1: [{ t: 1, availBytes: 512, totalBytes: 1024 }], n2: [{ t: 4, availBytes: 1024 ** 3, totalBytes: 10 * 1024 ** 3 }] });
  });
});
