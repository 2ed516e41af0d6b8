// The inspect commands (mappings, settings, stats, cat), the built CLI against a real node: found
// (exit 0, text and --json), not found (5), bad input (64), unreachable (3), and a pattern that
// matches many indices (resolved and counted first: over --max, no mapping is read at all).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { wideMapping, WIDE_SETTINGS } from '../../dev/wide-mapping.mjs';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const MANY = 120;
let node: SharedNode;
let proxy: CountingProxy;
let cfg: string;
const cli = (...args: string[]) => runCli([args[0], '--url', proxy.url, ...args.slice(1)], { env: { SHARDECK_CONFIG_DIR: cfg } });
const json = async (...args: string[]) => {
  const r = await cli(...args, '--json');
  return { code: r.code, out: JSON.parse(r.stdout), stderr: r.stderr };
};

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-inspect-'));
  node = await sharedNode();
  await loadDemoData(node.url, { docsPerIndex: 200 });
  await esCall(node.url, 'PUT', '/service_v9_wide', { settings: WIDE_SETTINGS, mappings: wideMapping(2000) });
  // Many small indices with one identical mapping; one of them differs.
  for (let i = 0; i < MANY; i++)
    await esCall(node.url, 'PUT', `/many_${String(i).padStart(3, '0')}`, {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { at: { type: 'date' }, ...(i === 7 ? { extra: { type: 'keyword' } } : {}) } },
    });
  proxy = await startCountingProxy(node.url);
}, 300_000);

afterAll(async () => {
  await proxy?.close();
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('shardeck mappings', () => {
  it('shows the mapping of one index as a tree: types, multi-fields, enabled: false', async () => {
    const r = await cli('mappings', 'service_v9_wide');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^service_v9_wide \(1 index\): 2\d\d\d fields/);
    expect(r.stdout).toContain('    +raw  keyword  (ignore_above: 256)');
    expect(r.stdout).toMatch(/\n {2}raw_payload {2}object {2}\(enabled: false\)/);
    expect(r.stdout).toMatch(/\n {2}dynamic: strict/);
  });

  it('collapses identical mappings of a pattern into groups (largest first)', async () => {
    const { code, out } = await json('mappings', 'many_*', '--max', '200');
    expect(code).toBe(0);
    expect(out.matched).toBe(MANY);
    expect(out.groups).toHaveLength(2);
    expect(out.groups[0].indices).toHaveLength(MANY - 1);
    expect(out.groups[1]).toEqual({ indices: ['many_007'], mapping: { properties: { at: { type: 'date' }, extra: { type: 'keyword' } } } });
    const text = await cli('mappings', 'many_*', '--max', '200');
    expect(text.stdout).toContain(`many_000, many_001, many_002 and ${MANY - 4} more (${MANY - 1} indices): 1 fields`);
    expect(text.stdout).toContain(`${MANY} indices, 2 different mappings`);
  });

  it('refuses a pattern matching more indices than --max (default 100) and reads no mapping at all', async () => {
    proxy.reset();
    const r = await cli('mappings', 'many_*');
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(`"many_*" matches ${MANY} indices; mappings are read for at most 100 at once: narrow the pattern`);
    expect(proxy.requests.map((q) => q.path).filter((p) => p.includes('_mapping'))).toEqual([]);
    expect(proxy.requests.some((q) => q.path.startsWith('/_cat/indices/many_*'))).toBe(true);
  });

  it('--field finds a dotted path and names the indices that do not map it', async () => {
    const { code, out } = await json('mappings', 'many_00*', '--field', 'extra');
    expect(code).toBe(0);
    expect(out.found).toEqual([{ indices: ['many_007'], definition: { type: 'keyword' } }]);
    expect(out.missing).toHaveLength(9);
    const dotted = await cli('mappings', 'service_v9_wide', '--field', 'title.raw');
    expect(dotted.code).toBe(0);
    expect(dotted.stdout).toContain('title.raw: {"type":"keyword","ignore_above":256}  in service_v9_wide');
  });

  it('says when no index maps the field (exit 5)', async () => {
    const r = await cli('mappings', 'service_v9_*', '--field', 'group01.nope');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/no index matching "service_v9_\*" maps the field "group01.nope" \(6 indices looked at\)/);
  });

  it('not found (5) and bad input (64)', async () => {
    const missing = await json('mappings', 'nosuch_*');
    expect(missing.code).toBe(5);
    expect(missing.out).toMatchObject({ ok: false, notFound: true, error: expect.stringContaining('no index matches "nosuch_*"') });
    expect((await cli('mappings')).code).toBe(64);
    expect((await cli('mappings', 'x', '--max', '0')).code).toBe(64);
    const badField = await cli('mappings', 'service_v9_wide', '--field', 'a..b');
    expect(badField.code).toBe(64);
    expect(badField.stderr).toContain('is not a field path');
  });
});

describe('shardeck settings', () => {
  it("lists the index's own settings, flattened; --all adds the defaults", async () => {
    const r = await cli('settings', 'service_v9_alpha');
    expect(r.code).toBe(0);
    // Issue 47 item 10: a date setting is said as a date too.
    expect(r.stdout).toMatch(/^index\.creation_date +20\d\d-\d\d-\d\d \d\d:\d\d:\d\d UTC \(\d{13}\)$/m);
    expect(r.stdout).toMatch(/^index\.number_of_shards +6$/m);
    expect(r.stdout).not.toContain('(default)');
    const all = await json('settings', 'service_v9_alpha', '--all');
    expect(all.out.settings['index.number_of_shards']).toBe('6');
    expect(all.out.defaults['index.refresh_interval']).toBe('1s');
    const text = await cli('settings', 'service_v9_alpha', '--all');
    expect(text.stdout).toMatch(/^index\.refresh_interval +1s {2}\(default\)$/m);
  });

  it('not found (5); a pattern where one index is needed (64)', async () => {
    const missing = await cli('settings', 'nosuch');
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('no index named "nosuch"');
    const pattern = await cli('settings', 'service_v9_*');
    expect(pattern.code).toBe(64);
    expect(pattern.stderr).toContain('is a pattern or a list: settings shows one index');
    expect((await cli('settings')).code).toBe(64);
  });
});

describe('shardeck stats', () => {
  it('of one index: docs, store, segments, merges, indexing and search', async () => {
    await esCall(node.url, 'POST', '/service_v9_alpha/_search', { size: 1 });
    const { code, out } = await json('stats', 'service_v9_alpha');
    expect(code).toBe(0);
    const s = out.indices.service_v9_alpha;
    expect(s).toMatchObject({ docs: 200, deleted: 0, health: 'green', status: 'open' });
    expect(s.storeBytes).toBeGreaterThan(0);
    expect(s.segments).toBeGreaterThan(0);
    expect(s.indexing.total).toBe(200);
    expect(s.search.queries).toBeGreaterThan(0);
    const text = await cli('stats', 'service_v9_alpha');
    expect(text.stdout).toMatch(/^service_v9_alpha {2}green open\n {2}docs 200, deleted 0\n/);
  });

  it('of the whole node: the total and one line per index', async () => {
    const { code, out } = await json('stats');
    expect(code).toBe(0);
    expect(Object.keys(out.indices)).toContain('many_119');
    expect(out.total.docs).toBeGreaterThanOrEqual(6 * 200 - 200);
    const text = await cli('stats');
    expect(text.stdout).toMatch(/^all indices: \d+ indices\n/);
    expect(text.stdout).toMatch(/\nservice_v9_orders +yellow docs 200/);
  });

  it('not found (5), bad input (64), unreachable (3)', async () => {
    expect((await cli('stats', 'nosuch')).code).toBe(5);
    expect((await cli('stats', 'nosuch_*')).code).toBe(5);
    expect((await cli('stats', 'a', 'b')).code).toBe(64);
    const down = await runCli(['stats', '--url', 'http://127.0.0.1:1', '--json'], { env: { SHARDECK_CONFIG_DIR: cfg } });
    expect(down.code).toBe(3);
    expect(JSON.parse(down.stdout)).toMatchObject({ ok: false, error: expect.stringContaining('connection refused') });
  });
});

describe('shardeck cat', () => {
  it('without a name: the _cat commands the node offers', async () => {
    const { code, out } = await json('cat');
    expect(code).toBe(0);
    const names = out.commands.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(['indices', 'shards', 'allocation', 'nodes', 'health', 'segments']));
    expect(out.commands.find((c: { name: string }) => c.name === 'shards')).toMatchObject({ takesTarget: true });
  });

  it('a command with a target and --columns, as a table and as JSON', async () => {
    const r = await cli('cat', 'shards', 'service_v9_orders', '--columns', 'index,shard,prirep,state');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^index +shard +prirep +state$/);
    expect(r.stdout).toMatch(/service_v9_orders +0 +r +UNASSIGNED/);
    const { out } = await json('cat', 'health', '--columns', 'status,node.total');
    expect(out.rows).toEqual([{ status: 'yellow', 'node.total': '1' }]);
  });

  it('an unknown name or column: one sentence listing the valid ones (64); a missing target (5)', async () => {
    const name = await cli('cat', 'nosuch');
    expect(name.code).toBe(64);
    expect(name.stderr).toMatch(/the node has no _cat command "nosuch": it offers .*allocation.*shards/);
    const col = await cli('cat', 'indices', '--columns', 'index,bogus');
    expect(col.code).toBe(64);
    expect(col.stderr).toMatch(/_cat\/indices has no column "bogus": it has health, status, index/);
    const target = await cli('cat', 'shards', 'nosuch');
    expect(target.code).toBe(5);
    expect((await cli('cat', 'health', 'x')).code).toBe(64);
  });
});
