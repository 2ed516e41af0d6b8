// Hot spots on a real 3-node cluster (issue 26): 12 one-shard indices held on node-1 by an
// allocation filter (index.routing.allocation.require._name, the "filter left set" of Elastic's
// hot-spotting guide) and 3 left to the balancer, so node-1 holds more than 2x the average shards:
// `nodes --json` marks it in `hotSpots` and the text ends with the hot-spot line. The filter is then
// taken off and, once the balancer has spread the shards, no node is marked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCluster } from '../../dev/lib/es-node.mjs';
import { esCall, cliAgainst } from '../helpers/real-node';
import { ensureBuilt } from '../helpers/run-cli';
import { waitUntil } from '../helpers/wait-until';

let cluster: Awaited<ReturnType<typeof startCluster>>;
let dir: string;
const PINNED = Array.from({ length: 12 }, (_, i) => `service_v9_hs_pin_${i}`);
const FREE = ['service_v9_hs_free_0', 'service_v9_hs_free_1', 'service_v9_hs_free_2'];
const cli = cliAgainst(
  () => cluster.url,
  () => dir,
);

interface Load {
  node: string;
  shards: number;
  hot: string[];
}

async function hotSpots(): Promise<{ nodes: Load[]; average: { shards: number } }> {
  const r = await cli(['nodes', '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).hotSpots;
}

/** Shards per node as the node counts them, once nothing relocates (the set-up's own check, not the product's). */
async function settledShards(): Promise<Record<string, number> | null> {
  const health = await esCall(cluster.url, 'GET', '/_cluster/health?wait_for_no_relocating_shards=true&timeout=5s');
  if (health.body.relocating_shards !== 0 || health.body.status !== 'green') return null;
  const rows: { node: string; shards: string }[] = (await esCall(cluster.url, 'GET', '/_cat/allocation?format=json&h=node,shards')).body;
  return Object.fromEntries(rows.filter((r) => r.node !== 'UNASSIGNED').map((r) => [r.node, Number(r.shards)]));
}

beforeAll(async () => {
  ensureBuilt();
  cluster = await startCluster({ count: 3 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-hotspots-'));
  const one = { number_of_shards: 1, number_of_replicas: 0 };
  for (const index of PINNED)
    expect(
      (await esCall(cluster.url, 'PUT', `/${index}`, { settings: { ...one, 'index.routing.allocation.require._name': 'node-1' } })).status,
    ).toBe(200);
  for (const index of FREE) expect((await esCall(cluster.url, 'PUT', `/${index}`, { settings: one })).status).toBe(200);
});

afterAll(async () => {
  await cluster?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('a node holding 2x the average shards is marked; once balanced, none is', async () => {
  const pinned = await waitUntil('the pinned shards to settle', settledShards, (s) => s !== null && (s['node-1'] ?? 0) >= 12, {
    timeoutMs: 120_000,
    intervalMs: 500,
  });
  // 12 pinned + whatever of the 3 free the balancer gave node-1: well over 2x the average of 5.
  expect(pinned!['node-1']).toBeGreaterThanOrEqual(12);

  const hot = await hotSpots();
  expect(hot.nodes.map((n) => n.node).sort()).toEqual(['node-1', 'node-2', 'node-3']);
  const byName = Object.fromEntries(hot.nodes.map((n) => [n.node, n]));
  expect(byName['node-1']).toMatchObject({ shards: pinned!['node-1'], hot: ['shards'] });
  expect(byName['node-2'].hot).toEqual([]);
  expect(byName['node-3'].hot).toEqual([]);
  expect(hot.average.shards).toBeGreaterThanOrEqual(5);
  const text = await cli(['nodes']);
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/hot spot: node-1 shards \d+ \(\d\.\dx the average \d+\)/);

  // Off with the filter: the balancer spreads the 15 shards (5 a node), and nothing is marked.
  const off = await esCall(cluster.url, 'PUT', `/${PINNED.join(',')}/_settings`, { 'index.routing.allocation.require._name': null });
  expect(off.status).toBe(200);
  await waitUntil('the balancer to spread the shards', settledShards, (s) => s !== null && Math.max(...Object.values(s)) <= 6, {
    timeoutMs: 180_000,
    intervalMs: 1000,
  });
  const balanced = await hotSpots();
  expect(balanced.nodes).toHaveLength(3);
  expect(balanced.nodes.map((n) => n.hot)).toEqual([[], [], []]);
  expect((await cli(['nodes'])).stdout).toMatch(/no hot spot: shards \d+-\d+ a node/);
}, 420_000); // two waits on the cluster (settling, then the balancer), each bounded
