import { describe, expect, it } from 'vitest';
import { countOf } from '../../src/domain/text/format';

describe('countOf: one helper for "1 node", "2 nodes"', () => {
  it('puts the noun in the number the count needs', () => {
    expect(countOf(1, 'node')).toBe('1 node');
    expect(countOf(0, 'node')).toBe('0 nodes');
    expect(countOf(2, 'data node')).toBe('2 data nodes');
    expect(countOf(1200, 'index', 'indices')).toBe('1,200 indices');
    expect(countOf(1, 'index', 'indices')).toBe('1 index');
  });
});
