// Issue 41's "done when", on a real 8.19 node through the built CLI: shard capacity at 90% (nine
// 6-shard project indices and a 1-shard one against cluster.max_shards_per_node 61), an index
// write block, a cluster-wide read_only_allow_delete block set by hand, and a throttled by-query
// running past 30 s (one document, then a 50 s wait: the block stops its next batch, not this
// one). `doctor --json --long-task 30s` names each with its severity and fix and exits 2; status
// exits 2 saying writes are refused; a change sent meanwhile is refused naming the block.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileTempDir } from '../helpers/file-temp';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

let node: SharedNode;
let env: Record<string, string>;
let task: string;
const cli = (args: string[]) => runCli([...args, '--url', node.url], { env });
const PROJECTS = Array.from({ length: 9 }, (_, i) => `service_v9_p${i}`);

interface Finding {
  id: string;
  severity: string;
  finding: string;
  evidence: string[];
  remedy?: string;
}

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  const dir = fileTempDir('shardeck-refused-');
  env = { SHARDECK_CONFIG_DIR: `${dir}/config`, NO_COLOR: '1' };
  await esCall(node.url, 'PUT', '/_index_template/service_v9', {
    index_patterns: ['service_v9_*'],
    template: { settings: { number_of_shards: 6, number_of_replicas: 0 } },
  });
  for (const p of PROJECTS) await esCall(node.url, 'PUT', `/${p}`);
  await esCall(node.url, 'PUT', '/slow_docs', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  for (let i = 0; i < 3; i++) await esCall(node.url, 'PUT', `/slow_docs/_doc/${i}?refresh=true`, { n: i });
  task = (
    await esCall(node.url, 'POST', '/slow_docs/_delete_by_query?requests_per_second=0.02&scroll_size=1&wait_for_completion=false', {
      query: { match_all: {} },
    })
  ).body.task;
  await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': 61 } });
  await esCall(node.url, 'PUT', `/${PROJECTS[0]}/_settings`, { 'index.blocks.write': true });
  await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.blocks.read_only_allow_delete': true } });
}, 120_000);

afterAll(async () => {
  await esCall(node.url, 'POST', `/_tasks/${task}/_cancel`).catch(() => undefined);
  // The block alone first: under it, a settings request touching anything else is refused.
  await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.blocks.read_only_allow_delete': null } });
  await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': null } });
});

it('doctor --long-task 30s names the capacity, the cluster block, the index block and the long by-query, each with its fix, and exits 2', async () => {
  // Until the by-query has run 30 s by the node's own count (it waits out its throttle).
  await waitUntil(
    'the by-query past 30 s',
    async () => (await esCall(node.url, 'GET', `/_tasks/${task}`)).body.task.running_time_in_nanos / 1e9,
    (s) => s >= 31,
    { timeoutMs: 60_000, intervalMs: 1000 },
  );
  const r = await cli(['doctor', '--json', '--long-task', '30s']);
  expect(r.code, r.stderr).toBe(2);
  const byId = Object.fromEntries((JSON.parse(r.stdout).findings as Finding[]).map((f) => [f.id, f]));
  expect(byId['capacity.shards']).toMatchObject({ severity: 'warn', finding: 'shard capacity 90.2% used: 1 more project index fits' });
  expect(byId['capacity.shards'].evidence).toEqual([
    '55 open shards of 61 (1 data node x cluster.max_shards_per_node 61), counted from the open indices',
    'a project index takes 6: 6 shards x 1 copy (template service_v9)',
  ]);
  expect(byId['tasks.long-running']).toMatchObject({
    severity: 'warn',
    fix: { command: expect.stringMatching(new RegExp(`^shardeck tasks .*${task}`)) },
  });
  expect(byId['tasks.long-running'].finding).toMatch(new RegExp(`^1 task running longer than 30\\.0s: delete by query ${task}`));
  expect(byId['blocks.cluster']).toMatchObject({
    severity: 'critical',
    remedy: 'PUT /_cluster/settings {"persistent":{"cluster.blocks.read_only_allow_delete":null}}',
  });
  expect(byId['blocks.index-write']).toMatchObject({ severity: 'critical', evidence: [`${PROJECTS[0]}: index.blocks.write=true`] });
  expect(byId['blocks.index-write'].remedy).toMatch(new RegExp(`PUT /${PROJECTS[0]}/_settings \\{"index\\.blocks\\.write":null\\}$`));
  // One rule explained on its own, with what it finds now.
  const one = await cli(['doctor', 'blocks.cluster']);
  expect(one.code).toBe(2);
  expect(one.stdout).toMatch(/^blocks\.cluster \(blocks\): cluster\.blocks\.read_only or read_only_allow_delete set/);
  expect(one.stdout).toMatch(/CRIT cluster\.blocks\.read_only_allow_delete is set: every index refuses writes/);
});

it('status exits 2 however green the cluster is, saying writes are refused and what lifts it', async () => {
  const r = await cli(['status', '--json']);
  expect(r.code).toBe(2);
  const report = JSON.parse(r.stdout);
  expect(report.status).toBe('green');
  expect(report.critical[0]).toBe(
    'cluster.blocks.read_only_allow_delete is set: every index refuses writes and new indices; lift it with PUT /_cluster/settings {"persistent":{"cluster.blocks.read_only_allow_delete":null}}',
  );
  // 8.19's own health report is red with 6 of 61 shards left: said too, in its words.
  expect(report.critical[1]).toMatch(/^shard capacity: the health report is red: .* \(55 of 61 shards open\)/);
  expect(report.critical).toHaveLength(2);
});

it('a change meanwhile is refused naming the block, not a missing privilege', async () => {
  const r = await cli(['replicas', 'set', PROJECTS[1], '0', '--yes']);
  expect(r.code).toBe(5);
  const said = r.stdout + r.stderr;
  expect(said).toMatch(
    /refused by the cluster-wide block cluster\.blocks\.read_only_allow_delete \(cluster read-only \/ allow delete \(api\)\), not a missing privilege: lift it with PUT \/_cluster\/settings/,
  );
  expect(said).not.toMatch(/not allowed to do this/);
});
