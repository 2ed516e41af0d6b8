// The doctor's disk rules on plain values: which level each node is at (flood stage is critical and
// offers the unblock fix), the read-only blocks, and when a forecast turns into a warning.
import { describe, expect, it } from 'vitest';
import { diskFindings, FLOOD_SOON_MS, forecastFindings, WEEK_MS } from '../../../src/domain/doctor/disk';
import type { DiskForecast } from '../../../src/domain/doctor/forecast';
import { parseWatermark } from '../../../src/domain/nodes/disk';
import type { IndexBlocks, NodeDisk, Watermarks } from '../../../src/domain/types';

const GB = 1024 ** 3;
const H = 3_600_000;
const W: Watermarks = {
  low: parseWatermark('50gb', undefined),
  high: parseWatermark('20gb', undefined),
  flood: parseWatermark('10gb', undefined),
  thresholdEnabled: true,
};
const node = (name: string, freeGb: number): NodeDisk => ({
  node: name,
  host: null,
  ip: null,
  shards: 1,
  indicesBytes: 0,
  usedBytes: (100 - freeGb) * GB,
  availBytes: freeGb * GB,
  totalBytes: 100 * GB,
});
const block = (index: string, kind: 'allowDelete' | 'readOnly' | 'write'): IndexBlocks => ({
  index,
  readOnlyAllowDelete: kind === 'allowDelete',
  readOnly: kind === 'readOnly',
  write: kind === 'write',
});

describe('disk findings', () => {
  it('one finding per node by level, then the read-only blocks', () => {
    const f = diskFindings([node('a', 60), node('b', 30), node('c', 15), node('d', 5)], W, []);
    expect(f.map((x) => [x.id, x.severity])).toEqual([
      ['disk.watermark.a', 'ok'],
      ['disk.watermark.b', 'warn'],
      ['disk.watermark.c', 'warn'],
      ['disk.watermark.d', 'critical'],
      ['disk.read-only', 'ok'],
    ]);
    expect(f[0].finding).toBe('below the watermarks (40.0gb before high)');
    expect(f[1].finding).toMatch(/^past the low watermark: no new shards/);
    expect(f[2].finding).toMatch(/^past the high watermark: Elasticsearch relocates shards/);
    expect(f[3].finding).toMatch(/^past the flood stage watermark: the node's indices become read-only/);
    expect(f[3].remedy).toMatch(/; then clear the read-only block$/);
    expect(f[3].fix).toMatchObject({ key: 'U', command: 'shardeck unblock' });
    expect(f[1].fix).toBeUndefined();
    expect(f[0].evidence).toEqual([
      '40.0% used, 60.0gb free of 100gb (64424509440 B free)',
      'watermarks low 50gb, high 20gb, flood stage 10gb: on this disk 50.0% / 80.0% / 90.0% used',
    ]);
    expect(f[4]).toEqual({ id: 'disk.read-only', family: 'disk', severity: 'ok', finding: 'no index is read-only', evidence: [] });
  });

  it('with the threshold decider off every node is ok and the evidence says so', () => {
    const f = diskFindings([node('d', 5)], { ...W, thresholdEnabled: false }, []);
    expect(f[0].severity).toBe('ok');
    expect(f[0].evidence[1]).toMatch(/flood stage 10gb \(disk threshold decider OFF\): on this disk/);
  });

  it('flood-stage blocks are critical; the remedy depends on whether a node is past flood stage (other blocks: blocks.ts)', () => {
    const blocks = [block('a', 'allowDelete'), block('b', 'readOnly'), block('c', 'write')];
    const calm = diskFindings([node('a', 60)], W, blocks).at(-1)!;
    expect(calm).toMatchObject({ severity: 'critical', fix: { key: 'U' } });
    expect(calm.finding).toBe(
      '1 index is read-only while no node is past the flood stage: the block stays until cleared: writes fail with a cluster block exception',
    );
    expect(calm.evidence).toEqual(['a: index.blocks.read_only_allow_delete=true']);
    expect(calm.remedy).toBe('clear the read-only block (PUT /*/_settings {"index.blocks.read_only_allow_delete": null})');
    const full = diskFindings([node('a', 60), node('d', 5)], W, [block('a', 'allowDelete')]).at(-1)!;
    expect(full.finding).toBe('1 index is read-only (a node is past the flood stage): writes fail with a cluster block exception');
    expect(full.remedy).toMatch(/^free disk space: .*; then clear the read-only block$/);
  });

  it('names at most eight blocked indices and counts the rest', () => {
    const many = Array.from({ length: 11 }, (_, i) => block(`i${i}`, 'allowDelete'));
    const ev = diskFindings([], W, many).at(-1)!.evidence;
    expect(ev).toHaveLength(9);
    expect(ev[7]).toBe('i7: index.blocks.read_only_allow_delete=true');
    expect(ev[8]).toBe('... and 3 more');
    expect(diskFindings([], W, many.slice(0, 8)).at(-1)!.evidence).toHaveLength(8);
  });
});

describe('forecast findings', () => {
  const fc = (low: number | null, high: number | null, flood: number | null, growthPerHour = 2 * GB): DiskForecast => ({
    node: 'n',
    source: 'console',
    samples: 12,
    spanMs: 90_000,
    growthPerHour,
    etas: [
      { stage: 'low', inMs: low },
      { stage: 'high', inMs: high },
      { stage: 'flood', inMs: flood },
    ],
  });
  const sev = (f: DiskForecast) => forecastFindings(['n'], { n: f })[0].severity;

  it('flood stage within a day is critical, at its edge too; one millisecond later is a warning', () => {
    expect(sev(fc(1, 2, FLOOD_SOON_MS))).toBe('critical');
    expect(sev(fc(1, 2, FLOOD_SOON_MS + 1))).toBe('warn');
    expect(sev(fc(1, 2, 1))).toBe('critical');
  });

  it('high or flood within a week is a warning; later, reached already or never is ok', () => {
    expect(sev(fc(null, WEEK_MS, null))).toBe('warn');
    expect(sev(fc(null, WEEK_MS + 1, null))).toBe('ok');
    expect(sev(fc(null, null, WEEK_MS))).toBe('warn');
    expect(sev(fc(null, null, WEEK_MS + 1))).toBe('ok');
    // Reached (0) is the watermark finding's business, not the forecast's.
    expect(sev(fc(0, 0, 0))).toBe('ok');
    expect(sev(fc(null, null, null))).toBe('ok');
    expect(sev(fc(1, null, null))).toBe('ok');
  });

  it('says each stage in words, the growth with its sign, and the remedy only when it matters', () => {
    const [soon] = forecastFindings(['n'], { n: fc(0, 30 * 60_000, 3 * 86_400_000) });
    expect(soon.finding).toBe('at +2.00gb/h: low reached, high in 30 min, flood in 3 days');
    expect(soon.evidence).toEqual(['12 samples over 2 min (seen by the console)']);
    expect(soon.remedy).toMatch(/^free disk space/);
    const [calm] = forecastFindings(['n'], { n: { ...fc(null, null, null, -GB), source: 'log', spanMs: 5 * H } });
    expect(calm.finding).toBe('at -1.00gb/h: low not at this rate, high not at this rate, flood not at this rate');
    expect(calm.evidence).toEqual(["12 samples over 5.0 h (from the log's watermark warnings)"]);
    expect(calm.remedy).toBeUndefined();
    const [hours] = forecastFindings(['n'], { n: fc(10, 20 * H, 47 * H) });
    expect(hours.finding).toMatch(/: low in 1 min, high in 20 h, flood in 47 h$/);
    expect(forecastFindings(['n', 'm'], { n: null }).map((x) => [x.id, x.severity])).toEqual([
      ['disk.forecast.n', 'unknown'],
      ['disk.forecast.m', 'unknown'],
    ]);
  });
});
