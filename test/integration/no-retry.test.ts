// Never an automatic retry, tested where a client WOULD retry: the counting proxy answers a
// mutation with a 503, or resets the connection once it has received it (the two failures the
// Elasticsearch client retries when maxRetries > 0; a 400 it never retries, so it proves nothing).
// Through Guard.execute and through the built CLI, the proxy must see the request exactly once,
// shardeck must report the failure, and the audit log must hold one record of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { createClient } from '../../src/cluster/connection';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import type { MutationPlan } from '../../src/domain/mutation/plan';
import { startCountingProxy, type CountingProxy, type Trap } from '../helpers/counting-proxy';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_noretry';
let node: SharedNode;
let proxy: CountingProxy;
let cfg: string;
const es = async (method: string, p: string, body?: unknown) => (await esCall(node.url, method, p, body)).body;

/** 503 from the "node", or the connection reset after the request was received. */
const FAILURES: [string, Trap['action']][] = [
  ['503 Service Unavailable', { status: 503 }],
  ['connection reset after receiving it', 'reset'],
];

const scrollPut = (m: string, p: string) => m === 'PUT' && p.startsWith('/_cluster/settings');
const deletePost = (m: string, p: string) => m === 'POST' && p.startsWith(`/${INDEX}/_delete_by_query`);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  await loadDemoData(node.url, { docsPerIndex: 200, indices: [INDEX], yellowIndex: '' });
  proxy = await startCountingProxy(node.url);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
});

beforeEach(() => {
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-noretry-'));
  proxy.clearTraps();
  proxy.reset();
});

afterEach(() => fs.rmSync(cfg, { recursive: true, force: true }));

/**
 * Requests the proxy saw that `match` selects. Called once the call has returned (or the CLI has
 * exited): the client sends a retry before it gives its answer, and the proxy lists a request as
 * it arrives, so any retry is in the list by then (no sleep needed to let one show).
 */
function seen(match: (m: string, p: string) => boolean): string[] {
  return proxy.requests.filter((r) => match(r.method, r.path)).map((r) => `${r.method} ${r.path} ${r.handled}`);
}

describe.each(FAILURES)('a mutation failing with %s', (label, action) => {
  it('Guard.execute sends it once, reports it and records it once', async () => {
    proxy.trap({ match: scrollPut, action });
    const auditFile = path.join(cfg, 'audit.log');
    const guard = new Guard({
      client: createClient({ url: proxy.url }),
      conn: { url: proxy.url, readOnly: false },
      profile: 'test',
      auditFile,
    });
    const plan: MutationPlan = {
      method: 'PUT',
      path: '/_cluster/settings',
      querystring: {},
      body: { persistent: { 'search.max_open_scroll_context': 900 } },
      risk: 'reversible',
      target: 'cluster settings',
      summary: 'raise the scroll limit to 900',
    };
    const out = await guard.execute(plan, { by: 'key' });
    expect(out.ok).toBe(false);
    if (action === 'reset') expect(out.error?.message).toMatch(/closed the connection before answering/);
    else expect(out).toMatchObject({ status: 503 });
    // This plan has no read-back check, so the guard cannot say more than "unknown" (never "failed, resend").
    expect(out.applied).toBe('unknown');
    expect(seen(scrollPut)).toHaveLength(1);
    const { records } = readAudit(auditFile);
    expect(records).toHaveLength(1);
    expect(records[0].outcome).toMatchObject({ ok: false, error: expect.any(String) });
    expect((await es('GET', '/_cluster/settings?flat_settings=true')).persistent).toEqual({});
  });

  it('the CLI (scroll-limit --yes) reports it, exit 5, and does not resend it', async () => {
    proxy.trap({ match: scrollPut, action });
    const r = await runCli(['scroll-limit', '900', '--yes', '--url', proxy.url], { env: { SHARDECK_CONFIG_DIR: cfg } });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout + r.stderr).toMatch(/FAILED: .*NOT applied.*it was not resent/);
    if (action === 'reset') expect(r.stdout + r.stderr).toMatch(/closed the connection before answering/);
    expect(seen(scrollPut)).toHaveLength(1);
    const { records } = readAudit(path.join(cfg, 'audit.log'));
    expect(records).toHaveLength(1);
    expect(records[0].outcome).toMatchObject({ ok: false, applied: 'no' });
  });

  it('the CLI delete-by-query --yes reports it, exit 5, and does not resend the delete', async () => {
    proxy.trap({ match: deletePost, action });
    const count = (await es('POST', `/${INDEX}/_count`, { query: { term: { 'assoc:sources': 'src-crm' } } })).count;
    const r = await runCli(['delete-by-query', INDEX, '--source', 'src-crm', '--expect', String(count), '--yes', '--url', proxy.url], {
      env: { SHARDECK_CONFIG_DIR: cfg },
    });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/the delete: .*whether it was applied is unknown.*it was not resent/);
    expect(seen(deletePost)).toHaveLength(1);
    // Nothing after it either: no refresh, no task poll for a delete that was not accepted.
    expect(proxy.changing().map((q) => q.method + ' ' + q.path.split('?')[0])).toEqual([`POST /${INDEX}/_delete_by_query`]);
    expect(readAudit(path.join(cfg, 'audit.log')).records).toHaveLength(1);
    expect((await es('POST', `/${INDEX}/_count`, { query: { term: { 'assoc:sources': 'src-crm' } } })).count).toBe(count);
  });
});
