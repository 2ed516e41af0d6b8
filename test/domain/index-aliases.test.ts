// The aliases of one index in its detail (issue 43 item 5), from the answer recorded on a real node
// (test/fixtures/detail/*-aliases.json, dev/record-detail-fixtures.ts): each alias, the write index
// said, none said as none, and a failed read said rather than shown as none.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aliasesLine } from '../../src/domain/inspect/index-detail';
import { aliasesByIndex } from '../../src/domain/maintenance/aliases';

const read = (f: string) => JSON.parse(fs.readFileSync(`test/fixtures/detail/${f}`, 'utf8'));

describe('an index detail’s aliases', () => {
  it('each alias, sorted, the write index marked', () => {
    const a = aliasesByIndex(read('alpha-aliases.json')).service_v9_alpha;
    expect(a).toEqual([
      { name: 'all-projects', write: false },
      { name: 'alpha-writes', write: true },
    ]);
    expect(aliasesLine({ data: a, failures: 0 })?.text).toBe('aliases: all-projects, alpha-writes (write index)');
  });

  it('none is said; a read that failed is said, not shown as none; not read yet: no line', () => {
    expect(aliasesLine({ data: aliasesByIndex(read('wide-aliases.json')).service_v9_wide, failures: 0 })).toMatchObject({
      text: 'aliases: none',
      dim: true,
    });
    expect(aliasesLine({ failures: 1, error: { kind: 'http', message: 'security_exception' } })).toMatchObject({
      text: 'aliases: not read (security_exception)',
      tone: 'yellow',
    });
    expect(aliasesLine({ failures: 0 })).toBeNull();
    expect(aliasesLine(undefined)).toBeNull();
  });
});
