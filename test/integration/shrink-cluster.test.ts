// Right-sizing on a real two-node cluster (issue 42): the primaries of a 6-shard index spread over
// both nodes are first moved onto one (index.routing.allocation.require._name, waited for), then
// shrunk, cloned back under the name and the requirement lifted; with a replica too (it cannot sit
// beside its primary on the one node meanwhile, and comes back after). Through the built CLI.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCluster } from '../../dev/lib/es-node.mjs';
import { fileTempDir } from '../helpers/file-temp';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { autoCreateIndex, indexNames, indexState, projectIndex, watchCli } from '../helpers/shrink';

let cluster: Awaited<ReturnType<typeof startCluster>>;
let cfg: string;
const env = () => ({ SHARDECK_CONFIG_DIR: cfg });
const cli = (args: string[]) => runCli([args[0], '--url', cluster.url, ...args.slice(1)], { env: env() });

async function primariesByNode(index: string): Promise<Record<string, number>> {
  const rows = (await esCall(cluster.url, 'GET', `/_cat/shards/${index}?format=json&h=prirep,state,node`)).body as Record<string, string>[];
  const out: Record<string, number> = {};
  for (const r of rows.filter((x) => x.prirep === 'p')) out[r.node] = (out[r.node] ?? 0) + 1;
  return out;
}

beforeAll(async () => {
  ensureBuilt();
  cluster = await startCluster({ count: 2 });
  cfg = fileTempDir('shardeck-shrink-two-');
});

afterAll(async () => {
  await cluster?.stop();
});

it('the primaries move onto one node first, then 6 -> 1 shard; the requirement lifted after', async () => {
  await projectIndex(cluster.url, 'service_v9_pair', 3000);
  await esCall(cluster.url, 'GET', '/_cluster/health/service_v9_pair?wait_for_status=green&wait_for_no_relocating_shards=true&timeout=60s');
  const spread = await primariesByNode('service_v9_pair');
  expect(Object.keys(spread)).toHaveLength(2);
  const before = await indexState(cluster.url, 'service_v9_pair');

  const d = await cli(['shrink', 'service_v9_pair', '--shards', '1', '--dry-run', '--json']);
  expect(d.code, d.stderr).toBe(0);
  const dry = JSON.parse(d.stdout);
  const [p] = dry.plan.indices;
  expect(p.moveToOneNode).toBe(true);
  expect(p.steps).toContain('route');
  // The node already holding more of it is chosen; what moves there is counted with the copy.
  expect(spread[p.node]).toBe(Math.max(...Object.values(spread)));
  expect(p.disk.needBytes).toBeGreaterThan(p.primaryBytes);
  expect(dry.requests.map((q: { path: string; body?: unknown }) => q.path)).toContain('/service_v9_pair/_settings');
  expect(dry.requests.find((q: { body?: Record<string, unknown> }) => q.body?.['index.routing.allocation.require._name'])?.body).toEqual({
    'index.routing.allocation.require._name': p.node,
  });

  // While it runs: every primary reaches the chosen node before the shrink is sent.
  const run = watchCli(
    ['shrink', '--url', cluster.url, 'service_v9_pair', '--shards', '1', '--yes', '--accept-data-loss', 'service_v9_pair'],
    env(),
  );
  await run.line(/^service_v9_pair copy:/);
  expect(await primariesByNode('service_v9_pair')).toEqual({ [p.node]: 6 });
  const end = await run.done;
  expect(end.code, end.output).toBe(0);
  expect(end.output).toMatch(/done: a copy of every shard of service_v9_pair is on /);
  expect(end.output).toMatch(/shards per node: /);

  expect(await indexState(cluster.url, 'service_v9_pair')).toEqual({ ...before, shards: 1, uuid: expect.any(String) });
  expect((await indexNames(cluster.url)).filter((i) => i.startsWith('service_v9_pair'))).toEqual(['service_v9_pair']);
  expect(await autoCreateIndex(cluster.url)).toEqual({ persistent: null, transient: null });
});

it('with a replica: it cannot sit beside its primary meanwhile, and the result is green with its replica again', async () => {
  await projectIndex(cluster.url, 'service_v9_twin', 1000, { replicas: 1 });
  await esCall(cluster.url, 'GET', '/_cluster/health/service_v9_twin?wait_for_status=green&wait_for_no_relocating_shards=true&timeout=60s');
  const before = await indexState(cluster.url, 'service_v9_twin');
  const r = await cli(['shrink', 'service_v9_twin', '--shards', '2', '--yes', '--accept-data-loss', 'service_v9_twin', '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).report.indices[0]).toMatchObject({ from: 6, to: 2, docsBefore: 1000, docsAfter: 1000, outcome: 'done' });
  expect(await indexState(cluster.url, 'service_v9_twin')).toEqual({ ...before, shards: 2, uuid: expect.any(String) });
  const h = await esCall(cluster.url, 'GET', '/_cluster/health/service_v9_twin?wait_for_status=green&timeout=60s');
  expect(h.body).toMatchObject({ status: 'green', active_shards: 4 });
});
