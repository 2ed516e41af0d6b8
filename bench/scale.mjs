// Issue 18's rows at scale, each runnable alone (npm run bench -- --only cluster3 | fleet):
//   cluster3: a real 3-node cluster with >= 5,000 real indices (dev/lib/cluster3.mjs; cached as a
//             tarball of its data folders): one poll cycle of every pane (requests, bytes, ms) and
//             the node time the console's polling costs per minute with each pane of WATCH_PANES
//             visible at the default interval (response times summed by the counting proxy; with
//             its requests and bytes), and the field-limit read (field-limits, the doctor) once.
//   fleet:    20 profiles (real nodes and unreachable ones mixed): time to the first full table
//             and the CPU of watching it; then 200 clusters replaying a real node's answers
//             (bench/fleet-replay.mjs): first rows, the whole table, connections and memory.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster3 } from '../dev/lib/cluster3.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'bench/out');
const PANES = ['health', 'indices', 'shards', 'disk', 'nodes', 'tasks'];
// Watched one after the other: Indices (the grown tables), and the panes with issue 26's reads
// (Health: pending tasks; Nodes: pressure, allocation for the hot spots; Tasks: the task list).
// BENCH_CLUSTER3_PANES=health,nodes: only those watched (the others' figures kept from the last run).
const WATCH_PANES = process.env.BENCH_CLUSTER3_PANES?.split(',') ?? ['indices', 'health', 'nodes', 'tasks'];
const INDICES = Number(process.env.BENCH_CLUSTER3_INDICES ?? 5000);
// Long enough for the large cluster's stretched reads (up to every 2 min) to come more than once.
const WATCH_S = Number(process.env.BENCH_CLUSTER3_WATCH_S ?? 300);
const FLEET_WATCH_S = Number(process.env.BENCH_FLEET_WATCH_S ?? 60);
const FLEET_RUNS = Number(process.env.BENCH_FLEET_RUNS ?? 7);
const FLEET_BIG = Number(process.env.BENCH_FLEET_BIG ?? 200);
const FLEET_BIG_RUNS = Number(process.env.BENCH_FLEET_BIG_RUNS ?? 3);
const log = (msg) => process.stderr.write(`bench: ${msg}\n`);

/**
 * The measuring scripts of these rows, bundled with the others by run.mjs's bundle(), handed in by
 * run.mjs (importing it from here would wait on its own top-level await: a deadlock).
 */
let bundleWith = async () => {
  throw new Error('bench/scale.mjs runs from bench/run.mjs (npm run bench -- --only cluster3,fleet)');
};
const bundleScale = () =>
  bundleWith({ 'cluster-watch': 'bench/cluster-watch.ts', 'fleet-watch': 'bench/fleet-watch.ts', 'field-limits': 'bench/field-limits.ts' });
const pctOfMinute = (ms) => Math.round((ms / 60_000) * 10000) / 100;
/** The machine is shared: each figure is kept with the load average it was measured at. */
const loadavg = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

function runJson(file, args, env = {}) {
  const text = execFileSync(process.execPath, [path.join(out, file), ...args.map(String)], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(text.trim().split('\n').at(-1));
}

/** runJson without blocking this process (it serves the replayed fleet meanwhile). */
async function runJsonAsync(file, args, env = {}) {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(out, file), ...args.map(String)], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** The cluster3 row; `keep` leaves the cluster running (the caller stops it). */
export async function cluster3({ keep = false } = {}) {
  await bundleScale();
  log(`cluster3: 3 nodes with ${INDICES} indices (dev/lib/cluster3.mjs)`);
  // BENCH_CLUSTER3_URL: a cluster3 already running (`node dev/lib/cluster3.mjs`), measured and left running.
  const given = process.env.BENCH_CLUSTER3_URL;
  const c = given
    ? { url: given, given: true, cached: false, setupMs: 0, stop: async () => {} }
    : await startCluster3({ indices: INDICES });
  try {
    const count = JSON.parse(
      execFileSync('curl', ['-s', `${c.url}/_cat/indices?format=json&h=index&expand_wildcards=all`], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      }),
    ).length;
    log(
      c.given
        ? `  given (BENCH_CLUSTER3_URL): ${count} indices`
        : `  ${c.cached ? 'restored from the cache' : 'made (and cached)'} in ${Math.round(c.setupMs / 1000)} s: ${count} indices`,
    );
    const poll = {};
    for (const pane of PANES) {
      const r = runJson('poll.mjs', [c.url, pane, 5]);
      poll[pane] = { requests: r.requests, bytes: r.bytes, ms: Math.round(r.ms * 10) / 10 };
      log(`  poll cycle ${pane}: ${JSON.stringify(poll[pane])}`);
    }
    // The panes not watched this time (BENCH_CLUSTER3_PANES) keep their figures of the last run.
    const last = fs.existsSync(path.join(root, 'bench/results.json'))
      ? JSON.parse(fs.readFileSync(path.join(root, 'bench/results.json'), 'utf8')).cluster3?.watches
      : undefined;
    const watches = { ...(last ?? {}) };
    for (const pane of WATCH_PANES) {
      log(`  the ${pane} pane watched for ${WATCH_S} s at the default interval through the counting proxy`);
      const w = runJson('cluster-watch.mjs', [c.url, pane, WATCH_S]);
      watches[pane] = { ...w, node_pct_of_minute: pctOfMinute(w.node_ms_per_min), loadavg: loadavg() };
      log(`  ${JSON.stringify(watches[pane])}`);
    }
    log("  the field-limit read (every index's mapping), 3 times");
    const fieldLimits = { ...runJson('field-limits.mjs', [c.url, 3]), loadavg: loadavg() };
    log(`  ${JSON.stringify(fieldLimits)}`);
    const watch = watches.indices;
    const row = {
      nodes: 3,
      indices: count,
      setup_s: c.given ? null : Math.round(c.setupMs / 1000),
      setup_cached: c.cached,
      ...(c.given && { setup_given: true }),
      poll,
      node_ms_per_min: watch.node_ms_per_min,
      node_pct_of_minute: watch.node_pct_of_minute,
      start_node_ms: watch.start_node_ms,
      indices_period_s: watch.indices_period_ms / 1000,
      health_period_s: watch.health_period_ms / 1000,
      blocks_period_s: watch.blocks_period_ms / 1000,
      watch,
      watches,
      field_limits: fieldLimits,
    };
    return keep ? { row, cluster: c } : { row };
  } finally {
    if (!keep) await c.stop();
  }
}

/** A server that accepts connections and never answers (the worst unreachable: no refusal). */
function silentServer() {
  return new Promise((resolve) => {
    const srv = net.createServer(() => {});
    srv.listen(0, '127.0.0.1', () => resolve(srv));
  });
}

export async function fleet(realUrls) {
  await bundleScale();
  const silent = await Promise.all([0, 1, 2, 3].map(() => silentServer()));
  try {
    // 20 profiles: the real nodes repeated to 12, 4 that never answer, 4 where nothing listens.
    const urls = [];
    for (let i = 0; i < 12; i++) urls.push(realUrls[i % realUrls.length]);
    for (const s of silent) urls.push(`http://127.0.0.1:${s.address().port}`);
    for (let i = 0; i < 4; i++) urls.push(`http://127.0.0.1:${9 + i}`); // discard/closed low ports
    // The first rows, FLEET_RUNS times (a fresh process and config each, 1 s of watching), then
    // once more watching for FLEET_WATCH_S (the CPU row); the machine may be shared: min/median/max.
    const once = (watchS) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-bench-fleet-'));
      try {
        return runJson('fleet-watch.mjs', [watchS, ...urls], { SHARDECK_CONFIG_DIR: path.join(dir, 'conf') });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    };
    const runs = [];
    for (let i = 0; i < FLEET_RUNS; i++) {
      const x = once(1);
      runs.push({
        first_row_ms: x.first_row_ms,
        answered_rows_ms: x.answered_rows_ms,
        first_table_ms: x.first_table_ms,
        load: os.loadavg()[0],
      });
      log(`  fleet run ${i + 1}: ${JSON.stringify(runs.at(-1))}`);
    }
    const r = once(FLEET_WATCH_S);
    log(`  fleet: ${JSON.stringify(r)}`);
    const stat = (key) => {
      const xs = runs.map((x) => x[key]).sort((a, b) => a - b);
      return { min: xs[0], median: xs[(xs.length - 1) >> 1], max: xs.at(-1) };
    };
    return {
      profiles: r.profiles,
      first_row_ms: stat('first_row_ms').median,
      answered_rows_ms: stat('answered_rows_ms').median,
      first_table_ms: stat('first_table_ms').median,
      first_row: stat('first_row_ms'),
      answered_rows: stat('answered_rows_ms'),
      runs,
      cpu_s_per_min: r.cpu_s_per_min,
      statuses: r.statuses,
      watch_s: FLEET_WATCH_S,
    };
  } finally {
    for (const s of silent) s.close();
  }
}

/**
 * A fleet of FLEET_BIG clusters (issue 45 item 4) answered by bench/fleet-replay.mjs: the answers of
 * a real node replayed with their measured latency, 10% silent, 5% refusing. The first rows, the
 * whole table (the console reads the fleet again every 15 s: that is its deadline), the most
 * connections open at once and the watching process's peak RSS, FLEET_BIG_RUNS times.
 */
export async function fleetBig(realUrl) {
  await bundleScale();
  const { startReplayFleet } = await import('./fleet-replay.mjs');
  const replay = await startReplayFleet({ realUrl, clusters: FLEET_BIG, silent: 0.1, refusing: 0.05 });
  try {
    const runs = [];
    for (let i = 0; i < FLEET_BIG_RUNS; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-bench-fleet200-'));
      try {
        // Not runJson: its execFileSync would stop this process, and the replayed clusters with it.
        const x = await runJsonAsync('fleet-watch.mjs', [1, ...replay.urls], { SHARDECK_CONFIG_DIR: path.join(dir, 'conf') });
        runs.push({
          first_row_ms: x.first_row_ms,
          answered_rows_ms: x.answered_rows_ms,
          first_table_ms: x.first_table_ms,
          peak_rss_mb: x.peak_rss_mb,
          statuses: x.statuses,
          load: os.loadavg()[0],
        });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      log(`  fleet of ${FLEET_BIG} run ${i + 1}: ${JSON.stringify(runs.at(-1))}`);
    }
    const median = (key) => runs.map((x) => x[key]).sort((a, b) => a - b)[(runs.length - 1) >> 1];
    return {
      clusters: FLEET_BIG,
      ...replay.counts,
      first_row_ms: median('first_row_ms'),
      answered_rows_ms: median('answered_rows_ms'),
      first_table_ms: median('first_table_ms'),
      peak_rss_mb: Math.max(...runs.map((x) => x.peak_rss_mb)),
      most_connections: replay.mostOpen(),
      most_busy_connections: replay.mostBusy(),
      latencies_ms: await replay.latencies(),
      runs,
    };
  } finally {
    await replay.close();
  }
}

/**
 * The rows at scale that `wants` asks for (run.mjs: the whole benchmark, or `--only cluster3,fleet`).
 * The fleet's real members are two single nodes of its own. (Against the 3-node cluster's nodes every
 * profile once came back unreachable "within 2 ms": the rows had timed out at their deadline, and a
 * timed-out row said tookMs 0; it now says how long it was waited for.)
 */
export async function scaleRows(bundle, wants = () => true) {
  bundleWith = bundle;
  const rows = {};
  if (wants('cluster3')) {
    rows.cluster3 = (await cluster3()).row;
  }
  if (wants('fleet') || wants('fleet200')) {
    const { startNode } = await import('../dev/lib/es-node.mjs');
    const own = await Promise.all(['fleet-a', 'fleet-b'].map((name) => startNode({ name })));
    try {
      if (wants('fleet')) rows.fleet = await fleet(own.map((n) => n.url));
      if (wants('fleet200')) rows.fleet200 = await fleetBig(own[0].url);
    } finally {
      await Promise.all(own.map((n) => n.stop()));
    }
  }
  return rows;
}
