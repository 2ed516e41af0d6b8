// Which nodes an allocation filter keeps shards off, as Elasticsearch's DiscoveryNodeFilters
// matches them: comma-separated values, `*` wildcards, _name/_ip/_host/_id and node attributes.
import { describe, expect, it } from 'vitest';
import {
  allocationFilters,
  clearFilterPlan,
  isFilterKey,
  keepsOff,
  parseFilterNodes,
} from '../../src/domain/maintenance/allocation-filters';

const nodes = parseFilterNodes({
  nodes: {
    a1: { name: 'node-1', ip: '10.0.0.1', host: 'es-a', attributes: { zone: 'a' } },
    b2: { name: 'node-2', ip: '10.0.0.2', host: 'es-b', attributes: { zone: 'b' } },
    c3: { name: 'node-3', ip: '10.0.1.3', host: 'es-c', attributes: {} },
  },
});

describe('keepsOff', () => {
  it.each([
    ['exclude', '_name', 'node-2', ['node-2']],
    ['exclude', '_name', 'node-2, node-3', ['node-2', 'node-3']],
    ['exclude', '_ip', '10.0.0.*', ['node-1', 'node-2']],
    ['include', '_host', 'es-a', ['node-2', 'node-3']],
    ['include', 'zone', 'a,b', ['node-3']],
    ['require', 'zone', 'a', ['node-2', 'node-3']],
    ['require', '_id', 'a1', ['node-2', 'node-3']],
    ['exclude', '_name', 'nobody', []],
  ] as const)('%s.%s = %s keeps shards off %j', (kind, attr, value, off) => {
    expect(keepsOff(kind, attr, value, nodes)).toEqual(off);
  });
});

it('every filter of the cluster and of each index; the data tier preference is not one', () => {
  expect(isFilterKey('index.routing.allocation.include._tier_preference')).toBe(false);
  const filters = allocationFilters(
    {
      persistent: { 'cluster.routing.allocation.exclude._name': 'node-2' },
      transient: { 'cluster.routing.allocation.exclude._name': 'node-3' },
    },
    { logs: { settings: { index: { routing: { allocation: { include: { _tier_preference: 'data_content', zone: 'a' } } } } } } },
    nodes,
  );
  expect(filters.map((f) => [f.origin, f.key, f.value, f.keepsOff])).toEqual([
    ['persistent', 'cluster.routing.allocation.exclude._name', 'node-2', ['node-2']],
    ['transient', 'cluster.routing.allocation.exclude._name', 'node-3', ['node-3']],
    ['index', 'index.routing.allocation.include.zone', 'a', ['node-2', 'node-3']],
  ]);
  const plan = clearFilterPlan(filters.filter((f) => f.level === 'cluster'));
  expect(plan.body).toEqual({
    persistent: { 'cluster.routing.allocation.exclude._name': null },
    transient: { 'cluster.routing.allocation.exclude._name': null },
  });
  const idx = clearFilterPlan(filters.filter((f) => f.index === 'logs'));
  expect(idx).toMatchObject({
    method: 'PUT',
    path: '/logs/_settings',
    body: { 'index.routing.allocation.include.zone': null },
    resolved: { indices: ['logs'] },
  });
});
