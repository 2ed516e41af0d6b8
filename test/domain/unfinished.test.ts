import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/domain/mutation/audit';
import type { MutationRequest } from '../../src/domain/mutation/plan';
import {
  flatSettings,
  readBackOfRequest,
  recordedTaskAmong,
  taskOfRequest,
  unfinishedChanges,
  unfinishedOutcome,
} from '../../src/domain/mutation/unfinished';
import { unfinishedMachine } from '../../src/domain/wizards/unfinished';

const URL_ = 'http://127.0.0.1:9200';
const rec = (over: Partial<AuditRecord>): AuditRecord => ({
  id: 'a',
  time: '2026-11-26T04:00:00.000Z',
  profile: 'p',
  url: URL_,
  request: { method: 'PUT', path: '/_cluster/settings', querystring: {}, body: { persistent: { 'search.max_open_scroll_context': 700 } } },
  risk: 'reversible',
  target: 'cluster settings',
  summary: 's',
  confirmedBy: 'yes-flag',
  pid: 10,
  ...over,
});

describe('unfinishedChanges', () => {
  it('a change to this cluster without an outcome whose sender is gone; not one still in flight, answered, elsewhere, a host read or another user', () => {
    const gone = rec({ id: 'gone' });
    const records = [
      gone,
      rec({ id: 'inflight', pid: 11 }),
      rec({ id: 'done', outcome: { ok: true, durationMs: 1, applied: 'yes' } }),
      rec({ id: 'other', url: 'http://127.0.0.1:9201' }),
      rec({ id: 'read', risk: 'read', request: undefined, command: 'service status' }),
      rec({ id: '0:x', journalOf: 'bob' }),
    ];
    expect(unfinishedChanges(records, URL_, (pid) => pid === 11)).toEqual([gone]);
    // No URL (shardeck audit's listing): every cluster's.
    expect(unfinishedChanges(records, undefined, (pid) => pid === 11).map((r) => r.id)).toEqual(['gone', 'other']);
  });
});

describe('the unfinished-changes dialog (unfinishedMachine)', () => {
  it('lists, reads back only once confirmed, and shows what the read-back said; nothing to confirm when none is left', () => {
    const m = unfinishedMachine();
    expect(m.init()).toEqual({ state: { phase: 'loading' }, effects: [{ type: 'load' }] });
    const review = m.step({ phase: 'loading' }, { type: 'loaded', changes: ['PUT /_cluster/settings -> outcome unknown'] });
    expect(review).toEqual({ state: { phase: 'review', changes: ['PUT /_cluster/settings -> outcome unknown'] }, effects: [] });
    const applying = m.step(review.state, { type: 'confirm', confirmation: { by: 'key' } });
    expect(applying.effects).toEqual([{ type: 'settle' }]);
    expect(m.step(applying.state, { type: 'settled', said: ['read back: applied'] }).state).toMatchObject({
      phase: 'done',
      said: ['read back: applied'],
    });
    const none = m.step({ phase: 'loading' }, { type: 'loaded', changes: [] }).state;
    expect(m.step(none, { type: 'confirm', confirmation: { by: 'key' } })).toEqual({ state: none, effects: [] });
    expect(m.step(review.state, { type: 'cancel' }).state).toEqual({ phase: 'cancelled' });
  });
});

describe('readBackOfRequest', () => {
  it('flattens what was sent as Elasticsearch names it', () => {
    expect(flatSettings({ index: { blocks: { read_only_allow_delete: null } }, 'index.x': 1 })).toEqual({
      'index.blocks.read_only_allow_delete': null,
      'index.x': 1,
    });
  });

  it('a cluster setting: holds or not, as strings', () => {
    const v = readBackOfRequest(rec({}).request!)!;
    expect(v).toMatchObject({ path: '/_cluster/settings', querystring: { flat_settings: 'true' } });
    expect(v.check({ persistent: { 'search.max_open_scroll_context': '700' }, transient: {} })).toMatchObject({ ok: true });
    expect(v.check({ persistent: { 'search.max_open_scroll_context': '500' } })).toEqual({
      ok: false,
      message: 'the cluster does not hold persistent.search.max_open_scroll_context=700',
    });
  });

  it('an index setting (a reset is null: absent), on every index of the path', () => {
    const v = readBackOfRequest({
      method: 'PUT',
      path: '/a,b/_settings',
      querystring: {},
      body: { 'index.blocks.read_only_allow_delete': null },
    })!;
    expect(v.path).toBe('/a,b/_settings');
    expect(v.check({ a: { settings: {} }, b: { settings: {} } })).toMatchObject({ ok: true });
    expect(v.check({ a: { settings: {} }, b: { settings: { 'index.blocks.read_only_allow_delete': 'true' } } })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^b does not hold/),
    });
    const replicas = readBackOfRequest({
      method: 'PUT',
      path: '/a/_settings',
      querystring: {},
      body: { index: { number_of_replicas: 1 } },
    })!;
    expect(replicas.check({ a: { settings: { 'index.number_of_replicas': '1' } } })).toMatchObject({ ok: true });
    expect(replicas.check({})).toMatchObject({ ok: false });
  });

  it('nothing to compare for a merge, a delete task or a body without settings', () => {
    expect(readBackOfRequest({ method: 'POST', path: '/a/_forcemerge', querystring: {} })).toBeNull();
    expect(readBackOfRequest({ method: 'POST', path: '/a/_delete_by_query', querystring: {}, body: { query: {} } })).toBeNull();
    expect(readBackOfRequest({ method: 'PUT', path: '/a/_settings', querystring: {}, body: {} })).toBeNull();
    expect(readBackOfRequest({ method: 'PUT', path: '/_index_template/t', querystring: {}, body: { x: 1 } })).toBeNull();
  });
});

describe('unfinishedOutcome', () => {
  it('applied yes / no from the read-back, unknown without one; never a success', () => {
    expect(unfinishedOutcome({ ok: true, message: 'm' }, 'w')).toMatchObject({ ok: false, applied: 'yes', readBack: '(by a later run) m' });
    expect(unfinishedOutcome({ ok: false, message: 'm' }, 'w')).toMatchObject({ applied: 'no' });
    expect(unfinishedOutcome(null, 'no check')).toMatchObject({ applied: 'unknown', readBack: 'no check' });
  });
});

describe('a merge or delete left unfinished, looked up among the running tasks', () => {
  const del: MutationRequest = { method: 'POST', path: '/service_v9_a,service_v9_b/_delete_by_query', querystring: {} };
  const sent = '2026-11-26T04:00:00.000Z';
  const at = (s: number) => Date.parse(sent) + s * 1000;
  const running = (over: Partial<{ id: string; action: string; description: string; runningMillis: number }>) => ({
    id: 'n1:7',
    action: 'indices:data/write/delete/byquery',
    description: 'delete-by-query [service_v9_a, service_v9_b]',
    runningMillis: 30_000,
    ...over,
  });

  it('names the task a request starts: delete-by-query and force merge only, by POST', () => {
    expect(taskOfRequest(del)).toEqual({ action: 'indices:data/write/delete/byquery', indices: ['service_v9_a', 'service_v9_b'] });
    expect(taskOfRequest({ method: 'POST', path: '/a%2Cb/_forcemerge', querystring: {} })).toEqual({
      action: 'indices:admin/forcemerge',
      indices: ['a,b'],
    });
    expect(taskOfRequest({ ...del, method: 'PUT' })).toBeNull();
    expect(taskOfRequest({ method: 'POST', path: '/_cluster/settings', querystring: {} })).toBeNull();
    expect(taskOfRequest({ method: 'POST', path: '/a/_refresh', querystring: {} })).toBeNull();
  });

  it('finds it by action, every index in its description, and a start no earlier than the record (5 s of clock skew)', () => {
    const t = taskOfRequest(del)!;
    // Started 10 s after the record: ours.
    expect(recordedTaskAmong(t, sent, [running({})], at(40))).toEqual(running({}));
    // Started 4 s before the record (skew): still ours; 6 s before: an older task of the same indices.
    expect(recordedTaskAmong(t, sent, [running({ runningMillis: 44_000 })], at(40))).not.toBeNull();
    expect(recordedTaskAmong(t, sent, [running({ runningMillis: 46_000 })], at(40))).toBeNull();
    // Another action, or missing one of the indices (a longer name containing it is not it).
    expect(recordedTaskAmong(t, sent, [running({ action: 'indices:admin/forcemerge' })], at(40))).toBeNull();
    expect(recordedTaskAmong(t, sent, [running({ description: 'delete-by-query [service_v9_a]' })], at(40))).toBeNull();
    expect(recordedTaskAmong(t, sent, [running({ description: 'delete-by-query [service_v9_aa, service_v9_b]' })], at(40))).toBeNull();
    const merge = taskOfRequest({ method: 'POST', path: '/a/_forcemerge', querystring: {} })!;
    const m = running({
      id: 'n1:9',
      action: 'indices:admin/forcemerge',
      description: 'Force-merge indices [a], maxSegments[1], onlyExpungeDeletes[false], flush[true]',
    });
    expect(recordedTaskAmong(merge, sent, [running({}), m], at(40))).toEqual(m);
    expect(recordedTaskAmong(merge, sent, [], at(40))).toBeNull();
  });
});
