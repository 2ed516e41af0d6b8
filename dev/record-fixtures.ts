// Records the raw responses of every read shardeck polls (cluster/resources.ts) from a real node,
// into test/fixtures/<scenario>/<read>.json, for the parser and UI tests. Run: npx tsx dev/record-fixtures.ts
// Scenarios: "yellow" (demo data: a replica that cannot be placed on one node, one read-only
// block) and "red" (the same plus an index whose primaries cannot be allocated anywhere).
// `--only name,name`: records only those reads (a new resource) into yellow, red and full, so the
// fixtures already recorded stay as they are.
// `--old`: with SHARDECK_ES_VERSION of an older minor (8.6.2), records only the red scenario into
// test/fixtures/red-<version>/ (with the node's GET / as root.json): the Health pane's snapshot
// before 8.7, which has no _health_report (its healthReport.json is the node's 400 answer).
import { recordRead } from './lib/record-read';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { ES_VERSION } from './lib/es-dist.mjs';
import { loadDemoData } from './demo-data.mjs';
import { RESOURCES } from '../src/cluster/resources';
import type { ResourceName } from '../src/store/console';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

async function get(url: string, p: string, qs: Record<string, string> = {}) {
  const q = new URLSearchParams(qs).toString();
  const res = await fetch(`${url}${p}${q ? `?${q}` : ''}`);
  return { status: res.status, body: await res.json() };
}

async function put(url: string, p: string, body: unknown) {
  const res = await fetch(url + p, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
}

async function record(url: string, scenario: string) {
  const dir = path.join(root, 'test/fixtures', scenario);
  fs.mkdirSync(dir, { recursive: true });
  if (old) fs.writeFileSync(path.join(dir, 'root.json'), JSON.stringify((await get(url, '/')).body, null, 1) + '\n');
  for (const name of Object.keys(RESOURCES) as ResourceName[]) {
    if (only && !only.includes(name)) continue;
    await recordRead(url, name, dir);
  }
  if (only) {
    // full is the yellow scenario with a richer health report: the new reads are yellow's.
    if (scenario === 'yellow')
      for (const name of only) fs.copyFileSync(path.join(dir, `${name}.json`), path.join(root, 'test/fixtures/full', `${name}.json`));
    process.stderr.write(`recorded ${only.join(', ')} of ${scenario}\n`);
    return;
  }
  const explain = await get(url, '/_cluster/allocation/explain');
  fs.writeFileSync(path.join(dir, 'allocationExplain.json'), JSON.stringify(explain.body, null, 1) + '\n');
  process.stderr.write(`recorded ${scenario}\n`);
}

const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : null;
const old = process.argv.includes('--old') ? ES_VERSION : null;

const node = await startNode({ name: 'fixtures' });
try {
  await loadDemoData(node.url, { docsPerIndex: 500 });
  // The platform's second template (service_v9_filter), composed of a component that sets shards
  // and replicas and of the seed's component that disables a field.
  await put(node.url, '/_component_template/service_v9_filter_settings', {
    template: { settings: { number_of_shards: 2, number_of_replicas: 1 } },
  });
  await put(node.url, '/_component_template/service_v9_no_body', {
    template: { mappings: { properties: { body: { type: 'object', enabled: false } } } },
  });
  await put(node.url, '/_index_template/service_v9_filter', {
    index_patterns: ['service_v9_filter_*'],
    composed_of: ['service_v9_mappings', 'service_v9_filter_settings', 'service_v9_no_body'],
    template: { settings: { number_of_replicas: 0 } },
    priority: 200,
  });
  await put(node.url, '/service_v9_bravo/_settings', { 'index.blocks.read_only_allow_delete': true });
  await new Promise((r) => setTimeout(r, 1500));
  if (!old) await record(node.url, 'yellow');
  // A primary that no node may hold: the cluster goes red, as with a lost or corrupt primary.
  await put(node.url, '/service_v9_stuck?wait_for_active_shards=0', {
    settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'no-such-node' },
  });
  await new Promise((r) => setTimeout(r, 1500));
  await record(node.url, old ? `red-${old}` : 'red');
} finally {
  await node.stop();
}
