// The display boundary's one sanitiser over the hostile names fixture: nothing that moves the
// cursor, sets the title or reorders text survives; ordinary text (accents, combining marks, CJK)
// is untouched; JSON passed through it parses to the same values.
import { describe, expect, it } from 'vitest';
import { displayBlock, displayText, isDisplaySafe } from '../../src/domain/text/display-text';
import { HOSTILE } from '../fixtures/hostile/names';

// eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('displayText', () => {
  it('shows ESC, BEL, CSI, C1, DEL and the bidi overrides as visible \\uXXXX escapes', () => {
    expect(displayText('esc\u001b[2jcls')).toBe('esc\\u001b[2jcls');
    expect(displayText('osc\u001b]0;pwned\u0007')).toBe('osc\\u001b]0;pwned\\u0007');
    expect(displayText('c1\u009b31m\u007fdel')).toBe('c1\\u009b31m\\u007fdel');
    expect(displayText('rtl\u202egnp.exe')).toBe('rtl\\u202egnp.exe');
    expect(displayText('a\u2066b\u2069')).toBe('a\\u2066b\\u2069');
    expect(displayText('two\nlines\tand\r')).toBe('two\\u000alines\\u0009and\\u000d');
  });

  it('leaves ordinary text alone: shell metacharacters, accents, combining marks, wide characters', () => {
    for (const s of ['x$(touch${IFS}marker)', 'y`id`;', 'cafe\u0301-z\u0336', '\u00e9'.repeat(126), '日本語', '-x'])
      expect(displayText(s)).toBe(s);
  });

  it('every hostile name comes out with no control character left', () => {
    for (const { label, name } of HOSTILE) {
      const shown = displayText(name);
      expect(shown, label).not.toMatch(CONTROL);
      expect(isDisplaySafe(shown), label).toBe(true);
    }
  });
});

describe('displayBlock', () => {
  it('keeps the layout (line breaks and tabs) and escapes every other control', () => {
    expect(displayBlock('a\tb\nesc\u001b[2j\r\n')).toBe('a\tb\nesc\\u001b[2j\\u000d\n');
  });

  it('JSON through it stays JSON with the exact same values (C1 and bidi are not escaped by JSON.stringify)', () => {
    const value = { names: HOSTILE.map((h) => h.name) };
    const text = JSON.stringify(value, null, 2);
    expect(text).toMatch(/[\u009b\u202e]/);
    const shown = displayBlock(text);
    // eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
    expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(shown)).toEqual(value);
  });
});
