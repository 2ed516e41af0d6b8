// The doctor's rule table (issue 41): every finding the checks can give belongs to a rule, the
// generated docs/DOCTOR-RULES.md is the table as it is, every catalogue row a rule names exists in
// ../shared/DOCTOR-CATALOGUE.md, and which rows no rule answers yet is said here exactly.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOG_RULES } from '../../../src/domain/doctor/logs';
import { DOCTOR_RULES, NOT_APPLICABLE, ruleOf, ruleTableMarkdown } from '../../../src/domain/doctor/rules';

const DOCTOR_SRC = path.resolve('src/domain/doctor');
const CATALOGUE = path.resolve('../shared/DOCTOR-CATALOGUE.md');

/** The catalogue's rows: the first cell of every table row but the headers. */
function catalogueRows(): string[] {
  const text = fs.readFileSync(CATALOGUE, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| entry') && !l.startsWith('| ---'))
    .map((l) => l.split(' | ')[0].slice(2).trim());
}

/**
 * The ids the checks build, read from their source: `id: 'a.b'`, `id: \`a.b.${...}\``, and the
 * pressure checks' finding('name', ...) (pressure.name.node). Each as its fixed part.
 */
function idsInSource(): string[] {
  const out = new Set<string>();
  for (const f of fs.readdirSync(DOCTOR_SRC).filter((n) => n.endsWith('.ts') && n !== 'rules.ts')) {
    const text = fs.readFileSync(path.join(DOCTOR_SRC, f), 'utf8');
    for (const m of text.matchAll(/\bid: ['`]([a-z][a-z-]*\.[a-z-]+)/g)) out.add(m[1]);
    if (f === 'pressure.ts') for (const m of text.matchAll(/\bfinding\(\s*'([a-z-]+)'/g)) out.add(`pressure.${m[1]}`);
  }
  for (const r of LOG_RULES) out.add(`log.${r.id}`);
  return [...out].sort();
}

describe('the doctor rule table', () => {
  it('every id a check builds belongs to a rule (a new check needs its row)', () => {
    const ids = idsInSource();
    expect(ids.length).toBeGreaterThan(30);
    expect(ids.filter((id) => !ruleOf(id))).toEqual([]);
  });

  it('catches a check without a row, and matches at a dot only', () => {
    expect(ruleOf('capacity.shards')?.id).toBe('capacity.shards');
    expect(ruleOf('disk.watermark.node-1')?.id).toBe('disk.watermark');
    expect(ruleOf('upgrade.api.critical.x.1')?.id).toBe('upgrade');
    expect(ruleOf('disk.watermarks')).toBeUndefined();
    expect(ruleOf('nothing.here')).toBeUndefined();
  });

  it('ids are unique, and every row is filled in', () => {
    expect(new Set(DOCTOR_RULES.map((r) => r.id)).size).toBe(DOCTOR_RULES.length);
    for (const r of DOCTOR_RULES) {
      expect(r.what, r.id).not.toBe('');
      expect(r.severity, r.id).toMatch(/^(critical|warn|unknown)( \(.*?\))?( \/ (critical|warn|unknown)( \(.*?\))?)*$/);
      expect(r.remedy, r.id).not.toBe('');
    }
  });

  it('docs/DOCTOR-RULES.md is the generated table (npm run docs:rules)', () => {
    const doc = fs.readFileSync(path.resolve('docs/DOCTOR-RULES.md'), 'utf8');
    const block = /<!-- rules:start -->\n([\s\S]*?)\n<!-- rules:end -->/.exec(doc)?.[1];
    expect(block).toBe(ruleTableMarkdown());
  });

  it('every catalogue row a rule answers is a row of the catalogue', () => {
    const rows = new Set(catalogueRows());
    expect(rows.size).toBeGreaterThan(50);
    const named = [...DOCTOR_RULES.flatMap((r) => r.answers), ...NOT_APPLICABLE.map((n) => n.row)];
    expect(named.filter((n) => !rows.has(n))).toEqual([]);
  });

  it('the catalogue rows no rule answers yet, exactly (this list only shrinks)', () => {
    const answered = new Set([...DOCTOR_RULES.flatMap((r) => r.answers), ...NOT_APPLICABLE.map((n) => n.row)]);
    expect(catalogueRows().filter((r) => !answered.has(r))).toEqual(STILL_OPEN);
  });
});

/** Rows of ../shared/DOCTOR-CATALOGUE.md that no rule judges yet (issue 41 is done when this is empty: it is). */
const STILL_OPEN: string[] = [];
