// The node pressure rules on GET _nodes/stats recorded from a real 8.19 node made sick on purpose
// (dev/record-pressure.ts: write rejections from a flooded pool of one thread and a queue of one,
// the request breaker tripped by a lowered limit) and on the same node quiet.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNodePressure, type NodePressure } from '../../../src/domain/nodes/node-pressure';
import { parseNodeStats, type NodeStats } from '../../../src/domain/nodes/node-stats';
import { pressureFindings, parseQueueSizes, THREAD_POOL_QUEUE_FILTER } from '../../../src/domain/doctor/pressure';
import type { NodeSample } from '../../../src/domain/nodes/node-history';
import { FIXTURES } from '../../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'pressure', `${name}.json`), 'utf8'));
const quiet = parseNodePressure(raw('before'));
const sick = parseNodePressure(raw('nodeStats'), quiet);
const stats = parseNodeStats(raw('nodeStats'));
const name = sick[0].name;
const byId = (
  p: readonly NodePressure[],
  more: { stats?: NodeStats[]; queueSizes?: Record<string, Record<string, number>>; history?: Record<string, NodeSample[]> } = {},
) =>
  Object.fromEntries(pressureFindings({ pressure: p, stats: more.stats ?? stats, ...more }).map((f) => [f.id.replace(`.${name}`, ''), f]));
const withCpu = (cpu: number | null) => stats.map((s) => ({ ...s, cpuPercent: cpu }));

describe('pressure rules', () => {
  it('a quiet node: every rule ok (CPU below 90%)', () => {
    const f = byId(quiet, { stats: withCpu(12) });
    expect(Object.keys(f).sort()).toEqual(['pressure.breaker', 'pressure.cpu', 'pressure.old-gen', 'pressure.rejections']);
    for (const x of Object.values(f)) expect(x.severity).toBe('ok');
    expect(f['pressure.rejections'].remedy).toBeUndefined();
  });

  it('write rejections: a warning; critical when the queue is full now', () => {
    const f = byId(sick);
    expect(f['pressure.rejections']).toMatchObject({ severity: 'warn', node: name, fix: { key: 'P', pane: 'nodes' } });
    expect(f['pressure.rejections'].finding).toMatch(/^requests rejected since the node started \(write \d+\)/);
    expect(f['pressure.rejections'].remedy).toMatch(/back off on 429/);
    const full = sick.map((p) => ({ ...p, pools: p.pools.map((x) => (x.name === 'write' ? { ...x, queue: 1 } : x)) }));
    const c = byId(full, { queueSizes: { [name]: { write: 1, search: 1000 } } })['pressure.rejections'];
    expect(c.severity).toBe('critical');
    expect(c.finding).toContain('the write queue is full now');
    expect(c.evidence).toContain(`thread_pool.write: active 0, queue 1 of 1, rejected ${sick[0].pools[0].rejected}`);
  });

  it("the request breaker tripped: a warning; the parent's trips are critical", () => {
    const f = byId(sick);
    expect(f['pressure.breaker'].severity).toBe('warn');
    expect(f['pressure.breaker'].finding).toMatch(/^circuit breaker tripped: request \d+ times/);
    const parent = sick.map((p) => ({ ...p, breakers: p.breakers.map((b) => (b.name === 'parent' ? { ...b, tripped: 3 } : b)) }));
    const c = byId(parent)['pressure.breaker'];
    expect(c.severity).toBe('critical');
    expect(c.finding).toMatch(/^the parent circuit breaker tripped 3 times/);
    expect(c.remedy).toMatch(/fielddata/);
  });

  it('old-gen above 85% warns, above 95% is critical', () => {
    const at = (used: number) => byId(sick.map((p) => ({ ...p, oldUsedBytes: used, oldMaxBytes: 100 })))['pressure.old-gen'];
    expect(at(85).severity).toBe('ok');
    expect(at(86).severity).toBe('warn');
    expect(at(96).severity).toBe('critical');
    expect(at(86).finding).toMatch(/^JVM memory pressure 86%/);
    expect(byId(sick.map((p) => ({ ...p, oldMaxBytes: 0 })))['pressure.old-gen'].severity).toBe('unknown');
  });

  it('CPU: one high reading is not a fault; 6 high samples in a row warn', () => {
    expect(byId(sick, { stats: withCpu(100) })['pressure.cpu']).toMatchObject({ severity: 'unknown' });
    const sample = (cpu: number): NodeSample => ({
      t: 0,
      heapPercent: 1,
      oldGenPercent: 1,
      cpuPercent: cpu,
      diskPercent: 1,
      rejections: 0,
      searchPerSec: 0,
      indexPerSec: 0,
    });
    const high = Array.from({ length: 6 }, () => sample(95));
    expect(byId(sick, { history: { [name]: high } })['pressure.cpu'].severity).toBe('warn');
    expect(byId(sick, { history: { [name]: [...high.slice(1), sample(40)] } })['pressure.cpu'].severity).toBe('ok');
  });

  it('the queue sizes of GET _nodes/thread_pool, by node name', () => {
    expect(THREAD_POOL_QUEUE_FILTER).toBe(
      'nodes.*.name,nodes.*.thread_pool.write.queue_size,nodes.*.thread_pool.search.queue_size,nodes.*.thread_pool.get.queue_size',
    );
    expect(
      parseQueueSizes({ nodes: { x: { name: 'n1', thread_pool: { write: { queue_size: 1 }, search: { queue_size: 1000 } } } } }),
    ).toEqual({
      n1: { write: 1, search: 1000 },
    });
    expect(parseQueueSizes({})).toEqual({});
  });
});
