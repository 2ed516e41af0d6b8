// Records a real hot spot for the hot-spot tests (domain/nodes/hot-spots.ts): a 3-node cluster where 16
// one-shard indices are held on node-1 by an allocation filter (index.routing.allocation.require
// ._name, the "allocation filter left set" of Elastic's hot-spotting guide) and 3 more are left
// to the balancer, then bulk writes go to node-1's indices. Its _cat/allocation and node pressure
// answers and the Nodes pane's other reads (as cluster/resources.ts asks for them) go to
// test/fixtures/hot-spots/.
// Run: npx tsx dev/record-hot-spots.ts
import { recordRead } from './lib/record-read';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from './lib/es-node.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.join(root, 'test/fixtures/hot-spots');
const call = async (url: string, method: string, p: string, body?: unknown) => {
  const res = await fetch(url + p, {
    method,
    headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

// startNode's options pass through (a small heap: three JVMs on one machine).
const options = { count: 3, heap: '256m' };
const cluster = await startCluster(options);
const url = cluster.url;
try {
  const one = { number_of_shards: 1, number_of_replicas: 0 };
  for (let i = 0; i < 16; i++)
    await call(url, 'PUT', `/service_v9_hot_${i}`, { settings: { ...one, 'index.routing.allocation.require._name': 'node-1' } });
  for (let i = 0; i < 3; i++) await call(url, 'PUT', `/service_v9_spread_${i}`, { settings: one });
  await call(url, 'GET', '/_cluster/health?wait_for_status=green&timeout=120s');
  const lines: string[] = [];
  for (let i = 0; i < 500; i++) lines.push(JSON.stringify({ index: {} }), JSON.stringify({ n: i, text: `order ${i} lorem ipsum` }));
  for (let round = 0; round < 20; round++)
    await Promise.all([0, 1, 2, 3].map((i) => call(url, 'POST', `/service_v9_hot_${i}/_bulk`, lines.join('\n') + '\n')));
  fs.mkdirSync(dir, { recursive: true });
  // Every read of the Nodes pane, so its screen shows the same three nodes.
  for (const name of ['allocation', 'nodes', 'nodeStats', 'nodeJvm', 'settings', 'health'] as const) await recordRead(url, name, dir);
  process.stderr.write(`recorded into ${dir}\n`);
} finally {
  await cluster.stop();
}
