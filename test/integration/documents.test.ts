// shardeck get / search against a real 8.19.21 node (through a counting proxy, so "nothing was
// sent" is seen at the wire), and --until on delete-by-query: the seed's inclusive lte takes the
// document stamped exactly at the boundary, --older-than's lt leaves it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_docs';
const OTHER = 'service_v9_docs_other';
/** Documents stamped exactly at, just before and just after the boundary. */
const BOUNDARY = '2025-03-01T12:00:00.000Z';
const EDGE = [
  { id: 'at-boundary', modified_at: BOUNDARY },
  { id: 'before-boundary', modified_at: '2025-03-01T11:59:59.999Z' },
  { id: 'after-boundary', modified_at: '2025-03-01T12:00:00.001Z' },
];

let node: SharedNode;
let proxy: CountingProxy;
let cfg: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => proxy.url,
  () => cfg,
);
const count = async (query: unknown) => (await es('POST', `/${INDEX}/_count`, { query })).body.count as number;
const searches = () => proxy.requests.filter((r) => /\/_search|\/_doc\//.test(r.path));

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-docs-'));
  await loadDemoData(node.url, { docsPerIndex: 1000, indices: [INDEX, OTHER], yellowIndex: '' });
  for (const d of EDGE)
    await es('PUT', `/${INDEX}/_doc/${d.id}?refresh=true`, { title: d.id, modified_at: d.modified_at, 'assoc:sources': ['src-edge'] });
  // A small window, so --size above it is quick to show.
  await es('PUT', `/${OTHER}/_settings`, { index: { max_result_window: 50 } });
  await es('POST', '/_aliases', {
    actions: [
      { add: { index: INDEX, alias: 'docs_both' } },
      { add: { index: OTHER, alias: 'docs_both' } },
      { add: { index: INDEX, alias: 'docs_one' } },
    ],
  });
  proxy = await startCountingProxy(node.url);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('shardeck get', () => {
  it('found: the whole document, exit 0; --json carries the request and its curl line', async () => {
    const r = await cli(['get', INDEX, `${INDEX}-7`]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ _index: INDEX, _id: `${INDEX}-7`, found: true, _source: { title: 'docs item 7' } });
    const j = await cli(['get', 'docs_one', 'at-boundary', '--json']);
    expect(j.code).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out).toMatchObject({
      ok: true,
      found: true,
      request: 'GET /docs_one/_doc/at-boundary',
      document: { _index: INDEX, _source: { modified_at: BOUNDARY } },
    });
    expect(out.curl).toBe(`curl -X GET '${proxy.url}/docs_one/_doc/at-boundary'`);
  });

  it('not found: an unknown id or index is exit 5 with one sentence', async () => {
    const id = await cli(['get', INDEX, 'no-such-id']);
    expect(id.code).toBe(5);
    expect(id.stderr.trim()).toBe(
      `shardeck get: ${INDEX} has no document with _id "no-such-id": check the id (a search shows the ids it has)`,
    );
    const idx = await cli(['get', 'service_v9_nope', 'x', '--json']);
    expect(idx.code).toBe(5);
    expect(JSON.parse(idx.stdout)).toMatchObject({ ok: false, found: false, error: expect.stringMatching(/no index "service_v9_nope"/) });
  });

  it('bad input sends nothing: a pattern, a list, _all, no id; unreachable is exit 3', async () => {
    proxy.reset();
    const cases: [string[], RegExp][] = [
      [['get', 'service_v9_*', 'x'], /"service_v9_\*" names several indices: give exactly one index/],
      [['get', `${INDEX},${OTHER}`, 'x'], /names several indices/],
      [['get', '_all', 'x'], /names several indices/],
      [['get', INDEX], /no document id given/],
      [['get', INDEX, ' '], /no document id given/],
    ];
    for (const [args, re] of cases) {
      const r = await cli(args);
      expect(r.stderr.trim(), args.join(' ')).toMatch(re);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.code, args.join(' ')).toBe(64);
    }
    expect(proxy.requests).toEqual([]);
    const down = await cli(['get', INDEX, 'x', '--url', 'http://127.0.0.1:1']);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/nothing listens at http:\/\/127\.0\.0\.1:1/);
  });
});

describe('shardeck search', () => {
  it('--until is inclusive (lte) at the boundary, --older-than exclusive (lt)', async () => {
    const until = JSON.parse((await cli(['search', INDEX, '--until', BOUNDARY, '--size', '10000', '--json'])).stdout);
    const older = JSON.parse((await cli(['search', INDEX, '--older-than', BOUNDARY, '--size', '10000', '--json'])).stdout);
    expect(until.query).toEqual({ range: { modified_at: { lte: BOUNDARY } } });
    expect(older.query).toEqual({ range: { modified_at: { lt: BOUNDARY } } });
    const ids = (o: any) => new Set(o.hits.map((h: any) => h._id));
    expect(ids(until).has('at-boundary')).toBe(true);
    expect(ids(older).has('at-boundary')).toBe(false);
    expect(ids(until).has('before-boundary') && ids(older).has('before-boundary')).toBe(true);
    expect(ids(until).has('after-boundary')).toBe(false);
    expect(until.total.value).toBe(older.total.value + 1);
    expect(until.total).toEqual({ value: await count({ range: { modified_at: { lte: BOUNDARY } } }), relation: 'eq' });
    // A date alone runs to the end of that day.
    const day = JSON.parse((await cli(['search', INDEX, '--until', '2025-03-01', '--size', '1', '--json'])).stdout);
    expect(day.query).toEqual({ range: { modified_at: { lte: '2025-03-01T23:59:59.999Z' } } });
    expect(day.total.value).toBe(await count({ range: { modified_at: { lte: '2025-03-01T23:59:59.999Z' } } }));
  });

  it('pages with --size and --from (oldest first), prints the page and the next one; a source; a body from stdin', async () => {
    const total = await count({ term: { 'assoc:sources': 'src-crm' } });
    const p1 = JSON.parse((await cli(['search', INDEX, '--source', 'src-crm', '--size', '5', '--json'])).stdout);
    const p2 = JSON.parse((await cli(['search', INDEX, '--source', 'src-crm', '--size', '5', '--from', '5', '--json'])).stdout);
    expect(p1.total.value).toBe(total);
    expect(p1.hits).toHaveLength(5);
    const dates = [...p1.hits, ...p2.hits].map((h: any) => h._source.modified_at);
    expect(dates).toEqual([...dates].sort());
    expect(new Set([...p1.hits, ...p2.hits].map((h: any) => h._id)).size).toBe(10);
    const text = await cli(['search', INDEX, '--source', 'src-crm', '--size', '3']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`documents of source src-crm`);
    expect(text.stdout).toContain(`1-3 of ${total.toLocaleString('en-US')} documents`);
    expect(text.stdout).toContain(`next page: --from 3 --size 3`);
    expect(text.stdout.split('\n').filter((l) => l.startsWith(`  ${INDEX}-`))).toHaveLength(3);
    const stdin = await cli(['search', INDEX, '--query-file', '-', '--json']);
    expect(stdin.code).toBe(64); // empty standard input is not JSON
    const piped = await cliWithInput(
      ['search', INDEX, '--query-file', '-', '--json'],
      JSON.stringify({ query: { term: { 'assoc:sources': 'src-edge' } }, size: 99 }),
    );
    const out = JSON.parse(piped.stdout);
    expect(out.total.value).toBe(3);
    expect(out.described).toMatch(/ignored: size/);
  });

  it('nothing matches: exit 5; an unknown index: exit 5', async () => {
    const none = await cli(['search', INDEX, '--source', 'src-none']);
    expect(none.code).toBe(5);
    expect(none.stderr.trim()).toBe('shardeck search: no document matches');
    const idx = await cli(['search', 'service_v9_nope', '--source', 'src-crm']);
    expect(idx.code).toBe(5);
    expect(idx.stderr).toMatch(/no index "service_v9_nope" on this cluster/);
  });

  it('bad input is one sentence, exit 64, and no search reaches the node', async () => {
    const bad = path.join(cfg, 'bad.json');
    fs.writeFileSync(bad, '{\n  "query": {\n    "term": }\n}\n');
    const unmapped = path.join(cfg, 'unmapped.json');
    fs.writeFileSync(
      unmapped,
      JSON.stringify({
        query: { bool: { filter: [{ term: { 'assoc:source': 'src-crm' } }, { range: { modified_at: { lte: BOUNDARY } } }] } },
      }),
    );
    proxy.reset();
    const cases: [string[], RegExp][] = [
      [['search', 'service_v9_*', '--source', 'src-crm'], /names several indices/],
      [
        ['search', 'docs_both', '--source', 'src-crm'],
        /"docs_both" names 2 indices \(service_v9_docs, service_v9_docs_other\)|"docs_both" names 2 indices/,
      ],
      [
        ['search', OTHER, '--source', 'src-crm', '--size', '51'],
        new RegExp(`--size 51 is above index.max_result_window of ${OTHER} \\(50\\).*nothing was sent`),
      ],
      [
        ['search', OTHER, '--source', 'src-crm', '--size', '20', '--from', '40'],
        /--from 40 \+ --size 20 = 60 is above index.max_result_window of .* \(50\): page with --from and a --size of at most 10/,
      ],
      [
        ['search', INDEX, '--source', 'src-crm', '--size', '100000'],
        /--size 100000 is above index.max_result_window of service_v9_docs \(10000\)/,
      ],
      [
        ['search', INDEX, '--query-file', bad],
        /bad\.json is not valid JSON at line 3, column 13 \(Unexpected token '}'\): fix it there; nothing was sent/,
      ],
      [
        ['search', INDEX, '--query-file', unmapped],
        /the query names field "assoc:source", which the mapping of service_v9_docs does not have \(it would match nothing, silently\).*assoc:sources/,
      ],
      [['search', INDEX, '--source', 'src-crm', '--until', BOUNDARY], /give only one of/],
      [['search', INDEX], /give one of --older-than/],
      [['search', INDEX, '--until', 'yesterday'], /--until "yesterday" is not an ISO timestamp/],
      [['search', INDEX, '--until', '2999-01-01T00:00:00Z'], /is not in the past/],
      [['search', INDEX, '--source', 'src-crm', '--size', 'ten'], /--size "ten" is not a whole number: give e.g. --size 0/], // --size 0 is the count only (Elasticsearch's idiom)
      [['search', INDEX, '--source', 'src-crm', '--from', '-3'], /--from "-3" is not a whole number/],
    ];
    for (const [args, re] of cases) {
      const r = await cli(args);
      expect(r.stderr.trim(), args.join(' ')).toMatch(re);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.code, args.join(' ')).toBe(64);
    }
    // Some cases read the index's facts (window, mapping); none searched.
    expect(searches()).toEqual([]);
    // ES itself: the unmapped field would have answered 0 hits without an error.
    const silent = await es('POST', `/${INDEX}/_search`, { query: { term: { 'assoc:source': 'src-crm' } } });
    expect([silent.status, silent.body.hits.total.value]).toEqual([200, 0]);
  });
});

describe('delete-by-query --until', () => {
  it('previews lte, then deletes the document stamped at the boundary and not the one after it', async () => {
    const query = { range: { modified_at: { lte: BOUNDARY } } };
    const expected = await count(query);
    const dry = await cli(['delete-by-query', INDEX, '--until', BOUNDARY, '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    const preview = JSON.parse(dry.stdout);
    expect(preview).toMatchObject({ until: BOUNDARY, matching: expected, query, sent: false });
    expect(preview.requests[0].body).toEqual({ query, max_docs: expected });
    const r = await cli(['delete-by-query', INDEX, '--until', BOUNDARY, '--yes', '--expect', String(expected), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, sent: true });
    expect(auditLinesIn(cfg).length).toBeGreaterThan(0);
    expect((await cli(['get', INDEX, 'at-boundary'])).code).toBe(5);
    expect((await cli(['get', INDEX, 'before-boundary'])).code).toBe(5);
    expect((await cli(['get', INDEX, 'after-boundary'])).code).toBe(0);
    await es('POST', `/${INDEX}/_refresh`);
    expect(await count(query)).toBe(0);
  }, 60_000);
});

function cliWithInput(args: string[], input: string) {
  return runCli([args[0], '--url', proxy.url, ...args.slice(1)], { input, env: { SHARDECK_CONFIG_DIR: cfg } });
}
