// Right-sizing shards on one real node through the built CLI (issue 42): a 6-shard project index
// with 10,000 documents, an alias and a custom setting ends as a 1-shard index under the same name
// with the same documents, mapping, aliases and setting, nothing left behind; the plan printed
// before anything is sent; a write during the run refused by the block; bad input answered with
// nothing sent; hostile names kept inert.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayText } from '../../src/domain/text/display-text';
import { HOSTILE_INDICES } from '../fixtures/hostile/names';
import { fileTempDir } from '../helpers/file-temp';
import { auditLinesIn, esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { autoCreateIndex, indexNames, indexState, projectIndex, watchCli } from '../helpers/shrink';

let node: SharedNode;
let cfg: string;
const env = () => ({ SHARDECK_CONFIG_DIR: cfg });
const cli = (args: string[]) => runCli([args[0], '--url', node.url, ...args.slice(1)], { env: env() });
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fileTempDir('shardeck-shrink-');
});

afterAll(() => {
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('one node', () => {
  it('the plan first: documents, size, shards and their choices, the disk, the time, the steps; nothing sent', async () => {
    await projectIndex(node.url, 'service_v9_plan', 500);
    const before = await indexState(node.url, 'service_v9_plan');
    const r = await cli(['shrink', 'service_v9_plan', '--shards', '1', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, dryRun: true, sent: false });
    const [p] = out.plan.indices;
    expect(p).toMatchObject({
      index: 'service_v9_plan',
      documents: 500,
      shards: { now: 6, after: 1, choices: [1, 2, 3], proposed: 1 },
      node: node.name,
      moveToOneNode: false,
      temporary: expect.stringMatching(/^service_v9_plan-shrink-\d{14}$/),
      aliases: ['service_v9_plan_alias', 'service_v9_plan_filtered'],
      steps: [
        'block',
        'record',
        'copy',
        'copy-green',
        'check-copy',
        'hold-name',
        'delete-original',
        'clone',
        'release-name',
        'result-green',
        'check-result',
        'unblock',
        'drop-copy',
      ],
    });
    expect(p.primaryBytes).toBeGreaterThan(0);
    expect(p.disk.verdict).toBe('ok');
    expect(p.disk.needBytes).toBe(p.primaryBytes);
    expect(p.writesRefusedMs).toBeGreaterThan(0);
    expect(out.plan.autoCreateIndex).toEqual({
      now: 'true',
      whileNameFree: '-service_v9_plan,-service_v9_plan_alias,-service_v9_plan_filtered,*',
    });
    expect(out.plan.capacity.after.open).toBe(out.plan.capacity.before.open - 5);
    expect(out.requests.map((q: { method: string; path: string }) => `${q.method} ${q.path.replace(/\d{14}/, 'T')}`)).toEqual([
      'PUT /service_v9_plan/_settings',
      'POST /service_v9_plan/_refresh',
      'POST /service_v9_plan/_shrink/service_v9_plan-shrink-T',
      'PUT /_cluster/settings?flat_settings=true',
      'DELETE /service_v9_plan',
      'POST /service_v9_plan-shrink-T/_clone/service_v9_plan',
      'PUT /_cluster/settings?flat_settings=true',
      'PUT /service_v9_plan/_settings',
      'DELETE /service_v9_plan-shrink-T',
    ]);
    // The text plan says how long writes are refused.
    const text = await cli(['shrink', 'service_v9_plan', '--shards', '1', '--dry-run']);
    expect(text.stdout).toMatch(/writes to each project are refused for about \d+ s \(from its write block to its lift/);
    expect(await indexState(node.url, 'service_v9_plan')).toEqual(before);
    expect(auditLinesIn(cfg)).toEqual([]);
  });

  it('done when: 6 shards, 10,000 documents, an alias and a custom setting -> 1 shard under the same name, the same in every other way', async () => {
    // The platform's template: service_v9, its count set in a component template it is composed of.
    expect(
      (
        await es('PUT', '/_component_template/service_v9_settings', {
          template: { settings: { number_of_shards: 6, number_of_replicas: 0 } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await es('PUT', '/_component_template/service_v9_mappings', {
          template: { mappings: { properties: { modified_at: { type: 'date' } } } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await es('PUT', '/_index_template/service_v9', {
          index_patterns: ['service_v9_done*'],
          composed_of: ['service_v9_settings', 'service_v9_mappings'],
          priority: 100,
          _meta: { owner: 'platform' },
        })
      ).status,
    ).toBe(200);
    await projectIndex(node.url, 'service_v9_done', 10_000);
    const before = await indexState(node.url, 'service_v9_done');
    expect(before).toMatchObject({ docs: 10_000, shards: 6 });
    // The plan says where the count is set, and prints the platform's JSON with the reminder to restart its services.
    const plan = await cli(['shrink', 'service_v9_done', '--shards', '1', '--template', 'service_v9', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(
      /template: set number_of_shards to 1 in component template service_v9_settings \(of index template service_v9, where the count is set\) \(was 6/,
    );
    expect(plan.stdout).toContain(
      'topic.elasticsearch.index-templates-settings:\n{\n  "service_v9": {\n    "number_of_shards": 1,\n    "number_of_replicas": 0,\n    "additional_components": [\n      "service_v9_settings",\n      "service_v9_mappings"\n    ]\n  }\n}\n',
    );
    expect(plan.stdout).toMatch(/restart the platform services with the platform's restart command/);
    expect(plan.stdout).toMatch(/PUT \/_component_template\/service_v9_settings/);
    const started = Date.now();
    const r = await cli([
      'shrink',
      'service_v9_done',
      '--shards',
      '1',
      '--template',
      'service_v9',
      '--yes',
      '--accept-data-loss',
      'service_v9_done',
      '--json',
    ]);
    const took = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.report).toMatchObject({
      ok: true,
      indices: [{ index: 'service_v9_done', from: 6, to: 1, docsBefore: 10_000, docsAfter: 10_000, outcome: 'done' }],
    });
    expect(out.report.template).toEqual({
      ok: true,
      message:
        'component template service_v9_settings (of index template service_v9, where the count is set) now creates indices with 1 shard',
      platformJson: {
        service_v9: { number_of_shards: 1, number_of_replicas: 0, additional_components: ['service_v9_settings', 'service_v9_mappings'] },
      },
    });
    // The template says 1 shard: a new project index gets one; the rest of the component is as it was.
    expect(
      (await es('GET', '/_component_template/service_v9_settings')).body.component_templates[0].component_template.template.settings,
    ).toEqual({
      index: { number_of_shards: '1', number_of_replicas: '0' },
    });
    expect((await es('PUT', '/service_v9_done_new', {})).status).toBe(200);
    expect((await indexState(node.url, 'service_v9_done_new')).shards).toBe(1);
    await es('DELETE', '/service_v9_done_new');
    const n = out.report.shardsPerNode.find((x: { node: string }) => x.node === node.name);
    expect(n.before - n.after).toBe(5);
    expect(out.report.capacity.after.free - out.report.capacity.before.free).toBe(5);
    const after = await indexState(node.url, 'service_v9_done');
    expect(after).toEqual({ ...before, shards: 1, uuid: expect.any(String) });
    expect(after.uuid).not.toBe(before.uuid);
    // Nothing left: no copy, the name's hold put back, the block lifted (writes go in again), the journal finished.
    expect((await indexNames(node.url)).filter((i) => i.startsWith('service_v9_done'))).toEqual(['service_v9_done']);
    expect(await autoCreateIndex(node.url)).toEqual({ persistent: null, transient: null });
    expect((await es('POST', '/service_v9_done/_doc', { title: 'after' })).status).toBe(201);
    expect((await cli(['shrink', '--resume'])).stdout).toMatch(/no unfinished right-sizing/);
    // Every change audited, sent once.
    const sent = auditLinesIn(cfg)
      .map((l) => JSON.parse(l))
      .filter((x) => x.phase === 'sending');
    expect(sent.map((x) => `${x.request.method} ${x.request.path.replace(/\d{14}/, 'T')}`)).toEqual([
      'PUT /_component_template/service_v9_settings',
      'PUT /service_v9_done/_settings',
      'POST /service_v9_done/_refresh',
      'POST /service_v9_done/_shrink/service_v9_done-shrink-T',
      'PUT /_cluster/settings',
      'DELETE /service_v9_done',
      'POST /service_v9_done-shrink-T/_clone/service_v9_done',
      'PUT /_cluster/settings',
      'PUT /service_v9_done/_settings',
      'DELETE /service_v9_done-shrink-T',
    ]);
    console.log(`[shrink] 10,000 documents, 6 -> 1 shard on one node: ${took} ms (the CLI's run, start to end)`);
  });

  it('a snapshot first, on by default where a repository exists: taken and followed to its end before the block', async () => {
    expect((await es('PUT', '/_snapshot/backups', { type: 'fs', settings: { location: node.repoDir } })).status).toBe(200);
    try {
      await projectIndex(node.url, 'service_v9_snap', 500);
      const before = await indexState(node.url, 'service_v9_snap');
      const r = await cli(['shrink', 'service_v9_snap', '--shards', '1', '--yes', '--accept-data-loss', 'service_v9_snap']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/snapshot first: backups\/before-shrink-service_v9_snap-\d{8}-\d{6}/);
      const order = [...r.stdout.matchAll(/^service_v9_snap ([a-z-]+):/gm)].map((m) => m[1]);
      expect(order.slice(0, 2)).toEqual(['snapshot', 'block']);
      expect(r.stdout).toMatch(/done: snapshot backups\/before-shrink-service_v9_snap-\d{8}-\d{6} taken \(6\/6 shards\)/);
      const snaps = (await es('GET', '/_snapshot/backups/_all')).body.snapshots;
      expect(snaps.map((x: { indices: string[]; state: string }) => [x.indices, x.state])).toEqual([[['service_v9_snap'], 'SUCCESS']]);
      expect(await indexState(node.url, 'service_v9_snap')).toEqual({ ...before, shards: 1, uuid: expect.any(String) });
      // --no-snapshot: none taken (and the plan says the copy is then the only other copy).
      await projectIndex(node.url, 'service_v9_nosnap', 10);
      const no = await cli(['shrink', 'service_v9_nosnap', '--shards', '1', '--no-snapshot', '--dry-run']);
      expect(no.stdout).toMatch(/no snapshot first \(asked\): the temporary copy is the only other copy/);
      expect(no.stdout).not.toMatch(/^ {2}\d+\. snapshot:/m);
    } finally {
      await es('DELETE', '/_snapshot/backups');
    }
  });

  it('a write during the run is refused by the block, and the plan told the operator so', async () => {
    await projectIndex(node.url, 'service_v9_busy', 2000);
    const run = watchCli(
      ['shrink', '--url', node.url, 'service_v9_busy', '--shards', '2', '--yes', '--accept-data-loss', 'service_v9_busy'],
      env(),
    );
    await run.line(/^service_v9_busy copy:/);
    const refused = await es('POST', '/service_v9_busy/_doc', { title: 'during' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.type).toBe('cluster_block_exception');
    const end = await run.done;
    expect(end.code, end.output).toBe(0);
    expect(end.output).toMatch(/writes to each project are refused for about/);
    const after = await indexState(node.url, 'service_v9_busy');
    expect(after).toMatchObject({ docs: 2000, shards: 2, blocked: null });
  });

  it('bad input gets a clear answer and nothing is sent', async () => {
    await projectIndex(node.url, 'service_v9_bad', 50);
    await projectIndex(node.url, 'service_v9_yellow', 10, { replicas: 1 });
    await projectIndex(node.url, 'service_v9_closed', 10);
    expect((await es('POST', '/service_v9_closed/_close')).status).toBe(200);
    await projectIndex(node.url, 'service_v9_hidden', 10, { settings: { 'index.hidden': true } });
    await projectIndex(node.url, 'service_v9_writer', 10, { aliases: { writer_alias: { is_write_index: true } } });
    const cases: [string[], number, RegExp][] = [
      [['service_v9_bad', '--shards', '4'], 64, /4 does not divide the index's 6 shards: give one of 1, 2, 3/],
      [['service_v9_bad', '--shards', 'x'], 64, /not a whole number/],
      [['service_v9_yellow', '--shards', '1'], 5, /is yellow, not green/],
      [['service_v9_closed', '--shards', '1'], 5, /is closed: open it first/],
      [['service_v9_hidden', '--shards', '1'], 5, /hidden or system index/],
      [['service_v9_writer', '--shards', '1'], 5, /write index of the alias writer_alias/],
      [['service_v9_nothing_*', '--shards', '1'], 64, /matches no index/],
      [['.security', '--shards', '1'], 64, /system \(dot\) indices/],
      [['service_v9_bad', '--shards', '1', '--yes'], 5, /--yes needs --accept-data-loss service_v9_bad; nothing was sent/],
      [
        ['service_v9_bad', '--shards', '1', '--yes', '--accept-data-loss', 'service_v9_other'],
        5,
        /--accept-data-loss names "service_v9_other"/,
      ],
      [['service_v9_bad', '--shards', '1', '--snapshot-repo', 'nope', '--dry-run'], 64, /no snapshot repository nope/],
    ];
    for (const [args, code, message] of cases) {
      const r = await cli(['shrink', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    // Several refused at once: each named with its reason.
    const many = await cli(['shrink', 'service_v9_*', '--shards', '1', '--dry-run']);
    expect(many.code).toBe(5);
    expect(many.stderr).toMatch(/service_v9_yellow: is yellow/);
    expect(many.stderr).toMatch(/service_v9_closed: is closed/);
    expect(many.stderr).toMatch(/cannot be right-sized now; nothing was sent/);
    // Not enough disk: the numbers. The high watermark asks for more free space than the node has.
    const disk = (await es('GET', '/_cat/allocation?format=json&bytes=b&h=node,disk.avail')).body.find(
      (d: { node: string }) => d.node === node.name,
    );
    const put = (value: string | null, flood: string | null) =>
      es('PUT', '/_cluster/settings', {
        persistent: {
          'cluster.routing.allocation.disk.watermark.low': value,
          'cluster.routing.allocation.disk.watermark.high': value,
          'cluster.routing.allocation.disk.watermark.flood_stage': flood,
        },
      });
    expect((await put(`${Number(disk['disk.avail']) + 1024 ** 3}b`, '1mb')).status).toBe(200);
    try {
      const full = await cli(['shrink', 'service_v9_bad', '--shards', '1', '--dry-run']);
      expect(full.code).toBe(5);
      expect(full.stderr).toMatch(
        /needs [\d.]+kb \(a full copy [\d.]+kb\); .* free of .*: .* would be left, past the high watermark \(it asks for .* free; flood stage 1.00mb\): free disk or choose fewer indices; nothing is sent/,
      );
    } finally {
      await put(null, null);
    }
    // Nothing was sent by any of them.
    expect(auditLinesIn(cfg).filter((l) => /service_v9_(bad|yellow|closed|hidden|writer)/.test(l))).toEqual([]);
    expect((await indexState(node.url, 'service_v9_bad')).blocked).toBeNull();
  });

  it('a pattern matching hundreds: each listed with a total, nothing sent', async () => {
    // 101 indices in one request: a bulk write auto-creates them together, from a template of 2 shards.
    await es('PUT', '/_index_template/many', {
      index_patterns: ['service_v9_many_*'],
      template: { settings: { number_of_shards: 2, number_of_replicas: 0 } },
    });
    const lines = Array.from(
      { length: 101 },
      (_, i) => `${JSON.stringify({ create: { _index: `service_v9_many_${String(i).padStart(3, '0')}` } })}\n{}\n`,
    );
    const bulk = await fetch(`${node.url}/_bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join(''),
    });
    expect(((await bulk.json()) as { errors: boolean }).errors).toBe(false);
    const r = await cli(['shrink', 'service_v9_many_*', '--shards', '1']);
    expect(r.code, r.stderr.slice(-2000)).toBe(5);
    expect(r.stderr).toMatch(/matches 101 indices, more than the 100 one run takes: narrow it/);
    expect(r.stderr).toMatch(/ {2}service_v9_many_000: [01] documents, [\d.]+k?b, 2 shards\n {2}service_v9_many_001: /);
    expect(r.stderr).toMatch(/service_v9_many_100: /);
    expect(r.stderr).toMatch(/total: 101 indices, \d+ documents, /);
  });

  it('hostile names: each right-sized under its own name, shown inert; a name too long for its copy is refused', async () => {
    const names = [HOSTILE_INDICES[1], HOSTILE_INDICES[4], HOSTILE_INDICES[5], HOSTILE_INDICES[7]];
    for (const name of names) await projectIndex(node.url, name, 20, { shards: 2, aliases: {} });
    for (const name of names) {
      const r = await cli(['shrink', name, '--shards', '1', '--yes', '--accept-data-loss', name]);
      expect(r.code, `${JSON.stringify(name)}: ${r.stderr}`).toBe(0);
      // eslint-disable-next-line no-control-regex -- no raw control character reaches the terminal
      expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(r.stdout).toContain(displayText(name));
      expect(await indexState(node.url, name)).toMatchObject({ docs: 20, shards: 1 });
    }
    expect(fs.existsSync('marker')).toBe(false);
    const long = HOSTILE_INDICES.find((n) => Buffer.byteLength(n) >= 250)!;
    await projectIndex(node.url, long, 1, { shards: 2, aliases: {} });
    const r = await cli(['shrink', long, '--shards', '1', '--dry-run']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/would be longer than Elasticsearch's 255 bytes/);
  });

  it('split: planned the same way (a multiple dividing the routing shards, the disk per node), and run under the same name', async () => {
    await projectIndex(node.url, 'service_v9_split', 300, { shards: 2 });
    const before = await indexState(node.url, 'service_v9_split');
    const wrong = await cli(['shrink', 'service_v9_split', '--split', '--shards', '6', '--dry-run']);
    expect(wrong.code).toBe(64);
    expect(wrong.stderr).toMatch(/6 is not a multiple of 2 that divides the index's 1024 routing shards: give one of 4, 8, 16, 32/);
    // No shard over 50 GB: nothing is proposed.
    expect((await cli(['shrink', 'service_v9_split', '--split', '--dry-run'])).stderr).toMatch(/no shard is over 50 GB: nothing to split/);
    const dry = JSON.parse((await cli(['shrink', 'service_v9_split', '--split', '--shards', '4', '--dry-run', '--json'])).stdout);
    expect(dry.plan.indices[0]).toMatchObject({
      shards: { now: 2, after: 4 },
      moveToOneNode: false,
      temporary: expect.stringMatching(/-split-\d{14}$/),
    });
    expect(dry.plan.indices[0].disk.needBytes).toBe(dry.plan.indices[0].primaryBytes);
    expect(dry.requests.map((q: { path: string }) => q.path)).toContainEqual(
      expect.stringMatching(/^\/service_v9_split\/_split\/service_v9_split-split-\d{14}$/),
    );
    const r = await cli(['shrink', 'service_v9_split', '--split', '--shards', '4', '--yes', '--accept-data-loss', 'service_v9_split']);
    expect(r.code, r.stderr).toBe(0);
    expect(await indexState(node.url, 'service_v9_split')).toEqual({ ...before, shards: 4, uuid: expect.any(String) });
  });
});
