// Issue 41 (Doctor II) on a real 8.19 node, through the built CLI: what the new rules say of a quiet
// node (one master, no election between the doctor's two reads; no ILM, no SLM, no data stream
// lifecycle on this distribution: said, not judged), a slow delete-by-query (one document a second)
// that has run longer than --long-task 30s, a health-report indicator made red (the shard
// limit reached: shards_capacity, with its diagnoses), and a snapshot repository broken on purpose
// (its index-N overwritten, then registered again: its listing fails), an index in no snapshot with
// --snapshot-every, many small shards at 60% of the shard limit, and the host's file descriptors,
// max_map_count and swap, and action.destructive_requires_name false (the licence and _dangling as
// the node answers them).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTempDir } from '../helpers/file-temp';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

let node: SharedNode;
let env: Record<string, string>;

interface Finding {
  id: string;
  severity: string;
  finding: string;
  evidence: string[];
  remedy?: string;
  fix?: { key?: string; command: string };
}

async function doctor(args: string[] = []) {
  const r = await runCli(['doctor', '--json', '--url', node.url, ...args], { env });
  expect(r.stdout, r.stderr).not.toBe('');
  const report = JSON.parse(r.stdout);
  return { code: r.code, stderr: r.stderr, byId: Object.fromEntries((report.findings as Finding[]).map((f) => [f.id, f])) };
}

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  env = { SHARDECK_CONFIG_DIR: `${fileTempDir('shardeck-doctor-ii-')}/config`, NO_COLOR: '1' };
}, 120_000);

describe('a quiet node', () => {
  it('one master, no election between the two reads; one node alone is information; what the distribution lacks is said', async () => {
    // Quiet first: the shared node settles after the file before (a fresh run once met an indicator
    // not yet green here; the wait's error names it if it never is).
    await waitUntil(
      'every indicator of the health report green',
      async () => (await esCall(node.url, 'GET', '/_health_report?verbose=false')).body,
      (b) => (b as { status?: string }).status === 'green',
      { timeoutMs: 30_000 },
    );
    const { byId } = await doctor();
    expect(byId['master.stable']).toMatchObject({
      severity: 'ok',
      finding: `master ${node.name} elected, no election while watched (term 1)`,
    });
    expect(byId['master.stable'].evidence[0]).toMatch(/^_health_report master_is_stable: green: The cluster has a stable master node$/);
    expect(byId['master.stable'].evidence[1]).toMatch(
      new RegExp(`^elected master ${node.name} then ${node.name}, term 1 then 1 \\(two reads \\d+\\.\\d s apart\\)$`),
    );
    expect(byId['master.ha']).toMatchObject({ severity: 'ok' });
    expect(byId['master.ha'].finding).toMatch(
      /^one node, master-eligible: not highly available \(the platform's single storage node: expected/,
    );
    expect(byId['master.node-left']).toMatchObject({ severity: 'ok', finding: 'no node left (1 node(s): 1 master-eligible, 1 data)' });
    expect(byId['health.report']).toMatchObject({ severity: 'ok' });
    expect(byId['health.file-settings']).toMatchObject({
      severity: 'ok',
      finding: 'no file-based settings applied (config/operator/settings.json absent), none failed',
    });
    expect(byId['health.data-stream-lifecycle']).toMatchObject({ severity: 'unknown' });
    expect(byId['ilm.status']).toMatchObject({
      severity: 'unknown',
      finding: 'ILM not judged: not on this node (GET _ilm/status answered 405: its distribution has no such module)',
    });
    expect(byId['ilm.error'].severity).toBe('unknown');
    expect(byId['snapshots.slm']).toMatchObject({
      severity: 'unknown',
      finding: 'SLM not judged: not on this node (GET _slm/status answered 405: its distribution has no such module)',
    });
    expect(byId['snapshots.missing']).toMatchObject({ severity: 'unknown' });
  }, 60_000);
});

describe('the host the node runs on (this machine: the test runs as root, so the node is found here)', () => {
  it("file descriptors and vm.max_map_count judged against the node's and this host's own values; memory lock against this host's swap", async () => {
    const { byId } = await doctor();
    const stats = await esCall(node.url, 'GET', '/_nodes/stats/process?filter_path=nodes.*.process.max_file_descriptors');
    const fds = Object.values(stats.body.nodes as Record<string, { process: { max_file_descriptors: number } }>)[0].process
      .max_file_descriptors;
    const fd = byId[`host.file-descriptors.${node.name}`];
    expect(fd.severity).toBe(fds < 65_535 ? 'warn' : 'ok');
    expect(fd.evidence[0]).toMatch(new RegExp(`^process\\.max_file_descriptors ${fds.toLocaleString('en-US')}, open [\\d,]+$`));
    const maps = Number(fs.readFileSync('/proc/sys/vm/max_map_count', 'utf8'));
    expect(byId['host.max-map-count']).toMatchObject({ severity: maps < 262_144 ? 'warn' : 'ok', node: node.name });
    const swapOn = fs.readFileSync('/proc/swaps', 'utf8').trim().split('\n').length > 1;
    const lock = byId[`host.memory-lock.${node.name}`];
    expect(lock.evidence[0]).toBe('bootstrap.memory_lock not set (false), process.mlockall false');
    if (!swapOn) expect(lock).toMatchObject({ severity: 'ok', finding: 'memory not locked, but this host has no swap' });
    // On this machine (Nov 2026): 20,000 descriptors for the test nodes and the kernel's default 65,530.
    if (fds === 20_000) expect(fd.finding).toMatch(/^file descriptors limit 20,000, below 65,535/);
  }, 60_000);
});

describe('configuration', () => {
  afterAll(async () => {
    await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'action.destructive_requires_name': null } });
  });

  it('wildcard deletes allowed warn; the basic licence, no dangling index, one node a host, no dedicated frozen node hold', async () => {
    await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'action.destructive_requires_name': false } });
    const { byId } = await doctor();
    expect(byId['config.destructive-requires-name']).toMatchObject({
      severity: 'warn',
      finding: 'action.destructive_requires_name is false: one DELETE /* (or _all, or a wildcard) removes every index',
    });
    expect(byId['config.license']).toMatchObject({ severity: 'ok', finding: 'basic licence active, no expiry' });
    expect(byId['config.dangling']).toMatchObject({ severity: 'ok', finding: 'no dangling index' });
    expect(byId['config.same-host']).toMatchObject({ severity: 'ok', finding: 'one data node per host' });
    expect(byId['config.frozen-flood']).toMatchObject({ severity: 'ok' });
    expect(byId['config.frozen-flood'].finding).toMatch(/^no dedicated frozen node/);
  }, 60_000);
});

describe('a red indicator: the shard limit reached', () => {
  afterAll(async () => {
    await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': null } });
    await esCall(node.url, 'DELETE', '/service_v9_full');
  });

  it('health.report.shards_capacity is critical with the diagnoses of its verbose answer', async () => {
    await esCall(node.url, 'PUT', '/service_v9_full', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': 2 } });
    const { code, byId } = await doctor();
    expect(code).toBe(2);
    const f = byId['health.report.shards_capacity'];
    expect(f).toMatchObject({ severity: 'critical' });
    expect(f.finding).toBe('Cluster is close to reaching the configured maximum number of shards for data nodes. (health report: red)');
    expect(f.evidence).toContain(
      'cause: Elasticsearch is about to reach the maximum number of shards it can host as set by [cluster.max_shards_per_node].',
    );
    expect(f.remedy).toBe(
      'Increase the number of nodes in your cluster or remove some non-frozen indices to reduce the number of shards in the cluster.',
    );
  }, 60_000);
});

describe('many small shards while capacity is tight', () => {
  const projects = ['a', 'b', 'c', 'd'].map((p) => `service_v9_small${p}`);
  afterAll(async () => {
    await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': null } });
    await esCall(node.url, 'DELETE', `/${projects.join(',')}`);
  });

  it('24 shards of a few kB at 60% of cluster.max_shards_per_node 40: shards.undersized names the shrink; none oversized', async () => {
    for (const p of projects) await esCall(node.url, 'PUT', `/${p}`, { settings: { number_of_shards: 6, number_of_replicas: 0 } });
    await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': 40 } });
    const { byId } = await doctor();
    expect(byId['shards.undersized']).toMatchObject({
      severity: 'warn',
      finding: '24 shards under 1.00gb while shard capacity is 60% used: small indices take the shard limit, not the disk',
      fix: { command: `shardeck shrink ${projects[0]} --shards 1 --dry-run` },
    });
    expect(byId['shards.oversized']).toMatchObject({ severity: 'ok' });
    expect(byId['shards.doc-limit']).toMatchObject({ severity: 'ok' });
  }, 90_000);
});

describe('a broken snapshot repository', () => {
  const location = () => path.join(node.repoDir, `doctor-ii-broken-${process.pid}`);
  afterAll(async () => {
    await esCall(node.url, 'DELETE', '/_snapshot/broken');
    await esCall(node.url, 'DELETE', '/service_v9_snap');
    fs.rmSync(location(), { recursive: true, force: true });
  });

  it('its listing fails: snapshots.repository warns naming it and the error, though the indicator is green', async () => {
    await esCall(node.url, 'PUT', '/service_v9_snap', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await esCall(node.url, 'PUT', '/_snapshot/broken', { type: 'fs', settings: { location: location() } });
    expect(
      (await esCall(node.url, 'PUT', '/_snapshot/broken/snap-1?wait_for_completion=true', { indices: 'service_v9_snap' })).status,
    ).toBe(200);
    // --snapshot-every: the index in the snapshot holds; one created since is named.
    expect((await doctor(['--snapshot-every', '1h'])).byId['snapshots.missing']).toMatchObject({
      severity: 'ok',
      finding: 'every open index (1) has a snapshot from the last 1.0h',
    });
    await esCall(node.url, 'PUT', '/service_v9_nosnap', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    const missing = (await doctor(['--snapshot-every', '1h'])).byId['snapshots.missing'];
    expect(missing).toMatchObject({
      severity: 'warn',
      finding: '1 open index has no successful snapshot from the last 1.0h: service_v9_nosnap',
    });
    expect(missing.evidence).toEqual([
      'expected period 1.0h (--snapshot-every); 1 snapshots in 1 repositories',
      'service_v9_nosnap: in no snapshot',
    ]);
    await esCall(node.url, 'DELETE', '/service_v9_nosnap');
    expect((await doctor()).byId['snapshots.repository']).toMatchObject({
      severity: 'ok',
      finding: 'All repositories are healthy. (health report: green)',
    });
    const gen = fs.readdirSync(location()).filter((n) => /^index-\d+$/.test(n));
    for (const g of gen) fs.writeFileSync(path.join(location(), g), '{ not json');
    // Registered again: the node forgets the repository data it kept and reads the broken file.
    await esCall(node.url, 'DELETE', '/_snapshot/broken');
    await esCall(node.url, 'PUT', '/_snapshot/broken?verify=false', { type: 'fs', settings: { location: location() } });
    const { byId } = await doctor();
    const f = byId['snapshots.repository'];
    expect(f.severity).toBe('warn');
    expect(f.finding).toBe('1 repository could not be read: broken: no snapshot can be taken or restored from it');
    expect(f.evidence).toEqual([
      'broken: its listing failed: repository_exception: [broken] cannot retrieve snapshots list from this repository',
    ]);
  }, 90_000);
});

describe('a slow delete-by-query', () => {
  let taskId = '';
  afterAll(async () => {
    if (taskId) await esCall(node.url, 'POST', `/_tasks/${taskId}/_cancel`);
    await esCall(node.url, 'DELETE', '/service_v9_slow');
  });

  it('once it has run 30 s, doctor --long-task 30s names it (still moving: not stalled), with the rethrottle wizard; a bad duration is refused', async () => {
    await esCall(node.url, 'PUT', '/service_v9_slow', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    const bulk = Array.from({ length: 300 }, (_, i) => `{"index":{}}\n{"n":${i}}\n`).join('');
    await fetch(`${node.url}/service_v9_slow/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: bulk,
    });
    const started = await esCall(
      node.url,
      'POST',
      '/service_v9_slow/_delete_by_query?requests_per_second=1&scroll_size=1&wait_for_completion=false',
      { query: { match_all: {} } },
    );
    taskId = started.body.task;
    expect(taskId).toMatch(/^[\w-]+:\d+$/);
    // Until it has run 30 s by the node's own count.
    for (;;) {
      const t = await esCall(node.url, 'GET', `/_tasks/${taskId}`);
      if (t.body.task.running_time_in_nanos / 1e9 >= 31) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    const quiet = await doctor();
    expect(quiet.byId['tasks.long-running']).toMatchObject({ severity: 'ok', finding: 'no other task running longer than 10.0m' });
    const { byId } = await doctor(['--long-task', '30s']);
    const f = byId['tasks.long-running'];
    expect(f.severity).toBe('warn');
    expect(f.finding).toMatch(new RegExp(`^1 task running longer than 30\\.0s: delete by query ${taskId} \\(\\d+\\.\\ds\\)$`));
    expect(f.evidence[0]).toBe('threshold 30.0s (--long-task)');
    expect(f.evidence[1]).toMatch(/done in \d+ batches, throttled to 1\/s: delete-by-query \[service_v9_slow\]$/);
    expect(f.fix).toMatchObject({ key: 't', command: `shardeck tasks rethrottle ${taskId} --rps -1` });
    expect(byId['tasks.stalled']).toMatchObject({ severity: 'ok' });
    expect(byId['tasks.long-search']).toMatchObject({ severity: 'ok', finding: 'no search running longer than 1.0m' });
    const bad = await runCli(['doctor', '--url', node.url, '--long-task', 'soon'], { env });
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--long-task "soon" is not a duration (e.g. 90s, 10m, 24h)');
  }, 120_000);
});
