// Records `GET _nodes/<id>/hot_threads` (plain text) from a real node made busy on purpose: bulk
// requests sent back to back from 4 loops and a search over the growing index, so the write and
// search threads are hot while the node samples. Writes test/fixtures/hot-threads/{cpu,wait}.txt
// (type cpu and wait, 3 threads, interval 500ms) and the same node's empty _cluster/pending_tasks.
// Run: npx tsx dev/record-hot-threads.ts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { es } from './demo-data.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.join(root, 'test/fixtures/hot-threads');
fs.mkdirSync(dir, { recursive: true });

const node = await startNode({ name: 'hot-fixtures' });
let busy = true;
try {
  await es(node.url, 'PUT', '/service_v9_hot', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++)
    lines.push(JSON.stringify({ index: {} }), JSON.stringify({ n: i, title: `order ${i} ${'lorem ipsum dolor '.repeat(8)}` }));
  const bulk = lines.join('\n') + '\n';
  const loops = [0, 1, 2, 3].map(async () => {
    while (busy) await es(node.url, 'POST', '/service_v9_hot/_bulk', bulk).catch(() => undefined);
  });
  const search = (async () => {
    while (busy)
      await es(node.url, 'POST', '/service_v9_hot/_search', {
        query: { match: { title: 'lorem order' } },
        aggs: { n: { terms: { field: 'n' } } },
      }).catch(() => undefined);
  })();
  await new Promise((r) => setTimeout(r, 3000));
  const id = Object.keys((await es(node.url, 'GET', '/_nodes/_local?filter_path=nodes.*.name')).nodes)[0];
  for (const type of ['cpu', 'wait']) {
    const text = await (await fetch(`${node.url}/_nodes/${id}/hot_threads?threads=3&interval=500ms&type=${type}`)).text();
    fs.writeFileSync(path.join(dir, `${type}.txt`), text);
    process.stderr.write(`recorded hot threads (${type}): ${text.length} bytes\n`);
  }
  busy = false;
  await Promise.all([...loops, search]);
  const pending = await (await fetch(`${node.url}/_cluster/pending_tasks`)).text();
  fs.writeFileSync(path.join(dir, 'pending-empty.json'), pending + '\n');
} finally {
  busy = false;
  await node.stop();
}
