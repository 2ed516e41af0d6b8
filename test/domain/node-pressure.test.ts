// The node pressure read and its lines, and the session's history with its sparklines, on
// GET _nodes/stats recorded from a real 8.19 node made sick on purpose (dev/record-pressure.ts):
// before.json before a bulk flood into a write pool of one thread and a queue of one,
// nodeStats.json after it and after a request breaker tripped by a lowered limit.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { oldGenPercent, parseNodePressure, rejectionsSince, NODE_PRESSURE_FILTER } from '../../src/domain/nodes/node-pressure';
import { addSamples, nodeSamples, sparkline, sparkLines, type NodeSample } from '../../src/domain/nodes/node-history';
import { parseNodeStats } from '../../src/domain/nodes/node-stats';
import { pressureLines } from '../../src/domain/panes/nodes';
import { FIXTURES } from '../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'pressure', `${name}.json`), 'utf8'));
const before = parseNodePressure(raw('before'));
const after = parseNodePressure(raw('nodeStats'), before);
const stats = parseNodeStats(raw('nodeStats'));

describe('the pressure read', () => {
  it("asks only for the pressure fields, in the Nodes pane's one _nodes/stats request", () => {
    expect(RESOURCES.nodeStats.request.path).toBe('/_nodes/stats/jvm,os,fs,thread_pool,breaker,indices/fielddata,search,indexing');
    for (const f of NODE_PRESSURE_FILTER.split(',')) expect(RESOURCES.nodeStats.request.querystring.filter_path.split(',')).toContain(f);
    expect(NODE_PRESSURE_FILTER).toContain('nodes.*.thread_pool.write.rejected');
    expect(NODE_PRESSURE_FILTER).not.toContain('thread_pool.*');
  });

  it('reads the sick node: write rejections since the previous answer, the request breaker tripped', () => {
    const [b] = before;
    const [a] = after;
    const write = (p: typeof a) => p.pools.find((x) => x.name === 'write')!;
    expect(write(b).rejectedSince).toBeNull();
    expect(write(a).rejected).toBeGreaterThan(write(b).rejected);
    expect(write(a).rejectedSince).toBe(write(a).rejected - write(b).rejected);
    expect(rejectionsSince(a)).toBeGreaterThan(0);
    expect(rejectionsSince(b)).toBeNull();
    const request = a.breakers.find((x) => x.name === 'request')!;
    expect(request.tripped).toBeGreaterThan(0);
    expect(request.trippedSince).toBe(request.tripped);
    expect(a.breakers[0].name).toBe('parent');
    expect(oldGenPercent(a)).toBeGreaterThan(0);
    expect(a.intervalMs).toBeGreaterThan(0);
    expect(a.indexPerSec).toBeGreaterThan(0);
    expect(a.gc.map((g) => g.name).sort()).toEqual(['old', 'young']);
  });

  it('a counter that went down (a restarted node) gives no "since"', () => {
    const restarted = parseNodePressure(raw('before'), after);
    expect(restarted[0].pools.find((x) => x.name === 'write')!.rejectedSince).toBeNull();
    expect(restarted[0].intervalMs).toBeNull();
  });

  it('each pool is compared with the same pool of the previous answer, and the same node', () => {
    const sample = (t: number, write: number, search: number) => ({
      nodes: { n1: { name: 'n', timestamp: t, thread_pool: { search: { rejected: search }, write: { rejected: write } } } },
    });
    const first = parseNodePressure(sample(1000, 10, 500));
    const next = parseNodePressure(sample(2000, 13, 501), first);
    expect(Object.fromEntries(next[0].pools.map((p) => [p.name, p.rejectedSince]))).toEqual({ search: 1, write: 3 });
    const otherNode = parseNodePressure({ nodes: { n2: sample(2000, 13, 501).nodes.n1 } }, first);
    expect(otherNode[0].pools.map((p) => p.rejectedSince)).toEqual([null, null]);
  });

  it('odd input: no nodes, missing sections', () => {
    expect(parseNodePressure({})).toEqual([]);
    const [p] = parseNodePressure({ nodes: { x: { name: 'n' } } });
    expect(p).toMatchObject({ name: 'n', pools: [], breakers: [], oldMaxBytes: 0, searchPerSec: null });
    expect(oldGenPercent(p)).toBeNull();
  });
});

describe('pressure lines', () => {
  it('shows the rejections since the last poll in red, and the tripped breaker', () => {
    const lines = pressureLines(after[0]);
    expect(lines[0].text).toMatch(/^a\/q\/rej write 0\/0\/\d+ \+\d+ · search/);
    expect(lines[0].tone).toBe('red');
    expect(lines[1].text).toMatch(/request .* tripped \d+ \+\d+/);
    expect(lines[1].tone).toBe('red');
    expect(lines[2].text).toMatch(/^old-gen \d+% .* · gc in [\d.]+s: young \+\d+ /);
  });

  it('a quiet node: no tone, totals on the first answer', () => {
    const lines = pressureLines(before[0]);
    expect(lines[0].tone).toBeUndefined();
    expect(lines[2].text).toContain(' · gc total: young ');
  });

  it('old-gen above 85% is red, above 75% yellow', () => {
    const p = { ...before[0], oldUsedBytes: 86, oldMaxBytes: 100 };
    expect(pressureLines(p)[2].tone).toBe('red');
    expect(pressureLines({ ...p, oldUsedBytes: 80 })[2].tone).toBe('yellow');
  });
});

describe('history', () => {
  const sample = (i: number): NodeSample => ({
    t: i,
    heapPercent: i,
    oldGenPercent: null,
    cpuPercent: 50,
    diskPercent: 10,
    rejections: i % 2,
    searchPerSec: 0,
    indexPerSec: i * 10,
  });

  it('keeps at most max samples a node, the newest', () => {
    let h: Record<string, NodeSample[]> | undefined;
    for (let i = 0; i < 10; i++) h = addSamples(h, { a: sample(i) }, 4);
    expect(h!.a.map((s) => s.t)).toEqual([6, 7, 8, 9]);
  });

  it('a sample per node from the pressure and the statistics beside it', () => {
    const s = nodeSamples(after, stats, 1000)[after[0].name];
    expect(s.rejections).toBe(rejectionsSince(after[0]));
    expect(s.heapPercent).toBeGreaterThan(0);
    expect(s.diskPercent).toBeGreaterThan(0);
    expect(s.cpuPercent).toBe(stats[0].cpuPercent);
  });

  it('sparkline: scaled to the top given or the largest shown, missing values blank, padded left', () => {
    expect(sparkline([0, 50, 100], 3, 100)).toBe('▁▅█');
    expect(sparkline([1, 2, 4, 8], 4)).toBe('▂▃▅█');
    expect(sparkline([null, 0], 4)).toBe('   ▁');
    expect(sparkline([5, 5, 5, 5, 5, 5], 3, 10)).toBe('▅▅▅');
    expect(sparkline([0, 0], 2)).toBe('▁▁');
  });

  it('sparkLines fit the width, two series a line, the newest value after each', () => {
    const lines = sparkLines(
      Array.from({ length: 100 }, (_, i) => sample(i)),
      80,
    );
    expect(lines).toHaveLength(4);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^heap +[▁-█]+ +99% {2}old +-$/);
    expect(lines[3]).toMatch(/^idx\/s .* 990$/);
  });
});
