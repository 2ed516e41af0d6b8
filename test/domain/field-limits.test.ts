// Field limits on answers recorded from a real 8.19 node with indices near their limit on purpose
// (dev/record-field-limits.ts, dev/lib/sick-node.mjs nearFieldLimit): service_v9_near 19 fields of
// 20, service_v9_full 19 of 19 (the node refused the same mapping with a limit of 18: it counts
// 19, as countProperties does), service_v9_runtime 6 of 6 (an object, a multi-field and a runtime
// field: refused at 5) and service_v9_plain one field of the default 1000.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_LIMIT, fieldCountLine, fieldCounts, nearFieldLimit } from '../../src/domain/inspect/field-limits';
import { fieldLimitFindings } from '../../src/domain/doctor/fields';
import { FIXTURES } from '../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'field-limits', `${name}.json`), 'utf8'));
const counts = fieldCounts(raw('mappings'), raw('limits'));

describe('field limits', () => {
  it('counts fields as the node does (objects, multi-fields, runtime fields), against each limit, fullest first', () => {
    expect(counts.map((c) => [c.index, c.fields, c.limit])).toEqual([
      ['service_v9_full', 19, 19],
      ['service_v9_runtime', 6, 6],
      ['service_v9_near', 19, 20],
      ['service_v9_plain', 1, DEFAULT_FIELD_LIMIT],
    ]);
    expect(counts[2].percent).toBe(95);
  });

  it('lists from 80%: the three near ones, in lines of 80 columns with the name escaped', () => {
    const near = nearFieldLimit(counts);
    expect(near.map((c) => c.index)).toEqual(['service_v9_full', 'service_v9_runtime', 'service_v9_near']);
    expect(fieldCountLine(near[2], 80)).toEqual({
      text: expect.stringMatching(/^ {2}95% {2}19 \/ 20 {6} service_v9_near +$/),
      tone: 'red',
    });
    expect(fieldCountLine({ ...near[2], index: 'x\u001b[2J' }, 80).text).toContain('x\\u001b[2J');
    expect(fieldCountLine({ ...near[2], percent: 85 }, 80).tone).toBe('yellow');
  });

  it('doctor: warns at 90%, naming the full ones; ok with the fullest as evidence otherwise', () => {
    const [f] = fieldLimitFindings(counts);
    expect(f).toMatchObject({ id: 'mapping.field-limit', family: 'mapping', severity: 'warn', fix: { command: 'shardeck field-limits' } });
    expect(f.finding).toMatch(/^2 index\(es\) at their field limit: documents with new fields are refused .*; 3 at 90%\+$/);
    expect(f.evidence).toEqual([
      'service_v9_full: 19 fields of index.mapping.total_fields.limit 19 (100%)',
      'service_v9_runtime: 6 fields of index.mapping.total_fields.limit 6 (100%)',
      'service_v9_near: 19 fields of index.mapping.total_fields.limit 20 (95%)',
    ]);
    expect(f.remedy).toMatch(/"dynamic": false/);
    const plain = fieldLimitFindings(counts.filter((c) => c.index === 'service_v9_plain'));
    expect(plain).toMatchObject([{ severity: 'ok', evidence: ['fullest: service_v9_plain 1 of 1000 (0%)'] }]);
  });

  it('an answer filtered down to nothing (no index has fields) is none', () => {
    expect(fieldCounts({}, {})).toEqual([]);
    expect(fieldLimitFindings([])).toMatchObject([{ severity: 'ok', evidence: [] }]);
  });
});
