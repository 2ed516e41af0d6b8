// The Nodes pane's rows and verdict, from the recorded yellow scenario and sized variations of it.
import { describe, expect, it } from 'vitest';
import {
  fullestPath,
  nodeColumnsFor,
  nodeDetails,
  nodeLines,
  nodeVerdict,
  NODE_COLUMNS,
  NODE_SORT_KEYS,
} from '../../../src/domain/panes/nodes';
import { heapArgsVerdict, jvmSizeBytes, parseNodeJvm, parseNodeStats } from '../../../src/domain/nodes/node-stats';
import { elasticWidths, sortRows } from '../../../src/domain/text/table';
import fs from 'node:fs';
import path from 'node:path';
import { scenario } from './scenario';

const y = scenario('yellow');
const GB = 1024 ** 3;

describe('nodes pane rows', () => {
  it('joins each node with its open contexts and the cluster limit, and shows them as columns', () => {
    const [bare] = nodeLines(y.nodes, y.nodeStats.search, y.settings.maxOpenScrollContext);
    expect(bare).toMatchObject({ name: 'fixtures', openContexts: 0, scrollContextLimit: 500 });
    // Without node stats (not read yet): every figure they bring says '-', never 0%.
    expect(NODE_COLUMNS.map((c) => c.text(bare))).toEqual(['*fixtures', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '0/500']);
    expect(nodeVerdict(bare)[0]).toEqual({ text: 'heap and RAM: the node statistics are not read yet', tone: 'gray' });
    // With them (the same recording's _nodes/stats): heap, CPU, load and RAM are theirs.
    const [n] = nodeLines(y.nodes, y.nodeStats.search, y.settings.maxOpenScrollContext, y.nodeStats.stats);
    expect(NODE_COLUMNS.map((c) => c.text(n))).toEqual([
      '*fixtures',
      '44%',
      '████······',
      '225mb/512mb',
      '-',
      '10 580ms',
      '99%',
      '16.02',
      '69%',
      '0b',
      '23.5gb',
      '2%',
      '0/500',
    ]);
    // A node the search stats do not name: no count, shown as '-'.
    const [unknown] = nodeLines(y.nodes, [], 500);
    expect(NODE_COLUMNS.find((c) => c.title === 'scroll')!.text(unknown)).toBe('-');
  });

  it('the verdict names the heap rule, and says what to do when it is broken', () => {
    const [n] = nodeLines(y.nodes, y.nodeStats.search, 500, y.nodeStats.stats);
    expect(nodeVerdict(n)).toEqual([
      { text: 'heap max 512mb = 2% of RAM (limit 50%, never above 32gb)', tone: 'green' },
      { text: 'open search contexts 0 of search.max_open_scroll_context 500', tone: 'green' },
    ]);
    expect(nodeVerdict({ ...n, heapMaxBytes: 40 * GB, ramTotalBytes: 128 * GB })[0]).toMatchObject({
      tone: 'red',
      text: expect.stringMatching(/above 32gb: compressed pointers are off/),
    });
    expect(nodeVerdict({ ...n, heapMaxBytes: 16 * GB, ramTotalBytes: 24 * GB })[0]).toMatchObject({
      tone: 'yellow',
      text: expect.stringMatching(/over 50% of RAM/),
    });
    const full = nodeVerdict({ ...n, openContexts: 499 })[1];
    expect(full.tone).not.toBe('green');
    expect(full.text).toMatch(/raise the limit or shorten client scroll keep-alive$/);
    expect(nodeVerdict({ ...n, scrollContextLimit: null })).toHaveLength(1);
  });
});

const FIX = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'fixtures', 'yellow');
const raw = (f: string) => JSON.parse(fs.readFileSync(path.join(FIX, `${f}.json`), 'utf8'));

describe('node statistics (recorded _nodes/stats and _nodes/jvm)', () => {
  const stats = parseNodeStats(raw('nodeStats'));
  const jvm = parseNodeJvm(raw('nodeJvm'));

  it('parses heap, GC per collector, fielddata, RAM, load, CPU and each data path', () => {
    expect(stats).toHaveLength(1);
    const [s] = stats;
    expect(s.name).toBe('fixtures');
    expect(s.heapMaxBytes).toBe(512 * 1024 ** 2);
    expect(s.gc.map((c) => c.name).sort()).toEqual(['old', 'young']);
    expect(s.ramTotalBytes).toBeGreaterThan(0);
    expect(s.dataPaths).toHaveLength(1);
    expect(s.dataPaths[0].path).toMatch(/\/data$/);
    expect(s.dataPaths[0].availableBytes).toBeLessThanOrEqual(s.dataPaths[0].totalBytes);
  });

  it('takes -Xms/-Xmx from the JVM arguments (the last one wins), and says whether they are equal', () => {
    expect(jvm[0]).toMatchObject({
      name: 'fixtures',
      xms: '-Xms512m',
      xmx: '-Xmx512m',
      xmsBytes: 512 * 1024 ** 2,
      xmxBytes: 512 * 1024 ** 2,
    });
    expect(heapArgsVerdict(jvm[0])).toBe('equal');
    const differ = parseNodeJvm({ nodes: { a: { name: 'a', jvm: { input_arguments: ['-Xms1g', '-Xmx4g', '-Xms2g'] } } } })[0];
    expect(differ).toMatchObject({ xms: '-Xms2g', xmsBytes: 2 * GB, xmxBytes: 4 * GB });
    expect(heapArgsVerdict(differ)).toBe('differ');
    expect(heapArgsVerdict(parseNodeJvm({ nodes: { a: { name: 'a', jvm: { input_arguments: [] } } } })[0])).toBe('unknown');
    expect(jvmSizeBytes('31g')).toBe(31 * GB);
    expect(jvmSizeBytes('12x')).toBeNull();
  });

  it('joins stats and JVM arguments to the node; the verdict asks for Xms = Xmx when they differ', () => {
    const [n] = nodeLines(y.nodes, y.nodeStats.search, 500, stats, jvm);
    expect(n.stats?.name).toBe('fixtures');
    expect(NODE_COLUMNS.find((c) => c.title === 'Xms/Xmx')!.text(n)).toBe('512m/512m');
    expect(NODE_COLUMNS.find((c) => c.title === 'gc')!.text(n)).toMatch(/^\d+ \d+(ms|\.\ds)$/);
    expect(nodeDetails(n).map((l) => l.text)).toEqual([
      'heap 225mb of 512mb · -Xms512m = -Xmx512m',
      expect.stringMatching(/^gc (young|old) \d+ \(.+\), (young|old) \d+ \(.+\) · fielddata 0b \(0 evictions\)$/),
      expect.stringMatching(/^RAM .+ used of 23\.5gb · load [\d.]+ [\d.]+ [\d.]+ · cpu \d+%$/),
      expect.stringMatching(/^data \d+% used, .+ free of .+: \/.+\/data \(.+\)$/),
    ]);
    const odd = { ...n, jvm: { ...n.jvm!, xms: '-Xms256m', xmsBytes: 256 * 1024 ** 2 } };
    expect(nodeVerdict(odd)[1]).toEqual({
      text: '-Xms256m differs from -Xmx512m: set -Xms equal to -Xmx (the heap then never resizes under load)',
      tone: 'yellow',
    });
    expect(NODE_COLUMNS.find((c) => c.title === 'Xms/Xmx')!.tone!(odd)).toBe('yellow');
  });

  it('sorts by the fullest data path, and keeps to the width: 80 columns drop the last columns, 120 show them all', () => {
    const [n] = nodeLines(y.nodes, y.nodeStats.search, 500, stats, jvm);
    const full = {
      ...n,
      id: 'b',
      name: 'b',
      stats: { ...n.stats!, dataPaths: [{ path: '/x', mount: '/', totalBytes: 100, availableBytes: 5 }] },
    };
    expect(fullestPath(full)!.usedPercent).toBe(95);
    const key = NODE_SORT_KEYS.findIndex((k) => k.title === 'disk');
    expect(sortRows([full, n], NODE_SORT_KEYS, key, false).map((r) => r.name)).toEqual(['fixtures', 'b']);
    for (const w of [80, 100, 120, 160]) {
      const cols = nodeColumnsFor(w);
      const widths = elasticWidths(
        cols.map((c) => c.width),
        w,
        0,
      );
      expect(widths.reduce((a, b) => a + b, 0) + cols.length - 1).toBeLessThanOrEqual(w);
      expect(widths[0]).toBeGreaterThanOrEqual(12);
    }
    expect(nodeColumnsFor(80).map((c) => c.title)).toEqual(['node', 'heap%', 'heap', 'used/max', 'Xms/Xmx', 'gc', 'cpu', 'load']);
    expect(nodeColumnsFor(140)).toHaveLength(NODE_COLUMNS.length);
  });
});
