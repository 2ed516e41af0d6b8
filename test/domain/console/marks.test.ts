// Marks on the Indices pane with plain values: toggled by name, the gone ones dropped, the change
// keys' target named one by one (never a pattern), the footer's lead.
import { describe, expect, it } from 'vitest';
import { markedTarget, marksLine, marksPresent, toggleMark } from '../../../src/domain/console/marks';

describe('marks', () => {
  it('Space marks, Space again unmarks; the set stays sorted and holds each name once', () => {
    let m = toggleMark([], 'service_v9_b');
    m = toggleMark(m, 'logs-1');
    expect(m).toEqual(['logs-1', 'service_v9_b']);
    expect(toggleMark(m, 'logs-1')).toEqual(['service_v9_b']);
    expect(toggleMark(toggleMark(m, 'x'), 'x')).toEqual(m);
  });

  it('a mark whose index is gone is dropped; the same array when none is (no store update)', () => {
    const m = ['a', 'b', 'c'];
    expect(marksPresent(m, ['a', 'c', 'd'])).toEqual(['a', 'c']);
    expect(marksPresent(m, ['c', 'b', 'a', 'z'])).toBe(m);
  });

  it('the target: the marked names still there, comma separated; none left: undefined (the highlighted index then)', () => {
    expect(markedTarget(['a', 'b', 'gone'], ['a', 'b', 'h'])).toBe('a,b');
    expect(markedTarget(['gone'], ['a', 'h'])).toBeUndefined();
    expect(markedTarget([], ['a'])).toBeUndefined();
    // A name that looks like a pattern is only ever a name the pane listed: a mark is never widened.
    expect(markedTarget(['logs-*'], ['logs-1', 'logs-2'])).toBeUndefined();
  });

  it('the footer lead: the count and the keys, the count alone when narrow', () => {
    expect(marksLine(3, 'Space', 'Esc', 80)).toBe('3 marked · Space mark · Esc clear');
    expect(marksLine(3, 'Space', 'Esc', 12)).toBe('3 marked');
  });
});
