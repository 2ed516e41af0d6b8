// A _refresh changes no document, but it is a write: it goes through the guard like any change.
// Behind the counting proxy, every changing request shardeck sends must have its audit record
// (the guard writes one per request it sends), the refresh is previewed with the delete it
// follows, and in read-only mode the guard refuses it before anything is sent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { createClient } from '../../src/cluster/connection';
import { readAudit } from '../../src/services/audit';
import { refreshIndex } from '../../src/services/delete-by-query';
import { Guard } from '../../src/services/guard';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_refresh';
const QUERY = { term: { 'assoc:sources': 'src-crm' } };
const LOST_TASK = 'lostnode0000000000000:77';
let node: SharedNode;
let proxy: CountingProxy;
let cfg: string;
const es = async (method: string, p: string, body?: unknown) => (await esCall(node.url, method, p, body)).body;
const audit = () => readAudit(path.join(cfg, 'audit.log')).records;
const cli = (args: string[]) => runCli([args[0], '--url', proxy.url, ...args.slice(1)], { env: { SHARDECK_CONFIG_DIR: cfg } });

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  await loadDemoData(node.url, { docsPerIndex: 300, indices: [INDEX], yellowIndex: '' });
  proxy = await startCountingProxy(node.url);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
});

beforeEach(() => {
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-refresh-'));
  proxy.reset();
});

afterEach(() => fs.rmSync(cfg, { recursive: true, force: true }));

/** Each changing request the proxy saw, and each request the audit log recorded, as "METHOD /path". */
const changingAtProxy = () => proxy.changing().map((r) => `${r.method} ${r.path.split('?')[0]}`);
const audited = () => audit().map((r) => `${r.request?.method} ${r.request?.path}`);

describe('the refresh before a count is a guarded change', () => {
  it("tasks ID of a lost delete refreshes through the guard: audited, carrying the delete's typed confirmation", async () => {
    const matching = (await es('POST', `/${INDEX}/_count`, { query: QUERY })).count;
    const lost = {
      time: new Date().toISOString(),
      profile: 'default',
      url: node.url,
      request: {
        method: 'POST',
        path: `/${INDEX}/_delete_by_query`,
        querystring: { wait_for_completion: 'false' },
        body: { query: QUERY, max_docs: matching },
      },
      risk: 'destructive',
      target: INDEX,
      summary: 'the delete',
      confirmedBy: 'typed',
      outcome: { ok: true, status: 200, durationMs: 5, task: LOST_TASK },
    };
    fs.writeFileSync(path.join(cfg, 'audit.log'), JSON.stringify(lost) + '\n', { mode: 0o600 });
    const r = await cli(['tasks', LOST_TASK, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ lost: true, refreshed: true, stillMatching: matching });
    expect(JSON.parse(r.stdout).countMayLag).toBeUndefined();
    expect(changingAtProxy()).toEqual([`POST /${INDEX}/_refresh`]);
    // Every change sent has its record (the lost delete's record was there before).
    expect(audited().slice(1)).toEqual(changingAtProxy());
    expect(audit()[1]).toMatchObject({
      risk: 'reversible',
      target: INDEX,
      confirmedBy: 'typed',
      summary: expect.stringMatching(new RegExp(`refresh ${INDEX} .*after the lost delete task ${LOST_TASK}`)),
      outcome: { ok: true, status: 200 },
    });
  });

  it('delete-by-query previews the refresh it may send after the delete', async () => {
    const r = await cli(['delete-by-query', INDEX, '--source', 'src-crm', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { requests } = JSON.parse(r.stdout);
    expect(requests.map((q: { method: string; path: string }) => `${q.method} ${q.path.split('?')[0]}`)).toEqual([
      `POST /${INDEX}/_delete_by_query`,
      `POST /${INDEX}/_refresh`,
    ]);
    expect(requests[1]).toMatchObject({
      risk: 'reversible',
      summary: expect.stringMatching(/after a cancelled or failed delete/),
      curl: expect.stringContaining('_refresh'),
    });
    expect(changingAtProxy()).toEqual([]);
  });

  it('a real delete: every changing request at the proxy has its audit record', async () => {
    const matching = (await es('POST', `/${INDEX}/_count`, { query: QUERY })).count;
    const r = await cli(['delete-by-query', INDEX, '--source', 'src-crm', '--expect', String(matching), '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).report).toMatchObject({ deleted: matching, stillMatching: 0 });
    expect(changingAtProxy()).toContain(`POST /${INDEX}/_delete_by_query`);
    expect(audited()).toEqual(changingAtProxy());
  });

  it('in read-only mode the guard refuses the refresh and nothing is sent', async () => {
    const guard = new Guard({
      client: createClient({ url: proxy.url }),
      conn: { url: proxy.url, readOnly: true },
      profile: 't',
      auditFile: path.join(cfg, 'audit.log'),
    });
    await expect(refreshIndex(guard, INDEX, 'in a test', { by: 'key' })).rejects.toMatchObject({ kind: 'read-only' });
    expect(proxy.requests).toEqual([]);
    expect(audit()).toEqual([]);
  });
});
