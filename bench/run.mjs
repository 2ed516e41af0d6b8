// npm run bench: how fast shardeck is on a storage node and how light on the node it watches.
// Prints a table and writes bench/results.json (issue 7). Every row is measured in this one run
// (medians over repeats) against a real Elasticsearch node started here and stopped at the end.
// Scratch files (bundles of the measuring scripts) go to bench/out/ (gitignored).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { startNode } from '../dev/lib/es-node.mjs';
import { bundleAliases } from '../dev/lib/bundle-aliases.mjs';
import { es, loadDemoData, DEMO_YELLOW_INDEX } from '../dev/demo-data.mjs';
import { PHASES, startupPhases } from './startup-phases.mjs';

/** The same request with curl, the floor shardeck's own figure is compared with (fails on an HTTP error). */
function curlPost(url, body) {
  execFileSync('curl', ['-s', '-f', '-o', '/dev/null', '-X', 'POST', '-H', 'content-type: application/json', '-d', body, url]);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'bench/out');
const CLI = path.join(root, 'dist/cli.js');
/** The single executable (npm run package): measured beside the bundle when it exists (build it first: the bench does not). */
const EXE = path.join(root, 'dist/shardeck-linux-x64');
const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);
const RENDER_REPEATS = Number(process.env.BENCH_RENDER_REPEATS ?? 15);
const SIZES = [1000, 20000, 100000];
/** Sizes of the DataTable vs ink-table comparison (issue 13). */
const TABLE_SIZES = [1000, 20000];
const POLL_INDICES = 2000;
const SMALL_INDICES = 100;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const DELETE_RUNS = 5;
/** Documents per index of the delete row (about half match): enough that the delete, not start-up, is measured. */
const DELETE_DOCS = Number(process.env.BENCH_DELETE_DOCS ?? 40000);
/** Documents of the index of the delete at scale (issue 18: at least 200,000); about half match. */
const DELETE_LARGE_DOCS = Number(process.env.BENCH_DELETE_LARGE_DOCS ?? 200000);
const DELETE_LARGE_RUNS = Number(process.env.BENCH_DELETE_LARGE_RUNS ?? 3);
/** The restore row: demo documents making an index of about 100 MB (200,000 made 18 MB), restored this many times each way. */
const RESTORE_DOCS = Number(process.env.BENCH_RESTORE_DOCS ?? 1_200_000);
const RESTORE_RUNS = Number(process.env.BENCH_RESTORE_RUNS ?? 3);

const log = (msg) => process.stderr.write(`bench: ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : null;
};
const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d);

function machine() {
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? 'unknown CPU';
  return {
    nproc: os.availableParallelism(),
    cpu: model,
    ram_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
  };
}

/** The measuring scripts, bundled like the product (dev/build.mjs): production React, one file each. */
export async function bundle(extraEntries = {}) {
  fs.mkdirSync(out, { recursive: true });
  await build({
    entryPoints: {
      render: 'bench/render.tsx',
      poll: 'bench/poll.ts',
      floor: 'bench/floor.ts',
      'oneshot-floor': 'bench/oneshot-floor.ts',
      table: 'bench/table.tsx',
      detail: 'bench/detail.tsx',
      faults: 'bench/faults.tsx',
      ...extraEntries,
    },
    absWorkingDir: root,
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: bundleAliases(root),
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
  });
}

function runJson(file, args, env = {}, nodeFlags = []) {
  const text = execFileSync(process.execPath, [...nodeFlags, path.join(out, file), ...args.map(String)], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(text.trim().split('\n').at(-1));
}

// ---------------------------------------------------------------------------------------------
// 1. Cold start to the first frame with live data.

// eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g;

/**
 * Runs `command` under `script` (a real pty of 80x24; the console refuses a non-terminal) and
 * times, from the spawn, when the screen text (ANSI stripped) first matches each marker. The
 * output stream is read as it arrives, so the time is exact to the event loop, not to a polling
 * interval (tmux capture-pane polling would add its own period and the cost of each capture).
 */
export function timeMarkers(command, markers, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('script', ['-qfec', `stty rows 24 cols 80; exec ${command}`, '/dev/null'], {
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !['CI', 'NO_COLOR', 'FORCE_COLOR'].includes(k))),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.on('error', () => {}); // the floor exits by itself; a late 'q' finds no reader
    const found = {};
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `timed out waiting for ${Object.keys(markers)
            .filter((k) => !(k in found))
            .join(', ')}; screen:\n${text.slice(-2000)}`,
        ),
      );
    }, timeoutMs);
    child.stdout.on('data', (chunk) => {
      const now = performance.now();
      text += chunk.toString('utf8').replace(ANSI, '');
      for (const [name, re] of Object.entries(markers)) if (!(name in found) && re.test(text)) found[name] = now - t0;
      if (Object.keys(found).length === Object.keys(markers).length && !child.killed) {
        clearTimeout(timer);
        child.stdin.write('q');
        setTimeout(() => child.kill('SIGTERM'), 2000).unref();
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (Object.keys(found).length === Object.keys(markers).length) resolve(found);
      else reject(new Error(`exited before ${Object.keys(markers).join(', ')}; screen:\n${text.slice(-2000)}`));
    });
  });
}

export async function startup(url) {
  const tui = { first: [], full: [] };
  const floor = [];
  const exe = fs.existsSync(EXE) ? [] : null;
  // One warm-up of each (page cache, the node's own caches), then alternate so load hits both alike.
  await timeMarkers(`node ${CLI} --url ${url}`, { first: /YELLOW/ });
  await timeMarkers(`node ${path.join(out, 'floor.mjs')} ${url}`, { done: /FLOOR-DONE/ });
  if (exe) await timeMarkers(`${EXE} --url ${url}`, { first: /YELLOW/ });
  for (let i = 0; i < STARTUP_RUNS; i++) {
    if (exe) exe.push((await timeMarkers(`${EXE} --url ${url}`, { first: /YELLOW/ })).first);
    // "first": the header's live status; "full": every Health pane section has its data
    // (the health report's indicators and the reason for the unassigned shards).
    const t = await timeMarkers(`node ${CLI} --url ${url}`, {
      first: /YELLOW/,
      full: /unassigned shards: \d+ replica[\s\S]*shards_capacity/,
    });
    tui.first.push(t.first);
    tui.full.push(t.full);
    const f = await timeMarkers(`node ${path.join(out, 'floor.mjs')} ${url}`, { done: /FLOOR-DONE/ });
    floor.push(f.done);
  }
  return {
    first_frame_ms: round(median(tui.first)),
    floor_ms: round(median(floor)),
    ratio: round(median(tui.first) / median(floor), 2),
    runs: STARTUP_RUNS,
    full_frame_ms: round(median(tui.full)),
    first_frame_runs_ms: tui.first.map((x) => round(x)),
    floor_runs_ms: floor.map((x) => round(x)),
    ...(exe && {
      exe_first_frame_ms: round(median(exe)),
      exe_ratio: round(median(exe) / median(floor), 2),
      exe_runs_ms: exe.map((x) => round(x)),
    }),
    loadavg: os.loadavg().map((x) => round(x, 2)),
    method:
      'script(1) pty 80x24, output stream read as it arrives; both under the same wrapper; floor = bare node fetching the Health pane reads in parallel',
  };
}

const ONESHOT_RUNS = Number(process.env.BENCH_ONESHOT_RUNS ?? 20);

/** One whole process: wall time, time to its first output, and its exit delay (last output -> exit). */
function timeProcess(argv) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = 0;
    let last = 0;
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', () => {
      last = performance.now();
      first ||= last;
    });
    child.on('error', reject);
    child.on('exit', () => {
      const end = performance.now();
      resolve({ wall: end - t0, output: first - t0, exitDelay: last ? end - last : NaN });
    });
  });
}

/**
 * `shardeck status --json` as a whole process against a bare node:http script doing the same
 * reads (bench/oneshot-floor.ts), run by run in turn so load hits both alike; medians (min/max kept).
 */
export async function oneshot(url) {
  const cmds = {
    status: [process.execPath, CLI, 'status', '--json', '--url', url],
    floor: [process.execPath, path.join(out, 'oneshot-floor.mjs'), url],
    node_e0: [process.execPath, '-e', '0'],
    ...(fs.existsSync(EXE) && { exe: [EXE, 'status', '--json', '--url', url] }),
    // The other one-shot commands' exit delay (issue 29: every one ends within 10 ms of its output).
    cat: [process.execPath, CLI, 'cat', 'health', '--url', url],
    get: [process.execPath, CLI, 'get', DEMO_YELLOW_INDEX, `${DEMO_YELLOW_INDEX}-7`, '--url', url],
  };
  const runs = Object.fromEntries(Object.keys(cmds).map((k) => [k, []]));
  for (const argv of Object.values(cmds)) await timeProcess(argv); // warm-up (page cache)
  for (let i = 0; i < ONESHOT_RUNS; i++) for (const [k, argv] of Object.entries(cmds)) runs[k].push(await timeProcess(argv));
  const stat = (xs) => ({ min: round(Math.min(...xs)), median: round(median(xs)), max: round(Math.max(...xs)) });
  const of = (k, f) => stat(runs[k].map((r) => r[f]).filter((x) => !Number.isNaN(x)));
  return {
    runs: ONESHOT_RUNS,
    status_wall_ms: of('status', 'wall'),
    status_exit_delay_ms: of('status', 'exitDelay'),
    floor_wall_ms: of('floor', 'wall'),
    floor_exit_delay_ms: of('floor', 'exitDelay'),
    node_e0_wall_ms: of('node_e0', 'wall'),
    cat_wall_ms: of('cat', 'wall'),
    cat_exit_delay_ms: of('cat', 'exitDelay'),
    get_wall_ms: of('get', 'wall'),
    get_exit_delay_ms: of('get', 'exitDelay'),
    ...(runs.exe && {
      exe_wall_ms: of('exe', 'wall'),
      exe_exit_delay_ms: of('exe', 'exitDelay'),
      exe_ratio: round(median(runs.exe.map((r) => r.wall)) / median(runs.floor.map((r) => r.wall)), 2),
      exe_mib: round(fs.statSync(EXE).size / 2 ** 20),
    }),
    ratio: round(median(runs.status.map((r) => r.wall)) / median(runs.floor.map((r) => r.wall)), 2),
    loadavg: os.loadavg().map((x) => round(x, 2)),
    method:
      'whole processes spawned in turn (status, floor, node -e 0, the executable when built, cat health, get), wall from spawn to exit; exit delay from the last stdout byte to exit',
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Render cost at scale (each size in its own process).

/**
 * At 100,000 rows, three processes: peak RSS moves by +-20 MB with when V8 collects, so the run
 * with the median peak is the row (every run's peak is kept in `peak_rss_runs_mb`).
 */
export function renderAt(n) {
  const runs = Array.from({ length: n >= 100000 ? 3 : 1 }, () => runJson('render.mjs', [n, RENDER_REPEATS], {}, ['--expose-gc']));
  runs.sort((a, b) => a.peak_rss_mb - b.peak_rss_mb);
  return { ...runs[(runs.length - 1) >> 1], peak_rss_runs_mb: runs.map((r) => round(r.peak_rss_mb, 0)) };
}

/** DataTable (windowed) against @alcalzone/ink-table with every row and with the visible rows only, each case in its own process. */
export function tableLibraries() {
  const out = {};
  for (const n of TABLE_SIZES) {
    out[n] = {};
    for (const lib of ['datatable', 'ink-table', 'ink-table-window']) {
      // ink-table at 20k rows takes tens of seconds a frame: one update is enough to show it.
      const x = runJson('table.mjs', [lib, n, lib === 'ink-table' && n > 1000 ? 1 : 5]);
      out[n][lib] = {
        first_frame_ms: round(x.first_frame_ms),
        update_ms: round(x.update_ms),
        frame_lines: x.frame_lines,
        peak_rss_mb: round(x.peak_rss_mb, 0),
      };
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 3. Poll cycles and idle CPU with many real indices.

/** Creates bench-00000.. up to `total` indices of 1 shard, 0 replicas, by bulk auto-create. */
export async function growIndices(url, from, total) {
  await es(url, 'PUT', '/_index_template/bench', {
    index_patterns: ['bench-*'],
    priority: 500,
    template: { settings: { number_of_shards: 1, number_of_replicas: 0 } },
  });
  const BATCH = 250;
  for (let start = from; start < total; start += BATCH) {
    const lines = [];
    for (let i = start; i < Math.min(total, start + BATCH); i++) {
      lines.push(JSON.stringify({ index: { _index: `bench-${String(i).padStart(5, '0')}` } }), JSON.stringify({ n: i }));
    }
    const res = await es(url, 'POST', '/_bulk?timeout=120s', lines.join('\n') + '\n');
    if (res.errors) throw new Error(`bulk create failed: ${JSON.stringify(res.items.find((x) => x.index?.error))}`);
  }
  await es(url, 'GET', '/_cluster/health?wait_for_status=yellow&wait_for_no_initializing_shards=true&timeout=300s');
}

export function pollPanes(url, indices) {
  const row = { indices };
  for (const pane of ['health', 'disk', 'indices']) row[pane] = runJson('poll.mjs', [url, pane, 7]);
  return row;
}

function cpuTicks(pid) {
  // Fields after the command name: utime is the 14th and stime the 15th field of /proc/<pid>/stat.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The built console on the Health pane in tmux at the default interval; CPU over IDLE_SECONDS. */
export async function idleCpu(url) {
  const socket = `shardeck-bench-${process.pid}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'idle', '-x', '80', '-y', '24', `exec env -u CI -u NO_COLOR node ${CLI} --url ${url}`);
  try {
    const pid = Number(tmux('display-message', '-p', '-t', 'idle', '#{pane_pid}').trim());
    const deadline = Date.now() + 20_000;
    while (!tmux('capture-pane', '-p', '-t', 'idle').includes('shards_capacity')) {
      if (Date.now() > deadline) throw new Error('the console did not show the Health pane in tmux');
      await sleep(100);
    }
    await sleep(3000); // past start-up work (module loading, first frames)
    const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    const before = cpuTicks(pid);
    const t0 = performance.now();
    await sleep(IDLE_SECONDS * 1000);
    const cpuS = (cpuTicks(pid) - before) / hz;
    const wallS = (performance.now() - t0) / 1000;
    return {
      seconds: round(wallS, 1),
      cpu_s: round(cpuS, 2),
      cpu_s_per_min: round((cpuS / wallS) * 60, 2),
      core_pct: round((cpuS / wallS) * 100, 2),
    };
  } finally {
    tmux('kill-server');
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Delete by query, shardeck vs curl.

export async function deleteByQuery(url) {
  const probe = await fetch(`${url}/${DEMO_YELLOW_INDEX}/_delete_by_query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: { match_none: {} } }),
  });
  if (!probe.ok)
    return {
      docs: null,
      shardeck_s: null,
      curl_s: null,
      ratio: null,
      reason: `not measured: the test node has no _delete_by_query (${probe.status} ${(await probe.text()).slice(0, 120)})`,
    };
  if (!fs.existsSync(path.join(root, 'src/commands/delete-by-query.ts'))) {
    return {
      docs: null,
      shardeck_s: null,
      curl_s: null,
      ratio: null,
      reason:
        'not measured: the node answers _delete_by_query, but shardeck has no delete-by-query command yet (src/commands/delete-by-query.ts)',
    };
  }
  // Identical fresh data for each run: demo documents (modified_at spread over two years).
  const query = { query: { range: { modified_at: { lt: 'now-365d' } } } };
  const fresh = async (index) => {
    await loadDemoData(url, { indices: [index], docsPerIndex: DELETE_DOCS, yellowIndex: 'none' });
    return (await es(url, 'POST', `/${index}/_count`, query)).count;
  };
  const shardeck = [];
  const phase = [];
  const curl = [];
  let docs;
  try {
    // Warm-up: the first task that runs with wait_for_completion=false makes Elasticsearch create
    // its .tasks index (~0.5 s once per cluster), which is not the cost of either way of deleting.
    const w = 'service_v9_dbqwarm';
    const warm = await fresh(w);
    execFileSync(process.execPath, [CLI, 'delete-by-query', w, '--older-than', '365d', '--expect', String(warm), '--yes', '--url', url], {
      stdio: 'pipe',
    });
    for (let i = 0; i < DELETE_RUNS; i++) {
      const a = `service_v9_dbqs${i}`;
      docs = await fresh(a);
      let t0 = performance.now();
      const run = JSON.parse(
        execFileSync(
          process.execPath,
          [CLI, 'delete-by-query', a, '--older-than', '365d', '--expect', String(docs), '--yes', '--json', '--url', url],
          { encoding: 'utf8' },
        ),
      );
      shardeck.push((performance.now() - t0) / 1000);
      if (!run.ok || run.report.deleted !== docs) throw new Error(`shardeck deleted ${run.report?.deleted} of ${docs}`);
      phase.push(run.timing.delete_ms / 1000);
      const b = `service_v9_dbqc${i}`;
      await fresh(b);
      t0 = performance.now();
      curlPost(`${url}/${b}/_delete_by_query?refresh=true`, JSON.stringify(query));
      curl.push((performance.now() - t0) / 1000);
    }
  } catch (e) {
    return {
      docs: null,
      shardeck_s: null,
      curl_s: null,
      ratio: null,
      reason: `not measured: ${String(e.stderr ?? e.message).split('\n')[0]}`,
    };
  }
  return {
    docs,
    shardeck_s: round(median(shardeck), 3),
    curl_s: round(median(curl), 3),
    ratio: round(median(shardeck) / median(curl), 2),
    // The delete itself (sent until its task is seen complete), without start-up, preview and the count after.
    shardeck_delete_s: round(median(phase), 3),
    delete_ratio: round(median(phase) / median(curl), 2),
  };
}

/**
 * Issue 25's row: a restore of a ~100 MB index (RESTORE_DOCS demo documents, one shard) from an fs
 * snapshot, beside the original, by `shardeck restore` (whole command; and its own timing, from the
 * requests sent until seen green and counted) and by curl (`_restore?wait_for_completion=true`,
 * which answers once the shards are restored), alternately, the copies deleted between runs.
 * shardeck's overhead is its progress polling (each second) and the count after.
 */
export async function restoreRow(url, repoDir) {
  const source = 'service_v9_restorebig';
  await loadDemoData(url, { indices: [source], docsPerIndex: RESTORE_DOCS, yellowIndex: 'none' });
  await es(url, 'POST', `/${source}/_flush`);
  const docs = (await es(url, 'GET', `/${source}/_count`)).count;
  const bytes = Number((await es(url, 'GET', `/_cat/indices/${source}?format=json&bytes=b&h=pri.store.size`))[0]['pri.store.size']);
  await es(url, 'PUT', '/_snapshot/bench', { type: 'fs', settings: { location: path.join(repoDir, 'bench') } });
  await es(url, 'PUT', '/_snapshot/bench/big?wait_for_completion=true', { indices: source, include_global_state: false });
  const shardeck = [];
  const phase = [];
  const curl = [];
  try {
    for (let i = 0; i < RESTORE_RUNS; i++) {
      let t = performance.now();
      const run = JSON.parse(
        execFileSync(
          process.execPath,
          [CLI, 'restore', 'bench', 'big', '--indices', source, `--rename-suffix=-s${i}`, '--yes', '--json', '--url', url],
          { encoding: 'utf8' },
        ),
      );
      shardeck.push((performance.now() - t) / 1000);
      if (!run.ok || run.report.counts[0].after !== docs) throw new Error(`shardeck restored ${run.report?.counts?.[0]?.after} of ${docs}`);
      phase.push(run.timing.restore_ms / 1000);
      await es(url, 'DELETE', `/${source}-s${i}`);
      t = performance.now();
      curlPost(
        `${url}/_snapshot/bench/big/_restore?wait_for_completion=true`,
        JSON.stringify({ indices: source, include_global_state: false, rename_pattern: '(.+)', rename_replacement: `$1-c${i}` }),
      );
      curl.push((performance.now() - t) / 1000);
      await es(url, 'DELETE', `/${source}-c${i}`);
    }
  } catch (e) {
    return {
      docs,
      bytes,
      shardeck_s: null,
      curl_s: null,
      ratio: null,
      reason: `not measured: ${String(e.stderr ?? e.message).split('\n')[0]}`,
    };
  }
  return {
    docs,
    bytes,
    runs: RESTORE_RUNS,
    shardeck_s: round(median(shardeck), 3),
    curl_s: round(median(curl), 3),
    ratio: round(median(shardeck) / median(curl), 2),
    // From the requests sent until seen green and counted: the polling's cost, without start-up and preview.
    shardeck_restore_s: round(median(phase), 3),
    restore_ratio: round(median(phase) / median(curl), 2),
    shardeck_runs_s: shardeck.map((x) => round(x, 3)),
    shardeck_restore_runs_s: phase.map((x) => round(x, 3)),
    curl_runs_s: curl.map((x) => round(x, 3)),
  };
}

/**
 * The delete at scale: an index of DELETE_LARGE_DOCS demo documents is bulk-loaded once, then each
 * run deletes the same half of a fresh clone of it (a clone hard-links the segments: seconds, not
 * a reload), shardeck and curl alternately. "shardeck_delete_s" is the delete itself (sent until
 * its task is seen complete, from the command's own timing); "fixed_overhead_s" the rest of the
 * command (start-up, preview counts and samples, the count afterwards), which does not grow with
 * the documents.
 */
export async function deleteLarge(url) {
  const source = 'service_v9_dbqbig';
  const query = { query: { range: { modified_at: { lt: 'now-365d' } } } };
  const t0 = performance.now();
  await loadDemoData(url, { indices: [source], docsPerIndex: DELETE_LARGE_DOCS, yellowIndex: 'none' });
  await es(url, 'PUT', `/${source}/_settings`, { index: { 'blocks.write': true } });
  const loadS = (performance.now() - t0) / 1000;
  const docs = (await es(url, 'GET', `/${source}/_count`)).count;
  const clone = async (name) => {
    // A clone hard-links the source's segments; replicas 0 as the source (a clone would default to 1).
    await es(url, 'POST', `/${source}/_clone/${name}`, { settings: { 'index.blocks.write': null, 'index.number_of_replicas': 0 } });
    await es(url, 'GET', `/_cluster/health/${name}?wait_for_status=green&timeout=120s`);
    return (await es(url, 'POST', `/${name}/_count`, query)).count;
  };
  const drop = (name) => es(url, 'DELETE', `/${name}`);
  const shardeck = [];
  const phase = [];
  const curl = [];
  let matched;
  try {
    for (let i = 0; i < DELETE_LARGE_RUNS; i++) {
      const a = `service_v9_dbqbig_s${i}`;
      matched = await clone(a);
      let t = performance.now();
      const run = JSON.parse(
        execFileSync(
          process.execPath,
          [CLI, 'delete-by-query', a, '--older-than', '365d', '--expect', String(matched), '--yes', '--json', '--url', url],
          { encoding: 'utf8' },
        ),
      );
      shardeck.push((performance.now() - t) / 1000);
      if (!run.ok || run.report.deleted !== matched) throw new Error(`shardeck deleted ${run.report?.deleted} of ${matched}`);
      phase.push(run.timing.delete_ms / 1000);
      await drop(a);
      const b = `service_v9_dbqbig_c${i}`;
      await clone(b);
      t = performance.now();
      curlPost(`${url}/${b}/_delete_by_query?refresh=true`, JSON.stringify(query));
      curl.push((performance.now() - t) / 1000);
      await drop(b);
    }
  } catch (e) {
    return { docs, shardeck_delete_s: null, curl_s: null, reason: `not measured: ${String(e.stderr ?? e.message).split('\n')[0]}` };
  } finally {
    await drop(source).catch(() => {});
  }
  return {
    docs,
    matched,
    shardeck_delete_s: round(median(phase), 3),
    curl_s: round(median(curl), 3),
    delete_ratio: round(median(phase) / median(curl), 3),
    // Each run's shardeck/curl pair ran back to back: their ratio is less at the mercy of the load.
    paired_ratio_median: round(median(phase.map((x, i) => x / curl[i])), 3),
    shardeck_s: round(median(shardeck), 3),
    fixed_overhead_s: round(median(shardeck.map((x, i) => x - phase[i])), 3),
    runs: DELETE_LARGE_RUNS,
    shardeck_delete_runs_s: phase.map((x) => round(x, 3)),
    curl_runs_s: curl.map((x) => round(x, 3)),
    load_s: round(loadS, 1),
  };
}

// ---------------------------------------------------------------------------------------------

function table(r) {
  const rows = [];
  const add = (what, value, target, pass) => rows.push([what, value, target, pass === null ? 'n/a' : pass ? 'PASS' : 'MISS']);
  const s = r.startup;
  const o = r.oneshot;
  if (o) {
    add(
      'status --json, whole process, vs bare node:http floor',
      `${o.status_wall_ms.median} ms vs ${o.floor_wall_ms.median} ms (${o.ratio}x; node -e 0 ${o.node_e0_wall_ms.median} ms)`,
      '<= 1.3x floor',
      o.ratio <= 1.3,
    );
    add(
      'status --json: exit delay after its output',
      `${o.status_exit_delay_ms.median} ms (max ${o.status_exit_delay_ms.max}; floor ${o.floor_exit_delay_ms.median} ms)`,
      '<= 10 ms',
      o.status_exit_delay_ms.median <= 10,
    );
    if (o.cat_exit_delay_ms)
      add(
        'cat health / get: exit delay after the output',
        `${o.cat_exit_delay_ms.median} / ${o.get_exit_delay_ms.median} ms (wall ${o.cat_wall_ms.median} / ${o.get_wall_ms.median} ms)`,
        '<= 10 ms',
        o.cat_exit_delay_ms.median <= 10 && o.get_exit_delay_ms.median <= 10,
      );
    if (o.exe_wall_ms)
      add(
        `status --json, single executable (${o.exe_mib} MiB), vs floor`,
        `${o.exe_wall_ms.median} ms vs ${o.floor_wall_ms.median} ms (${o.exe_ratio}x; exit delay ${o.exe_exit_delay_ms.median} ms)`,
        '<= 1.3x floor',
        o.exe_ratio <= 1.3,
      );
  }
  if (s)
    add(
      'first data frame (built TUI) vs floor',
      `${s.first_frame_ms} ms vs ${s.floor_ms} ms (${s.ratio}x)`,
      '<= 1.2x floor',
      s.ratio <= 1.2,
    );
  if (s?.exe_first_frame_ms)
    add(
      'first data frame, single executable, vs floor',
      `${s.exe_first_frame_ms} ms vs ${s.floor_ms} ms (${s.exe_ratio}x)`,
      '<= 1.2x floor',
      s.exe_ratio <= 1.2,
    );
  const ph = r.startup_phases;
  if (ph)
    for (const [k, what] of Object.entries(PHASES))
      add(`first data frame, profiled (${ph.first_frame_ms} ms): ${what}`, `${ph.phases[k].ms} ms (${ph.phases[k].share}%)`, '', null);
  for (const n of SIZES) {
    const x = r.render?.[n];
    if (!x) continue;
    const big = n === 100000;
    add(
      `${n} rows: rebuild / scroll frame / filter key`,
      `${x.rebuild_ms} / ${x.scroll_frame_ms} / ${x.filter_key_ms} ms`,
      big ? '< 100 / 16 / 16 ms' : 'flat frames',
      big ? x.rebuild_ms < 100 && x.scroll_frame_ms < 16 && x.filter_key_ms < 16 : null,
    );
    if (x.rebuild_all_changed_ms !== undefined)
      add(
        `${n} rows: rebuild when every row changed`,
        `${x.rebuild_all_changed_ms} ms (shards ${x.shards.rebuild_all_changed_ms} ms)`,
        '',
        null,
      );
    const runs = x.peak_rss_runs_mb?.length > 1 ? ` (runs ${x.peak_rss_runs_mb.join(' / ')})` : '';
    add(`${n} rows: peak RSS`, `${x.peak_rss_mb} MB${runs}`, big ? '< 150 MB (issue 45)' : '', big ? x.peak_rss_mb < 150 : null);
    const p = x.peak_parts;
    if (p && big)
      add(
        `${n} rows: the peak's parts (at the end, both panes' rows held)`,
        `before any row ${p.before_rows_rss_mb} MB, young space ${p.young_space_mb} MB, rows/lines/tables alive ${p.live_rows_mb} MB, heap committed ${p.heap_committed_mb} MB`,
        '',
        null,
      );
  }
  for (const n of TABLE_SIZES) {
    const t = r.tables?.[n];
    if (!t) continue;
    const d = t.datatable;
    const k = t['ink-table'];
    const w = t['ink-table-window'];
    add(
      `${n} rows, table alone: DataTable / ink-table`,
      `frame ${d.update_ms} / ${k.update_ms} ms, ${d.peak_rss_mb} / ${k.peak_rss_mb} MB`,
      'informs the choice',
      null,
    );
    add(`${n} rows: ink-table given the 20 visible rows`, `frame ${w.update_ms} ms, ${w.peak_rss_mb} MB`, '', null);
  }
  const x = r.index_detail;
  if (x)
    add(
      `index detail, ${x.fields} mapped fields: open (data -> first frame)`,
      `${x.open_ms} ms (max ${x.open_max_ms}, CPU ${x.open_cpu_ms}), scroll ${x.scroll_frame_ms} ms`,
      `< ${x.target_ms} ms`,
      x.pass,
    );
  const F = r.faults;
  if (F)
    for (const name of ['slow_5s', 'no_answer', 'reset', 'status_503']) {
      const x = F[name];
      if (!x) continue;
      const h = F.healthy_again ?? F.healthy;
      add(
        `console under a fault (${name.replace('_', ' ')}): cursor / filter key`,
        `${x.move_ms} / ${x.filter_key_ms} ms (max ${x.move_max_ms} / ${x.filter_key_max_ms}; healthy ${h.move_ms} / ${h.filter_key_ms}; ${x.missed} keys without a frame; rows ${x.data_age_s} s old)`,
        'no key lost; < 16 ms',
        x.missed === 0 && x.move_ms < 16 && x.filter_key_ms < 16,
      );
    }
  const p = r.poll;
  if (p) {
    add(
      `poll cycle, Health/Disk panes, ${p.indices} indices`,
      `${p.panes.health.requests}/${p.panes.disk.requests} req, ${p.panes.health.bytes}/${p.panes.disk.bytes} B, ${p.panes.health.ms}/${p.panes.disk.ms} ms`,
      '',
      null,
    );
    add(`poll cycle, Indices pane, ${p.indices} indices`, `${p.requests} req, ${p.bytes} B, ${p.ms} ms`, '', null);
    add(
      'Health/Disk payload, 100 -> 2000 indices',
      `${p.flat.health_bytes.join(' -> ')} / ${p.flat.disk_bytes.join(' -> ')} B`,
      'flat',
      p.flat.pass,
    );
    add('poll overlaps', `${p.overlaps}`, '0', p.overlaps === 0);
    add(
      `idle watching (Health, 5 s interval, ${p.idle.seconds} s)`,
      `${p.cpu_s_per_min} CPU s/min (${p.idle.core_pct}% of a core)`,
      '< 1% of a core',
      p.idle.core_pct < 1,
    );
  }
  const d = r.delete;
  if (d)
    add(
      'delete by query vs curl: whole command',
      d.ratio === null ? d.reason : `${d.shardeck_s} s vs ${d.curl_s} s (${d.ratio}x, ${d.docs} docs)`,
      '<= 1.05x',
      d.ratio === null ? null : d.ratio <= 1.05,
    );
  if (d && d.ratio !== null)
    add(
      'delete by query vs curl: the delete itself',
      `${d.shardeck_delete_s} s vs ${d.curl_s} s (${d.delete_ratio}x)`,
      '<= 1.05x',
      d.delete_ratio <= 1.05,
    );
  const Rs = r.restore;
  if (Rs)
    add(
      'restore of a ~100 MB index vs curl: the restore itself',
      Rs.ratio === null
        ? Rs.reason
        : `${Rs.shardeck_restore_s} s vs ${Rs.curl_s} s (${Rs.restore_ratio}x; whole command ${Rs.shardeck_s} s, ${Rs.ratio}x; ${Math.round(Rs.bytes / 1048576)} MB, load ${Rs.loadavg?.[0]})`,
      '<= 1.05x',
      Rs.ratio === null ? null : Rs.restore_ratio <= 1.05,
    );
  const L = r.delete_large;
  if (L)
    add(
      'delete by query at scale vs curl: the delete itself',
      L.shardeck_delete_s === null
        ? L.reason
        : `${L.shardeck_delete_s} s vs ${L.curl_s} s (${L.delete_ratio}x, ${L.matched} of ${L.docs} docs; fixed overhead ${L.fixed_overhead_s} s)`,
      '<= 1.05x',
      L.shardeck_delete_s === null ? null : L.delete_ratio <= 1.05,
    );
  const c3 = r.cluster3;
  if (c3) {
    for (const [pane, x] of Object.entries(c3.poll))
      add(`${c3.nodes} nodes, ${c3.indices} indices: poll cycle, ${pane} pane`, `${x.requests} req, ${x.bytes} B, ${x.ms} ms`, '', null);
    add(
      `${c3.nodes} nodes, ${c3.indices} indices: node time of watching Indices`,
      `${c3.node_ms_per_min} ms/min (${c3.node_pct_of_minute}%; every ${c3.indices_period_s}/${c3.health_period_s}/${c3.blocks_period_s} s: indices/health/blocks; ${c3.start_node_ms} ms at start${c3.watches ? `; load ${c3.watches.indices.loadavg[0]}` : ''})`,
      '< 0.5% of a minute (issue 45)',
      c3.node_pct_of_minute < 0.5,
    );
    // The other panes watched the same way (issue 26's reads: Health's pending tasks, Nodes' pressure
    // and hot spots, the Tasks pane), each with its requests, bytes and the load average it ran at.
    for (const [pane, w] of Object.entries(c3.watches ?? {})) {
      if (pane === 'indices') continue;
      add(
        `${c3.nodes} nodes, ${c3.indices} indices: node time of watching ${pane[0].toUpperCase()}${pane.slice(1)}`,
        `${w.node_ms_per_min} ms/min (${w.node_pct_of_minute}%; ${w.requests_per_min} req, ${Math.round(w.bytes_per_min / 1024)} KiB a minute; load ${w.loadavg[0]})`,
        '< 0.5% of a minute (issue 45)',
        w.node_pct_of_minute < 0.5,
      );
    }
    const fl = c3.field_limits;
    if (fl)
      add(
        `${c3.nodes} nodes, ${c3.indices} indices: field-limit read (on demand)`,
        `${fl.node_ms} ms of node time, ${fl.requests} req, ${Math.round(fl.bytes / 1024)} KiB (wall ${fl.wall_ms} ms; load ${fl.loadavg[0]})`,
        '',
        null,
      );
  }
  const f = r.fleet;
  if (f && f.first_row_ms !== undefined)
    add(
      `fleet of ${f.profiles}: first answered row / all answered rows`,
      `${f.first_row_ms} ms / ${f.answered_rows_ms} ms (${f.statuses.unreachable ?? 0} silent or refused${f.first_row ? `; first row min ${f.first_row.min}, max ${f.first_row.max} of ${f.runs.length} runs` : ''})`,
      'first rows < 1 s',
      f.first_row_ms < 1000,
    );
  if (f)
    add(
      `fleet of ${f.profiles} profiles: first full table / watching`,
      `${f.first_table_ms} ms / ${f.cpu_s_per_min} CPU s per minute`,
      '',
      null,
    );
  const fb = r.fleet200;
  if (fb) {
    add(
      `fleet of ${fb.clusters} (replayed; ${fb.silent} silent, ${fb.refusing} refusing): first rows / whole table`,
      `${fb.first_row_ms} ms / ${fb.first_table_ms} ms (all answered rows ${fb.answered_rows_ms} ms)`,
      'first rows < 1 s, table < 15 s',
      fb.first_row_ms < 1000 && fb.first_table_ms < 15_000,
    );
    add(
      `fleet of ${fb.clusters}: connections busy at once (open, idle kept) / peak RSS`,
      `${fb.most_busy_connections} (${fb.most_connections}) / ${fb.peak_rss_mb} MB`,
      'busy <= 120 (24 clusters x 5 reads), open <= busy + 1 a cluster / < 150 MB',
      fb.most_busy_connections <= 120 && fb.most_connections <= 120 + fb.clusters && fb.peak_rss_mb < 150,
    );
  }
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...rows.map((row) => String(row[i]).length), ['row', 'measured', 'target', ''][i].length),
  );
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  return [line(['row', 'measured', 'target', '']), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// 5. The index detail of an index with 2,000 mapped fields (recorded answers; no node needed).
//    Alone: node bench/run.mjs detail (merges its row into bench/results.json).

const DETAIL_TARGET_MS = 100;
/** Keys timed per fault by bench/faults.tsx (cursor moves, and as many filter keystrokes). */
const FAULT_REPEATS = 20;

export function indexDetail() {
  const x = runJson('detail.mjs', [RENDER_REPEATS]);
  return {
    fields: x.fields,
    open_ms: round(x.open_mappings_ms),
    open_max_ms: round(x.open_mappings_max_ms),
    open_cpu_ms: round(x.open_mappings_cpu_ms),
    open_stats_ms: round(x.open_stats_ms),
    scroll_frame_ms: round(x.scroll_frame_ms),
    peak_rss_mb: round(x.peak_rss_mb, 0),
    target_ms: DETAIL_TARGET_MS,
    pass: x.open_mappings_ms < DETAIL_TARGET_MS,
  };
}

async function detailOnly() {
  await bundle();
  log("index detail: 2,000 mapped fields, from the data's arrival to the first frame");
  const row = indexDetail();
  const file = path.join(root, 'bench/results.json');
  const results = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  results.index_detail = { date: new Date().toISOString(), machine: machine(), ...row };
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  process.stdout.write(
    `index detail, ${row.fields} mapped fields (80x24): opens in ${row.open_ms} ms median (max ${row.open_max_ms}, CPU ${row.open_cpu_ms} ms; target < ${DETAIL_TARGET_MS} ms: ${row.pass ? 'pass' : 'FAIL'}), ` +
      `stats section ${row.open_stats_ms} ms, scrolling ${row.scroll_frame_ms} ms per page\nwritten: bench/results.json (index_detail)\n`,
  );
}

/**
 * The scenarios, each runnable alone: `npm run bench -- --only memory,startup`. Without --only every
 * scenario runs; with it, bench/results.json keeps the other rows of its last run.
 */
export const SCENARIOS = [
  'render',
  'memory',
  'detail',
  'tables',
  'startup',
  'oneshot',
  'delete',
  'delete_large',
  'restore',
  'poll',
  'faults',
  'cluster3',
  'fleet',
  'fleet200',
];

function onlyArg(argv) {
  const i = argv.indexOf('--only');
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (value === undefined) return null;
  const names = value.split(',').filter(Boolean);
  const unknown = names.filter((n) => !SCENARIOS.includes(n));
  if (unknown.length || !names.length) {
    process.stderr.write(`bench: unknown scenario ${unknown.join(', ') || '(none)'}: choose from ${SCENARIOS.join(', ')}\n`);
    process.exit(64);
  }
  return new Set(names);
}

function renderRow(x) {
  return {
    rebuild_ms: round(x.indices.rebuild_ms),
    scroll_frame_ms: round(x.indices.scroll_frame_ms),
    filter_key_ms: round(x.indices.filter_key_ms),
    peak_rss_mb: round(x.peak_rss_mb, 0),
    peak_rss_runs_mb: x.peak_rss_runs_mb,
    peak_parts: x.peak_parts,
    parse_ms: round(x.parse_ms),
    // A poll that changed every row (the lines and sort have nothing to keep), and a poll's parse.
    rebuild_all_changed_ms: round(x.indices.rebuild_all_changed_ms),
    poll_parse_ms: round(x.indices.poll_parse_ms),
    shards: {
      rebuild_ms: round(x.shards.rebuild_ms),
      scroll_frame_ms: round(x.shards.scroll_frame_ms),
      filter_key_ms: round(x.shards.filter_key_ms),
      rebuild_all_changed_ms: round(x.shards.rebuild_all_changed_ms),
      poll_parse_ms: round(x.shards.poll_parse_ms),
    },
    max: {
      rebuild_ms: round(x.indices.rebuild_max_ms),
      scroll_frame_ms: round(x.indices.scroll_frame_max_ms),
      filter_key_ms: round(x.indices.filter_key_max_ms),
    },
  };
}

async function main() {
  if (process.argv[2] === 'detail') return detailOnly();
  if (process.argv[2] === '--table') {
    // The table of the last run(s), from bench/results.json (for docs/PERFORMANCE.md), without measuring.
    const r = JSON.parse(fs.readFileSync(path.join(root, 'bench/results.json'), 'utf8'));
    process.stdout.write(`${r.machine}; ${r.date}\n\n${table(r)}\n`);
    return;
  }
  // A change lock folder of the run's own: records other runs left on this host (a test's, an
  // operator's) would make every command check them first, a round trip the row is not about.
  process.env.SHARDECK_LOCK_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-bench-locks-'));
  const only = onlyArg(process.argv.slice(2));
  const wants = (name) => !only || only.has(name);
  const resultsFile = path.join(root, 'bench/results.json');
  const previous = only && fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : {};
  const results = {
    ...previous,
    machine: previous.machine ?? '',
    date: new Date().toISOString(),
    loadavg_start: os.loadavg().map((x) => round(x, 2)),
    machine_info: { ...previous.machine_info, ...machine() },
  };
  if (only) results.only = [...only];
  else delete results.only;
  log('building the TUI (npm run build) and the measuring scripts');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  await bundle();

  const sizes = wants('render') ? SIZES : wants('memory') ? [100000] : [];
  if (sizes.length) log(`render cost at ${sizes.join(', ')} rows`);
  results.render = { ...previous.render };
  for (const n of sizes) {
    results.render[n] = renderRow(renderAt(n));
    log(`  ${n}: ${JSON.stringify(results.render[n])}`);
  }

  if (wants('detail')) {
    log('index detail: 2,000 mapped fields');
    results.index_detail = indexDetail();
    log(`  ${JSON.stringify(results.index_detail)}`);
  }

  if (wants('tables')) {
    log('table components: DataTable vs ink-table');
    results.tables = tableLibraries();
    log(`  ${JSON.stringify(results.tables)}`);
  }

  const needsNode = ['startup', 'oneshot', 'delete', 'delete_large', 'restore', 'poll', 'faults'].some(wants);
  if (needsNode) {
    log('starting a real Elasticsearch node with demo data');
    const node = await startNode({ name: 'bench', settings: { 'cluster.max_shards_per_node': String(POLL_INDICES + 1000) } });
    try {
      await loadDemoData(node.url);
      // The test distribution has no rest-root (GET / is 405): the version comes from _cat/nodes.
      results.machine_info.elasticsearch = (await es(node.url, 'GET', '/_cat/nodes?format=json&h=version'))[0].version;
      if (wants('startup')) {
        log('cold start vs floor');
        results.startup = await startup(node.url);
        log(`  ${JSON.stringify(results.startup)}`);
        log("the first data frame's phases (profiled starts)");
        results.startup_phases = await startupPhases(timeMarkers, CLI, node.url);
        log(`  ${JSON.stringify(results.startup_phases)}`);
      }
      if (wants('oneshot')) {
        log('status --json vs a bare node:http floor (whole processes)');
        results.oneshot = await oneshot(node.url);
        log(`  ${JSON.stringify(results.oneshot)}`);
      }
      if (wants('delete')) {
        log('delete by query vs curl');
        results.delete = await deleteByQuery(node.url);
        log(`  ${JSON.stringify(results.delete)}`);
      }
      if (wants('delete_large')) {
        log(`delete by query at scale (${DELETE_LARGE_DOCS} documents) vs curl`);
        results.delete_large = await deleteLarge(node.url);
        log(`  ${JSON.stringify(results.delete_large)}`);
      }
      if (wants('restore')) {
        log(`restore of a ~100 MB index (${RESTORE_DOCS} documents) vs curl`);
        results.restore = { ...(await restoreRow(node.url, node.repoDir)), loadavg: os.loadavg().map((x) => round(x, 2)) };
        log(`  ${JSON.stringify(results.restore)}`);
      }
      if (wants('faults')) {
        // Before the poll scenario grows the node to thousands of indices: the demo data's Indices pane.
        log('console frames while the node is slow, silent, resetting or answering 503 (the fault proxy)');
        results.faults = { ...runJson('faults.mjs', [node.url, FAULT_REPEATS]), loadavg: os.loadavg().map((x) => round(x, 2)) };
        log(`  ${JSON.stringify(results.faults)}`);
      }
      if (wants('poll')) results.poll = await pollScenario(node.url);
    } finally {
      await node.stop();
    }
  }
  const m = results.machine_info;
  if (m.elasticsearch)
    results.machine = `${m.nproc} cores ${m.cpu}, ${m.ram_gib} GiB, Node ${m.node.slice(1)}, Elasticsearch ${m.elasticsearch}`;
  // Issue 18's rows at scale (bench/scale.mjs): a 3-node cluster with 5,000 indices, and a fleet of 20 profiles on it.
  if (['cluster3', 'fleet', 'fleet200'].some(wants)) Object.assign(results, await (await import('./scale.mjs')).scaleRows(bundle, wants));
  results.loadavg_end = os.loadavg().map((x) => round(x, 2));
  fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  process.stdout.write(
    `shardeck benchmark, ${results.date}${only ? ` (only ${[...only].join(', ')}; other rows from earlier runs)` : ''}\n${results.machine}\nload average at start ${results.loadavg_start.join(' ')}, at end ${results.loadavg_end.join(' ')}\n\n`,
  );
  process.stdout.write(table(results) + '\n\nwritten: bench/results.json\n');
  fs.rmSync(process.env.SHARDECK_LOCK_DIR, { recursive: true, force: true });
}

/** Poll cycles at 100 and 2,000 indices, overlaps, idle CPU (the node is left with those indices). */
async function pollScenario(url) {
  // Green from here: on a yellow cluster the Health pane adds the shard list (by design, to name
  // the unassigned shards), which grows with the indices; the flat-payload target is for green.
  await es(url, 'PUT', `/${DEMO_YELLOW_INDEX}/_settings`, { index: { number_of_replicas: 0 } });
  const count = async () => (await es(url, 'GET', '/_cat/indices?format=json&h=index&expand_wildcards=all')).length;
  const existing = await count();
  log(`growing to ${SMALL_INDICES} indices`);
  await growIndices(url, 0, SMALL_INDICES - existing);
  const small = pollPanes(url, await count());
  log(`growing to ${POLL_INDICES} indices`);
  await growIndices(url, SMALL_INDICES - existing, POLL_INDICES - existing);
  const total = await count();
  const big = pollPanes(url, total);
  log('poll overlaps: the Indices pane on its own timers at 1 s for 20 s');
  const watched = runJson('poll.mjs', [url, 'indices', 1, 20]);
  log(`idle CPU of the built console over ${IDLE_SECONDS} s`);
  const idle = await idleCpu(url);
  const growth = (a, b) => b / a;
  const poll = {
    indices: total,
    requests: big.indices.requests,
    bytes: big.indices.bytes,
    ms: round(big.indices.ms),
    cpu_s_per_min: idle.cpu_s_per_min,
    overlaps: watched.overlaps + big.health.overlaps + big.disk.overlaps + big.indices.overlaps,
    panes: Object.fromEntries(
      ['health', 'disk', 'indices'].map((p) => [p, { requests: big[p].requests, bytes: big[p].bytes, ms: round(big[p].ms) }]),
    ),
    at_small: {
      indices: small.indices,
      ...Object.fromEntries(
        ['health', 'disk', 'indices'].map((p) => [p, { requests: small[p].requests, bytes: small[p].bytes, ms: round(small[p].ms) }]),
      ),
    },
    flat: {
      health_bytes: [small.health.bytes, big.health.bytes],
      disk_bytes: [small.disk.bytes, big.disk.bytes],
      // Allocation's disk numbers and the node's heap vary a little between reads; 5% is "flat".
      pass: growth(small.health.bytes, big.health.bytes) < 1.05 && growth(small.disk.bytes, big.disk.bytes) < 1.05,
    },
    watch: watched.watch,
    idle,
    errors: [...small.health.errors, ...big.health.errors, ...big.indices.errors],
  };
  log(`  ${JSON.stringify(poll)}`);
  return poll;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
