// Hot spots on answers recorded from a real 3-node 8.19 cluster with a hot spot made on purpose
// (dev/record-hot-spots.ts: 16 one-shard indices held on node-1 by an allocation filter, 3 left to
// the balancer, bulk writes to node-1's indices). Its disks hold a few KB and its write load is a
// few hundredths of a thread: the disk and write cases scale the recorded figures (said where).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatAllocation } from '../../src/domain/parse';
import { parseNodePressure } from '../../src/domain/nodes/node-pressure';
import { HOT_FACTOR, hotSpotLine, hotSpots } from '../../src/domain/nodes/hot-spots';
import { hotSpotFindings } from '../../src/domain/doctor/hotspots';
import { FIXTURES, parsedAsPolled } from '../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'hot-spots', `${name}.json`), 'utf8'));
const allocation = parseCatAllocation(raw('allocation'));
const pressure = parseNodePressure(raw('nodeStats'));

describe('hot spots', () => {
  it('the recorded cluster: node-1 holds 2x the average shards and is marked; the others are not', () => {
    const h = hotSpots(allocation, pressure);
    expect(h.nodes.map((n) => n.node)).toEqual(['node-1', 'node-2', 'node-3']);
    const one = h.nodes[0];
    expect(one.shards).toBe(16);
    expect(one.shards).toBeGreaterThanOrEqual(HOT_FACTOR * h.average.shards);
    expect(one.hot).toEqual(['shards']);
    for (const n of h.nodes.slice(1)) expect(n.hot).toEqual([]);
    // The node reports its write load (8.6+): node-1 took every write.
    expect(one.writeLoad).toBeGreaterThan(0);
    expect(h.nodes[1].writeLoad).toBe(0);
  });

  it("the Nodes pane's line names the node and why, in red, within 80 columns", () => {
    const line = hotSpotLine(hotSpots(allocation, pressure), 80)!;
    expect(line.tone).toBe('red');
    expect(line.text.trimEnd()).toMatch(/^hot spot: node-1 shards 16 \(2\.\dx the average 6\)$/);
    expect(line.text.length).toBe(80);
  });

  it('disk and write load: marked at 2x the average (the recorded figures scaled to GB and busy threads)', () => {
    const big = allocation.map((d) => ({ ...d, indicesBytes: d.indicesBytes * 1024 * 10 }));
    const busy = pressure.map((p) => ({ ...p, writeLoad: (p.writeLoad ?? 0) * 100 }));
    const h = hotSpots(big, busy);
    expect(h.nodes[0].hot).toEqual(['shards', 'disk', 'write']);
    expect(hotSpotLine(h, 200)!.text).toMatch(
      /node-1 shards 16 .*, indices [\d.]+gb \(\d\.\dx the average [\d.]+gb\), write load [\d.]+ \(\d\.\dx/,
    );
    // Below a meaningful average (a few KB, a hundredth of a thread) nothing but the shards is compared.
    expect(hotSpots(allocation, pressure).nodes[0].hot).not.toContain('disk');
  });

  it('no hot spot: the spread; a single node: no line (the yellow scenario)', () => {
    const even = allocation.map((d) => ({ ...d, shards: 6 }));
    expect(hotSpotLine(hotSpots(even, pressure), 80)!.text.trimEnd()).toBe('no hot spot: shards 6-6 a node (marked at 2x the average)');
    expect(hotSpotLine(hotSpots(parsedAsPolled('yellow', 'allocation')), 80)).toBeNull();
  });

  it('a node without a write load (before 8.6): not compared on it', () => {
    const old = pressure.map((p, i) => (i === 0 ? { ...p, writeLoad: null } : p));
    const h = hotSpots(allocation, old);
    expect(h.average.writeLoad).toBeNull();
    expect(h.nodes[0].hot).toEqual(['shards']);
  });

  it('doctor: a warning for node-1 with every node as evidence and the remedy; ok when even or one node', () => {
    const [f, ...rest] = hotSpotFindings(hotSpots(allocation, pressure));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      id: 'hotspots.node.node-1',
      family: 'hotspots',
      severity: 'warn',
      node: 'node-1',
      fix: { command: 'shardeck balance' },
    });
    expect(f.finding).toMatch(/^hot spot: node-1 holds shards 16 \(2\.\dx the average 6\)/);
    expect(f.evidence).toHaveLength(4);
    expect(f.evidence[3]).toMatch(/^average: 6\.3 shards/);
    expect(f.remedy).toMatch(/allocation filters/);
    const even = hotSpotFindings(
      hotSpots(
        allocation.map((d) => ({ ...d, shards: 6 })),
        pressure,
      ),
    );
    expect(even).toMatchObject([{ id: 'hotspots.nodes', severity: 'ok' }]);
    expect(hotSpotFindings(hotSpots(parsedAsPolled('yellow', 'allocation')))).toMatchObject([
      { severity: 'ok', finding: 'one data node: no hot spot to compare' },
    ]);
  });
});
