// Records the Nodes pane's statistics read (cluster/resources.ts `nodeStats`, with the pressure
// fields) from a real node made sick on purpose into test/fixtures/pressure/ (dev/lib/sick-node.mjs:
// a write pool of one thread with a queue of one flooded with bulk requests, and the request breaker
// tripped by a limit lowered for one search, then set back). Two answers of the sick node:
// before.json (before the flood) and nodeStats.json (after), so the tests see the rejections since
// the previous poll; and _cat/nodes of the same node. The yellow, red and full scenarios' nodeStats
// come from dev/record-fixtures.ts.
// Run: npx tsx dev/record-pressure.ts
import { recordRead } from './lib/record-read';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { floodWrites, SICK_WRITE_POOL, tripRequestBreaker } from './lib/sick-node.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
type Read = 'nodes' | 'nodeStats';
async function record(url: string, scenario: string, reads: Read[], as: Partial<Record<Read, string>> = {}) {
  const dir = path.join(root, 'test/fixtures', scenario);
  fs.mkdirSync(dir, { recursive: true });
  for (const name of reads) await recordRead(url, name, dir, as[name] ?? name);
  process.stderr.write(`recorded ${reads.join(', ')} of ${scenario}\n`);
}

const node = await startNode({ name: 'pressure-fixtures', settings: SICK_WRITE_POOL });
try {
  await record(node.url, 'pressure', ['nodeStats'], { nodeStats: 'before' });
  const flood = await floodWrites(node.url, 'service_v9_flood');
  process.stderr.write(`flood: ${JSON.stringify(flood)}\n`);
  const trip = await tripRequestBreaker(node.url, 'service_v9_flood');
  process.stderr.write(`breaker: ${JSON.stringify(trip)}\n`);
  await record(node.url, 'pressure', ['nodeStats', 'nodes']);
} finally {
  await node.stop();
}
