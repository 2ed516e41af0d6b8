// Records the Shards pane's recovery section from a real replica recovery: a 2-node cluster, the
// recovery throttle (indices.recovery.max_bytes_per_sec) set to 1mb so the copy lasts, about 8 MB of
// incompressible text on one primary, flushed, then a replica added. While the peer recovery is
// between 5% and 80%, the reads the Shards pane polls (cluster/resources.ts health, shards,
// recoveries: exactly their requests) are written to test/fixtures/recovery/<read>.json. The
// throttle is put back (unset) and the cluster stopped.
// Run: npx tsx dev/record-recovery.ts
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from './lib/es-node.mjs';
import { es } from './demo-data.mjs';
import { RESOURCES } from '../src/cluster/resources';
import { parseRecovery } from '../src/domain/snapshots';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.join(root, 'test/fixtures/recovery');
fs.mkdirSync(dir, { recursive: true });
const INDEX = 'service_v9_orders';

async function read(url: string, name: 'health' | 'shards' | 'recoveries'): Promise<string> {
  const { path: p, querystring } = RESOURCES[name].request;
  const q = new URLSearchParams(querystring).toString();
  const res = await fetch(`${url}${p}${q ? `?${q}` : ''}`);
  if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`);
  return JSON.stringify(await res.json(), null, 1) + '\n';
}

const cluster = await startCluster({ count: 2 });
try {
  const url = cluster.url;
  await es(url, 'PUT', '/_cluster/settings', { persistent: { 'indices.recovery.max_bytes_per_sec': '1mb' } });
  // A small index already green beside it, so the table has more than the recovering copy.
  await es(url, 'PUT', '/service_v9_customers', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
  await es(url, 'PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  for (let batch = 0; batch < 8; batch++) {
    const lines = Array.from({ length: 1000 }, () =>
      [JSON.stringify({ index: {} }), JSON.stringify({ body: Array.from({ length: 29 }, () => crypto.randomUUID()).join('') })].join('\n'),
    ).join('\n');
    await es(url, 'POST', `/${INDEX}/_bulk`, lines + '\n');
  }
  await es(url, 'POST', `/${INDEX}/_flush`);
  await es(url, 'GET', '/_cluster/health?wait_for_status=green&timeout=60s');
  await es(url, 'PUT', `/${INDEX}/_settings`, { index: { number_of_replicas: 1 } });
  let done = false;
  for (let i = 0; i < 600 && !done; i++) {
    const recoveries = await read(url, 'recoveries');
    const peer = parseRecovery(JSON.parse(recoveries)).find((r) => r.index === INDEX && r.type === 'PEER');
    const pct = peer && peer.bytesTotal ? (peer.bytesRecovered * 100) / peer.bytesTotal : 0;
    if (peer && pct >= 5 && pct <= 80) {
      const [health, shards] = await Promise.all([read(url, 'health'), read(url, 'shards')]);
      fs.writeFileSync(path.join(dir, 'recoveries.json'), recoveries);
      fs.writeFileSync(path.join(dir, 'health.json'), health);
      fs.writeFileSync(path.join(dir, 'shards.json'), shards);
      process.stderr.write(`recorded the recovery of ${INDEX}[0] at ${pct.toFixed(1)}% (${peer.sourceNode} -> ${peer.targetNode})\n`);
      done = true;
    } else await new Promise((r) => setTimeout(r, 200)); // a dev script polling a real node, not a test
  }
  if (!done) throw new Error('no peer recovery between 5% and 80% was seen');
} finally {
  await es(cluster.url, 'PUT', '/_cluster/settings', { persistent: { 'indices.recovery.max_bytes_per_sec': null } }).catch(() => undefined);
  await cluster.stop();
}
