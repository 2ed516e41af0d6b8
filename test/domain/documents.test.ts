// What get / search / the Documents view check before sending, and the view's machine.
import { describe, expect, it } from 'vitest';
import {
  checkOneIndex,
  docChoice,
  hitRow,
  judgeOneIndex,
  mappedFields,
  pageText,
  queryFields,
  unmappedFieldsError,
  windowError,
} from '../../src/domain/inspect/documents';
import { parseUntil, untilQuery } from '../../src/domain/delete/query';
import { documentsMachine, foundSomething, type DocsEvent } from '../../src/domain/wizards/documents';
import { fixture } from '../ui/harness';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

describe("until (the seed's lte)", () => {
  it('a timestamp is sent as the instant; a date runs to the end of that day; future and junk refused', () => {
    expect(parseUntil('2026-01-31T12:30:00+02:00', NOW)).toEqual({ ok: true, value: '2026-01-31T10:30:00.000Z' });
    expect(parseUntil('2026-01-31', NOW)).toEqual({ ok: true, value: '2026-01-31T23:59:59.999Z' });
    expect(untilQuery('2026-01-31T23:59:59.999Z')).toEqual({ range: { modified_at: { lte: '2026-01-31T23:59:59.999Z' } } });
    for (const bad of ['yesterday', '2026-02-30', '2027-01-01', '2026-01-31T12:00:00']) expect(parseUntil(bad, NOW).ok, bad).toBe(false);
  });
});

describe('one index', () => {
  it('refuses patterns, lists, _all and bad names; says how many an alias names', () => {
    for (const bad of ['service_v9_*', 'a,b', '_all', '', '-a', 'a b']) expect(checkOneIndex(bad), bad).not.toBeNull();
    expect(checkOneIndex('service_v9_alpha')).toBeNull();
    expect(judgeOneIndex('x', null)).toMatchObject({ ok: false, error: expect.stringMatching(/no index "x"/) });
    expect(judgeOneIndex('x', ['a', 'b'])).toMatchObject({ ok: false, error: expect.stringMatching(/names 2 indices \(a, b\)/) });
    expect(judgeOneIndex('x', ['a'])).toEqual({ ok: true, value: 'a' });
  });

  it('from + size within index.max_result_window', () => {
    expect(windowError('i', 0, 10_000, 10_000)).toBeNull();
    expect(windowError('i', 0, 10_001, 10_000)).toMatch(/--size 10001 is above index.max_result_window of i \(10000\)/);
    expect(windowError('i', 9_995, 10, 10_000)).toMatch(/--from 9995 \+ --size 10 = 10005 .* at most 5/);
  });
});

describe('fields of a query against the mapping', () => {
  const mapping = {
    properties: {
      title: { type: 'text', fields: { raw: { type: 'keyword' } } },
      modified_at: { type: 'date' },
      'assoc:sources': { type: 'keyword' },
      meta: { properties: { crc: { type: 'long' } } },
    },
  };
  it('walks bool, leaf queries and exists; knows object paths, multi-fields and meta fields', () => {
    const q = {
      bool: {
        filter: [{ term: { 'assoc:sources': 'x' } }, { range: { modified_at: { lte: 'now', boost: 2 } } }],
        must_not: [{ exists: { field: 'meta.crc' } }],
        should: [{ match: { 'title.raw': 'y' } }, { ids: { values: ['1'] } }],
      },
    };
    expect(queryFields(q).sort()).toEqual(['assoc:sources', 'meta.crc', 'modified_at', 'title.raw']);
    const fields = mappedFields(mapping);
    expect(unmappedFieldsError('i', q, fields)).toBeNull();
    expect(unmappedFieldsError('i', { term: { _id: 'a' } }, fields)).toBeNull();
    expect(unmappedFieldsError('i', { term: { 'assoc:source': 'x' } }, fields)).toMatch(
      /field "assoc:source", which the mapping of i does not have .* mapped are title, title.raw, modified_at/,
    );
  });
});

describe('choices and rows', () => {
  it('each kind of query, with the error of a bad one', () => {
    expect(docChoice('source', 'src-crm', NOW)).toMatchObject({ ok: true, value: { query: { term: { 'assoc:sources': 'src-crm' } } } });
    expect(docChoice('olderThan', '90d', NOW)).toMatchObject({
      ok: true,
      value: { query: { range: { modified_at: { lt: '2026-08-24T08:00:00.000Z' } } } },
    });
    expect(docChoice('body', '{"query": {"match_all": {}}, "size": 3}', NOW)).toMatchObject({
      ok: true,
      value: { query: { match_all: {} }, ignored: ['size'] },
    });
    expect(docChoice('body', '{"query": }', NOW)).toMatchObject({ ok: false, error: expect.stringMatching(/line 1, column 11/) });
  });

  it('a recorded hit as a row; the page line', () => {
    const search = fixture('documents', 'search') as any;
    const row = hitRow(search.hits[0]);
    expect(row).toMatchObject({
      id: search.hits[0]._id,
      modifiedAt: search.hits[0]._source.modified_at,
      sources: search.hits[0]._source['assoc:sources'].join(','),
    });
    expect(row.fields).toMatch(/^title=/);
    expect(pageText(0, 100, { value: 12_345, relation: 'eq' })).toBe('1-100 of 12,345');
    expect(pageText(0, 0, { value: 0, relation: 'eq' })).toBe('0 of 0');
  });
});

describe('the Documents machine', () => {
  const drive = (events: DocsEvent[]) => {
    const m = documentsMachine('idx', { pageSize: 2 });
    let step = m.init();
    const effects = [...step.effects];
    for (const e of events) {
      step = m.step(step.state, e);
      effects.push(...step.effects);
    }
    return { state: step.state, effects };
  };
  const typed = (t: string): DocsEvent[] => [...t].map((ch) => ({ type: 'line', edit: { type: 'insert', text: ch } }));

  it('an id is looked up; a bad query is refused on the line with nothing to do', () => {
    expect(drive([...typed('a-1'), { type: 'submit', now: NOW }]).effects).toEqual([{ type: 'lookup', index: 'idx', id: 'a-1' }]);
    const bad = drive([{ type: 'kind', by: 1 }, ...typed('last year'), { type: 'submit', now: NOW }]);
    expect(bad.effects).toEqual([]);
    expect(bad.state).toMatchObject({ editing: true, errorKind: 'bad-input', error: expect.stringMatching(/^older than "last year"/) });
  });

  it('pages: the next page is asked once, appended, and not past the total; back goes hits -> line', () => {
    const hit = (id: string) => ({ _index: 'idx', _id: id, _source: {} });
    const req = { method: 'POST' as const, path: '/idx/_search', querystring: {} };
    const { state, effects } = drive([
      { type: 'kind', by: 1 },
      { type: 'kind', by: 1 },
      { type: 'kind', by: 1 },
      ...typed('src-crm'),
      { type: 'submit', now: NOW },
      { type: 'page', total: { value: 3, relation: 'eq' }, hits: [hit('1'), hit('2')], request: req, append: false },
      { type: 'more' },
      { type: 'more' },
      { type: 'page', total: { value: 3, relation: 'eq' }, hits: [hit('3')], request: req, append: true },
      { type: 'more' },
      { type: 'open', at: 2 },
    ]);
    expect(effects.map((e) => e.type === 'search' && [e.from, e.size, e.append])).toEqual([
      [0, 2, false],
      [2, 2, true],
    ]);
    expect(state.hits?.hits.map((h) => h._id)).toEqual(['1', '2', '3']);
    expect(state.open).toBe(2);
    expect(foundSomething(state)).toBe(true);
    const m = documentsMachine('idx');
    const back = m.step(state, { type: 'back' }).state;
    expect(back.open).toBeUndefined();
    expect(back.editing).toBe(false);
    // Issue 47 item 8, as the help says: the hits -> the query line, the query as it was typed.
    const line = m.step(back, { type: 'back' }).state;
    expect(line).toMatchObject({ editing: true, form: { kind: 'source', value: 'src-crm' } });
    // f: a new lookup or search, from an empty line.
    expect(m.step(back, { type: 'edit' }).state).toMatchObject({ editing: true, form: { value: '' } });
  });
});

describe("the delete wizard's until", () => {
  it("resolves to the inclusive instant and the seed's lte, shown before anything runs", async () => {
    const { choiceOf } = await import('../../src/domain/wizards/delete');
    expect(choiceOf({ target: 'a', kind: 'until', value: '2026-01-31', conflicts: 'abort', rate: '' }, NOW)).toEqual({
      ok: true,
      value: {
        query: { range: { modified_at: { lte: '2026-01-31T23:59:59.999Z' } } },
        described: 'modified_at up to and including 2026-01-31T23:59:59.999Z',
        resolvedUntil: '2026-01-31T23:59:59.999Z',
      },
    });
    expect(choiceOf({ target: 'a', kind: 'until', value: 'soon', conflicts: 'abort', rate: '' }, NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^until "soon" is not an ISO timestamp/),
    });
  });
});

describe('the fields a query names', () => {
  it('takes multi_match fields without their boost, and leaves out patterns and non-strings', () => {
    const q = { multi_match: { query: 'x', fields: ['title^2', 'body^1.5', 'meta.*', 'plain', 3, 'a^b'] } };
    expect(queryFields(q).sort()).toEqual(['a^b', 'body', 'plain', 'title']);
    expect(queryFields({ multi_match: { query: 'x' } })).toEqual([]);
  });
});
