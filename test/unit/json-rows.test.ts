// The big _cat answers are decoded a slice at a time (cluster/connection.ts jsonRows): the rows
// must be exactly JSON.parse's, whatever the values hold.
import { describe, expect, it } from 'vitest';
import { jsonRows } from '../../src/cluster/connection';

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

  it('a body that is not a JSON array throws', () => {
    expect(() => [...jsonRows(Buffer.from('<html>proxy error</html>'))]).toThrow();
  });
});
