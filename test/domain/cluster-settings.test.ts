// The cluster settings' rows, value checks, nearest keys, watermark order and the record of values
// before, from an 8.19 node's recorded answers (test/fixtures/admin/: include_defaults with
// watermark.high set to 88% persistent, and the node's own settings).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkValue,
  nearestKeys,
  parseClusterSettings,
  parseSettingsRecord,
  recordBefore,
  resetPlan,
  restorePlan,
  setPlan,
  settingRows,
  type ClusterSettingsFacts,
} from '../../src/domain/maintenance/cluster-settings';

const read = (f: string) => JSON.parse(fs.readFileSync(`test/fixtures/admin/${f}`, 'utf8'));
const recorded = parseClusterSettings(read('cluster-settings-8.19.json'), read('nodes-settings-8.19.json'));
const LOW = 'cluster.routing.allocation.disk.watermark.low';
const HIGH = 'cluster.routing.allocation.disk.watermark.high';

function withSet(persistent: Record<string, string>, transient: Record<string, string> = {}): ClusterSettingsFacts {
  const defaults = { ...recorded.defaults };
  for (const k of [...Object.keys(persistent), ...Object.keys(transient)]) delete defaults[k];
  return { ...recorded, persistent, transient, defaults };
}

describe('rows', () => {
  it('a persistent change with its default (from the table: the node leaves a set key out of its defaults) and meaning', () => {
    const f = withSet({ [HIGH]: '88%' });
    const rows = settingRows(f, true);
    expect(rows).toContainEqual(expect.objectContaining({ key: HIGH, value: '88%', origin: 'persistent', default: '90%' }));
    // The node's identity (name, folders, ports) is not a difference; what else its file sets is, default unknown.
    expect(rows.map((r) => r.key)).not.toContain('path.data');
    expect(rows).toContainEqual(expect.objectContaining({ key: 'xpack.security.enabled', origin: 'file', default: null }));
    expect(rows.map((r) => r.key)).not.toContain(LOW);
    expect(settingRows(f, false)).toContainEqual(expect.objectContaining({ key: LOW, origin: 'default', value: '85%' }));
  });

  it("nodes whose files disagree: each node's value", () => {
    const f = {
      ...recorded,
      nodeFiles: { 'node-1': { 'thread_pool.write.queue_size': '500' }, 'node-2': { 'thread_pool.write.queue_size': '900' } },
    };
    const [row] = settingRows(f, true).filter((r) => r.key === 'thread_pool.write.queue_size');
    expect(row).toMatchObject({ origin: 'file', value: '500', nodes: ['node-1', 'node-2'], perNode: { 'node-1': '500', 'node-2': '900' } });
    const same = { ...recorded, nodeFiles: { a: { 'x.y': '1' }, b: { 'x.y': '1' } } };
    expect(settingRows(same, true).find((r) => r.key === 'x.y')?.perNode).toBeUndefined();
  });

  it('a transient value wins, is flagged deprecated and names the persistent one it hides', () => {
    const [row] = settingRows(withSet({ [LOW]: '80%' }, { [LOW]: '70%' }), true).filter((r) => r.key === LOW);
    expect(row).toMatchObject({ origin: 'transient', value: '70%', shadowed: { origin: 'persistent', value: '80%' } });
    expect(row.deprecated).toMatch(/deprecated in 8/);
  });
});

describe('values', () => {
  const f = recorded;
  it.each([
    ['search.max_open_scroll_context', '1000', true],
    ['search.max_open_scroll_context', '-1', false],
    ['search.max_open_scroll_context', '2147483648', false],
    ['search.max_open_scroll_context', '1k', false],
    ['cluster.max_shards_per_node', '0', false],
    ['action.destructive_requires_name', 'yes', false],
    ['action.destructive_requires_name', 'false', true],
    [LOW, '80%', true],
    [LOW, '101%', false],
    [LOW, '0.8', true],
    [LOW, '50gb', true],
    [LOW, 'lots', false],
    ['indices.recovery.max_bytes_per_sec', '100mb', true],
    ['indices.recovery.max_bytes_per_sec', '100 mb', false],
    ['cluster.routing.allocation.enable', 'primaries', true],
    ['cluster.routing.allocation.enable', 'some', false],
    ['cluster.info.update.interval', '30s', true],
    ['cluster.info.update.interval', '30', false],
  ])('%s = %s: %s', (key, value, ok) => {
    expect(checkValue(key, value, f).ok).toBe(ok);
  });

  it('an unknown key: refused with the nearest known ones', () => {
    expect(nearestKeys('search.max_open_scrol_context', f)[0]).toBe('search.max_open_scroll_context');
    const r = setPlan('cluster.routing.allocation.disk.watermark.lwo', '80%', f);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/nearest known: cluster\.routing\.allocation\.disk\.watermark\.low/);
    // An allocation filter by a node attribute is named by the operator: accepted.
    expect(setPlan('cluster.routing.allocation.exclude.zone', 'a', f).ok).toBe(true);
  });
});

describe('plans', () => {
  it('set: persistent only, read back; refused under a transient value it would not override', () => {
    const r = setPlan('search.max_open_scroll_context', '900', recorded);
    expect(r.ok && r.plan).toMatchObject({
      method: 'PUT',
      path: '/_cluster/settings',
      body: { persistent: { 'search.max_open_scroll_context': '900' } },
    });
    expect(r.ok && r.plan.verify?.check({ persistent: { 'search.max_open_scroll_context': '900' } }).ok).toBe(true);
    expect(r.ok && r.plan.verify?.check({ persistent: {} }).ok).toBe(false);
    const shadowed = setPlan(LOW, '80%', withSet({}, { [LOW]: '70%' }));
    expect(!shadowed.ok && shadowed.error).toMatch(/set transient \(70%\).*reset it first/);
  });

  it('the watermarks in the order Elasticsearch 8 accepts: high only after low, low reset only after high', () => {
    const high = setPlan(HIGH, '88%', recorded);
    expect(!high.ok && high.error).toMatch(/refuses .*high while .*low is left to its default/);
    expect(setPlan(HIGH, '88%', withSet({ [LOW]: '80%' })).ok).toBe(true);
    const low = resetPlan(LOW, withSet({ [LOW]: '80%', [HIGH]: '88%' }));
    expect(!low.ok && low.error).toMatch(/reset .*high first/);
    expect(resetPlan(HIGH, withSet({ [LOW]: '80%', [HIGH]: '88%' })).ok).toBe(true);
  });

  it('the record keeps the first values; restore puts them back per level', () => {
    const head = { at: '2026-11-28T00:00:00Z', user: 'op' };
    const first = recordBefore(null, 'uuid', LOW, { persistent: null, transient: '70%' }, head);
    const second = recordBefore(first, 'uuid', LOW, { persistent: '80%', transient: null }, head);
    expect(second.before[LOW]).toMatchObject({ persistent: null, transient: '70%' });
    expect(parseSettingsRecord(JSON.stringify(second))).toEqual(second);
    expect(parseSettingsRecord('{"version":1,"clusterUuid":"u","before":{"k":{"persistent":{}}}}')).toBeNull();
    const r = restorePlan(LOW, second, withSet({ [LOW]: '75%' }));
    expect(r.ok && r.plan.body).toEqual({ persistent: { [LOW]: null }, transient: { [LOW]: '70%' } });
    expect(restorePlan(HIGH, second, recorded).ok).toBe(false);
  });
});
