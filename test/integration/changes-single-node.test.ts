// The guarded changes against one real node: replicas and the index template, the flood-stage
// block, the scroll-context limit, allocation explain and retry — through the built CLI.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-cli';
import { cliAgainst, esCall } from '../helpers/real-node';
import { waitUntil } from '../helpers/wait-until';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;

const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);

const cli = cliAgainst(
  () => node.url,
  () => cfg,
);
/** Waits until `ok()` (the deadline is the test's bound: no clock is read). */
async function waitFor(what: string, ok: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  await waitUntil(what, ok, Boolean, { timeoutMs, intervalMs: 500 });
}

/** The platform's template, composed of a component template, with the given replicas. */
const putTemplate = (replicas: number) =>
  es('PUT', '/_index_template/service_v9', {
    index_patterns: ['service_v9_*'],
    composed_of: ['service_v9_mappings'],
    priority: 100,
    _meta: { owner: 'platform' },
    template: { settings: { number_of_shards: 2, number_of_replicas: replicas } },
  });

const indexHealth = async (index: string) => (await es('GET', `/_cluster/health/${index}`)).body.status;
const isBlocked = async (index: string) =>
  (await es('GET', `/${index}/_settings/index.blocks.read_only_allow_delete?flat_settings=true`)).body[index]?.settings?.[
    'index.blocks.read_only_allow_delete'
  ] === 'true';

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-changes-'));
  await es('PUT', '/_component_template/service_v9_mappings', {
    template: { mappings: { properties: { modified_at: { type: 'date' } } } },
  });
  await putTemplate(0);
  for (const p of ['alpha', 'beta']) await es('PUT', `/service_v9_${p}`, {});
});

afterAll(() => {
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('replicas on a single node', () => {
  it('replicas 1 turns the indices yellow, and shardeck warns it would', async () => {
    const r = await cli(['replicas', 'set', 'service_v9_*', '1', '--yes', '--timeout', '20', '--json']);
    const out = JSON.parse(r.stdout);
    expect(out.matched).toEqual(['service_v9_alpha', 'service_v9_beta']);
    expect(out.warnings.join(' ')).toMatch(/single-node cluster .* turn yellow/);
    expect(out.expected).toBe('yellow');
    expect(out.report.before).toMatchObject({ health: 'green', replicas: { service_v9_alpha: 0, service_v9_beta: 0 } });
    expect(out.report.after).toMatchObject({
      health: 'yellow',
      replicas: { service_v9_alpha: 1, service_v9_beta: 1 },
      reachedExpected: true,
    });
    expect(r.code).toBe(0);
    expect(await indexHealth('service_v9_*')).toBe('yellow');
  });

  it('replicas 0 with the template turns them green, keeps the rest of the template, and new indices get 0', async () => {
    // Make the template wrong first, as a platform left at 1 replica would.
    await putTemplate(1);
    const r = await cli(['replicas', 'set', 'service_v9_*', '0', '--template', 'service_v9', '--yes', '--timeout', '30', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // Sent to the indices matched at the preview, named one by one, not to the pattern.
    expect(out.requests.map((q: any) => `${q.method} ${q.path}`)).toEqual([
      'PUT /service_v9_alpha,service_v9_beta/_settings?expand_wildcards=all',
      'PUT /_index_template/service_v9',
    ]);
    // additional_components: what the template is really composed of (the platform would drop a component left out).
    expect(out.platformSettings).toEqual({
      service_v9: { number_of_shards: 2, number_of_replicas: 0, additional_components: ['service_v9_mappings'] },
    });
    expect(out.report.after).toMatchObject({ health: 'green', reachedExpected: true });
    expect(out.report.results.every((x: any) => x.ok && x.verified.ok)).toBe(true);
    expect(await indexHealth('service_v9_*')).toBe('green');

    const t = (await es('GET', '/_index_template/service_v9')).body.index_templates[0].index_template;
    expect(t).toMatchObject({
      index_patterns: ['service_v9_*'],
      composed_of: ['service_v9_mappings'],
      priority: 100,
      _meta: { owner: 'platform' },
    });
    expect(t.template.settings.index).toEqual({ number_of_shards: '2', number_of_replicas: '0' });

    await es('PUT', '/service_v9_gamma', {});
    const s = (await es('GET', '/service_v9_gamma/_settings?flat_settings=true')).body.service_v9_gamma.settings;
    expect(s['index.number_of_replicas']).toBe('0');
    expect(await indexHealth('service_v9_gamma')).toBe('green');
  });

  it('an absent template, or one whose patterns miss the index, is refused plainly (exit 64) and nothing changes', async () => {
    const before = (await es('GET', '/service_v9_alpha/_settings?flat_settings=true')).body.service_v9_alpha.settings[
      'index.number_of_replicas'
    ];
    const r = await cli(['replicas', 'set', 'service_v9_alpha', String(Number(before) + 1), '--template', 'service_v7', '--yes', '--json']);
    expect(r.code).toBe(64);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      code: 64,
      error: expect.stringMatching(/index template "service_v7" does not exist: nothing was sent/),
    });
    expect((await es('PUT', '/_index_template/other_logs', { index_patterns: ['other-logs-*'], priority: 1 })).status).toBe(200);
    const miss = await cli(['replicas', 'set', 'service_v9_alpha', String(Number(before) + 1), '--template', 'other_logs', '--yes']);
    expect(miss.code).toBe(64);
    expect(miss.stderr).toMatch(
      /index template "other_logs" \(index patterns other-logs-\*\) matches none of .*service_v9_alpha.*nothing was sent/,
    );
    expect(
      (await es('GET', '/service_v9_alpha/_settings?flat_settings=true')).body.service_v9_alpha.settings['index.number_of_replicas'],
    ).toBe(before);
    expect((await es('GET', '/_index_template/other_logs')).body.index_templates[0].index_template.template).toBeUndefined();
  });
});

describe('allocation explain and retry', () => {
  it('says plainly when nothing is unassigned (Elasticsearch answers 400)', async () => {
    const r = await cli(['explain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no shard is unassigned: nothing to explain/);
  });

  it('explains an unassigned replica in plain words, and a retry reports what moved', async () => {
    await es('PUT', '/service_v9_alpha/_settings', { index: { number_of_replicas: 1 } });
    const r = await cli(['explain', 'service_v9_alpha', '0', 'replica', '--json']);
    expect(r.code).toBe(0);
    const x = JSON.parse(r.stdout).explanation;
    expect(x).toMatchObject({ shard: { index: 'service_v9_alpha', shard: 0, primary: false }, state: 'unassigned' });
    expect(x.unassignedReason).toMatch(/^REPLICA_ADDED \(a replica was added\)/);
    expect(x.nodes[0].reasons.join(' ')).toMatch(/same_shard/);
    expect(x.advice.join(' ')).toMatch(/lower number_of_replicas/);

    const text = await cli(['explain']);
    expect(text.stdout).toMatch(/service_v9_alpha shard \d replica: unassigned/);

    const retry = await cli(['reroute', '--retry-failed', '--yes', '--timeout', '5']);
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(/POST \/_cluster\/reroute\?retry_failed=true/);
    expect(retry.stdout).toMatch(/nothing moved: no shard changed state/);
    expect(retry.stdout).toMatch(/2 shards still unassigned/);
    await es('PUT', '/service_v9_alpha/_settings', { index: { number_of_replicas: 0 } });
  });
});

describe('scroll contexts', () => {
  const openScroll = () => es('POST', '/scroll_idx/_search?scroll=5m', { size: 1 });

  it('limit 2: the third scroll fails, shardeck shows 2 open of 2, raises it, the third scroll works', async () => {
    await es('PUT', '/scroll_idx', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es('POST', '/scroll_idx/_doc?refresh=true', { a: 1 });
    await es('PUT', '/_cluster/settings', {
      persistent: { 'search.max_open_scroll_context': 2 },
      transient: { 'search.max_open_scroll_context': 2 },
    });
    expect((await openScroll()).status).toBe(200);
    expect((await openScroll()).status).toBe(200);
    const third = await openScroll();
    expect(third.status).not.toBe(200);
    expect(JSON.stringify(third.body)).toContain('Trying to create too many scroll contexts. Must be less than or equal to: [2]');

    const show = await cli(['scroll-limit']);
    expect(show.stdout).toMatch(/search\.max_open_scroll_context: 2 per node/);
    expect(show.stdout).toMatch(new RegExp(`${node.name}: 2 open of 2 allowed \\(full: the next scroll fails\\)`));
    expect(show.stdout).toMatch(/keep-alive of 1m instead of the default 5m/);

    const raise = await cli(['scroll-limit', '10', '--yes', '--json']);
    expect(raise.code).toBe(0);
    const out = JSON.parse(raise.stdout);
    expect(out.requests[0]).toMatchObject({
      method: 'PUT',
      path: '/_cluster/settings',
      body: { persistent: { 'search.max_open_scroll_context': 10 }, transient: { 'search.max_open_scroll_context': 10 } },
    });
    expect(out.result.verified).toMatchObject({ ok: true });
    expect((await openScroll()).status).toBe(200);
    await es('DELETE', '/_search/scroll/_all');
  });
});

describe('flood stage', () => {
  const WM = 'cluster.routing.allocation.disk.watermark';
  const setWatermarks = (low: string | null, high: string | null, flood: string | null) =>
    es('PUT', '/_cluster/settings', {
      transient: { [`${WM}.low`]: low, [`${WM}.high`]: high, [`${WM}.flood_stage`]: flood, 'cluster.info.update.interval': '10s' },
    });

  /**
   * Waits until Elasticsearch has taken `rounds` new disk readings (cluster info, every 10 s): each
   * poll grows a scratch file on the node's disk, so each round reads a free space not seen before.
   */
  async function diskInfoRounds(rounds: number): Promise<void> {
    const scratch = path.join(node.baseDir, 'disk-info-probe');
    const seen = new Set<number>();
    try {
      await waitUntil(
        `${rounds} new disk-info rounds`,
        async () => {
          fs.appendFileSync(scratch, Buffer.alloc(1 << 20));
          const explain = await es('POST', '/_cluster/allocation/explain?include_disk_info=true', {
            index: 'flood_idx',
            shard: 0,
            primary: true,
          });
          const nodes = Object.values<{ least_available: { free_bytes: number } }>(explain.body.cluster_info.nodes);
          seen.add(nodes[0].least_available.free_bytes);
          return [...seen];
        },
        (values) => values.length > rounds, // the reading we started from, then `rounds` new ones
        { timeoutMs: 60_000, intervalMs: 1000 },
      );
    } finally {
      fs.rmSync(scratch, { force: true });
    }
  }

  it('past flood stage: blocked and refused; between high and flood: cleared by shardeck; below high: ES lifts it itself', async () => {
    await es('PUT', '/flood_idx', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es('PUT', '/flood_idx2', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    // An operator's own block (no writes to this index, on purpose): unblock must leave it alone.
    await es('PUT', '/kept_write_block', { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.blocks.write': true } });
    // Relative to this disk, whatever its usage: absolute watermarks are free space that must remain,
    // so asking for the disk's whole size puts the node past them; flood stage at 1 byte is never reached.
    const total = Number((await es('GET', '/_cat/allocation?format=json&bytes=b&h=disk.total')).body[0]['disk.total']);
    expect(total).toBeGreaterThan(0);
    const pastAll = `${total}b`;
    await setWatermarks(pastAll, pastAll, pastAll);
    await waitFor('the flood-stage block', () => isBlocked('flood_idx'));
    const write = await es('POST', '/flood_idx/_doc', { a: 1 });
    expect(write.status).toBe(429);
    expect(JSON.stringify(write.body)).toMatch(/flood-stage watermark/);

    const refused = await cli(['unblock', '--yes', '--json']);
    expect(refused.code).toBe(5);
    const r1 = JSON.parse(refused.stdout);
    expect(r1.blocked).toContain('flood_idx');
    expect(r1.disks[0].level).toBe('flood');
    expect(r1.refusal).toMatch(/past flood stage .* free disk first/);
    expect(r1.sent).toBe(false);
    expect(await isBlocked('flood_idx')).toBe(true);

    // Below flood stage but still above high: Elasticsearch keeps the block; shardeck may clear it.
    await setWatermarks(pastAll, pastAll, '1b');
    await diskInfoRounds(2); // ES would have lifted it by now if it ever did above high
    expect(await isBlocked('flood_idx')).toBe(true);
    const cleared = await cli(['unblock', '--yes', '--json']);
    const r2 = JSON.parse(cleared.stdout);
    // Failed 3 times in ~10 whole runs (two files at a time): `disks` empty. The answer says why next time.
    expect(r2.disks?.[0]?.level, cleared.stdout + cleared.stderr).toBe('high');
    expect(r2.notes.join(' ')).toMatch(/will not lift the block by itself yet/);
    // Exactly the indices listed as blocked, by name: never * or _all.
    expect(r2.blocked).toEqual(expect.arrayContaining(['flood_idx', 'flood_idx2']));
    for (const req of r2.requests) {
      expect(req).toMatchObject({ method: 'PUT', body: { 'index.blocks.read_only_allow_delete': null } });
      expect(req.path).not.toMatch(/\*|_all/);
    }
    const named = (r2.requests as { path: string }[]).flatMap((q) =>
      q.path.slice(1, -'/_settings'.length).split(',').map(decodeURIComponent),
    );
    // Elasticsearch's own dot indices (.tasks) blocked with them are left, and named (--include-system lifts them too).
    expect(named.sort()).toEqual(r2.blocked.filter((n: string) => !r2.leftSystem.includes(n)).sort());
    expect(r2.leftSystem.every((n: string) => n.startsWith('.'))).toBe(true);
    expect(r2.result.verified).toMatchObject({ ok: true });
    expect(cleared.code).toBe(0);
    expect(await isBlocked('flood_idx')).toBe(false);
    expect(await isBlocked('flood_idx2')).toBe(false);
    expect((await es('POST', '/flood_idx/_doc', { a: 2 })).status).toBe(201);
    // The operator's write block is still there.
    expect(
      (await es('GET', '/kept_write_block/_settings/index.blocks.write?flat_settings=true')).body.kept_write_block.settings[
        'index.blocks.write'
      ],
    ).toBe('true');

    // Past flood stage again, then all watermarks restored: Elasticsearch 8.19 lifts the block itself.
    await setWatermarks(pastAll, pastAll, pastAll);
    await waitFor('the flood-stage block again', () => isBlocked('flood_idx'));
    await setWatermarks(null, null, null);
    await waitFor('Elasticsearch to lift the block by itself', async () => !(await isBlocked('flood_idx')), 60_000);
    const nothing = await cli(['unblock', '--yes']);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toMatch(/no index is blocked: nothing to clear \(if there was a block, Elasticsearch has already lifted it\)/);
    expect((await es('POST', '/flood_idx/_doc', { a: 3 })).status).toBe(201);
    await es('PUT', '/_cluster/settings', { transient: { 'cluster.info.update.interval': null } });
  }, 240_000);
});
