// Plain values for the guard's target rules and the read-back of an unfinished change: every
// sentence compared whole, every branch of the filters taken (mutation testing found them unpinned).
import { describe, expect, it } from 'vitest';
import { describeOutcome, formatAuditRecord, parseAuditLog, type AuditRecord } from '../../src/domain/mutation/audit';
import { confirmationSatisfies } from '../../src/domain/mutation/confirmation';
import { curlLine, searchCurlArgv } from '../../src/domain/mutation/preview';
import type { MutationPlan } from '../../src/domain/mutation/plan';
import { compareResolution, compareUuids, describeMatch, isPattern, judgeResolution, pinIndices } from '../../src/domain/mutation/targets';
import { flatSettings, readBackOfRequest, unfinishedChanges, unfinishedOutcome } from '../../src/domain/mutation/unfinished';

describe('targets', () => {
  it('a pattern is a wildcard or a list; one name is not', () => {
    expect([isPattern('logs'), isPattern('logs*'), isPattern('a,b')]).toEqual([false, true, true]);
  });

  it('system indices a pattern matched are named, three at most', () => {
    expect(judgeResolution('l*', ['l1', '.l'])).toEqual({
      ok: false,
      error: '"l*" also matches 1 system (dot) index (.l): narrow the pattern, or add --include-system if you mean them',
    });
    expect(judgeResolution('*l*', ['.a', '.b', '.c'])).toMatchObject({
      error: expect.stringContaining('3 system (dot) indices (.a, .b, .c):'),
    });
    expect(judgeResolution('*l*', ['.d', '.a', '.b', '.c'])).toMatchObject({
      error: expect.stringContaining('4 system (dot) indices (.d, .a, .b, ...):'),
    });
    expect(judgeResolution('l*', ['l2', '.l', 'l1'], { includeSystem: true })).toEqual({
      ok: true,
      expression: 'l*',
      indices: ['.l', 'l1', 'l2'],
      isPattern: true,
    });
  });

  it('what a pattern matched, shown before anything runs', () => {
    expect(describeMatch(['a'])).toBe('1 index: a');
    expect(describeMatch(['a', 'b', 'c', 'd', 'e'])).toBe('5 indices: a, b, c, d, e');
    expect(describeMatch(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('7 indices: a, b, c, d, e, ... (2 more)');
    expect(describeMatch(['a', 'b', 'c'], 2)).toBe('3 indices: a, b, ... (1 more)');
    expect(describeMatch(['a\x1b[2J'])).toBe('1 index: a\\u001b[2J');
  });

  it('pins the previewed names into the path, and into the read-back when it names the same expression', () => {
    const plan = {
      method: 'PUT',
      path: '/l*/_settings/index',
      querystring: {},
      verify: { path: '/l*/_settings', check: () => ({ ok: true, message: '' }) },
    } as unknown as MutationPlan;
    const pinned = pinIndices(plan, 'l*', ['l2', 'l 1']);
    expect(pinned.path).toBe('/l%201,l2/_settings/index');
    expect(pinned.verify?.path).toBe('/l%201,l2/_settings');
    expect(pinned.resolved).toEqual({ expression: 'l*', indices: ['l 1', 'l2'] });
    const elsewhere = pinIndices({ ...plan, path: 'l*/_x', verify: { ...plan.verify!, path: '/_cluster/health' } }, 'l*', ['l1']);
    expect(elsewhere.path).toBe('/l1/_x');
    expect(elsewhere.verify?.path).toBe('/_cluster/health');
  });

  it('what changed between the preview and the send, in one sentence', () => {
    const tail = ': nothing was sent; preview again and confirm what it matches now';
    expect(compareResolution({ expression: 'l*', indices: ['l1'] }, ['l1'])).toBeNull();
    expect(compareResolution({ expression: 'l*', indices: ['l1'] }, ['l3', 'l1', 'l2'])).toBe(
      `"l*" now also matches 2 indices the preview did not show (l2, l3)${tail}`,
    );
    expect(compareResolution({ expression: 'l*', indices: ['l2', 'l1'] }, null)).toBe(
      `"l*" no longer matches 2 previewed indices (l1, l2)${tail}`,
    );
    expect(compareResolution({ expression: 'l*', indices: ['l1', 'l2'] }, ['l2', 'n'])).toBe(
      `"l*" now also matches 1 index the preview did not show (n) and no longer matches 1 previewed index (l1)${tail}`,
    );
    const many = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(compareResolution({ expression: 'x', indices: [] }, many)).toBe(
      `"x" now also matches 6 indices the preview did not show (a, b, c, d, e, ... (1 more))${tail}`,
    );
    expect(compareResolution({ expression: 'x', indices: [] }, many.slice(0, 5))).toContain('(a, b, c, d, e):');
  });

  it('the same names must still be the same indices (UUIDs)', () => {
    const tail = ': nothing was sent; preview again and confirm what it matches now';
    const before = new Map([
      ['b', 'u2'],
      ['a', 'u1'],
    ]);
    expect(compareUuids('x', before, new Map(before))).toBeNull();
    expect(compareUuids('x', before, new Map([['a', 'u1']]))).toBe(`"x" no longer matches 1 previewed index (b)${tail}`);
    expect(compareUuids('x', before, null)).toBe(`"x" no longer matches 2 previewed indices (a, b)${tail}`);
    expect(
      compareUuids(
        'x',
        before,
        new Map([
          ['a', 'u1'],
          ['b', 'new'],
        ]),
      ),
    ).toBe(`"x": b was deleted and re-created since the preview (another index under the same name)${tail}`);
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    const was = new Map(six.map((n) => [n, 'old']));
    expect(compareUuids('x', was, new Map(six.map((n) => [n, 'new'])))).toBe(
      `"x": a, b, c, d, e and 1 more were deleted and re-created since the preview (another index under the same name)${tail}`,
    );
    expect(compareUuids('x', new Map(six.slice(0, 5).map((n) => [n, 'old'])), new Map(six.slice(0, 5).map((n) => [n, 'new'])))).toContain(
      '"x": a, b, c, d, e were deleted',
    );
  });
});

const URL_ = 'http://127.0.0.1:9200';
const rec = (over: Partial<AuditRecord>): AuditRecord => ({
  id: 'a',
  time: '2026-11-26T04:00:00.000Z',
  profile: 'p',
  url: URL_,
  request: { method: 'PUT', path: '/_cluster/settings', querystring: {}, body: { persistent: { x: 1 } } },
  risk: 'reversible',
  target: 'cluster settings',
  summary: 's',
  confirmedBy: 'yes-flag',
  pid: 10,
  ...over,
});

describe('unfinished changes', () => {
  it('each condition on its own: an id, a request, not a read, a sender known dead or not recorded', () => {
    const dead = () => false;
    expect(unfinishedChanges([rec({ id: '' })], URL_, dead)).toEqual([]);
    expect(unfinishedChanges([rec({ request: undefined })], URL_, dead)).toEqual([]);
    expect(unfinishedChanges([rec({ risk: 'read' })], URL_, dead)).toEqual([]);
    const noPid = rec({ pid: undefined });
    expect(unfinishedChanges([noPid], URL_, () => true)).toEqual([noPid]);
  });

  it('only objects are flattened; lists stay values', () => {
    expect(flatSettings(null)).toEqual({});
    expect(flatSettings('abc')).toEqual({});
    expect(flatSettings([1, 2])).toEqual({});
    expect(flatSettings({ a: { b: [1, 2] } })).toEqual({ 'a.b': [1, 2] });
  });

  it('a cluster setting is read back in the scope it was sent to; one sent without a scope in either', () => {
    const scoped = readBackOfRequest(rec({}).request!)!;
    expect(scoped.check({ transient: { x: '1' } })).toEqual({ ok: false, message: 'the cluster does not hold persistent.x=1' });
    expect(scoped.check({ persistent: { x: '1' } })).toEqual({ ok: true, message: 'the cluster holds persistent.x as sent' });
    const bare = readBackOfRequest({ method: 'PUT', path: '/_cluster/settings', querystring: {}, body: { x: true, y: ['a', 'b'] } })!;
    expect(bare.check({ transient: { x: 'true', y: ['a', 'b'] } })).toEqual({ ok: true, message: 'the cluster holds x, y as sent' });
    expect(bare.check({ persistent: { x: 'true' }, transient: { y: 'a,b' } })).toEqual({
      ok: false,
      message: 'the cluster does not hold y=["a","b"]',
    });
    expect(bare.check({ persistent: { x: 'false' } })).toEqual({ ok: false, message: 'the cluster does not hold x=true, y=["a","b"]' });
    expect(readBackOfRequest({ method: 'POST', path: '/_cluster/settings', querystring: {}, body: { persistent: { x: 1 } } })).toBeNull();
  });

  it("an index setting: the index's own path only, names without index. completed, every index's sentence", () => {
    const put = (path: string, body: unknown) => readBackOfRequest({ method: 'PUT', path, querystring: {}, body });
    expect(put('/_x/a/_settings', { number_of_replicas: 1 })).toBeNull();
    expect(put('/a/_settings/extra', { number_of_replicas: 1 })).toBeNull();
    const v = put('/a,b/_settings', { number_of_replicas: 1 })!;
    expect(v.querystring).toEqual({ flat_settings: 'true', expand_wildcards: 'all' });
    const one = { settings: { 'index.number_of_replicas': '1' } };
    expect(v.check({ a: one, b: one })).toEqual({
      ok: true,
      message: 'a holds index.number_of_replicas as sent; b holds index.number_of_replicas as sent',
    });
    expect(v.check({ a: {}, b: { settings: {} } })).toEqual({
      ok: false,
      message: 'a does not hold index.number_of_replicas=1; b does not hold index.number_of_replicas=1',
    });
    expect(v.check(null)).toEqual({ ok: false, message: 'none of its indices is there any more' });
  });

  it('the outcome a later run records says why there was none', () => {
    expect(unfinishedOutcome(null, 'w')).toEqual({
      ok: false,
      durationMs: 0,
      error: 'no outcome recorded: shardeck stopped between sending and the answer',
      applied: 'unknown',
      readBack: 'w',
    });
  });
});

describe('the audit log', () => {
  const sent = rec({ id: 's1', time: 'T', request: { method: 'PUT', path: '/a/_settings', querystring: {}, body: { x: 1 } } });

  it('reads records, joins outcomes, and counts every other line as unreadable', () => {
    const text = [
      JSON.stringify(sent),
      '   ',
      'null',
      '[1]',
      '5',
      '{not json',
      JSON.stringify({ id: 'nt' }),
      JSON.stringify({ time: 'T', of: 'x' }),
      JSON.stringify({ of: 's1', time: 'T2', outcome: { ok: true, durationMs: 1 } }),
      JSON.stringify({ of: 's1', time: 'T3', outcome: { ok: false, durationMs: 1 } }),
      JSON.stringify({ time: 'T4', id: 7, phase: 'sending' }),
      JSON.stringify({ of: '7', time: 'T5', outcome: { ok: true, durationMs: 1 } }),
      '',
    ].join('\n');
    const log = parseAuditLog(text);
    expect(log.unreadable).toBe(8);
    expect(log.tornLastLine).toBe(false);
    expect(log.records).toEqual([
      { ...sent, outcome: { ok: true, durationMs: 1 }, outcomeTime: 'T2' },
      { time: 'T4', id: 7 },
    ]);
  });

  it('one line per record, each outcome in its own words', () => {
    const line = (outcome?: AuditRecord['outcome'], over: Partial<AuditRecord> = {}) => formatAuditRecord({ ...sent, outcome, ...over });
    expect(line()).toBe('T p PUT /a/_settings {"x":1} -> outcome unknown (no answer recorded)');
    expect(line({ ok: true, durationMs: 1 })).toBe('T p PUT /a/_settings {"x":1} -> ok');
    expect(line({ ok: true, durationMs: 1, status: 200, task: 'n:1' })).toBe('T p PUT /a/_settings {"x":1} -> ok 200 task n:1');
    expect(line({ ok: false, durationMs: 1, readBack: 'r', applied: 'yes', error: 'reset' })).toBe(
      'T p PUT /a/_settings {"x":1} -> no answer (reset); read back: applied',
    );
    expect(line({ ok: false, durationMs: 1, readBack: 'r' })).toBe(
      'T p PUT /a/_settings {"x":1} -> no answer (no response); read back: applied or not: unknown',
    );
    expect(line({ ok: false, durationMs: 1, readBack: 'r', status: 503, applied: 'no' })).toBe(
      'T p PUT /a/_settings {"x":1} -> FAILED 503; read back: not applied',
    );
    expect(line({ ok: false, durationMs: 1, status: 400, error: 'bad' })).toBe('T p PUT /a/_settings {"x":1} -> FAILED 400 bad');
    expect(line({ ok: false, durationMs: 1 })).toBe('T p PUT /a/_settings {"x":1} -> FAILED');
    expect(line({ ok: true, durationMs: 1 }, { request: { method: 'POST', path: '/a/_refresh', querystring: {} } })).toBe(
      'T p POST /a/_refresh -> ok',
    );
    expect(line({ ok: true, durationMs: 1 }, { platformUser: 'ann', request: undefined, command: 'systemctl stop x' })).toBe(
      'T p/ann $ systemctl stop x -> ok',
    );
    expect(line({ ok: true, durationMs: 1 }, { request: undefined, command: undefined })).toBe('T p $ ? -> ok');
    expect(line({ ok: true, durationMs: 1 }, { risk: 'read', command: undefined })).toBe('T p read (no change) $ ? -> ok');
  });

  it('what the cluster did, in one sentence, whatever the answer was', () => {
    expect(describeOutcome({ ok: true, applied: 'yes', status: 200, auditWarning: 'disk full' })).toBe('done (200) (warning: disk full)');
    expect(describeOutcome({ ok: false, applied: 'no' })).toBe('failed: nothing was retried');
    expect(describeOutcome({ ok: false, applied: 'yes', error: { message: 'reset' }, verified: { ok: true, message: 'holds' } })).toBe(
      'no answer (reset), but the cluster read back shows it applied (holds); it was not resent',
    );
    expect(describeOutcome({ ok: false, applied: 'unknown', status: 502, error: { message: 'bad gateway' } })).toBe(
      'bad gateway, and whether it was applied is unknown: check the cluster (shardeck status, shardeck tasks) before running it again; it was not resent',
    );
  });

  it('a key never confirms data loss, even with the right text', () => {
    const plan = { risk: 'destructive' as const, target: 'logs', confirmText: undefined };
    expect(confirmationSatisfies(plan, { by: 'key' })).toBe(false);
    expect(confirmationSatisfies(plan, { by: 'typed', text: 'logs' })).toBe(true);
    expect(confirmationSatisfies(plan, { by: 'yes-flag', text: 'log' })).toBe(false);
  });

  it('search_curl lines: a body only when there is one, the command and arguments quoted when they must be', () => {
    const sc = { command: 'search_curl', form: 'path' as const };
    expect(searchCurlArgv({ method: 'GET', path: '/_cat/health', querystring: {} }, 'http://h:9200', sc)).toEqual([
      'search_curl',
      '-X',
      'GET',
      '/_cat/health',
    ]);
    const conn = (command: string) => ({ url: 'http://h:9200', searchCurl: { command, form: 'curl' as const } });
    const req = { method: 'PUT' as const, path: '/a/_settings', querystring: { x: 'AB' } };
    expect(curlLine(req, conn('my curl'))).toBe(`'my curl' -X PUT 'http://h:9200/a/_settings?x=AB'`);
    expect(curlLine(req, conn('wrap;x'))).toBe(`'wrap;x' -X PUT 'http://h:9200/a/_settings?x=AB'`);
    expect(curlLine(req, conn('/usr/bin/sc'))).toBe(`/usr/bin/sc -X PUT 'http://h:9200/a/_settings?x=AB'`);
  });
});
