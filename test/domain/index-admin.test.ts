// Whole-index plans with plain values: the request names the previewed indices (never the
// pattern), the refusals (hidden and system indices, an alias's write index), what a delete asks
// to be typed.
import { describe, expect, it } from 'vitest';
import {
  deleteConfirmText,
  indexActionPlan,
  parseAliasRows,
  parseIndexFacts,
  refusal,
  typedAheadText,
} from '../../src/domain/maintenance/index-admin';

const facts = parseIndexFacts(
  [
    { index: 'service_v9_b', uuid: 'u2', status: 'open', health: 'green', 'docs.count': '3', 'store.size': '100' },
    { index: 'logs-1', uuid: 'u1', status: 'close', health: 'red', 'docs.count': null, 'store.size': null },
  ],
  { 'logs-1': { settings: { index: { hidden: 'false' } } } },
  (i) => (i === 'logs-1' ? 'repo:snap-1' : null),
);

describe('whole indices', () => {
  it('facts: sorted, a closed index without counts, the project from the prefix only', () => {
    expect(facts.map((f) => [f.index, f.docs, f.project, f.newestSnapshot])).toEqual([
      ['logs-1', null, null, 'repo:snap-1'],
      ['service_v9_b', 3, 'b', null],
    ]);
  });

  it('the request names exactly the previewed indices; the guard re-checks those names, not the pattern', () => {
    const p = indexActionPlan('delete', facts, '*-1,service_v9_*');
    expect(p).toMatchObject({
      method: 'DELETE',
      path: '/logs-1,service_v9_b',
      risk: 'destructive',
      resolved: { expression: 'logs-1,service_v9_b' },
    });
    expect(p.confirmText).toBe('2 service_v9_b');
    expect(indexActionPlan('close', facts, 'x*')).toMatchObject({
      method: 'POST',
      path: '/logs-1,service_v9_b/_close',
      risk: 'reversible',
    });
    expect(typedAheadText('2', ['service_v9_b'])).toBe(deleteConfirmText(facts));
    expect(typedAheadText(undefined, ['service_v9_b'])).toBeUndefined();
  });

  it('refused: a hidden index, and for close and delete the write index of an alias', () => {
    const hidden = parseIndexFacts([{ index: 'h' }], { h: { settings: { index: { hidden: 'true' } } } }, () => null);
    expect(refusal('open', hidden, [])).toMatch(/hidden or system/);
    const aliases = parseAliasRows([{ alias: 'w', index: 'logs-1', is_write_index: '-' }]);
    expect(refusal('delete', facts, aliases)).toMatch(/logs-1 \(alias w\): the write index of an alias/);
    expect(refusal('open', facts, aliases)).toBeNull();
    const notWrite = parseAliasRows([
      { alias: 'w', index: 'logs-1', is_write_index: 'false' },
      { alias: 'w', index: 'other', is_write_index: 'true' },
    ]);
    expect(refusal('close', facts, notWrite)).toBeNull();
  });
});
