// Issue 41 on a real 8.19 node, through the built CLI: shard capacity at 90% (nine 6-shard project
// indices against cluster.max_shards_per_node 60), an index write block and a cluster-wide
// read_only_allow_delete block set by hand. doctor names each with its severity and the request
// that lifts it and exits 2; status exits 2 saying writes are refused; a change sent meanwhile is
// refused naming the block, not a missing privilege.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileTempDir } from '../helpers/file-temp';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let env: Record<string, string>;
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
  await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.max_shards_per_node': 60 } });
  await esCall(node.url, 'PUT', `/${PROJECTS[0]}/_settings`, { 'index.blocks.write': true });
  await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.blocks.read_only_allow_delete': true } });
}, 120_000);

afterAll(async () => {
  await esCall(node.url, 'PUT', '/_cluster/settings', {
    persistent: { 'cluster.blocks.read_only_allow_delete': null, 'cluster.max_shards_per_node': null },
  });
});

it('doctor names the capacity, the cluster block and the index block, each with its fix, and exits 2', async () => {
  const r = await cli(['doctor', '--json']);
  expect(r.code, r.stderr).toBe(2);
  const byId = Object.fromEntries((JSON.parse(r.stdout).findings as Finding[]).map((f) => [f.id, f]));
  expect(byId['capacity.shards']).toMatchObject({ severity: 'warn', finding: 'shard capacity 90% used: 1 more project index fits' });
  expect(byId['capacity.shards'].evidence).toEqual([
    '54 open shards of 60 (1 data node x cluster.max_shards_per_node 60), counted from the open indices',
    'a project index takes 6: 6 shards x 1 copy (template service_v9)',
  ]);
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
  // 8.19's own health report is red with 6 of 60 shards left: said too, in its words.
  expect(report.critical[1]).toMatch(/^shard capacity: the health report is red: .* \(54 of 60 shards open\)/);
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
