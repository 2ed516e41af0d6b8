// Records the pending cluster tasks read (cluster/resources.ts `pendingTasks`) from a real node:
// the quiet answer (none pending: the filtered answer is `{}`) into the yellow, red and full
// scenarios, and a busy one into test/fixtures/pending/pendingTasks.json: the node is made busy on
// purpose (dev/lib/sick-node.mjs `queueIndexCreations`: many index creations sent at once, each a
// cluster-state update the master queues) while the read is repeated; the answer with the most
// tasks is kept.
// Run: npx tsx dev/record-pending.ts [URL of a node to use instead of starting one]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { queueIndexCreations } from './lib/sick-node.mjs';
import { RESOURCES } from '../src/cluster/resources';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { request } = RESOURCES.pendingTasks;
const read = async (url: string) => (await fetch(`${url}${request.path}?${new URLSearchParams(request.querystring).toString()}`)).json();
const write = (scenario: string, body: unknown) => {
  const dir = path.join(root, 'test/fixtures', scenario);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pendingTasks.json'), JSON.stringify(body, null, 1) + '\n');
};

const given = process.argv[2];
const node = given ? null : await startNode({ name: 'pending-fixtures' });
const url = given ?? node!.url;
try {
  const quiet = await read(url);
  for (const s of ['yellow', 'red', 'full']) write(s, quiet);
  const busy = (await queueIndexCreations(url, 'service_v9_pending', { count: 200, read: () => read(url) })) as {
    created: number;
    most: { tasks?: unknown[] } | null;
  };
  process.stderr.write(`busy: ${busy.created} created, most pending seen ${busy.most?.tasks?.length ?? 0}\n`);
  if (!busy.most?.tasks?.length) throw new Error('no pending task seen: nothing recorded for test/fixtures/pending');
  write('pending', busy.most);
} finally {
  await node?.stop();
}
