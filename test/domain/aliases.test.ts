// Alias plans: the write index kept or moved in the same atomic request, and refused when an alias
// that had a write index would be left without one.
import { describe, expect, it } from 'vitest';
import { aliasPlan, aliasViews } from '../../src/domain/maintenance/aliases';
import { parseAliasRows, writeIndexOf } from '../../src/domain/maintenance/index-admin';

const rows = parseAliasRows([
  { alias: 'logs', index: 'logs-1', is_write_index: 'true' },
  { alias: 'logs', index: 'logs-2', is_write_index: 'false' },
  { alias: 'solo', index: 'solo-1', is_write_index: '-' },
  { alias: 'none', index: 'n-1', is_write_index: '-' },
  { alias: 'none', index: 'n-2', is_write_index: '-' },
]);
const body = (c: Parameters<typeof aliasPlan>[0]) => {
  const p = aliasPlan(c, rows);
  return p.ok ? (p.plan.body as { actions: unknown[] }).actions : p.error;
};

describe('write index', () => {
  it('marked, an only unmarked index, or none', () => {
    expect(writeIndexOf('logs', rows)).toBe('logs-1');
    expect(writeIndexOf('solo', rows)).toBe('solo-1');
    expect(writeIndexOf('none', rows)).toBeNull();
    expect(aliasViews(rows).find((a) => a.alias === 'solo')).toEqual({
      alias: 'solo',
      indices: ['solo-1'],
      writeIndex: 'solo-1',
      explicit: false,
    });
  });
});

describe('plans', () => {
  it('add --write: the old write index stops taking writes in the same request', () => {
    expect(body({ kind: 'add', alias: 'logs', index: 'logs-3', write: true })).toEqual([
      { add: { index: 'logs-1', alias: 'logs', is_write_index: false } },
      { add: { index: 'logs-3', alias: 'logs', is_write_index: true } },
    ]);
  });

  it('add to an alias of one unmarked index marks that one, so writes stay there', () => {
    expect(body({ kind: 'add', alias: 'solo', index: 'solo-2', write: false })).toEqual([
      { add: { index: 'solo-1', alias: 'solo', is_write_index: true } },
      { add: { index: 'solo-2', alias: 'solo' } },
    ]);
  });

  it('swap moves the write index only when the one swapped out had it', () => {
    expect(body({ kind: 'swap', alias: 'logs', from: 'logs-1', to: 'logs-3' })).toEqual([
      { remove: { index: 'logs-1', alias: 'logs', must_exist: true } },
      { add: { index: 'logs-3', alias: 'logs', is_write_index: true } },
    ]);
    expect(body({ kind: 'swap', alias: 'logs', from: 'logs-2', to: 'logs-3' })).toEqual([
      { remove: { index: 'logs-2', alias: 'logs', must_exist: true } },
      { add: { index: 'logs-3', alias: 'logs' } },
    ]);
  });

  it('refused: leaving an alias with a write index without one; removing what is not there', () => {
    const three = parseAliasRows([
      { alias: 'a', index: 'x', is_write_index: 'true' },
      { alias: 'a', index: 'y', is_write_index: '-' },
      { alias: 'a', index: 'z', is_write_index: '-' },
    ]);
    const r = aliasPlan({ kind: 'remove', alias: 'a', index: 'x' }, three);
    expect(!r.ok && r.error).toMatch(/without a write index/);
    // Its last index removed: the alias goes with it (not an alias left without a write index).
    expect(aliasPlan({ kind: 'remove', alias: 'solo', index: 'solo-1' }, rows).ok).toBe(true);
    expect(body({ kind: 'remove', alias: 'logs', index: 'logs-9' })).toMatch(
      /logs-9 is not in the alias logs \(its indices: logs-1, logs-2\)/,
    );
  });
});
