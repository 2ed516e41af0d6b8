// Every name of the hostile fixture that Elasticsearch accepts as an index is accepted by the
// checks in front of the commands too (a tab or a line break is not a space to the node): an
// index the cluster has must stay reachable by name, while the characters the node refuses
// are still refused in words.
import { describe, expect, it } from 'vitest';
import { checkOneIndex } from '../../src/domain/inspect/documents';
import { isSingleIndex } from '../../src/domain/inspect/inspect';
import { checkIndexExpression } from '../../src/domain/mutation/targets';
import { HOSTILE_INDICES } from '../fixtures/hostile/names';

describe('hostile but valid index names pass the checks', () => {
  it.each(HOSTILE_INDICES.map((n) => [JSON.stringify(n), n]))('%s', (_, name) => {
    expect(checkOneIndex(name)).toBeNull();
    expect(isSingleIndex(name)).toBe(true);
    expect(checkIndexExpression(name)).toBeNull();
  });

  it('a space and the characters the node refuses are still refused', () => {
    for (const bad of ['a b', 'a"b', 'a/b', 'a|b', 'a#b']) {
      expect(checkOneIndex(bad), bad).toMatch(/cannot have/);
      expect(checkIndexExpression(bad), bad).toMatch(/cannot have/);
    }
    expect(isSingleIndex('a b')).toBe(false);
  });
});

describe('the advice in the messages is true', () => {
  // shardeck status lists no indices; shardeck cat indices does.
  it('a wrong index name points at a command that lists the indices', async () => {
    const { judgeOneIndex } = await import('../../src/domain/inspect/documents');
    for (const message of [checkOneIndex('logs-*'), (judgeOneIndex('nope', []) as { error: string }).error]) {
      expect(message).toContain('shardeck cat indices');
      expect(message).not.toContain('shardeck status');
    }
  });
});
