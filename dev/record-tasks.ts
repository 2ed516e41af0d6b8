// Records the Tasks pane's read (cluster/resources.ts `tasks`) from a real node: quiet (only the
// task list's own request) into the yellow, red and full scenarios, and with long tasks made on
// purpose into test/fixtures/tasks/: a delete-by-query throttled to 1 document a second in 2 slices
// (a parent with its children) and one unsliced, over a few hundred documents, neither waited for.
// The by-query tasks are cancelled before the node stops. Run: npx tsx dev/record-tasks.ts
import { recordRead } from './lib/record-read';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { es } from './demo-data.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
async function record(url: string, scenario: string, reads: ('tasks' | 'nodes')[] = ['tasks']) {
  const dir = path.join(root, 'test/fixtures', scenario);
  fs.mkdirSync(dir, { recursive: true });
  for (const name of reads) await recordRead(url, name, dir);
  process.stderr.write(`recorded ${reads.join(', ')} of ${scenario}\n`);
}

const node = await startNode({ name: 'tasks-fixtures' });
try {
  await record(node.url, 'yellow');
  for (const s of ['red', 'full'])
    fs.copyFileSync(path.join(root, 'test/fixtures/yellow/tasks.json'), path.join(root, 'test/fixtures', s, 'tasks.json'));
  await es(node.url, 'PUT', '/service_v9_slow', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) lines.push(JSON.stringify({ index: {} }), JSON.stringify({ n: i, source: i % 2 ? 'src-crm' : 'src-erp' }));
  await es(node.url, 'POST', '/service_v9_slow/_bulk?refresh=true', lines.join('\n') + '\n');
  const q = 'requests_per_second=1&wait_for_completion=false&scroll_size=10&conflicts=proceed';
  const sliced = await es(node.url, 'POST', `/service_v9_slow/_delete_by_query?${q}&slices=2`, {
    query: { term: { 'source.keyword': 'src-crm' } },
  });
  const plain = await es(node.url, 'POST', `/service_v9_slow/_delete_by_query?${q}`, { query: { range: { n: { lt: 100 } } } });
  // Until both have done a batch (each task's status says so), so the counters are not all zero.
  for (let i = 0; i < 60; i++) {
    const t = await es(node.url, 'GET', `/_tasks/${plain.task}`);
    if ((t.task?.status?.batches ?? 0) >= 2) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  // The node's name for the pane's node column: _cat/nodes of the same node.
  await record(node.url, 'tasks', ['tasks', 'nodes']);
  for (const t of [sliced.task, plain.task]) await es(node.url, 'POST', `/_tasks/${t}/_cancel`);
} finally {
  await node.stop();
}
