// The delete's input rules at their edges, each case chosen so that one wrong character in the rule
// changes the answer (the guarded mutation run of 2026-11-26 left these alive): where invalid JSON
// is wrong when V8 names no position, leap days and day 1, zones without a colon, whole messages.
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, parseExpected, parseOlderThan, parseQueryBody, parseUntil, sourceQuery } from '../../../src/domain/delete/query';
import { isTaskId, parseTask, taskIdOf } from '../../../src/domain/delete/task';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

describe('where invalid JSON is wrong, found by the walk when V8 says only "Unexpected token"', () => {
  // [text, offset of the first character that cannot continue it, V8's words without the quoted text]
  const cases: [string, number, string][] = [
    ['{"a": [1, 2, }', 13, "Unexpected token '}'"],
    ['{"b": [1,]}', 9, "Unexpected token ']'"],
    ['[{}, {} , ]', 10, "Unexpected token ']'"],
    // An escaped quote does not end the string: the walk reaches the ']' after "b".
    ['{"a": "x\\"y", "b": ]}', 19, "Unexpected token ']'"],
    // Nested arrays and objects, a negative number with a fraction and a signed exponent.
    ['[1, [2, 3], {"k": -1.5e+3}, x]', 28, "Unexpected token 'x'"],
    // A literal cut short is wrong where it stops spelling its word.
    ['{"a": tru}', 9, "Unexpected token '}'"],
    ['{"a": nul, "b": 1}', 9, "Unexpected token ','"],
    ['[fals]', 5, "Unexpected token ']'"],
  ];
  for (const [text, offset, message] of cases)
    it(text, () => {
      expect(jsonErrorOffset(text)).toEqual({ offset, message });
    });

  it('a long text V8 quotes cut ("...") loses its quote too; a position V8 gives is taken as is; the end of input is the length', () => {
    const long = `{"a": [${Array.from({ length: 40 }, (_, i) => i).join(', ')}, }`;
    expect(jsonErrorOffset(long)).toEqual({ offset: long.length - 1, message: "Unexpected token '}'" });
    expect(jsonErrorOffset('{"a" 1}')).toEqual({ offset: 5, message: "Expected ':' after property name" });
    expect(jsonErrorOffset('{"a": ')).toEqual({ offset: 6, message: 'Unexpected end of JSON input' });
    expect(jsonErrorOffset('{"a": [1]}')).toBeNull();
  });

  it('the operator reads the line and column of it', () => {
    const text = '{\n  "query": {"term": {"k": [1, 2, ]}}\n}';
    const r = parseQueryBody(text, 'q.json');
    expect(r).toEqual({
      ok: false,
      error: "q.json is not valid JSON at line 2, column 34 (Unexpected token ']'): fix it there; nothing was sent",
    });
  });
});

describe('dates at their edges', () => {
  it('29 February only in a leap year (every 4th, not every 100th, every 400th); day 1 and month 12 are days', () => {
    expect(parseUntil('2024-02-29', NOW)).toEqual({ ok: true, value: '2024-02-29T23:59:59.999Z' });
    expect(parseUntil('2000-02-29', NOW)).toEqual({ ok: true, value: '2000-02-29T23:59:59.999Z' });
    for (const notADay of ['2023-02-29', '1900-02-29', '2025-04-31']) {
      const r = parseUntil(notADay, NOW);
      expect(r, notADay).toEqual({
        ok: false,
        error: `--until "${notADay}" is not a day of the calendar (month 01-12, and no such day in that month): give a real date such as 2026-01-31`,
      });
    }
    // Month 00 or 13 and day 00 are not even ISO dates to Date.parse.
    for (const notIso of ['2025-00-10', '2025-13-01', '2025-01-00'])
      expect(parseUntil(notIso, NOW), notIso).toEqual({
        ok: false,
        error: `--until "${notIso}" is not an ISO timestamp: give one with its zone such as 2026-01-31T12:00:00Z, or a date such as 2026-01-31 (up to its end)`,
      });
    expect(parseOlderThan('2026-01-01', NOW)).toEqual({ ok: true, value: '2026-01-01T00:00:00.000Z' });
    expect(parseOlderThan('2025-12-31', NOW)).toEqual({ ok: true, value: '2025-12-31T00:00:00.000Z' });
  });

  it('a zone may be written without its colon; the value is trimmed first', () => {
    expect(parseUntil('2026-01-31T12:00:00+0100', NOW)).toEqual({ ok: true, value: '2026-01-31T11:00:00.000Z' });
    expect(parseUntil('  2026-01-31T12:00:00Z  ', NOW)).toEqual({ ok: true, value: '2026-01-31T12:00:00.000Z' });
  });

  it('an age of years beyond what a date can hold is refused in words, whatever its size', () => {
    for (const age of ['300001y', '1000000000000000000000y'])
      expect(parseOlderThan(age, NOW)).toEqual({
        ok: false,
        error: `--older-than "${age}" reaches back before the year 1: give an age of at most 2025y`,
      });
  });
});

describe('whole messages', () => {
  it('a source of blanks', () => {
    expect(sourceQuery('  ')).toEqual({ ok: false, error: 'no source given: --source takes a source id such as src-crm' });
  });
  it('a body that is not an object, or whose query is not a non-empty object', () => {
    expect(parseQueryBody('[1]', 'q.json')).toEqual({
      ok: false,
      error: 'q.json must hold a JSON object with a top-level "query", like {"query": {"term": {"assoc:sources": "src-crm"}}}',
    });
    for (const q of ['{}', '[]', 'null', '"x"'])
      expect(parseQueryBody(`{"query": ${q}}`, 'q.json'), q).toEqual({
        ok: false,
        error: '"query" in q.json must be a non-empty object such as {"match_all": {}}',
      });
  });
  it('--expect: digits only, with thousands commas and blanks around; beyond 2^53 refused', () => {
    expect(parseExpected(' 1,234 ')).toEqual({ ok: true, value: 1234 });
    expect(parseExpected('12a')).toEqual({
      ok: false,
      error: '--expect "12a" is not a number of documents: give the count the preview showed, e.g. --expect 1234',
    });
    expect(parseExpected('9007199254740993')).toEqual({
      ok: false,
      error: '--expect "9007199254740993" is larger than any count a preview shows: give the count the preview showed',
    });
  });
});

describe('task answers', () => {
  it('a task id is a string of node:number with any number of digits', () => {
    expect(taskIdOf({ task: 'abc-1_x:12345' })).toBe('abc-1_x:12345');
    expect(taskIdOf({ task: 12345 })).toBeNull();
    expect(taskIdOf(null)).toBeNull();
    expect(isTaskId('n:12')).toBe(true);
  });
  it('an empty or missing answer reads as nothing done, never throws', () => {
    for (const body of [undefined, null, {}])
      expect(parseTask('n:1', body)).toMatchObject({ completed: false, cancelled: false, cancellable: false, total: 0, failures: [] });
    expect(parseTask('n:1', { response: { failures: [{}, null] } }).failures).toEqual(['{}', 'null']);
  });
  it('cancellable only when the node says true', () => {
    expect(parseTask('n:1', { task: { cancellable: 'yes' } }).cancellable).toBe(false);
    expect(parseTask('n:1', { task: { cancellable: true } }).cancellable).toBe(true);
  });
  it('an error that names no cancellation is a failure, not a cancel', () => {
    const t = parseTask('n:1', { completed: true, error: { type: 'x', reason: 'shard failed' } });
    expect(t).toMatchObject({ cancelled: false, failures: ['x: shard failed'] });
    expect(parseTask('n:1', { completed: true, error: { reason: 'task was cancelled' } }).cancelled).toBe(true);
  });
});
