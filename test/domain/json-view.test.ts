// The JSON viewer's lines: flattened once, folded by index, cut to the width before a long string is copied.
import { describe, expect, it } from 'vitest';
import { containerOf, foldAll, jsonCopyTarget, jsonLines, linePieces, visibleLines } from '../../src/domain/console/json-view';
import { fixture } from '../ui/harness';

const DOC = fixture('documents', 'doc');
const text = (pieces: { text: string }[]) => pieces.map((p) => p.text).join('');

describe('json lines', () => {
  it('flattens a recorded document into the lines JSON.stringify(…, 2) prints', () => {
    const lines = jsonLines(DOC);
    const drawn = lines.map((l) => text(linePieces(l, false, 200)));
    expect(drawn).toEqual(JSON.stringify(DOC, null, 2).split('\n'));
  });

  it('empty containers are one line; folding hides a container down to its close', () => {
    const lines = jsonLines({ a: {}, b: [], c: { d: [1, 2], e: 'x' } });
    expect(lines.map((l) => text(linePieces(l, false, 80)))).toEqual([
      '{',
      '  "a": {},',
      '  "b": [],',
      '  "c": {',
      '    "d": [',
      '      1,',
      '      2',
      '    ],',
      '    "e": "x"',
      '  }',
      '}',
    ]);
    const c = 3;
    expect(visibleLines(lines, new Set([c])).map((i) => text(linePieces(lines[i], i === c, 80)))).toEqual([
      '{',
      '  "a": {},',
      '  "b": [],',
      '  "c": {…} 2 keys',
      '}',
    ]);
    expect([...foldAll(lines)]).toEqual([3, 4]);
    expect(containerOf(lines, 5)).toBe(4);
    expect(containerOf(lines, 9)).toBe(3);
  });

  it('tones: strings green, numbers yellow, the rest gray, keys bold; a long string is cut to the width', () => {
    const [, s, n, b] = jsonLines({ s: 'x'.repeat(5_000_000), n: 1.5, b: null });
    const ps = linePieces(s, false, 40);
    expect(text(ps)).toHaveLength(40);
    expect(text(ps)).toMatch(/^ {2}"s": "x+…$/);
    expect(ps.find((p) => p.text.startsWith('"x'))?.tone).toBe('green');
    expect(ps[1]).toMatchObject({ text: '"s": ', bold: true });
    expect(linePieces(n, false, 40).find((p) => p.text.startsWith('1.5'))?.tone).toBe('yellow');
    expect(linePieces(b, false, 40).find((p) => p.text === 'null')?.tone).toBe('gray');
  });

  it('a deeply nested value does not overflow the stack', () => {
    let v: unknown = 1;
    for (let i = 0; i < 50_000; i++) v = [v];
    expect(jsonLines(v)).toHaveLength(100_001);
  });
});

describe('y in a JSON view: the value under the cursor and its path', () => {
  const doc = { _id: 'd1', _source: { user: { name: 'alice', 'odd key': 3 }, tags: ['a', { b: true }] } };
  const lines = jsonLines(doc);
  const at = (pred: (l: (typeof lines)[number]) => boolean) => lines.findIndex(pred);

  it('a string as it is, a number as its JSON, named by its path from the top', () => {
    expect(
      jsonCopyTarget(
        doc,
        lines,
        at((l) => l.key === 'name'),
      ),
    ).toEqual({ path: '_source.user.name', text: 'alice' });
    expect(
      jsonCopyTarget(
        doc,
        lines,
        at((l) => l.key === 'odd key'),
      ),
    ).toEqual({ path: '_source.user["odd key"]', text: '3' });
    expect(
      jsonCopyTarget(
        doc,
        lines,
        at((l) => l.key === 'b'),
      ),
    ).toEqual({ path: '_source.tags[1].b', text: 'true' });
  });

  it('an object or array as its JSON; its closing bracket stands for it; the top is the whole document', () => {
    const open = at((l) => l.key === 'user');
    expect(jsonCopyTarget(doc, lines, open)).toEqual({ path: '_source.user', text: JSON.stringify(doc._source.user, null, 2) });
    expect(jsonCopyTarget(doc, lines, lines[open].end!)).toEqual(jsonCopyTarget(doc, lines, open));
    expect(jsonCopyTarget(doc, lines, 0)).toEqual({ path: '(the whole document)', text: JSON.stringify(doc, null, 2) });
    expect(jsonCopyTarget(doc, lines, lines.length)).toBeUndefined();
  });
});
