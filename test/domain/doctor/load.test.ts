// Issue 41, pressure before it bites: queues filling, breakers near their limit, GC overhead, slow
// searches, indexing failures, a data node loaded above its peers, an unbalanced cluster. Each rule
// where it fires and where it holds: on answers recorded from real 8.19 nodes (the doctor's two
// samples and the desired balance of dev/record-doctor.ts; the node statistics of
// dev/record-pressure.ts, whose write pool was flooded) and on plain values for what a 2-core test
// machine does not show (a GC-bound node, second-long searches, peers to compare).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBalanceSummary } from '../../../src/domain/nodes/balance';
import {
  balanceFinding,
  breakerNearFindings,
  gcFindings,
  indexFailureFindings,
  loadedDataNodeFinding,
  queueFindings,
  searchLatencyFindings,
} from '../../../src/domain/doctor/load';
import { doctorSample, type DoctorSample, type NodeCounters } from '../../../src/domain/doctor/sample';
import { parseNodePressure } from '../../../src/domain/nodes/node-pressure';
import { FIXTURES } from '../../helpers/recorded';

const raw = (dir: string, name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, dir, `${name}.json`), 'utf8'));
const sampleOf = (name: string, t: number): DoctorSample => {
  const r = raw('doctor-ii', name);
  return doctorSample(t, r.stats, r.state, r.tasks);
};
const first = sampleOf('sample-first', 1_000_000);
const second = sampleOf('sample-second', 1_003_000);
const pressure = parseNodePressure(raw('pressure', 'nodeStats'));
const node = pressure[0].name;
/** The second read with one node's counters moved on by `d` over 3 s of its clock. */
const later = (d: Partial<NodeCounters>): DoctorSample => ({
  ...second,
  nodes: first.nodes.map((n) => ({ ...n, timestamp: n.timestamp + 3000, ...d })),
});

describe('pressure.queue', () => {
  const withQueue = (q: number) =>
    pressure.map((p) => ({ ...p, pools: p.pools.map((x) => (x.name === 'write' ? { ...x, queue: q } : x)) }));
  it('a write queue at half its size or more warns (the recorded node: write pool of queue 1, flooded)', () => {
    const [f] = queueFindings(withQueue(600), { [node]: { write: 1000, search: 1000 } }, undefined);
    expect(f).toMatchObject({ id: `pressure.queue.${node}`, severity: 'warn', node });
    expect(f.finding).toBe('the write queue holds 600 of 1000: requests are rejected (429) once it is full');
    expect(f.fix).toMatchObject({ key: 'P', pane: 'nodes' });
  });

  it('holds below half; without the sizes it is not judged', () => {
    expect(queueFindings(withQueue(100), { [node]: { write: 1000, search: 1000 } }, undefined)[0].severity).toBe('ok');
    expect(queueFindings(withQueue(100), undefined, undefined)[0].severity).toBe('unknown');
  });
});

describe('pressure.breaker-near', () => {
  it('the recorded quiet breakers hold (the parent at 15%)', () => {
    const [f] = breakerNearFindings(pressure);
    expect(f).toMatchObject({ severity: 'ok' });
    expect(f.evidence[0]).toMatch(/^breakers\.parent: 71\.1mb of 486mb \(15%\)$/);
  });

  it('the parent at 85% of its limit warns, with the heap remedy', () => {
    const near = pressure.map((p) => ({
      ...p,
      breakers: p.breakers.map((b) => (b.name === 'parent' ? { ...b, estimatedBytes: Math.round(b.limitBytes * 0.85) } : b)),
    }));
    const [f] = breakerNearFindings(near);
    expect(f).toMatchObject({
      severity: 'warn',
      finding: 'circuit breaker close to its limit: parent 85%: the next large request trips it',
    });
    expect(f.remedy).toMatch(/^the parent breaker counts the whole heap/);
  });
});

describe('pressure.gc', () => {
  it('the recorded reads: little time in GC, ok', () => {
    const [f] = gcFindings(first, second);
    expect(f).toMatchObject({ id: 'pressure.gc.doctor-rec', severity: 'ok' });
    expect(f.evidence[0]).toMatch(/^between two reads \d\.\d s apart: \d+ ms in GC, 0 old collection\(s\) \(0 ms\)$/);
  });

  it('a quarter of the window in GC warns, half is critical; a restart between the reads is said', () => {
    const base = first.nodes[0];
    expect(gcFindings(first, later({ gcMs: base.gcMs + 900 }))[0].severity).toBe('warn');
    const c = gcFindings(first, later({ gcMs: base.gcMs + 1600, oldGcCount: base.oldGcCount + 2, oldGcMs: base.oldGcMs + 1500 }))[0];
    expect(c).toMatchObject({
      severity: 'critical',
      finding: 'GC took 53% of the last 3.0 s: the node does little else, requests stall and time out',
    });
    expect(c.evidence[1]).toBe('old collections: 40.0 a minute at this rate');
    expect(gcFindings(first, later({ gcMs: 0 }))[0].severity).toBe('unknown');
  });
});

describe('pressure.search-latency', () => {
  it('the recorded reads hold (a few fast queries, or none in the window)', () => {
    expect(searchLatencyFindings(first, second)[0].severity).toBe('ok');
  });

  it('shard queries of 1.5 s on average in the window warn', () => {
    const base = first.nodes[0];
    const [f] = searchLatencyFindings(first, later({ queryTotal: base.queryTotal + 10, queryTimeMs: base.queryTimeMs + 15_000 }));
    expect(f).toMatchObject({
      severity: 'warn',
      finding: 'shard queries took 1500 ms on average in the last 3.0 s: searches are slow (1000 ms or more)',
    });
  });
});

describe('pressure.index-failures', () => {
  it('none in the recorded reads; five in the window warn', () => {
    expect(indexFailureFindings(first, second)[0].severity).toBe('ok');
    const base = first.nodes[0];
    const [f] = indexFailureFindings(first, later({ indexTotal: base.indexTotal + 100, indexFailed: base.indexFailed + 5 }));
    expect(f).toMatchObject({ severity: 'warn', finding: '5 documents failed to index in the last 3.0 s (1.7 a second)' });
  });
});

describe('hotspots.cpu', () => {
  const three = (cpus: number[]): DoctorSample => ({
    ...second,
    nodes: cpus.map((cpu, i) => ({ ...second.nodes[0], id: `n${i}`, name: `node-${i}`, cpuPercent: cpu })),
  });
  it("one data node at twice its peers' CPU and 50% or more warns, naming its hot threads", () => {
    const f = loadedDataNodeFinding(three([92, 30, 35]), three([96, 25, 30]));
    expect(f).toMatchObject({ id: 'hotspots.cpu', severity: 'warn', fix: { command: 'shardeck hot-threads node-0' } });
    expect(f.finding).toMatch(/^node-0 \(94%\): CPU 2x or more its peers'/);
  });

  it('holds when the nodes are alike, when all are low, and with one data node (the recorded node)', () => {
    expect(loadedDataNodeFinding(three([90, 85, 80]), three([90, 85, 80])).severity).toBe('ok');
    expect(loadedDataNodeFinding(three([30, 5, 5]), three([30, 5, 5])).severity).toBe('ok');
    expect(loadedDataNodeFinding(first, second)).toMatchObject({ severity: 'ok', finding: '1 data node: no peers to compare' });
  });
});

describe('balance.undesired', () => {
  const summary = parseBalanceSummary(raw('doctor-ii', 'desiredBalance'));
  it('the recorded balance: every copy where the balancer wants it', () => {
    expect(balanceFinding({ summary })[0]).toMatchObject({ severity: 'ok', finding: 'every copy where the balancer wants it' });
  });

  it('more than 10% of the copies undesired warns; before 8.6 or without the privilege it is said', () => {
    const off = { ...summary, stats: { ...summary.stats, allocations: 100, undesired: 30 } };
    expect(balanceFinding({ summary: off })[0]).toMatchObject({
      severity: 'warn',
      finding: 'the cluster is unbalanced: 30.0% of the copies are not where the balancer wants them (above 10%)',
      fix: { command: 'shardeck balance' },
    });
    expect(balanceFinding({ summary: { ...off, stats: { ...off.stats, undesired: 5 } } })[0].severity).toBe('ok');
    expect(balanceFinding({ why: 'not on this version' })[0].severity).toBe('unknown');
  });
});
