// Records the raw answers of the index detail's reads (cluster/inspect.ts INSPECT_REQUESTS) from a
// real node into test/fixtures/detail/, for the parser, snapshot and benchmark inputs.
// Run: npx tsx dev/record-detail-fixtures.ts
// Indices: service_v9_alpha (demo data, matches the service_v9 template), service_v9_orders (a
// replica that cannot be placed: yellow) and service_v9_wide (2,000 mapped fields, enabled: false).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { loadDemoData } from './demo-data.mjs';
import { wideMapping, WIDE_SETTINGS } from './wide-mapping.mjs';
import { INSPECT_REQUESTS, type InspectRequest } from '../src/cluster/inspect';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.join(root, 'test/fixtures/detail');

async function call(
  url: string,
  r: InspectRequest | { method: string; path: string; querystring?: Record<string, string> },
  body?: unknown,
) {
  const q = new URLSearchParams(r.querystring ?? {}).toString();
  const res = await fetch(`${url}${r.path}${q ? `?${q}` : ''}`, {
    method: r.method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${r.method} ${r.path}: ${res.status} ${text}`);
  return (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
}

function save(name: string, body: unknown) {
  fs.writeFileSync(path.join(dir, name), typeof body === 'string' ? body : JSON.stringify(body, null, 1) + '\n');
}

async function recordIndex(url: string, index: string, short: string) {
  save(`${short}-settings.json`, await call(url, INSPECT_REQUESTS.settings(index, true)));
  save(`${short}-mappings.json`, await call(url, INSPECT_REQUESTS.mappings(index)));
  save(`${short}-shards.json`, await call(url, INSPECT_REQUESTS.shards(index)));
  save(`${short}-simulate.json`, await call(url, INSPECT_REQUESTS.simulate(index)));
  save(`${short}-aliases.json`, await call(url, INSPECT_REQUESTS.aliases(index)));
  // Two stats reads with writes and searches between them: the rates of the detail.
  save(`${short}-stats-prev.json`, await call(url, INSPECT_REQUESTS.stats(index)));
  const lines =
    Array.from(
      { length: 200 },
      (_, i) => `{"index":{}}\n${JSON.stringify({ modified_at: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString() })}`,
    ).join('\n') + '\n';
  await fetch(`${url}/${index}/_bulk?refresh=true`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: lines });
  for (let i = 0; i < 20; i++) await call(url, { method: 'POST', path: `/${index}/_search` }, { size: 1, query: { match_all: {} } });
  save(`${short}-stats.json`, await call(url, INSPECT_REQUESTS.stats(index)));
}

fs.mkdirSync(dir, { recursive: true });
const node = await startNode({ name: 'detail-fixtures' });
try {
  await loadDemoData(node.url, { docsPerIndex: 500 });
  await call(node.url, { method: 'PUT', path: '/service_v9_wide' }, { settings: WIDE_SETTINGS, mappings: wideMapping(2000) });
  // Aliases of alpha (issue 43): the write index of one, a member of another; wide has none.
  await call(
    node.url,
    { method: 'POST', path: '/_aliases' },
    {
      actions: [
        { add: { index: 'service_v9_alpha', alias: 'alpha-writes', is_write_index: true } },
        { add: { index: 'service_v9_alpha', alias: 'all-projects' } },
      ],
    },
  );
  await recordIndex(node.url, 'service_v9_alpha', 'alpha');
  await recordIndex(node.url, 'service_v9_wide', 'wide');
  save('orders-shards.json', await call(node.url, INSPECT_REQUESTS.shards('service_v9_orders')));
  save('templates.json', await call(node.url, INSPECT_REQUESTS.templates()));
  save('cat.txt', await call(node.url, INSPECT_REQUESTS.catList()));
  save('cat-shards-help.txt', await call(node.url, INSPECT_REQUESTS.catHelp('shards')));
  save('stats-all.json', await call(node.url, INSPECT_REQUESTS.stats()));
  process.stderr.write(`recorded ${dir}\n`);
} finally {
  await node.stop();
}
