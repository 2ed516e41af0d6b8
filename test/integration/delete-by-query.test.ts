// Query-before-delete and force merge against a real 8.19.21 node with the ported reindex module,
// on a demo-size index (10,000 documents, modified_at over two years, six sources), through the
// built CLI; plus the service path for a document written between preview and delete.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { deleteByQueryPlan } from '../../src/domain/delete/plan';
import { olderThanQuery, sourceQuery } from '../../src/domain/delete/query';
import { deleteReport } from '../../src/domain/delete/report';
import { followTask, previewDelete } from '../../src/services/delete-by-query';
import { Guard } from '../../src/services/guard';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { readAudit } from '../../src/services/audit';
import { waitUntil } from '../helpers/wait-until';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_dbq';
let node: SharedNode;
let cfg: string;

const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);

const cli = cliAgainst(
  () => node.url,
  () => cfg,
);
const auditPath = () => path.join(cfg, 'audit.log');
const auditLines = () => auditLinesIn(cfg);
const docCount = async (index = INDEX) => {
  await es('POST', `/${index}/_refresh`);
  return (await es('GET', `/${index}/_count`)).body.count as number;
};

/** The store size the node reports now (cached per shard for index.store.stats_refresh_interval, 10 s). */
const reportedStoreBytes = async () =>
  (await es('GET', `/${INDEX}/_stats/store`)).body.indices[INDEX].primaries.store.size_in_bytes as number;

/** What the index's files take on disk right now (what the store size counts: the shards' index/ folders). */
async function storeBytesOnDisk(): Promise<number> {
  const uuid = (await es('GET', `/_cat/indices/${INDEX}?h=uuid&format=json`)).body[0].uuid as string;
  const dir = path.join(node.dataDir, 'indices', uuid);
  let total = 0;
  for (const shard of fs.readdirSync(dir).filter((d) => /^\d+$/.test(d)))
    for (const f of fs.readdirSync(path.join(dir, shard, 'index'))) total += fs.statSync(path.join(dir, shard, 'index', f)).size;
  return total;
}

/** The ids a query matches (the index never holds more than 10,000 documents, one search window). */
async function ids(query: unknown = { match_all: {} }): Promise<Set<string>> {
  await es('POST', `/${INDEX}/_refresh`);
  const r = await es('POST', `/${INDEX}/_search`, { query, size: 10_000, _source: false, track_total_hits: true });
  expect(r.body.hits.total.value).toBe(r.body.hits.hits.length);
  return new Set((r.body.hits.hits as { _id: string }[]).map((h) => h._id));
}

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-dbq-'));
  await loadDemoData(node.url, { docsPerIndex: 10_000, indices: [INDEX, 'service_v9_dbq_other'], yellowIndex: '' });
}, 180_000);

afterAll(() => {
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('bad input sends nothing', () => {
  it('invalid JSON, a body without "query", a wildcard, an unknown index, --yes without or with a wrong --expect', async () => {
    const bad = path.join(cfg, 'bad.json');
    fs.writeFileSync(bad, '{\n  "query": {\n    "term": }\n}\n');
    const noQuery = path.join(cfg, 'noquery.json');
    fs.writeFileSync(noQuery, '{"term": {"assoc:sources": "src-crm"}}');
    const cases: [string[], RegExp, number][] = [
      [['delete-by-query', INDEX, '--query-file', bad, '--yes', '--expect', '1'], /bad\.json is not valid JSON at line 3, column 13/, 64],
      [['delete-by-query', INDEX, '--query-file', noQuery, '--yes', '--expect', '1'], /has no top-level "query"/, 64],
      [['delete-by-query', '*', '--older-than', '30d', '--yes', '--expect', '1'], /"\*" would match every index/, 64],
      [['delete-by-query', '_all', '--older-than', '30d', '--yes', '--expect', '1'], /"_all" would match every index/, 64],
      [['delete-by-query', '.security', '--older-than', '30d', '--yes', '--expect', '1'], /system \(dot\) indices/, 64],
      [['delete-by-query', 'service_v9_nope', '--older-than', '30d', '--yes', '--expect', '1'], /no index matches "service_v9_nope"/, 64],
      [['delete-by-query', INDEX, '--older-than', 'last year', '--yes', '--expect', '1'], /neither an age .* nor an ISO date/, 64],
      [['delete-by-query', INDEX, '--older-than', '30d', '--source', 'src-crm'], /give only one of/, 64],
      [['delete-by-query', INDEX, '--older-than', '30d', '--yes'], /--yes needs --expect N/, 64],
      [
        ['delete-by-query', INDEX, '--source', 'src-crm', '--yes', '--expect', '1'],
        /matches \d+ documents now, not the 1 given with --expect/,
        5,
      ],
    ];
    for (const [args, message, code] of cases) {
      const r = await cli(args);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.code, args.join(' ')).toBe(code);
    }
    expect(auditLines()).toEqual([]);
    expect(await docCount()).toBe(10_000);
    expect((await es('GET', '/_tasks?actions=*byquery')).body.nodes).toEqual({});
  }, 60_000);

  it('--dry-run shows the count, the resolved timestamp, samples and the request, and sends nothing', async () => {
    const r = await cli(['delete-by-query', INDEX, '--older-than', '2025-06-01', '--dry-run', '--json']);
    const out = JSON.parse(r.stdout);
    const expected = (await es('POST', `/${INDEX}/_count`, { query: { range: { modified_at: { lt: '2025-06-01T00:00:00.000Z' } } } })).body
      .count;
    expect(out).toMatchObject({
      ok: true,
      dryRun: true,
      sent: false,
      olderThan: '2025-06-01T00:00:00.000Z',
      matching: expected,
      indexTotal: 10_000,
    });
    expect(out.samples.length).toBe(10);
    for (const s of out.samples) expect(Date.parse(s.modifiedAt)).toBeLessThan(Date.parse('2025-06-01'));
    expect(out.requests[0].path).toBe(`/${INDEX}/_delete_by_query?wait_for_completion=false&refresh=true`);
    expect(out.requests[0].body).toEqual({ query: { range: { modified_at: { lt: '2025-06-01T00:00:00.000Z' } } }, max_docs: expected });
    expect(r.code).toBe(0);
    expect(auditLines()).toEqual([]);
    expect(await docCount()).toBe(10_000);
  });

  it('zero matches: nothing to do, nothing sent', async () => {
    const r = await cli(['delete-by-query', INDEX, '--source', 'src-none', '--yes', '--expect', '0']);
    expect(r.stdout).toMatch(/nothing to do: no document matches; nothing was sent/);
    expect(r.code).toBe(0);
    expect(auditLines()).toEqual([]);
  });
});

describe('delete exactly what was previewed', () => {
  it('older than a date: exactly the previewed ids are gone, every other document is still there', async () => {
    const query = olderThanQuery('2025-03-01T00:00:00.000Z');
    const all = await ids();
    const matching = await ids(query);
    expect(all.size).toBe(10_000);
    expect(matching.size).toBeGreaterThan(1000);
    const r = await cli(['delete-by-query', INDEX, '--older-than', '2025-03-01', '--yes', '--expect', String(matching.size), '--json']);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      ok: true,
      matching: matching.size,
      report: { previewed: matching.size, deleted: matching.size, stillMatching: 0, ok: true },
    });
    expect(out.progress).toMatchObject({ completed: true, total: matching.size, deleted: matching.size, versionConflicts: 0 });
    expect(r.code).toBe(0);
    const left = await ids();
    expect(left.size).toBe(10_000 - matching.size);
    for (const id of all) expect(left.has(id), id).toBe(!matching.has(id));
    // One audit line, with the task id to re-attach to.
    const audit = readAudit(auditPath()).records;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      risk: 'destructive',
      confirmedBy: 'yes-flag',
      request: { body: { max_docs: matching.size } },
      outcome: { ok: true, task: out.task },
    });
    // The other index is untouched.
    expect(await docCount('service_v9_dbq_other')).toBe(10_000);
    // Re-attach after the fact: the finished task's status.
    const t = await cli(['tasks', out.task]);
    // The running time as shardeck tasks --all and the Tasks pane say it (formatMillis: "850ms", "1.2s", "3m").
    expect(t.stdout).toMatch(new RegExp(`^ *\\d[\\d.]*(ms|s|m|h)  ${out.task} indices:data/write/delete/byquery finished`, 'm'));
    expect(t.stdout).toContain(`deleted ${matching.size} / ${matching.size} (100%)`);
  }, 60_000);

  it('by source: likewise, and the text output shows progress and the report', async () => {
    const query = sourceQuery('src-wiki');
    if (!query.ok) throw new Error(query.error);
    const all = await ids();
    const matching = await ids(query.value);
    expect(matching.size).toBeGreaterThan(500);
    const r = await cli(['delete-by-query', INDEX, '--source', 'src-wiki', '--yes', '--expect', String(matching.size)]);
    expect(r.stdout).toContain(`${matching.size.toLocaleString('en-US')} of ${all.size.toLocaleString('en-US')} documents match`);
    expect(r.stdout).toMatch(/task \S+:\d+ started/);
    expect(r.stdout).toContain(`deleted ${matching.size} / ${matching.size} (100%)`);
    expect(r.stdout).toContain(`ok: deleted ${matching.size} of ${matching.size} previewed; the query still matches 0`);
    expect(r.stdout).toMatch(/shardeck forcemerge <index> --expunge-deletes/);
    expect(r.code).toBe(0);
    const left = await ids();
    for (const id of all) expect(left.has(id), id).toBe(!matching.has(id));
  }, 60_000);

  it('a matching document written after the preview is not deleted beyond max_docs, and the report says it still matches', async () => {
    const client = createClient({ url: node.url });
    const api = createEsApi(client, node.url);
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'test', auditFile: auditPath() });
    const query = sourceQuery('src-ftp');
    if (!query.ok) throw new Error(query.error);
    const preview = await previewDelete(api, INDEX, query.value);
    const before = await docCount();
    await es('PUT', `/${INDEX}/_doc/late-arrival?refresh=true`, {
      title: 'late',
      modified_at: '2026-11-01T00:00:00Z',
      'assoc:sources': ['src-ftp'],
    });
    const outcome = await guard.execute(deleteByQueryPlan(INDEX, query.value, preview.matching, 'abort'), {
      by: 'typed',
      text: String(preview.matching),
    });
    expect(outcome.ok).toBe(true);
    const followed = await followTask(api, (outcome.body as { task: string }).task, () => {});
    if (!followed.ok) throw new Error(followed.lost);
    await es('POST', `/${INDEX}/_refresh`);
    const report = deleteReport(preview.matching, followed.progress, await api.count(INDEX, query.value));
    expect(report).toMatchObject({ previewed: preview.matching, deleted: preview.matching, stillMatching: 1, ok: true });
    expect(report.lines.join('\n')).toMatch(/1 matching documents were not deleted: max_docs capped/);
    expect(await docCount()).toBe(before + 1 - preview.matching);
    await client.close();
  }, 60_000);
});

describe('force merge gets the disk back', () => {
  it('shows deleted docs, merges with only_expunge_deletes as a task, deleted docs ~0 and store smaller', async () => {
    // No flush here: the command flushes before it merges (right after a delete it must).
    // Store sizes are cached per shard for 10 s: wait until the node's figure is today's (equals the
    // files on disk), else the reading taken while the data was loaded would be the "before".
    await waitUntil(
      'the reported store size to match the files on disk',
      async () => ({ reported: await reportedStoreBytes(), onDisk: await storeBytesOnDisk() }),
      (s) => s.reported === s.onDisk,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const dry = await cli(['forcemerge', INDEX, '--expunge-deletes', '--dry-run', '--json']);
    const d = JSON.parse(dry.stdout);
    expect(d.before.indices[0].docsDeleted).toBeGreaterThan(1000);
    expect(d.before.disks[0]).toHaveProperty('headroomToHighBytes');
    expect(d.requests.map((r: { path: string }) => r.path)).toEqual([
      `/${INDEX}/_flush`,
      `/${INDEX}/_forcemerge?only_expunge_deletes=true&wait_for_completion=false`,
    ]);
    const r = await cli(['forcemerge', INDEX, '--expunge-deletes', '--yes', '--json']);
    const out = JSON.parse(r.stdout);
    expect(r.code, r.stderr).toBe(0);
    const [before] = out.before.indices;
    const [after] = out.after.indices;
    expect(after.docsDeleted).toBeLessThan(before.docsDeleted * 0.1);
    // What the command reports is the space got back (its "after" waits out the store-stats cache
    // the flush and the merge left; a reading taken after the flush alone once made this flake).
    expect(after.storeBytes).toBeLessThan(before.storeBytes);
    // And the node agrees, on disk too, once the merged-away files are released.
    await waitUntil(
      `the store of ${INDEX} to drop below its ${before.storeBytes} bytes before the merge`,
      async () => ({ reported: await reportedStoreBytes(), onDisk: await storeBytesOnDisk() }),
      (s) => s.reported < before.storeBytes && s.onDisk < before.storeBytes,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const audit = readAudit(auditPath()).records;
    expect(audit.at(-2)).toMatchObject({ request: { path: `/${INDEX}/_flush` }, outcome: { ok: true } });
    expect(audit.at(-1)).toMatchObject({ request: { path: `/${INDEX}/_forcemerge` }, outcome: { ok: true, task: out.task } });
  }, 120_000);

  it('without --expunge-deletes, or on a wildcard, it refuses and sends nothing', async () => {
    const n = auditLines().length;
    expect((await cli(['forcemerge', INDEX])).stderr).toMatch(/add --expunge-deletes/);
    expect((await cli(['forcemerge', '*', '--expunge-deletes', '--yes'])).stderr).toMatch(/would match every index/);
    expect(auditLines()).toHaveLength(n);
  });

  it('refuses past the high watermark (nothing sent)', async () => {
    try {
      const stats = (await es('GET', '/_cat/allocation?format=json&bytes=b')).body;
      const total = Number(stats[0]['disk.total']);
      // High watermark asks for more free space than the disk has: the node is past it.
      await es('PUT', '/_cluster/settings', {
        transient: {
          'cluster.routing.allocation.disk.watermark.low': `${total}b`,
          'cluster.routing.allocation.disk.watermark.high': `${total}b`,
          'cluster.routing.allocation.disk.watermark.flood_stage': '1b',
        },
      });
      const n = auditLines().length;
      const r = await cli(['forcemerge', INDEX, '--expunge-deletes', '--yes']);
      expect(r.stderr).toMatch(/past the high disk watermark/);
      expect(r.code).toBe(5);
      expect(auditLines()).toHaveLength(n);
    } finally {
      await es('PUT', '/_cluster/settings', { transient: { 'cluster.routing.allocation.disk.*': null } });
    }
  });
});
