// The delete and force-merge wizards in the console at 80x24 against a real node (reindex module
// present), on a demo-size index: D on the selected index -> older than a date -> count, share and
// browsable samples -> a wrong typed count is refused with nothing sent -> the right count deletes
// exactly the previewed documents (checked by id) -> report -> m force merges them away.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import type { IndexRow } from '../../src/domain/types';
import { QUERY_KIND_LABELS } from '../../src/domain/wizards/delete';
import { changesFromAudit } from '../../src/domain/timeline';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { setSnapshot } from '../../src/store/console';
import { createUiStore } from '../../src/ui/state';
import { esCall } from '../helpers/real-node';
import { expectFits, until, wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, KEYS, makeStore, renderApp, tick, type Rendered } from '../ui/harness';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_dbqui';
const CUTOFF = '2025-03-01';
const QUERY = { range: { modified_at: { lt: '2025-03-01T00:00:00.000Z' } } };
let node: SharedNode;
let dir: string;

const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);

async function ids(query: unknown = { match_all: {} }): Promise<Set<string>> {
  await es('POST', `/${INDEX}/_refresh`);
  const r = await es('POST', `/${INDEX}/_search`, { query, size: 10_000, _source: false, track_total_hits: true });
  expect(r.body.hits.total.value).toBe(r.body.hits.hits.length);
  return new Set((r.body.hits.hits as { _id: string }[]).map((h) => h._id));
}

/** "145kb" -> 148480, as formatBytes writes sizes. */
/** The bar beside a review: its rows joined back into the lines it wraps (the whole curl lines). */
function barText(frame: string): string {
  return frame
    .split('\n')
    .filter((l) => l.startsWith('│ '))
    .map((l) => l.slice(2))
    .join('');
}

function bytes(text: string): number {
  const u = /^([\d.]+)(b|kb|mb|gb)$/.exec(text);
  if (!u) throw new Error(`not a size: ${text}`);
  return Number(u[1]) * 1024 ** ['b', 'kb', 'mb', 'gb'].indexOf(u[2]);
}

/** The console at 80x24 on the Indices pane with INDEX selected, the delete wizard wired to a real Guard. */
async function openConsole(auditFile: string, index = INDEX): Promise<{ app: Rendered; ui: ReturnType<typeof createUiStore> }> {
  const client = createClient({ url: node.url });
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile });
  const services = createWizardServices(createEsApi(client, node.url), guard, { followIntervalMs: 200 });
  const store = makeStore();
  const row: IndexRow = {
    name: index,
    health: 'green',
    status: 'open',
    primaries: 6,
    replicas: 0,
    docsCount: 10_000,
    docsDeleted: 0,
    storeBytes: 1,
    priStoreBytes: 1,
    system: false,
  };
  setSnapshot(store, 'indices', { data: [row], fetchedAt: Date.now(), failures: 0 });
  store.setState({ pane: 'indices', projects: { dbqui: 'Deletion Drill' } });
  const wizards = wizardsWith(['delete'], services);
  const ui = createUiStore();
  const app = await renderApp(store, { columns: 80, rows: 24, wizards, ui });
  await until(app, new RegExp(index));
  return { app, ui };
}

/**
 * D, then documents of one source with a starting throttle of 100 docs/s typed into the form,
 * the count typed: the delete runs its first batch of 1,000 and then waits about 10 s.
 */
async function startThrottledSourceDelete(app: Rendered, source: string, n: number): Promise<void> {
  await app.press('D');
  await until(app, /which documents/);
  await app.press(KEYS.up); // "which documents"
  // -> documents of one source (the kinds: older than, up to and including, source, file)
  const sourceKind = new RegExp(`< ${QUERY_KIND_LABELS.source} >`);
  for (let i = 0; i < Object.keys(QUERY_KIND_LABELS).length && !sourceKind.test(app.frame()); i++) await app.press(' ');
  await until(app, sourceKind);
  await app.press(KEYS.down);
  await app.type(source);
  await app.press(KEYS.down);
  await app.press(KEYS.down); // throttle
  await app.type('100');
  let f = await until(app, /throttle\s+100 docs\/s/);
  expect(f).toMatch(new RegExp(`source id\\s+${source}`));
  await app.press(KEYS.enter);
  f = await until(app, new RegExp(`type ${n} to delete them`));
  expectFits(f);
  expect(barText(f)).toContain('requests_per_second=100');
  await app.type(String(n));
  await app.press(KEYS.enter);
  f = await until(app, new RegExp(`1,000 / ${n.toLocaleString('en-US')} \\(`), 30_000);
  expectFits(f);
  expect(f).toContain('t rethrottle · x cancel the task');
}

beforeAll(async () => {
  process.env.NO_COLOR = '1';
  node = await sharedNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-dbqui-'));
  await loadDemoData(node.url, { docsPerIndex: 10_000, indices: [INDEX], yellowIndex: '' });
}, 240_000);

afterAll(() => {
  delete process.env.NO_COLOR;
  fs.rmSync(dir, { recursive: true, force: true });
});

failOnConsoleError();

it('D on the selected index: preview, wrong count refused, right count deletes exactly the previewed ids, report, then m merges', async () => {
  const auditFile = path.join(dir, 'audit.log');
  const { app, ui } = await openConsole(auditFile);

  const all = await ids();
  const matching = await ids(QUERY);
  expect(all.size).toBe(10_000);
  expect(matching.size).toBeGreaterThan(1000);
  const n = matching.size;

  expect(ui.getState().selection.indices).toEqual({ index: INDEX });
  await app.press('D');
  let f = await until(app, /which documents/);
  expect(f).toContain(`index            ${INDEX}`);
  expect(f).toContain('platform project: Deletion Drill');
  await app.type(CUTOFF);
  f = await until(app, /= modified_at before 2025-03-01T00:00:00\.000Z/);
  expectFits(f);
  await app.press('\r');

  f = await until(app, new RegExp(`type ${n} to delete them`));
  expectFits(f);
  expect(f).toContain(`target ${INDEX} · project Deletion Drill`);
  expect(f).toContain('which: modified_at older than 2025-03-01T00:00:00.000Z');
  const pct = ((n / 10_000) * 100).toFixed(1);
  expect(f).toContain(`${n.toLocaleString('en-US')} of 10,000 documents match (${pct}%)`);
  expect(f).toMatch(/ · samples 1-4, oldest first/);
  const sampleRows = f.split('\n').filter((l) => /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} +src-/.test(l));
  expect(sampleRows).toHaveLength(4);
  for (const l of sampleRows) expect(matching.has(l.replace(/^\W*/, '').split(' ')[0]), l).toBe(true);
  const bar = barText(f);
  expect(bar).toMatch(
    new RegExp(`equivalent: curl -X POST '${node.url}/${INDEX}/_delete_by_query\\?wait_for_completion=false&refresh=true'`),
  );
  expect(bar).toContain(`-d '{"max_docs":${n},"query":`);
  expect(f).toMatch(/conflicts=abort \(default\)/);

  // Browse: the next page shows other samples, still from the matching documents.
  await app.press('\u001b[C');
  f = await until(app, /samples 5-8,/);
  const page2 = f.split('\n').filter((l) => /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} +src-/.test(l));
  expect(page2).toHaveLength(4);
  expect(page2).not.toEqual(sampleRows);
  await app.press('\u001b[D');
  await until(app, /samples 1-4,/);

  // A wrong count: refused, nothing sent, nothing deleted.
  await app.type(String(n + 1));
  await app.press('\r');
  f = await until(app, /but the preview counted/);
  expect(f).toContain(`typed "${n + 1}", but the preview counted ${n} documents: nothing was sent`);
  expect(readAudit(auditFile).records).toEqual([]);
  expect((await ids()).size).toBe(10_000);

  // The right count: the task runs, the report compares deleted, previewed and still matching.
  await app.type(String(n));
  await app.press('\r');
  f = await until(app, /ok: deleted \d+ of \d+ previewed/, 60_000);
  expectFits(f);
  expect(f).toContain(`ok: deleted ${n} of ${n} previewed; the query still matches 0`);
  expect(f).toMatch(/task [\w-]+:\d+ · re-attach any time: shardeck tasks/);
  expect(f).toMatch(new RegExp(`\\[█{40}\\] ${n.toLocaleString('en-US')} / ${n.toLocaleString('en-US')} \\(100%\\)`));
  expect(f).toMatch(/\d+ batches · 0 version conflicts · throttled/);
  expect(f).toContain('m force merge now to free the disk');

  // Exactly the previewed documents are gone, every other one is still there.
  const left = await ids();
  expect(left.size).toBe(10_000 - n);
  for (const id of all) expect(left.has(id), id).toBe(!matching.has(id));
  const audit = readAudit(auditFile).records;
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({
    risk: 'destructive',
    confirmedBy: 'typed',
    request: { body: { max_docs: n } },
    outcome: { ok: true, task: expect.stringMatching(/:\d+$/) },
  });

  // The offered force merge, on the same index. Store sizes are cached per shard for
  // index.store.stats_refresh_interval (10 s): wait it out so the "before" is not the size at load time.
  await tick(11_000);
  await app.press('m');
  f = await until(app, /y merge/, 60_000);
  expectFits(f);
  // Lucene counts the delete tombstones too: at least the deleted documents.
  const shown = new RegExp(`${INDEX}: ([\\d,]+) deleted docs, store`).exec(f);
  expect(Number(shown?.[1].replace(/,/g, ''))).toBeGreaterThanOrEqual(n);
  expect(f).toMatch(/node .*: disk \d+% used, .* before high/);
  expect(barText(f)).toContain(`-X POST '${node.url}/${INDEX}/_flush'`);
  expect(barText(f)).toContain(`/${INDEX}/_forcemerge?only_expunge_deletes=true&wait_for_completion=false'`);
  await app.press('y');
  f = await until(app, /merge finished/, 150_000);
  expectFits(f);
  const m = new RegExp(`${INDEX}: deleted docs ([\\d,]+) -> ([\\d,]+), store (\\S+) -> (\\S+)`).exec(f);
  expect(m, f).not.toBeNull();
  expect(Number(m![2].replace(/,/g, ''))).toBeLessThan(n / 10);
  expect(bytes(m![4]), `${m![3]} -> ${m![4]}`).toBeLessThan(bytes(m![3]));
  const stats = await es('GET', `/${INDEX}/_stats/docs`);
  expect(stats.body._all.primaries.docs.deleted).toBeLessThan(n / 10);
  expect(readAudit(auditFile).records.map((r) => r.request?.path)).toEqual([
    `/${INDEX}/_delete_by_query`,
    `/${INDEX}/_flush`,
    `/${INDEX}/_forcemerge`,
  ]);
  await app.press(' ');
  await until(app, /health\s+status|health\s+index|project/);
  expect(ui.getState().dialog).toBeUndefined();
  app.unmount();
}, 240_000);

it('x cancels a throttled delete through the guard: the final status says cancelled, only the first batch is gone', async () => {
  const auditFile = path.join(dir, 'audit-cancel.log');
  const { app } = await openConsole(auditFile);
  const query = { term: { 'assoc:sources': 'src-wiki' } };
  const all = await ids();
  const matching = await ids(query);
  const n = matching.size;
  expect(n).toBeGreaterThan(1000);
  await startThrottledSourceDelete(app, 'src-wiki', n);
  await app.press('x');
  const f = await until(app, /FAILED: deleted/, 30_000);
  expectFits(f);
  expect(f).toContain(`FAILED: deleted 1000 of ${n} previewed; the query still matches ${n - 1000}`);
  expect(f).toContain('the task was cancelled: what it deleted before stays deleted');
  expect(f.replace(/\n/g, ' ')).toMatch(/cancel task [\w-]+:\d+ \(stops deleting; what was deleted stays deleted\): done \(200\)/);
  const left = await ids();
  expect(left.size).toBe(all.size - 1000);
  for (const id of all) if (!matching.has(id)) expect(left.has(id), id).toBe(true);
  const audit = readAudit(auditFile).records;
  expect(audit.map((r) => `${r.request?.method} ${r.request?.path} ${r.confirmedBy}`)).toEqual([
    `POST /${INDEX}/_delete_by_query typed`,
    `POST /_tasks/${encodeURIComponent(audit[0].outcome!.task!)}/_cancel key`,
    // A cancelled task skips the delete's own refresh=true: the count's refresh is guarded too.
    `POST /${INDEX}/_refresh typed`,
  ]);
  app.unmount();
}, 120_000);

it('t rethrottles a throttled delete to no throttle through the guard; it then deletes exactly the previewed documents', async () => {
  const auditFile = path.join(dir, 'audit-rethrottle.log');
  const { app } = await openConsole(auditFile);
  const query = { term: { 'assoc:sources': 'src-erp' } };
  const all = await ids();
  const matching = await ids(query);
  const n = matching.size;
  expect(n).toBeGreaterThan(1000);
  await startThrottledSourceDelete(app, 'src-erp', n);
  await app.press('t');
  await app.type('-1');
  await until(app, /requests per second \(-1 = no throttle\): -1_/);
  await app.press(KEYS.enter);
  const f = await until(app, /ok: deleted \d+ of/, 30_000);
  expectFits(f);
  expect(f).toContain(`ok: deleted ${n} of ${n} previewed; the query still matches 0`);
  expect(f.replace(/\n/g, ' ')).toMatch(/rethrottle delete task [\w-]+:\d+ to no throttle: done \(200\)/);
  const left = await ids();
  expect(left.size).toBe(all.size - n);
  for (const id of all) expect(left.has(id), id).toBe(!matching.has(id));
  const audit = readAudit(auditFile).records;
  expect(audit.map((r) => `${r.request?.method} ${r.request?.path}?${new URLSearchParams(r.request?.querystring).toString()}`)).toEqual([
    `POST /${INDEX}/_delete_by_query?wait_for_completion=false&requests_per_second=100&refresh=true`,
    `POST /_delete_by_query/${encodeURIComponent(audit[0].outcome!.task!)}/_rethrottle?requests_per_second=-1`,
  ]);
  // Not the clock: the task Elasticsearch kept says it ran its last batches unthrottled (-1), as the rethrottle asked.
  const task = (await es('GET', `/_tasks/${encodeURIComponent(audit[0].outcome!.task!)}`)).body;
  expect(task.completed).toBe(true);
  expect(task.task.status.requests_per_second).toBe(-1);
  expect(task.response.deleted).toBe(n);
  app.unmount();
}, 120_000);

it('s on the review snapshots exactly the index first (audited, so in the timeline), then the typed count deletes', async () => {
  const auditFile = path.join(dir, 'audit-snapshot-first.log');
  const SMALL = 'snapfirst_logs';
  expect((await es('PUT', `/${SMALL}`, { settings: { number_of_shards: 2, number_of_replicas: 0 } })).status).toBe(200);
  const docs = Array.from({ length: 30 }, (_, i) => ({
    title: `doc ${i}`,
    modified_at: i < 20 ? `2025-01-${String(i + 1).padStart(2, '0')}` : '2025-06-01',
  }));
  const bulk = docs.flatMap((d, i) => [JSON.stringify({ index: { _index: SMALL, _id: `d${i}` } }), JSON.stringify(d)]).join('\n') + '\n';
  const loaded = await fetch(`${node.url}/_bulk?refresh=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: bulk,
  });
  expect(((await loaded.json()) as { errors: boolean }).errors).toBe(false);
  // Another index the snapshot must leave out: exactly what the delete touches is taken.
  expect((await es('PUT', '/snapfirst_other', { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
  expect((await es('PUT', '/_snapshot/before', { type: 'fs', settings: { location: path.join(node.repoDir, 'before') } })).status).toBe(
    200,
  );

  const { app } = await openConsole(auditFile, SMALL);
  await app.press('D');
  await until(app, /which documents/);
  await app.type('2025-03-01');
  await app.press(KEYS.enter);
  let f = await until(app, /type 20 to delete them/);
  expectFits(f);
  expect(f).toContain('s snapshot the indices above to before first');

  await app.press('s');
  f = await until(app, /snapshot taken \(2\/2 shards\): before\/before-delete-snapfirst_logs-\d{8}-\d{6}/, 60_000);
  expectFits(f);
  expect(f).toContain('type 20 to delete them');
  // Nothing deleted yet: the delete waits for its own typed count.
  expect((await es('GET', `/${SMALL}/_count`)).body.count).toBe(30);

  await app.type('20');
  await app.press(KEYS.enter);
  f = await until(app, /ok: deleted \d+ of \d+ previewed/, 60_000);
  expect(f).toContain('ok: deleted 20 of 20 previewed; the query still matches 0');

  const listed = (await es('GET', '/_snapshot/before/_all')).body.snapshots as { snapshot: string; state: string; indices: string[] }[];
  expect(listed).toHaveLength(1);
  const [snap] = listed;
  expect(snap.snapshot).toMatch(/^before-delete-snapfirst_logs-\d{8}-\d{6}$/);
  expect(snap).toMatchObject({ state: 'SUCCESS', indices: [SMALL] });
  // It holds the 30 documents from before the delete: restored beside, counted.
  const restored = await es('POST', `/_snapshot/before/${snap.snapshot}/_restore?wait_for_completion=true`, {
    indices: SMALL,
    rename_pattern: '(.+)',
    rename_replacement: '$1-check',
    include_aliases: false,
  });
  expect(restored.status).toBe(200);
  await es('POST', `/${SMALL}-check/_refresh`);
  expect((await es('GET', `/${SMALL}-check/_count`)).body.count).toBe(30);
  expect((await es('GET', `/${SMALL}/_count`)).body.count).toBe(10);

  // Audited through the Guard, in order (the snapshot confirmed by its key), so in the timeline too.
  const audit = readAudit(auditFile).records;
  expect(audit.map((r) => `${r.request?.method} ${r.request?.path} ${r.confirmedBy}`)).toEqual([
    `PUT /_snapshot/before/${snap.snapshot} key`,
    `POST /${SMALL}/_delete_by_query typed`,
  ]);
  expect(audit[0].request?.body).toMatchObject({ indices: SMALL, include_global_state: false });
  const timeline = changesFromAudit(audit, node.url);
  expect(timeline.flatMap((e) => (e.kind === 'change' ? [`${e.target} ${e.result}`] : []))).toEqual([
    `before/${snap.snapshot} ok (200)`,
    expect.stringMatching(new RegExp(`^${SMALL} ok`)),
  ]);
  app.unmount();
}, 180_000);
