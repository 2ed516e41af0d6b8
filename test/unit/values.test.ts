// Values Elasticsearch cannot take, or that overflow a date, are refused in words by the domain
// parsers (no throw: the console's delete wizard resolves the older-than field on every key).
import { describe, expect, it } from 'vitest';
import { parseExpected, parseOlderThan } from '../../src/domain/delete/query';
import { parseTimeoutSeconds } from '../../src/domain/text/values';
import { choiceOf, deleteMachine, parseRequestsPerSecond } from '../../src/domain/wizards/delete';
import { parseReplicaCount } from '../../src/domain/wizards/replicas';
import { ES_INT_MAX, parseScrollLimit } from '../../src/domain/wizards/scroll';
import { drive } from '../helpers/machines';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

describe('older than', () => {
  it.each(['300000000d', '9999999999999999999999h', '50000000w', '1e400d'])('%s is refused in words, never thrown', (input) => {
    const r = parseOlderThan(input, NOW);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^--older-than "/);
  });

  it("1y, as the help documents, is one calendar year back (Elasticsearch's now-1y); too many years are refused", () => {
    expect(parseOlderThan('1y', NOW)).toEqual({ ok: true, value: '2025-11-22T08:00:00.000Z' });
    expect(parseOlderThan('2Y', Date.UTC(2028, 1, 29))).toEqual({ ok: true, value: '2026-03-01T00:00:00.000Z' });
    expect(parseOlderThan('2026y', NOW)).toMatchObject({ ok: false, error: expect.stringMatching(/at most 2025y/) });
    expect(parseOlderThan('99999999999y', NOW).ok).toBe(false);
  });

  it('the largest age still reaching year 1 passes; one more is refused with the limit', () => {
    const limit = /at most (\d+)d/.exec((parseOlderThan('300000000d', NOW) as { error: string }).error)![1];
    expect(parseOlderThan(`${limit}d`, NOW)).toMatchObject({ ok: true, value: expect.stringMatching(/^0001-01-0\dT/) });
    expect(parseOlderThan(`${Number(limit) + 1}d`, NOW).ok).toBe(false);
  });

  it.each([
    '2026-02-31',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2025-02-29',
    '2026-02-30T00:00:00Z',
    '2026-01-31T25:00:00Z',
    '2026-01-31T12:61:00Z',
  ])('impossible date %s is refused', (input) => {
    const r = parseOlderThan(input, NOW);
    expect(r.ok).toBe(false);
  });

  it('real dates still pass (leap day included)', () => {
    expect(parseOlderThan('2024-02-29', NOW)).toEqual({ ok: true, value: '2024-02-29T00:00:00.000Z' });
    expect(parseOlderThan('2026-01-31T12:30:00+02:00', NOW)).toEqual({ ok: true, value: '2026-01-31T10:30:00.000Z' });
    expect(parseOlderThan('2026-01-31T12:30Z', NOW)).toEqual({ ok: true, value: '2026-01-31T12:30:00.000Z' });
  });

  it('typing 300000000d key by key into the delete wizard: every prefix resolves or says why, and submit stays in the form', () => {
    const text = '300000000d';
    for (let i = 1; i <= text.length; i++) {
      const c = choiceOf({ target: 'service_v9_alpha', kind: 'olderThan', value: text.slice(0, i), conflicts: 'abort', rate: '' }, NOW);
      // No prefix is a valid age (no unit yet, then beyond year 1): each is refused naming what was typed.
      expect(c).toEqual({
        ok: false,
        error: expect.stringMatching(new RegExp(`^older than "${text.slice(0, i)}" (is neither an age|reaches back before the year 1)`)),
      });
    }
    const { state, effects } = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      { type: 'edit', field: 'value', value: text },
      { type: 'submit', now: NOW },
    ]);
    expect(state).toMatchObject({ phase: 'input', error: expect.stringMatching(/before the year 1/) });
    expect(effects).toEqual([]);
  });
});

describe('numbers Elasticsearch reads as int or float', () => {
  it('scroll limit: at most 2147483647 (the setting is an int)', () => {
    expect(parseScrollLimit(String(ES_INT_MAX))).toEqual({ ok: true, value: ES_INT_MAX });
    for (const bad of ['2147483648', '3000000000', '99999999999999999999999']) {
      const r = parseScrollLimit(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/at most 2147483647/);
    }
  });

  it('replicas count: a whole number, refused when too large', () => {
    expect(parseReplicaCount('2')).toEqual({ ok: true, value: 2 });
    for (const bad of ['3000000000', '99999999999999999999', '-1', '1.5']) expect(parseReplicaCount(bad).ok).toBe(false);
  });

  it('requests per second: positive, at most a Java float', () => {
    expect(parseRequestsPerSecond('500')).toEqual({ ok: true, value: 500 });
    expect(parseRequestsPerSecond('-1')).toEqual({ ok: true, value: -1 });
    expect(parseRequestsPerSecond('9'.repeat(40)).ok).toBe(false);
    expect(parseRequestsPerSecond('9'.repeat(400)).ok).toBe(false);
  });

  it('--timeout: positive seconds, at most a week', () => {
    expect(parseTimeoutSeconds('90')).toEqual({ ok: true, value: 90 });
    for (const bad of ['0', '-5', 'abc', '1e300', '9'.repeat(400), '604801', 'Infinity']) expect(parseTimeoutSeconds(bad).ok).toBe(false);
  });

  it('--expect: exact counts only (beyond 2^53 a number is not exact)', () => {
    expect(parseExpected('1234')).toEqual({ ok: true, value: 1234 });
    expect(parseExpected('99999999999999999999').ok).toBe(false);
  });
});
