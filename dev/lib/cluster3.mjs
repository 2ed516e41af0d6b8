// A real 3-node cluster with thousands of real indices (issue 18's "at scale" rows). Creating them
// costs minutes of cluster-state updates, so the nodes' data folders are kept in a tarball in the
// cache (cluster3-<version>-<indices>.tar) and restored on the next run: same node names, same
// cluster name and the same data folders, so the cluster UUID and the node ids stay what they were
// (only the ports are new; discovery finds the nodes again through the new seed hosts).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ES_VERSION } from './es-dist.mjs';
import { freePort, startNode } from './es-node.mjs';
import { cacheRoot, ensureDir, nodesRoot } from './paths.mjs';
import { waitUntil } from './wait.mjs';

const NAMES = ['node-1', 'node-2', 'node-3'];
const CLUSTER = 'shardeck-cluster3';
/** One shard per index; one index in five has a replica (so 1.2 copies per index). */
const REPLICA_EVERY = 5;

export { waitGreen };
export const cluster3Tar = (indices) => path.join(cacheRoot, `cluster3-${ES_VERSION}-${indices}.tar`);

const log = (msg) => process.stderr.write(`[cluster3] ${msg}\n`);

async function es(url, method, p, body, contentType = 'application/json') {
  const res = await fetch(url + p, {
    method,
    headers: { 'content-type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** Waits for green in steps of a minute (fetch gives up on an answer after 300 s). */
async function waitGreen(url, timeoutMs = 900_000) {
  await waitUntil(
    'cluster3 to be green',
    async () => {
      try {
        return (await es(url, 'GET', '/_cluster/health?wait_for_status=green&timeout=60s')).status;
      } catch (e) {
        return String(e.message);
      }
    },
    (s) => s === 'green',
    { timeoutMs, intervalMs: 1000 },
  );
}

/** Index names: service_v9_c<number>, every REPLICA_EVERY-th as service_v9_r<number> (1 replica). */
export const cluster3Index = (i) => `service_v9_${i % REPLICA_EVERY === 0 ? 'r' : 'c'}${String(i).padStart(6, '0')}`;

async function startNodes(root, { bootstrap }) {
  const transportPorts = await Promise.all(NAMES.map(() => freePort()));
  const seedHosts = transportPorts.map((p) => `127.0.0.1:${p}`);
  const nodes = await Promise.all(
    NAMES.map((name, i) =>
      startNode({
        name,
        clusterName: CLUSTER,
        baseDir: path.join(root, name),
        dataDir: path.join(root, name, 'data'),
        transportPort: transportPorts[i],
        seedHosts,
        ...(bootstrap ? { initialMasters: NAMES } : {}),
        // More local recoveries at once than the default 4: a restore recovers 6,000 shards from disk.
        settings: {
          'cluster.max_shards_per_node': '5000',
          'action.destructive_requires_name': 'true',
          'cluster.routing.allocation.node_initial_primaries_recoveries': '16',
        },
        noWait: true,
      }),
    ),
  );
  const url = nodes[0].url;
  await waitUntil(
    'the 3 nodes of cluster3 to answer and join',
    async () => {
      try {
        return (await es(url, 'GET', '/_cluster/health?wait_for_nodes=3&timeout=2s')).number_of_nodes;
      } catch {
        return 0;
      }
    },
    (n) => n === 3,
    { timeoutMs: 300_000, intervalMs: 1000 },
  );
  return { url, nodes, stop: () => Promise.all(nodes.map((n) => n.stop())) };
}

async function createIndices(url, count) {
  await es(url, 'PUT', '/_index_template/cluster3', {
    index_patterns: ['service_v9_c*'],
    template: {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { modified_at: { type: 'date' }, 'assoc:sources': { type: 'keyword' } } },
    },
  });
  await es(url, 'PUT', '/_index_template/cluster3r', {
    index_patterns: ['service_v9_r*'],
    template: {
      settings: { number_of_shards: 1, number_of_replicas: 1 },
      mappings: { properties: { modified_at: { type: 'date' }, 'assoc:sources': { type: 'keyword' } } },
    },
  });
  // One document per index through _bulk: the indices are auto-created, and the master batches
  // those creations into few cluster-state updates (one PUT per index costs one update each).
  const BATCH = 250;
  for (let from = 0; from < count; from += BATCH) {
    const lines = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++) {
      lines.push(JSON.stringify({ index: { _index: cluster3Index(i) } }));
      lines.push(
        JSON.stringify({ modified_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), 'assoc:sources': `src-${i % 7}` }),
      );
    }
    const r = await es(url, 'POST', '/_bulk?timeout=120s', lines.join('\n') + '\n', 'application/x-ndjson');
    if (r.errors) throw new Error(`bulk ${from}: ${JSON.stringify(r.items.find((it) => it.index?.error)?.index?.error).slice(0, 300)}`);
    if ((from / BATCH) % 4 === 3) log(`${from + BATCH} indices`);
  }
}

/**
 * Starts the cluster with `indices` indices: from the cached tarball when there is one, else made
 * (and then cached). Returns { url, nodes, stop, indices, setupMs, cached }.
 */
export async function startCluster3({ indices = 5000 } = {}) {
  const started = Date.now();
  const tar = cluster3Tar(indices);
  const root = fs.mkdtempSync(path.join(ensureDir(nodesRoot()), 'cluster3-'));
  fs.chmodSync(root, 0o755); // the nodes' user must reach its folders below
  const cached = fs.existsSync(tar);
  let cluster;
  if (cached) {
    execFileSync('tar', ['-xf', tar, '-C', root]);
    cluster = await startNodes(root, { bootstrap: false });
  } else {
    cluster = await startNodes(root, { bootstrap: true });
    const t0 = Date.now();
    await createIndices(cluster.url, indices);
    await waitGreen(cluster.url);
    log(`created ${indices} indices in ${Math.round((Date.now() - t0) / 1000)} s`);
    await es(cluster.url, 'POST', '/_flush');
    await cluster.stop();
    // Only the data folders (and the node.json of each): configs, keystores and logs are remade.
    const tmp = `${tar}.tmp-${process.pid}`;
    execFileSync('tar', ['-cf', tmp, '-C', root, ...NAMES.map((n) => `${n}/data`)]);
    fs.renameSync(tmp, tar);
    cluster = await startNodes(root, { bootstrap: false });
  }
  await waitGreen(cluster.url);
  const setupMs = Date.now() - started;
  const stop = async () => {
    await cluster.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
  return { ...cluster, stop, indices, setupMs, cached, root };
}

// node dev/lib/cluster3.mjs [INDICES]: makes (or restores) the cluster, prints its URL and the
// set-up time, and stops it on Ctrl-C.
if (import.meta.url === `file://${process.argv[1]}`) {
  const c = await startCluster3({ indices: Number(process.argv[2] ?? 5000) });
  log(`${c.cached ? 'restored' : 'made'} ${c.indices} indices on 3 nodes in ${Math.round(c.setupMs / 1000)} s; ${c.url}`);
  if (process.argv.includes('--stop')) {
    await c.stop();
  } else {
    process.stdout.write(`CLUSTER3_URL=${c.url}\n`);
    const bye = async () => {
      await c.stop();
      process.exit(0);
    };
    process.on('SIGINT', bye);
    process.on('SIGTERM', bye);
  }
}
