// shardeck index close|open|delete against a real node (issue 43 item 4): the pattern resolved to
// names before the preview and the request naming exactly those; `*`, `_all`, hidden and system
// indices and the write index of an alias refused; delete only with the count and each project
// index's name typed, even with --yes; an index created after the preview survives, and one that
// vanished since stops the delete; hostile names shown inert.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { typedAheadText } from '../../src/domain/maintenance/index-admin';
import { Guard, GuardRefusal } from '../../src/services/guard';
import { previewIndexAction } from '../../src/services/index-admin';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

const make = async (name: string, settings: Record<string, unknown> = {}) =>
  expect((await esCall(node.url, 'PUT', `/${encodeURIComponent(name)}`, { settings: { number_of_replicas: 0, ...settings } })).status).toBe(
    200,
  );
async function names(pattern: string): Promise<string[]> {
  const r = await esCall(node.url, 'GET', `/_cat/indices/${pattern}?format=json&h=index,status&expand_wildcards=all`);
  return (r.body as { index: string }[]).map((x) => x.index).sort();
}
async function status(name: string): Promise<string> {
  const r = await esCall(node.url, 'GET', `/_cat/indices/${name}?format=json&h=status`);
  return r.body[0].status;
}

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-index-'));
  for (const n of ['logs-2025-01', 'logs-2025-02', 'logs-2026-01', 'service_v9_alpha', 'service_v9_beta', 'keep_me']) await make(n);
  await make('logs-2025-hidden', { 'index.hidden': true });
  await make('writes-1');
  await make('writes-2');
  expect(
    (
      await esCall(node.url, 'POST', '/_aliases', {
        actions: [{ add: { index: 'writes-1', alias: 'writes', is_write_index: true } }, { add: { index: 'writes-2', alias: 'writes' } }],
      })
    ).status,
  ).toBe(200);
}, 180_000);

afterAll(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

describe.sequential('index close|open|delete', () => {
  it('bad input is refused before anything is sent: *, _all, no match, hidden, write index', async () => {
    const before = auditLinesIn(cfg).length;
    const cases: [string[], RegExp][] = [
      [['index', 'close', '*', '--yes'], /would match every index/],
      [['index', 'delete', '_all', '--yes', '--expect', '9'], /would match every index/],
      [['index', 'close', 'nothing_here_*', '--yes'], /matches no index/],
      [['index', 'close', 'logs-2025*', '--yes'], /logs-2025-hidden is a hidden or system index/],
      [['index', 'close', '.security*', '--yes'], /system \(dot\) indices/],
      [['index', 'close', 'writes-*', '--yes'], /writes-1 \(alias writes\): the write index of an alias/],
      [['index', 'delete', 'writes-1', '--yes', '--expect', '1'], /the write index of an alias/],
      [['index', 'delete', 'logs-2026-*', '--yes'], /needs --expect N/],
      [['index', 'shut', 'logs-2026-*'], /give the action/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(64);
      expect(r.stderr).toMatch(message);
    }
    const json = await cli(['index', 'close', 'writes-*', '--yes', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'index', ok: false, code: 64, error: expect.stringMatching(/write index/) });
    expect(auditLinesIn(cfg).length).toBe(before);
    expect(await status('writes-1')).toBe('open');
  });

  it('close then open a pattern: exactly the names its preview listed, the request names them (never the pattern)', async () => {
    const doc = await esCall(node.url, 'PUT', '/logs-2025-01/_doc/1?refresh=true', { modified_at: '2026-11-20T10:00:00Z' });
    expect(doc.status).toBe(201);
    const dry = await cli(['index', 'close', 'logs-2025-0*', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    const d = JSON.parse(dry.stdout);
    expect(d.indices.map((i: { index: string }) => i.index)).toEqual(['logs-2025-01', 'logs-2025-02']);
    // The last write: the newest modified_at; none in an empty index.
    expect(d.indices.map((i: { lastWrite: string | null }) => i.lastWrite)).toEqual(['2026-11-20T10:00:00.000Z', null]);
    expect(d.indices[0]).toMatchObject({ docs: 1, status: 'open', newestSnapshot: null, project: null });
    expect(d.requests[0].path).toBe('/logs-2025-01,logs-2025-02/_close');
    const closed = await cli(['index', 'close', 'logs-2025-0*', '--yes']);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toMatch(/ok: 2 indices closed/);
    expect([await status('logs-2025-01'), await status('logs-2025-02'), await status('logs-2026-01')]).toEqual(['close', 'close', 'open']);
    const opened = await cli(['index', 'open', 'logs-2025-0*', '--yes', '--json']);
    expect(opened.code, opened.stderr).toBe(0);
    expect(JSON.parse(opened.stdout)).toMatchObject({ ok: true, applied: 'yes', result: { verified: { ok: true } } });
    expect(await status('logs-2025-01')).toBe('open');
    // Open again: nothing to do, nothing sent.
    const again = await cli(['index', 'open', 'logs-2025-0*', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to open/);
  });

  it('delete needs the count and each project index typed, even with --yes; then deletes exactly those', async () => {
    const wrong = await cli(['index', 'delete', 'service_v9_*', '--yes', '--expect', '3']);
    expect(wrong.code).toBe(64);
    expect(wrong.stderr).toMatch(/matches 2 indices, not 3/);
    const noName = await cli(['index', 'delete', 'service_v9_*', '--yes', '--expect', '2', '--confirm-project', 'service_v9_alpha']);
    expect(noName.code).toBe(5);
    expect(noName.stdout).toMatch(/type "2 service_v9_alpha service_v9_beta" to confirm \(nothing was sent\)/);
    expect(noName.stderr).toMatch(/--confirm-project service_v9_alpha --confirm-project service_v9_beta/);
    expect(await names('service_v9_*')).toEqual(['service_v9_alpha', 'service_v9_beta']);
    const done = await cli([
      'index',
      'delete',
      'service_v9_*',
      '--yes',
      '--expect',
      '2',
      '--confirm-project',
      'service_v9_beta',
      '--confirm-project',
      'service_v9_alpha',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/no snapshot holds service_v9_alpha, service_v9_beta: take one first/);
    expect(done.stdout).toMatch(/ok: 2 indices deleted/);
    expect(await names('service_v9_*')).toEqual([]);
    expect(await names('keep_me')).toEqual(['keep_me']);
  });

  it('--snapshot-first: a snapshot of exactly the previewed indices, taken whole before the delete is sent', async () => {
    const repo = await esCall(node.url, 'PUT', '/_snapshot/before', {
      type: 'fs',
      settings: { location: path.join(node.repoDir, 'before') },
    });
    expect(repo.status).toBe(200);
    await make('old-1');
    await make('old-2');
    expect((await esCall(node.url, 'PUT', '/old-1/_doc/1?refresh=true', { kept: true })).status).toBe(201);
    const r = await cli(['index', 'delete', 'old-*', '--snapshot-first', '--yes', '--expect', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, applied: 'yes', snapshotFirst: { repository: 'before', taken: true } });
    // Previewed first: the snapshot, then the delete.
    expect(out.requests.map((q: { method: string; path: string }) => `${q.method} ${q.path}`)).toEqual([
      expect.stringMatching(/^PUT \/_snapshot\/before\/before-delete-old-1-and-1-more-/),
      'DELETE /old-1,old-2',
    ]);
    expect(await names('old-*')).toEqual([]);
    const snap = (await esCall(node.url, 'GET', `/_snapshot/before/${out.snapshotFirst.name}`)).body.snapshots[0];
    expect(snap).toMatchObject({ state: 'SUCCESS' });
    expect([...snap.indices].sort()).toEqual(['old-1', 'old-2']);
    // No repository of that name: refused before anything is sent.
    await make('old-3');
    const none = await cli(['index', 'delete', 'old-3', '--snapshot-repo', 'nowhere', '--yes', '--expect', '1']);
    expect(none.code).toBe(64);
    expect(none.stderr).toMatch(/no snapshot repository nowhere \(registered: before\)/);
    expect(await names('old-*')).toEqual(['old-3']);
  });

  it('an index created after the preview survives; one deleted since stops the delete (nothing sent)', async () => {
    const client = createClient({ url: node.url });
    const es = createEsApi(client, node.url);
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'test', auditFile: path.join(cfg, 'audit.log') });
    await make('race-a');
    await make('race-b');
    const p = await previewIndexAction(es, guard, 'delete', 'race-*');
    if (!p.ok || !p.plan) throw new Error(p.ok ? 'no plan' : p.error);
    await make('race-c'); // after the preview: matches the pattern, never previewed
    const out = await guard.execute(p.plan, { by: 'yes-flag', text: typedAheadText('2', []) });
    expect(out.applied).toBe('yes');
    expect(out.verified?.ok).toBe(true);
    expect(await names('race-*')).toEqual(['race-c']);

    await make('gone-a');
    await make('gone-b');
    const q = await previewIndexAction(es, guard, 'delete', 'gone-*');
    if (!q.ok || !q.plan) throw new Error(q.ok ? 'no plan' : q.error);
    expect((await esCall(node.url, 'DELETE', '/gone-b')).status).toBe(200);
    const refused = await guard.execute(q.plan, { by: 'yes-flag', text: '2' }).catch((e) => e);
    expect(refused).toBeInstanceOf(GuardRefusal);
    expect((refused as GuardRefusal).kind).toBe('changed');
    expect(await names('gone-*')).toEqual(['gone-a']);
    await client.close();
  });

  it('a hostile index name is shown inert and named exactly in the request', async () => {
    const hostile = 'evil-\u001b]0;x\u0007';
    await make(hostile);
    const r = await cli(['index', 'close', 'evil-*', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
    expect(r.stdout).toContain('evil-\\u001b]0;x\\u0007');
    expect(r.stdout).toContain(`POST /${encodeURIComponent(hostile)}/_close`);
  });
});
