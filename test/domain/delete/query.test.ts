// Which documents a delete names: ages, dates, sources, JSON bodies, --expect.
import { describe, expect, it } from 'vitest';
import {
  jsonErrorOffset,
  lineColumn,
  parseExpected,
  parseOlderThan,
  parseQueryBody,
  parseUntil,
  sourceQuery,
} from '../../../src/domain/delete/query';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

describe('older-than', () => {
  it('resolves relative ages to an absolute instant before now', () => {
    expect(parseOlderThan('90d', NOW)).toEqual({ ok: true, value: '2026-08-24T08:00:00.000Z' });
    expect(parseOlderThan('2w', NOW)).toEqual({ ok: true, value: '2026-11-08T08:00:00.000Z' });
    expect(parseOlderThan('36h', NOW)).toEqual({ ok: true, value: '2026-11-20T20:00:00.000Z' });
  });
  it('takes ISO dates (date-only is midnight UTC) and times with a zone', () => {
    expect(parseOlderThan('2026-01-31', NOW)).toEqual({ ok: true, value: '2026-01-31T00:00:00.000Z' });
    expect(parseOlderThan('2026-01-31T12:30:00+02:00', NOW)).toEqual({ ok: true, value: '2026-01-31T10:30:00.000Z' });
  });
  it('refuses junk, zone-less times, zero ages and future dates with one sentence', () => {
    for (const bad of ['ninety days', '90', '2026-01-31T12:00:00', '2026-13-45', '0d', '2027-01-01']) {
      const r = parseOlderThan(bad, NOW);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error).toContain(`"${bad}"`);
    }
  });
  it('a date even one millisecond in the future is refused (it would match every document); now itself is the last instant taken', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    expect(parseOlderThan(at(NOW), NOW)).toEqual({ ok: true, value: at(NOW) });
    expect(parseOlderThan(at(NOW + 1), NOW)).toEqual({
      ok: false,
      error: `--older-than "${at(NOW + 1)}" is in the future, so it would match every document: give a past date`,
    });
    expect(parseOlderThan('2026-11-22', NOW)).toEqual({ ok: true, value: '2026-11-22T00:00:00.000Z' });
    expect(parseOlderThan('2026-11-23', NOW).ok).toBe(false);
    expect(parseOlderThan('2026-11-22T09:00:00+02:00', NOW)).toEqual({ ok: true, value: '2026-11-22T07:00:00.000Z' });
    expect(parseOlderThan('2026-11-22T09:00:01+01:00', NOW)).toMatchObject({ ok: false, error: expect.stringMatching(/is in the future/) });
  });
  it('an age reaching exactly the first instant of year 1 still passes', () => {
    const hours = (NOW - Date.parse('0001-01-01T00:00:00Z')) / 3_600_000;
    expect(parseOlderThan(`${hours}h`, NOW)).toEqual({ ok: true, value: '0001-01-01T00:00:00.000Z' });
    expect(parseOlderThan(`${hours + 1}h`, NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/before the year 1: give an age of at most \d+h$/),
    });
  });
  it('ages take upper-case units, and the smallest age is one hour before now', () => {
    expect(parseOlderThan('1H', NOW)).toEqual({ ok: true, value: '2026-11-22T07:00:00.000Z' });
    expect(parseOlderThan(' 1W ', NOW)).toEqual({ ok: true, value: '2026-11-15T08:00:00.000Z' });
    expect(parseOlderThan('0h', NOW)).toEqual({
      ok: false,
      error: '--older-than "0h" would match every document: give a positive age such as 90d',
    });
    expect(parseOlderThan('1d2', NOW).ok).toBe(false);
    expect(parseOlderThan('x1d', NOW).ok).toBe(false);
  });
});

describe('until', () => {
  it('a time is the instant; a date runs to the last millisecond of that day (UTC); not in the past is refused', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    expect(parseUntil(at(NOW - 1), NOW)).toEqual({ ok: true, value: at(NOW - 1) });
    expect(parseUntil(at(NOW), NOW)).toEqual({
      ok: false,
      error: `--until "${at(NOW)}" is not in the past, so it would match every document: give a past timestamp`,
    });
    expect(parseUntil('2026-11-21', NOW)).toEqual({ ok: true, value: '2026-11-21T23:59:59.999Z' });
    // Today has not ended: its end is in the future.
    expect(parseUntil('2026-11-22', NOW).ok).toBe(false);
    expect(parseUntil('2026-11-21', Date.UTC(2026, 10, 22)).ok).toBe(true);
    expect(parseUntil('2026-11-21', Date.UTC(2026, 10, 21, 23, 59, 59, 999)).ok).toBe(false);
    expect(parseUntil('2026-02-30', NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^--until "2026-02-30" is not a day of the calendar/),
    });
    expect(parseUntil('yesterday', NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^--until "yesterday" is not an ISO timestamp/),
    });
  });
});

describe('queries', () => {
  it('source is a term on assoc:sources', () => {
    expect(sourceQuery('src-crm')).toEqual({ ok: true, value: { term: { 'assoc:sources': 'src-crm' } } });
    expect(sourceQuery(' ').ok).toBe(false);
  });
  it('a logged body with a top-level query works as-is; other keys are named as ignored', () => {
    const r = parseQueryBody('{"query":{"match_all":{}},"size":5}', 'q.json');
    expect(r).toEqual({ ok: true, value: { query: { match_all: {} }, ignored: ['size'] } });
  });
  it('a body without "query", or with an empty one, is refused', () => {
    const r = parseQueryBody('{"term":{"a":1}}', 'q.json');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/has no top-level "query"/);
    expect(parseQueryBody('{"query":{}}', 'q.json').ok).toBe(false);
    expect(parseQueryBody('[1]', 'q.json').ok).toBe(false);
  });
  it('invalid JSON names the line and column, also where V8 gives no position', () => {
    const cases: [string, number, number][] = [
      ['{\n  "query": {\n    "term": }\n}', 3, 13], // unexpected token: V8 names no position
      ['{\n  "query": {"a": 1,}\n}', 2, 20],
      ['{"query": tru}', 1, 14],
      ['{"query": {}', 1, 13],
    ];
    for (const [text, line, column] of cases) {
      const r = parseQueryBody(text, 'q.json');
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.error, text).toContain(`line ${line}, column ${column}`);
    }
    expect(jsonErrorOffset('{"a":1}')).toBeNull();
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
  it('--expect is a whole number', () => {
    expect(parseExpected('1,234')).toEqual({ ok: true, value: 1234 });
    expect(parseExpected('12.5').ok).toBe(false);
    expect(parseExpected('-3').ok).toBe(false);
  });
});
