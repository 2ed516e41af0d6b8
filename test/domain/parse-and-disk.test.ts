// Parsers and watermark math, on responses recorded from a real 8.19 node (test/fixtures/) and
// on plain values for the watermark forms the recorded node does not use.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  effectiveSettings,
  parseCatAllocation,
  parseCatIndices,
  parseCatShards,
  parseClusterHealth,
  parseClusterSettings,
  parseHealthReport,
  parseIndexBlocks,
  parseNodeSearchStats,
} from '../../src/domain/parse';
import {
  diskLevel,
  diskRows,
  headroomBytes,
  parseByteSize,
  parseWatermark,
  requiredFreeBytes,
  usedPercent,
  watermarkUsedPercent,
} from '../../src/domain/nodes/disk';
import type { Watermarks } from '../../src/domain/types';
import { buildStatusReport, explainNotGreen, statusExitCode } from '../../src/domain/inspect/status';
import { formatBytes, formatCount } from '../../src/domain/text/format';
import { projectIdOfIndex } from '../../src/domain/naming';

const fx = (scenario: string, name: string) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', scenario, `${name}.json`), 'utf8'));

const GB = 1024 ** 3;

describe('parsers on recorded responses', () => {
  it('reads a yellow cluster health', () => {
    const h = parseClusterHealth(fx('yellow', 'health'));
    expect(h.status).toBe('yellow');
    expect(h.unassignedShards).toBe(6);
    expect(h.unassignedPrimaryShards).toBe(0);
    expect(h.numberOfDataNodes).toBe(1);
  });

  it('lists indices with numbers, and marks dot indices as system', () => {
    const rows = parseCatIndices(fx('yellow', 'indices'));
    const orders = rows.find((r) => r.name === 'service_v9_orders')!;
    expect(orders).toMatchObject({ health: 'yellow', primaries: 6, replicas: 1, docsCount: 500, system: false });
    expect(rows.find((r) => r.name === '.shardeck-demo-internal')?.system).toBe(true);
  });

  it('keeps unassigned shards with their reason and no node', () => {
    const unassigned = parseCatShards(fx('yellow', 'shards')).filter((s) => s.state === 'UNASSIGNED');
    expect(unassigned).toHaveLength(6);
    expect(unassigned.every((s) => !s.primary && s.node === null && s.unassignedReason === 'REPLICA_ADDED')).toBe(true);
  });

  it('drops the UNASSIGNED pseudo-node from disk allocation', () => {
    const disks = parseCatAllocation(fx('yellow', 'allocation'));
    expect(disks.map((d) => d.node)).toEqual(['fixtures']);
    expect(disks[0].totalBytes).toBeGreaterThan(disks[0].availBytes);
  });

  it('reads the default watermarks with their max_headroom and the scroll limit', () => {
    const s = parseClusterSettings(fx('yellow', 'settings'));
    expect(s.watermarks.low).toMatchObject({ value: { kind: 'percent', usedPercent: 85 }, maxHeadroomBytes: 200 * GB });
    expect(s.watermarks.flood).toMatchObject({ value: { kind: 'percent', usedPercent: 95 }, maxHeadroomBytes: 100 * GB });
    expect(s.maxOpenScrollContext).toBe(500);
  });

  it('finds the read-only block and nothing else', () => {
    expect(parseIndexBlocks(fx('yellow', 'blocks'))).toEqual([
      { index: 'service_v9_bravo', readOnlyAllowDelete: true, readOnly: false, write: false },
    ]);
  });

  it('orders health indicators worst first', () => {
    const r = parseHealthReport(fx('red', 'healthReport'));
    const order = { red: 0, yellow: 1, unknown: 2, unavailable: 3, green: 4 } as const;
    const ranks = r.indicators.map((i) => order[i.status]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('reads open scroll contexts per node', () => {
    expect(parseNodeSearchStats(fx('yellow', 'nodeStats'))).toEqual([{ name: 'fixtures', openContexts: 0, scrollCurrent: 0 }]);
  });
});

describe('effective cluster settings', () => {
  it('lets transient win over persistent and persistent over defaults, with the nested shape ES returns', () => {
    // The shape a real node returns once low is set explicitly: "low" is both a value and an object.
    const s = effectiveSettings({
      persistent: { cluster: { routing: { allocation: { disk: { watermark: { low: '90%' } } } } } },
      transient: { cluster: { routing: { allocation: { disk: { watermark: { high: '500mb' } } } } } },
      defaults: {
        cluster: { routing: { allocation: { disk: { watermark: { low: { max_headroom: '-1' }, high: '90%', flood_stage: '95%' } } } } },
      },
    });
    expect(s['cluster.routing.allocation.disk.watermark.low']).toBe('90%');
    expect(s['cluster.routing.allocation.disk.watermark.low.max_headroom']).toBe('-1');
    expect(s['cluster.routing.allocation.disk.watermark.high']).toBe('500mb');
  });
});

describe('watermark math', () => {
  const pct = (p: string, headroom?: string) => parseWatermark(p, headroom);
  const wm = (low: string, high: string, flood: string, headroom?: [string, string, string]): Watermarks => ({
    low: pct(low, headroom?.[0]),
    high: pct(high, headroom?.[1]),
    flood: pct(flood, headroom?.[2]),
    thresholdEnabled: true,
  });

  it('parses byte sizes, and -1 as "no cap"', () => {
    expect(parseByteSize('100gb')).toBe(100 * GB);
    expect(parseByteSize('1.5kb')).toBe(1536);
    expect(parseByteSize('-1')).toBeNull();
    expect(parseByteSize('lots')).toBeNull();
  });

  it('treats a bare ratio as a percentage and an absolute value as free space', () => {
    expect(parseWatermark('0.85', undefined).value).toEqual({ kind: 'percent', usedPercent: 85 });
    expect(parseWatermark('10gb', undefined).value).toEqual({ kind: 'free', freeBytes: 10 * GB });
    expect(() => parseWatermark('lots', undefined)).toThrow(/unrecognised disk watermark/);
  });

  it('caps a percentage watermark by max_headroom on a large disk', () => {
    const total = 10_000 * GB; // 10 TB: 15% would be 1.5 TB, the headroom asks for 200 GB only
    expect(requiredFreeBytes(pct('85%', '200gb'), total)).toBe(200 * GB);
    expect(watermarkUsedPercent(pct('85%', '200gb'), total)).toBeCloseTo(98, 0);
    // Without a cap (set explicitly: max_headroom -1), 15% must stay free.
    expect(requiredFreeBytes(pct('85%', '-1'), total)).toBe(1500 * GB);
  });

  it('classifies a node against low, high and flood stage', () => {
    const w = wm('85%', '90%', '95%', ['-1', '-1', '-1']);
    const total = 100 * GB;
    expect(diskLevel({ totalBytes: total, availBytes: 20 * GB }, w)).toBe('ok');
    expect(diskLevel({ totalBytes: total, availBytes: 12 * GB }, w)).toBe('low');
    expect(diskLevel({ totalBytes: total, availBytes: 7 * GB }, w)).toBe('high');
    expect(diskLevel({ totalBytes: total, availBytes: 4 * GB }, w)).toBe('flood');
    expect(diskLevel({ totalBytes: total, availBytes: 4 * GB }, { ...w, thresholdEnabled: false })).toBe('ok');
  });

  it('absolute watermarks mean free space whatever the disk size', () => {
    const w = wm('50gb', '20gb', '10gb');
    expect(diskLevel({ totalBytes: 1000 * GB, availBytes: 30 * GB }, w)).toBe('low');
    expect(diskLevel({ totalBytes: 1000 * GB, availBytes: 5 * GB }, w)).toBe('flood');
  });

  it('a node exactly at a mark is not past it; one byte less is (flood stage first)', () => {
    const w = wm('50gb', '20gb', '10gb');
    const at = (free: number) => diskLevel({ totalBytes: 1000 * GB, availBytes: free }, w);
    expect([at(50 * GB), at(50 * GB - 1), at(20 * GB), at(20 * GB - 1), at(10 * GB), at(10 * GB - 1)]).toEqual([
      'ok',
      'low',
      'low',
      'high',
      'high',
      'flood',
    ]);
  });

  it('headroom: the bytes that can still be written before a mark, never below 0', () => {
    const total = 100 * GB;
    const high = pct('90%', '-1'); // 10 GB must stay free
    expect(headroomBytes({ totalBytes: total, availBytes: 25 * GB }, high)).toBe(15 * GB);
    expect(headroomBytes({ totalBytes: total, availBytes: 10 * GB }, high)).toBe(0);
    expect(headroomBytes({ totalBytes: total, availBytes: 4 * GB }, high)).toBe(0);
    // With max_headroom on a large disk, the cap decides: 10 TB at 90% would ask 1 TB, the cap 150 GB.
    expect(headroomBytes({ totalBytes: 10_000 * GB, availBytes: 400 * GB }, pct('90%', '150gb'))).toBe(250 * GB);
    // On a small disk the percentage asks for less than the cap.
    expect(requiredFreeBytes(pct('95%', '100gb'), 100 * GB)).toBe(5 * GB);
    expect(requiredFreeBytes(pct('10gb'), 100 * GB)).toBe(10 * GB);
  });

  it('the marks drawn on a bar: percent used at each watermark, clamped to 0..100', () => {
    expect(watermarkUsedPercent(pct('85%', '-1'), 100 * GB)).toBeCloseTo(85, 9);
    expect(watermarkUsedPercent(pct('10gb'), 100 * GB)).toBeCloseTo(90, 9);
    expect(watermarkUsedPercent(pct('500gb'), 100 * GB)).toBe(0);
    expect(watermarkUsedPercent(pct('0b'), 100 * GB)).toBe(100);
    expect(watermarkUsedPercent(pct('10gb'), 0)).toBe(100);
    expect(usedPercent({ usedBytes: 25 * GB, totalBytes: 100 * GB })).toBe(25);
    expect(usedPercent({ usedBytes: 0, totalBytes: 0 })).toBe(0);
  });

  it('a disk row: level, marks and headroom to the high mark', () => {
    const w = wm('85%', '90%', '95%', ['-1', '-1', '-1']);
    const [row] = diskRows([{ node: 'n1', usedBytes: 93 * GB, totalBytes: 100 * GB, availBytes: 7 * GB } as never], w);
    expect(row).toEqual({
      node: 'n1',
      usedPercent: 93,
      usedBytes: 93 * GB,
      totalBytes: 100 * GB,
      availBytes: 7 * GB,
      level: 'high',
      marks: { low: 85, high: 90, flood: 95 },
      headroomToHighBytes: 0,
    });
    const [roomy] = diskRows([{ node: 'n2', usedBytes: 50 * GB, totalBytes: 100 * GB, availBytes: 50 * GB } as never], w);
    expect(roomy.headroomToHighBytes).toBe(40 * GB);
  });

  it('byte sizes: every unit, upper case and spaces; a negative or unitless junk value is no size', () => {
    expect(['512b', '2kb', '3MB', ' 4 gb ', '1tb', '1pb', '7'].map((x) => parseByteSize(x))).toEqual([
      512,
      2048,
      3 * 1024 ** 2,
      4 * GB,
      1024 ** 4,
      1024 ** 5,
      7,
    ]);
    expect(parseByteSize(undefined)).toBeNull();
    expect(parseByteSize('-5gb')).toBeNull();
    expect(parseByteSize('5 xb')).toBeNull();
    expect(parseByteSize('gb')).toBeNull();
    expect(parseWatermark(' 90% ', '150gb')).toEqual({
      value: { kind: 'percent', usedPercent: 90 },
      maxHeadroomBytes: 150 * GB,
      raw: ' 90% ',
    });
  });
});

describe('status report', () => {
  const inputs = (scenario: string) => ({
    health: parseClusterHealth(fx(scenario, 'health')),
    healthReport: parseHealthReport(fx(scenario, 'healthReport')),
    allocation: parseCatAllocation(fx(scenario, 'allocation')),
    settings: parseClusterSettings(fx(scenario, 'settings')),
    blocks: parseIndexBlocks(fx(scenario, 'blocks')),
    shards: parseCatShards(fx(scenario, 'shards')),
  });

  it('says why a single node is yellow', () => {
    const r = buildStatusReport(inputs('yellow'));
    expect(statusExitCode(r)).toBe(1);
    expect(explainNotGreen(r)).toMatch(/6 replica REPLICA_ADDED: replicas cannot be placed on a single-node cluster/);
    expect(r.readOnlyIndices).toEqual(['service_v9_bravo']);
  });

  it('puts the unassigned primary of a red cluster first', () => {
    const r = buildStatusReport(inputs('red'));
    expect(statusExitCode(r)).toBe(2);
    expect(r.unassigned[0]).toMatchObject({ index: 'service_v9_stuck', primary: true, reason: 'INDEX_CREATED' });
    expect(explainNotGreen(r)).not.toMatch(/single-node/);
  });

  it('maps an unreachable node to exit 3', () => {
    expect(statusExitCode({ schema: 1, reachable: false, status: 'unknown', error: { kind: 'unreachable', message: 'x' } })).toBe(3);
  });
});

describe('formatting and naming', () => {
  it('formats bytes and counts without depending on the locale', () => {
    expect(formatBytes(0)).toBe('0b');
    expect(formatBytes(1536)).toBe('1.50kb');
    expect(formatBytes(250 * GB)).toBe('250gb');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('finds the project behind service_<version>_<project> only', () => {
    expect(projectIdOfIndex('service_v9_alpha')).toBe('alpha');
    expect(projectIdOfIndex('service_v10_alpha', 'v10')).toBe('alpha');
    expect(projectIdOfIndex('service_v9_')).toBeNull();
    expect(projectIdOfIndex('logs-2026')).toBeNull();
  });
});
