import { describe, expect, it } from 'vitest';
import { cutLines, displayWidth, middleEllipsis, wholeLinesIn, wrapText } from '../../src/domain/text/text';

describe('display width', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('索引')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
  });

  it('agrees with string-width (what Ink lays out with) where a hand-kept table fell behind', () => {
    // Wide emoji outside the old ranges, a wide symbol, a fullwidth form, a Hangul syllable, a zero-width joiner.
    expect(displayWidth('\u{1F680}')).toBe(2);
    expect(displayWidth('\u231A')).toBe(2);
    expect(displayWidth('\uFF21')).toBe(2);
    expect(displayWidth('\uAC00')).toBe(2);
    expect(displayWidth('a\u200Db')).toBe(2);
    expect(middleEllipsis('\u{1F680}\u{1F680}\u{1F680}\u{1F680}', 5)).toBe('\u{1F680}…\u{1F680}');
  });
});

describe('middle ellipsis', () => {
  it('keeps a name that fits, and cuts a long one in the middle so the distinct ends stay', () => {
    expect(middleEllipsis('service_v9_kb', 20)).toBe('service_v9_kb');
    const a = middleEllipsis('logs-application-2026-11-22-000017', 20);
    const b = middleEllipsis('logs-application-2026-11-22-000018', 20);
    expect(a).not.toBe(b);
    expect(displayWidth(a)).toBe(20);
    expect(a).toBe('logs-appl…-22-000017');
    expect(middleEllipsis('abc', 1)).toBe('…');
    expect(middleEllipsis('abc', 0)).toBe('');
  });

  it('never splits a wide character and never goes over the width', () => {
    const s = middleEllipsis('索引索引索引索引索引', 9);
    expect(displayWidth(s)).toBeLessThanOrEqual(9);
    expect(s).toContain('…');
  });
});

describe('wrap', () => {
  it('wraps at spaces, and cuts a word longer than a line (a task id, a curl line)', () => {
    expect(wrapText('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrapText('task oTUltX4IQMOUUVeiohTt8A:12345678 done', 12)).toEqual(['task', 'oTUltX4IQMOU', 'UVeiohTt8A:1', '2345678 done']);
    expect(wrapText('', 10)).toEqual(['']);
  });

  it('keeps at most maxLines, the last ending in … when text was left out', () => {
    const lines = wrapText('a b c d e f g h', 3, 2);
    expect(lines).toEqual(['a b', 'c…']);
    expect(lines.every((l) => displayWidth(l) <= 3)).toBe(true);
  });
});

describe('cut lines', () => {
  it('keeps every character, so the lines join back into the curl line', () => {
    const curl = "curl -X POST 'http://127.0.0.1:9200/_index_template/_simulate_index/service_v9_alpha'";
    const lines = cutLines(curl, 20);
    expect(lines.join('')).toBe(curl);
    expect(lines.every((l) => displayWidth(l) <= 20)).toBe(true);
    expect(cutLines(curl, 20, 2)[1]).toMatch(/…$/);
  });
});

describe('wholeLinesIn (issue 47 item 7: never half a command)', () => {
  it('shows each line whole, every character kept; one that does not fit is named with the rest, not cut', () => {
    const a = 'x'.repeat(15);
    const b = 'y'.repeat(25);
    const c = 'z'.repeat(5);
    expect(wholeLinesIn([a, b, c], 10, 10)).toEqual(['x'.repeat(10), 'x'.repeat(5), ...cutLines(b, 10), c]);
    expect(wholeLinesIn([a, b, c], 10, 4)).toEqual(['x'.repeat(10), 'x'.repeat(5), '(2 more lines: a taller terminal shows them)']);
    expect(wholeLinesIn([a, c], 10, 2)).toEqual(['(2 more lines: a taller terminal shows them)']);
    expect(wholeLinesIn([a], 10, 1)).toEqual(['(1 more line: a taller terminal shows it)']);
  });
});
