import { describe, expect, it } from 'vitest';
import { compareText } from '../../src/domain/text/order';

describe('compareText', () => {
  it('orders by code unit, equal texts give 0', () => {
    expect(compareText('logs-1', 'logs-2')).toBeLessThan(0);
    expect(compareText('b', 'a')).toBeGreaterThan(0);
    expect(compareText('same', 'same')).toBe(0);
    expect(compareText('', 'a')).toBeLessThan(0);
    expect(['node-b', 'Node-a', 'node-a', '~', 'node-10', 'node-9'].sort(compareText)).toEqual([
      'Node-a',
      'node-10',
      'node-9',
      'node-a',
      'node-b',
      '~',
    ]);
  });
});
