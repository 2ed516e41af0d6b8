// What limits allocation, and shardeck's record of what it changed (plain values shaped as
// GET _cluster/settings answers: nested with filter_path, flat with flat_settings=true).
import { describe, expect, it } from 'vitest';
import {
  allocationEnablePlan,
  allocationKeysOfPlan,
  allocationLimits,
  allocationValuesOf,
  differences,
  effectiveAllocation,
  parseAllocationRecord,
  recordBefore,
  restorePlan,
  touchesAllocation,
  type AllocationRecord,
} from '../../src/domain/maintenance/allocation-limits';
import { parseClusterSettings } from '../../src/domain/parse';
import { buildStatusReport, statusExitCode } from '../../src/domain/inspect/status';
import { scrollLimitPlan } from '../../src/domain/wizards/scroll';

const head = { clusterUuid: 'u-1', url: 'http://localhost:9200', at: '2026-11-26T04:00:00.000Z', user: 'root', pid: 42 };

describe('allocation limits', () => {
  it('reads enable, rebalance and excludes per level from a flat answer, and nothing else', () => {
    const v = allocationValuesOf({
      persistent: { 'cluster.routing.allocation.enable': 'primaries', 'search.max_open_scroll_context': '900' },
      transient: {
        'cluster.routing.rebalance.enable': 'none',
        'cluster.routing.allocation.exclude._name': 'n2',
        'cluster.routing.allocation.exclude._ip': '',
      },
    });
    expect(v).toEqual({
      persistent: { 'cluster.routing.allocation.enable': 'primaries' },
      transient: { 'cluster.routing.rebalance.enable': 'none', 'cluster.routing.allocation.exclude._name': 'n2' },
    });
  });

  it('transient wins over persistent, and each limit gets a line', () => {
    const eff = effectiveAllocation({
      persistent: { 'cluster.routing.allocation.enable': 'none' },
      transient: { 'cluster.routing.allocation.enable': 'primaries', 'cluster.routing.allocation.exclude._name': 'n2' },
    });
    expect(allocationLimits(eff).map((l) => [l.setting, l.value])).toEqual([
      ['cluster.routing.allocation.enable', 'primaries'],
      ['cluster.routing.allocation.exclude._name', 'n2'],
    ]);
    expect(allocationLimits({ 'cluster.routing.allocation.enable': 'all', 'cluster.routing.rebalance.enable': 'all' })).toEqual([]);
  });

  it('the Health pane and status read them from the nested settings answer; status exits 1 on a green cluster with a limit', () => {
    const settings = parseClusterSettings({
      persistent: { cluster: { routing: { allocation: { enable: 'primaries' } } } },
      defaults: { cluster: { routing: { allocation: { enable: 'all' }, rebalance: { enable: 'all' } } } },
    });
    expect(settings.allocationLimits.map((l) => l.value)).toEqual(['primaries']);
    const health = {
      clusterName: 'c',
      status: 'green' as const,
      numberOfNodes: 1,
      numberOfDataNodes: 1,
      activePrimaryShards: 0,
      activeShards: 0,
      relocatingShards: 0,
      initializingShards: 0,
      unassignedShards: 0,
      unassignedPrimaryShards: 0,
      delayedUnassignedShards: 0,
      pendingTasks: 0,
      activeShardsPercent: 100,
    };
    const limited = buildStatusReport({ health, allocation: [], settings, blocks: [] });
    expect(limited.allocationLimits[0].text).toMatch(/limited to primaries/);
    expect(statusExitCode(limited)).toBe(1);
    const free = buildStatusReport({ health, allocation: [], settings: { ...settings, allocationLimits: [] }, blocks: [] });
    expect(statusExitCode(free)).toBe(0);
  });
});

describe('the record of what shardeck changed', () => {
  const enable = allocationEnablePlan('primaries', 'for a test');

  it('knows which plans change allocation', () => {
    expect(allocationKeysOfPlan(enable)).toEqual({ persistent: ['cluster.routing.allocation.enable'], transient: [] });
    expect(touchesAllocation(scrollLimitPlan(900, 500))).toBe(false);
    expect(
      touchesAllocation({
        method: 'PUT',
        path: '/_cluster/settings',
        body: { transient: { cluster: { routing: { allocation: { exclude: { _name: 'n1' } } } } } },
      }),
    ).toBe(true);
    expect(touchesAllocation({ ...enable, method: 'POST' })).toBe(false);
  });

  it('keeps the value before the FIRST change, and adds keys a later change touches', () => {
    const first = recordBefore(null, enable, { persistent: {}, transient: {} }, head)!;
    expect(first.before).toEqual({ persistent: { 'cluster.routing.allocation.enable': null }, transient: {} });
    const second = recordBefore(
      first,
      {
        ...allocationEnablePlan('none', 'again'),
        body: { persistent: { 'cluster.routing.allocation.enable': 'none' }, transient: { 'cluster.routing.rebalance.enable': 'none' } },
      },
      { persistent: { 'cluster.routing.allocation.enable': 'primaries' }, transient: {} },
      { ...head, pid: 43 },
    )!;
    expect(second.before).toEqual({
      persistent: { 'cluster.routing.allocation.enable': null },
      transient: { 'cluster.routing.rebalance.enable': null },
    });
    expect(second.pid).toBe(42);
    expect(recordBefore(null, scrollLimitPlan(900, 500), { persistent: {}, transient: {} }, head)).toBeNull();
  });

  it('the restore plan puts back only what still differs (null unsets) and its read-back checks it', () => {
    const rec = recordBefore(null, enable, { persistent: {}, transient: {} }, head)!;
    const now = { persistent: { 'cluster.routing.allocation.enable': 'primaries' }, transient: {} };
    const diffs = differences(rec, now);
    expect(diffs).toEqual([{ level: 'persistent', setting: 'cluster.routing.allocation.enable', before: null, now: 'primaries' }]);
    const plan = restorePlan(rec, diffs)!;
    expect(plan).toMatchObject({
      method: 'PUT',
      path: '/_cluster/settings',
      body: { persistent: { 'cluster.routing.allocation.enable': null } },
    });
    expect(plan.summary).toMatch(/cluster.routing.allocation.enable primaries -> unset \(persistent\)/);
    expect(plan.verify!.check({ persistent: {}, transient: {} }).ok).toBe(true);
    expect(plan.verify!.check({ persistent: { 'cluster.routing.allocation.enable': 'primaries' } }).ok).toBe(false);
    expect(differences(rec, { persistent: {}, transient: {} })).toEqual([]);
    expect(restorePlan(rec, [])).toBeNull();
  });

  it('a record file is trusted only in its own shape', () => {
    const rec: AllocationRecord = recordBefore(null, enable, { persistent: {}, transient: {} }, head)!;
    expect(parseAllocationRecord(JSON.stringify(rec))).toEqual(rec);
    expect(parseAllocationRecord('not json')).toBeNull();
    expect(parseAllocationRecord(JSON.stringify({ ...rec, version: 2 }))).toBeNull();
    // A record naming a setting that is not an allocation setting would make restore change anything: refused.
    expect(
      parseAllocationRecord(JSON.stringify({ ...rec, before: { persistent: { 'search.max_open_scroll_context': '1' }, transient: {} } })),
    ).toBeNull();
    expect(
      parseAllocationRecord(JSON.stringify({ ...rec, before: { persistent: { 'cluster.routing.allocation.enable': 5 }, transient: {} } })),
    ).toBeNull();
  });
});
