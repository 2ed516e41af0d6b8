// The big _cat answers are decoded a slice at a time (cluster/connection.ts jsonRows): the rows
// must be exactly JSON.parse's, whatever the values hold.
import { describe, expect, it } from 'vitest';
import { jsonRows } from '../../src/cluster/connection';
import { RESOURCES } from '../../src/cluster/resources';
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURES, parsedAsPolled } from '../helpers/recorded';

const rows = (n: number, value: (i: number) => string | null) =>
  Array.from({ length: n }, (_, i) => ({ index: `logs-${i}`, 'unassigned.details': value(i), 'docs.count': String(i) }));

describe('jsonRows', () => {
  it('gives JSON.parse rows of a big answer (many slices), in order', () => {
    const all = rows(20_000, (i) => (i % 3 ? null : `failed: "quoted" ünïcödé ${i}`));
    expect([...jsonRows(Buffer.from(JSON.stringify(all)))]).toEqual(all);
  });

  it('a row separator inside a string value falls back to whole parsing, still exact', () => {
    const all = rows(20_000, (i) => (i % 50 === 0 ? `x},{"index":"fake-${i}"` : null));
    expect([...jsonRows(Buffer.from(JSON.stringify(all)))]).toEqual(all);
  });

  it('an empty or small answer, and pretty-printed JSON', () => {
    expect([...jsonRows(Buffer.from('[]'))]).toEqual([]);
    expect([...jsonRows(Buffer.from(JSON.stringify(rows(3, () => null))))]).toEqual(rows(3, () => null));
    const big = rows(10_000, () => null);
    expect([...jsonRows(Buffer.from(JSON.stringify(big, null, 2)))]).toEqual(big);
  });

  it('an answer in the chunks it arrived in, cut anywhere (inside a row, a separator or a UTF-8 character): the same rows, each chunk dropped once read', () => {
    const all = rows(20_000, (i) => (i % 3 ? null : `ünïcödé},{ ${i}`.slice(0, i % 2 ? 9 : 30)));
    const bytes = Buffer.from(JSON.stringify(all));
    for (const size of [1, 7, 4096, 65_536, 300_001]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      if (size === 1) chunks.splice(1000); // byte by byte: only the start, every cut inside the first rows
      const expected = size === 1 ? null : all;
      if (expected) expect([...jsonRows(chunks)]).toEqual(expected);
      else expect(() => [...jsonRows(chunks)]).toThrow(); // a cut-off answer is an error, never fewer rows
      expect(chunks.every((c) => c === undefined)).toBe(true);
    }
    expect([
      ...jsonRows([Buffer.from(' \n'), Buffer.from('[{"a":"é'), Buffer.from([0xc3]), Buffer.from([0xa9, 0x22, 0x7d, 0x5d])]),
    ]).toEqual([{ a: 'éé' }]);
  });

  it('a body that is not a JSON array throws', () => {
    expect(() => [...jsonRows(Buffer.from('<html>proxy error</html>'))]).toThrow();
    expect(() => [...jsonRows(Buffer.from('{"error":"not rows"}'))]).toThrow(/not a JSON array/);
  });

  it('the recorded big tables the UI tests load: streamed in small slices, the rows the whole-answer parser gives', () => {
    for (const scenario of ['yellow', 'red', 'full'])
      for (const name of ['indices', 'shards'] as const) {
        const streamed = parsedAsPolled(scenario, name);
        expect(streamed.length).toBeGreaterThan(5);
        expect(streamed).toEqual(
          RESOURCES[name].parse(JSON.parse(fs.readFileSync(path.join(FIXTURES, scenario, `${name}.json`), 'utf8')) as never),
        );
      }
    // The small slice is honoured: the first rows come out while most chunks are still unread.
    const bytes = Buffer.from(JSON.stringify(rows(40, () => null)));
    const cut = () => Array.from({ length: Math.ceil(bytes.length / 97) }, (_, i) => bytes.subarray(i * 97, i * 97 + 97));
    const sliced = cut();
    jsonRows(sliced, 509).next();
    expect(sliced.at(-1)).toBeDefined();
    const whole = cut();
    jsonRows(whole).next();
    expect(whole.at(-1)).toBeUndefined();
  });
});
