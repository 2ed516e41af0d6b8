// npm run bench:share: what sharing a console costs (issue 17), on its own so it can run alone.
// The built console watches a real node (Health pane, --interval 1) in tmux; its CPU is measured
// with 0 and then 2 followers (`shardeck follow` in tmux), each follower's own CPU while idle, and
// the follower lag: the time between the leader's screen and a follower's screen showing a health
// change (replicas 1 <-> 0 on a one-node cluster), median over repeats. Writes bench/share-results.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '../dev/lib/es-node.mjs';
import { es, loadDemoData, DEMO_YELLOW_INDEX } from '../dev/demo-data.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(root, 'dist/cli.js');
const SECONDS = Number(process.env.BENCH_SHARE_SECONDS ?? 30);
const LAG_REPEATS = Number(process.env.BENCH_SHARE_LAG_REPEATS ?? 6);
const log = (msg) => process.stderr.write(`bench:share: ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

const SOCK = `shardeck-bench-share-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', SOCK, ...args], { encoding: 'utf8' });
const screen = (s) => tmux('capture-pane', '-p', '-t', s);
const panePid = (s) => Number(tmux('display-message', '-p', '-t', s, '#{pane_pid}').trim());
const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** CPU of each pid over `seconds`, as % of one core. */
async function cpuOver(pids, seconds) {
  const before = pids.map(cpuTicks);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const wall = (performance.now() - t0) / 1000;
  return pids.map((p, i) => round(((cpuTicks(p) - before[i]) / hz / wall) * 100));
}

async function waitScreen(s, test, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen(s);
    if (test(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${text}`);
    await sleep(50);
  }
}

async function main() {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-bench-share-'));
  const runtime = path.join(dir, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const env = `SHARDECK_CONFIG_DIR=${dir}/conf XDG_RUNTIME_DIR=${runtime}`;
  log('starting a real Elasticsearch node with demo data');
  const node = await startNode({ name: 'bench-share' });
  const results = { date: new Date().toISOString(), cores: os.availableParallelism(), seconds: SECONDS, interval_s: 1 };
  try {
    await loadDemoData(node.url, { docsPerIndex: 200 });
    await es(node.url, 'PUT', `/${DEMO_YELLOW_INDEX}/_settings`, { index: { number_of_replicas: 0 } });
    tmux(
      'new-session',
      '-d',
      '-s',
      'leader',
      '-x',
      '100',
      '-y',
      '30',
      `exec env -u CI -u NO_COLOR ${env} node ${CLI} --url ${node.url} --interval 1 --share`,
    );
    await waitScreen('leader', (t) => t.includes('SHARED') && t.includes('shards_capacity'), 'the leader');
    await sleep(3000);
    const leader = panePid('leader');
    log(`leader CPU with 0 followers over ${SECONDS} s`);
    [results.leader_cpu_pct_0_followers] = await cpuOver([leader], SECONDS);
    const socket = fs.readdirSync(path.join(runtime, `shardeck-${process.getuid()}`)).find((f) => f.endsWith('.sock'));
    const socketPath = path.join(runtime, `shardeck-${process.getuid()}`, socket);
    for (const f of ['f1', 'f2'])
      tmux(
        'new-session',
        '-d',
        '-s',
        f,
        '-x',
        '80',
        '-y',
        '24',
        `exec env -i PATH=${process.env.PATH} TERM=xterm-256color node ${CLI} follow ${socketPath}`,
      );
    for (const f of ['f1', 'f2']) await waitScreen(f, (t) => t.includes('following') && t.includes('shards_capacity'), `follower ${f}`);
    await sleep(3000);
    log(`leader and follower CPU with 2 followers over ${SECONDS} s`);
    const [l2, f1, f2] = await cpuOver([leader, panePid('f1'), panePid('f2')], SECONDS);
    results.leader_cpu_pct_2_followers = l2;
    results.follower_idle_cpu_pct = [f1, f2];

    log(`follower lag over ${LAG_REPEATS} health changes`);
    const lags = [];
    const loops = [];
    for (let i = 0; i < LAG_REPEATS; i++) {
      const to = i % 2 === 0 ? 'YELLOW' : 'GREEN';
      await es(node.url, 'PUT', `/${DEMO_YELLOW_INDEX}/_settings`, { index: { number_of_replicas: i % 2 === 0 ? 1 : 0 } });
      let leaderAt = 0;
      let followerAt = 0;
      const deadline = Date.now() + 30_000;
      while ((!leaderAt || !followerAt) && Date.now() < deadline) {
        // Each screen read at its own time: the lag's resolution is one loop (two tmux reads).
        const t0 = performance.now();
        if (!leaderAt && screen('leader').includes(` ${to} `)) leaderAt = performance.now();
        if (!followerAt && screen('f1').includes(` ${to} `)) followerAt = performance.now();
        loops.push(performance.now() - t0);
        await sleep(5);
      }
      if (!leaderAt || !followerAt) throw new Error(`no ${to} on both screens`);
      // Negative: the follower's screen showed it before the leader's was read.
      lags.push(followerAt - leaderAt);
      await sleep(1500);
    }
    results.follower_lag_ms = {
      median: round(median(lags), 0),
      max: round(Math.max(...lags), 0),
      samples: lags.map((x) => round(x, 0)),
      resolution_ms: round(median(loops), 0),
    };
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // gone
    }
    await node.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(root, 'bench/share-results.json'), JSON.stringify(results, null, 2) + '\n');
  process.stdout.write(
    [
      `shardeck share benchmark, ${results.date} (${results.cores} cores, polling every 1 s)`,
      `leader CPU, 0 followers       ${results.leader_cpu_pct_0_followers}% of a core`,
      `leader CPU, 2 followers       ${results.leader_cpu_pct_2_followers}% of a core`,
      `follower CPU, idle            ${results.follower_idle_cpu_pct.join('%, ')}% of a core`,
      `follower lag (screen to screen, ${LAG_REPEATS} changes)  median ${results.follower_lag_ms.median} ms, max ${results.follower_lag_ms.max} ms (resolution ${results.follower_lag_ms.resolution_ms} ms)`,
      'written: bench/share-results.json',
    ].join('\n') + '\n',
  );
}

await main();
