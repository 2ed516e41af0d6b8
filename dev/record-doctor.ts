// Records what the doctor's issue-41 rules read, from real nodes made to show it, into
// test/fixtures/doctor-ii/: the health report (verbose=false) of a node past flood stage with its
// shard limit reached, and the verbose answers of its disk, shards_capacity and master_is_stable
// indicators (8.19's test distribution has no shards_availability indicator: its 404 is kept); file-based settings that fail
// to apply (an unknown setting in config/operator/settings.json): the cluster state's reserved_state
// and the file_settings indicator where the node has it; the doctor's two samples (node counters,
// master and term, tasks) with a slow delete-by-query running between them; every repository's
// snapshots with one repository broken on purpose (its index.latest and index-0 overwritten, then
// registered again so the node reads them); the licence; a
// dangling index (an index folder of another cluster's node copied into this node's data folder);
// the nodes' roles, memory lock and file descriptors; the desired balance's stats.
// Run: npx tsx dev/record-doctor.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ES_USER, startNode } from './lib/es-node.mjs';
import { DOCTOR_NODE_FILTER } from '../src/domain/doctor/node';
import { SAMPLE_STATE_FILTER, SAMPLE_STATS_FILTER } from '../src/domain/doctor/sample';
import { TASKS_FILTER } from '../src/cluster/resources';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.join(root, 'test/fixtures/doctor-ii');
fs.mkdirSync(dir, { recursive: true });
const write = (name: string, body: unknown) => fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(body, null, 1) + '\n');

async function call(url: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + p, {
    method,
    headers: { 'content-type': body === undefined || typeof body === 'string' ? 'application/x-ndjson' : 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* kept as text */
  }
  return { status: res.status, body: parsed };
}
const get = async (url: string, p: string) => (await call(url, 'GET', p)).body;
const q = (o: Record<string, string>) => '?' + new URLSearchParams(o).toString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sample(url: string) {
  return {
    stats: await get(url, `/_nodes/stats/jvm,os,process,thread_pool,indices/search,indexing${q({ filter_path: SAMPLE_STATS_FILTER })}`),
    state: await get(url, `/_cluster/state/master_node,metadata${q({ filter_path: SAMPLE_STATE_FILTER })}`),
    tasks: await get(url, `/_tasks${q({ detailed: 'true', group_by: 'none', filter_path: TASKS_FILTER })}`),
  };
}

// --- a node of another cluster, whose index becomes this node's dangling index ---
const other = await startNode({ name: 'doctor-rec-other' });
let otherIndexDir: string;
try {
  await call(other.url, 'PUT', '/service_v9_gone', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await call(other.url, 'POST', '/service_v9_gone/_doc?refresh=true', { a: 1 });
  const uuid = (await get(other.url, '/service_v9_gone/_settings'))?.service_v9_gone?.settings?.index?.uuid;
  await other.stop();
  otherIndexDir = path.join(other.dataDir, 'indices', uuid);
  if (!fs.existsSync(otherIndexDir)) throw new Error(`no index folder ${otherIndexDir}`);
} catch (e) {
  await other.stop();
  throw e;
}

const node = await startNode({ name: 'doctor-rec', settings: { 'cluster.info.update.interval': '10s' } });
try {
  const url = node.url;
  // Yellow: a replica that cannot be assigned on one node.
  await call(url, 'PUT', '/service_v9_yellow', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
  await call(url, 'PUT', '/service_v9_docs', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const bulk = Array.from({ length: 300 }, (_, i) => `{"index":{}}\n{"n":${i}}\n`).join('');
  await call(url, 'POST', '/service_v9_docs/_bulk?refresh=true', bulk);
  write('indicator-master_is_stable', await get(url, '/_health_report/master_is_stable?verbose=true'));
  // The 8.19 test distribution has no shards_availability indicator (404): the indicators not green
  // here are disk (every watermark at 1% used: the node is past flood stage, its indices blocked)
  // and shards_capacity (cluster.max_shards_per_node 3 for the 3 shards open).
  const wm = 'cluster.routing.allocation.disk.watermark';
  await call(url, 'PUT', '/_cluster/settings', {
    persistent: { [`${wm}.low`]: '1%', [`${wm}.high`]: '1%', [`${wm}.flood_stage`]: '1%', 'cluster.max_shards_per_node': 3 },
  });
  let report: any;
  for (let i = 0; i < 60; i++) {
    report = await get(url, '/_health_report?verbose=false');
    if (report?.indicators?.disk?.status === 'red') break;
    await sleep(1000);
  }
  write('healthReport-red', report);
  write('indicator-disk', await get(url, '/_health_report/disk?verbose=true'));
  write('indicator-shards_capacity', await get(url, '/_health_report/shards_capacity?verbose=true'));
  write('indicator-shards_availability', await call(url, 'GET', '/_health_report/shards_availability?verbose=true'));
  await call(url, 'PUT', '/_cluster/settings', {
    persistent: { [`${wm}.low`]: null, [`${wm}.high`]: null, [`${wm}.flood_stage`]: null, 'cluster.max_shards_per_node': null },
  });
  await call(url, 'PUT', '/_all/_settings', { 'index.blocks.read_only_allow_delete': null });
  write('nodes', await get(url, `/_nodes/settings,jvm,process${q({ filter_path: DOCTOR_NODE_FILTER })}`));
  write('license', await get(url, '/_license'));
  write('desiredBalance', await get(url, `/_internal/desired_balance${q({ filter_path: 'stats,cluster_balance_stats.nodes' })}`));
  for (const [name, p] of [
    ['ilm-status', '/_ilm/status'],
    ['slm-status', '/_slm/status'],
  ] as const) {
    const r = await call(url, 'GET', p);
    write(name, { status: r.status, body: r.body });
  }

  // Two samples with a slow delete-by-query between them (1 document a second).
  const dbq = await call(
    url,
    'POST',
    '/service_v9_docs/_delete_by_query?requests_per_second=1&scroll_size=1&wait_for_completion=false&conflicts=proceed',
    {
      query: { match_all: {} },
    },
  );
  await sleep(3000);
  write('sample-first', await sample(url));
  await sleep(3000);
  write('sample-second', await sample(url));
  await call(url, 'POST', `/_tasks/${dbq.body.task}/_cancel`);

  // Snapshots: one good repository, one broken (its index.latest overwritten).
  for (const r of ['good', 'broken'])
    await call(url, 'PUT', `/_snapshot/${r}`, { type: 'fs', settings: { location: path.join(node.repoDir, r) } });
  await call(url, 'PUT', '/_snapshot/good/snap-1?wait_for_completion=true', { indices: 'service_v9_docs' });
  await call(url, 'PUT', '/_snapshot/broken/snap-1?wait_for_completion=true', { indices: 'service_v9_docs' });
  fs.writeFileSync(path.join(node.repoDir, 'broken', 'index.latest'), 'not a generation');
  fs.writeFileSync(path.join(node.repoDir, 'broken', 'index-0'), '{ not json');
  // Removed and registered again (not verified): the node forgets the repository data it kept and reads the files.
  await call(url, 'DELETE', '/_snapshot/broken');
  await call(url, 'PUT', '/_snapshot/broken?verify=false', { type: 'fs', settings: { location: path.join(node.repoDir, 'broken') } });
  const snaps = await call(
    url,
    'GET',
    `/_snapshot/_all/_all${q({
      verbose: 'true',
      sort: 'start_time',
      order: 'desc',
      ignore_unavailable: 'true',
      filter_path:
        'snapshots.snapshot,snapshots.repository,snapshots.uuid,snapshots.state,snapshots.indices,snapshots.shards,snapshots.start_time_in_millis,snapshots.end_time_in_millis,snapshots.failures,failures',
    })}`,
  );
  // One broken repository fails the whole listing (a 500): the doctor reads one repository at a time.
  write('snapshots-all-broken', { status: snaps.status, body: snaps.body });
  for (const r of ['good', 'broken']) {
    const one = await call(url, 'GET', `/_snapshot/${r}/_all${q({ verbose: 'true' })}`);
    write(`snapshots-${r}`, { status: one.status, body: one.body });
  }
  write('indicator-repository_integrity', await get(url, '/_health_report/repository_integrity?verbose=true'));

  // File-based settings that fail: an unknown cluster setting.
  const operator = path.join(node.baseDir, 'config', 'operator');
  fs.mkdirSync(operator, { recursive: true });
  fs.writeFileSync(
    path.join(operator, 'settings.json'),
    JSON.stringify({ metadata: { version: '1', compatibility: '8.4.0' }, state: { cluster_settings: { 'no.such.setting': 'x' } } }),
  );
  execFileSync('chown', ['-R', `${ES_USER}:`, operator]);
  let state: any;
  for (let i = 0; i < 60; i++) {
    state = await get(url, `/_cluster/state/master_node,metadata${q({ filter_path: SAMPLE_STATE_FILTER })}`);
    if (state?.metadata?.reserved_state?.file_settings?.errors) break;
    await sleep(1000);
  }
  write('state-file-settings-error', state);
  write('healthReport-file-settings', await get(url, '/_health_report?verbose=false'));
  const fsInd = await call(url, 'GET', '/_health_report/file_settings?verbose=true');
  write('indicator-file_settings', { status: fsInd.status, body: fsInd.body });

  // A dangling index: the other cluster's index folder copied into this node's data folder.
  await node.stop();
  const target = path.join(node.dataDir, 'indices', path.basename(otherIndexDir));
  fs.cpSync(otherIndexDir, target, { recursive: true });
  execFileSync('chown', ['-R', `${ES_USER}:`, target]);
  const again = await node.restart();
  let dangling: any;
  for (let i = 0; i < 30; i++) {
    dangling = await get(again.url, '/_dangling');
    if (dangling?.dangling_indices?.length) break;
    await sleep(1000);
  }
  write('dangling', dangling);
  await again.stop();
} finally {
  await node.stop();
  fs.rmSync(other.baseDir, { recursive: true, force: true });
  fs.rmSync(node.baseDir, { recursive: true, force: true });
}
process.stderr.write(`recorded into ${dir}\n`);
