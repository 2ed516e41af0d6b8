// Records what the UI tests feed the panes: the responses of every read the poller makes
// (cluster/requests.ts READS), from a real node with the demo data, one read-only block set just
// before recording (Elasticsearch lifts it by itself soon after, below the high watermark).
// Writes test/fixtures/tui-yellow/<read>.json. Run: npx tsx test/ui/record-fixtures.ts
// (the lead's dev/record-fixtures.ts records the shared scenarios; this set is the UI tests' own,
// made while that one was being redone, so the two never overwrite each other).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '../../dev/lib/es-node.mjs';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { READS } from '../../src/cluster/requests';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tui-yellow');

const node = await startNode({ name: 'tui-fixtures' });
try {
  await loadDemoData(node.url, { docsPerIndex: 300 });
  const res = await fetch(`${node.url}/service_v9_bravo/_settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ 'index.blocks.read_only_allow_delete': true }),
  });
  if (!res.ok) throw new Error(`setting the block failed: ${res.status}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, req] of Object.entries(READS)) {
    const q = new URLSearchParams(req.querystring).toString();
    const r = await fetch(`${node.url}${req.path}${q ? `?${q}` : ''}`);
    if (!r.ok) throw new Error(`${name}: ${r.status} ${await r.text()}`);
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(await r.json(), null, 1) + '\n');
  }
  process.stderr.write(`recorded ${dir}\n`);
} finally {
  await node.stop();
}
