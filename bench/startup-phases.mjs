// Where the console's first data frame goes (issue 45 item 1): the built console started under a
// real pty with V8's sampling profiler on, each sample up to the first data frame put in a phase
// by the module its code came from (the bundle keeps esbuild's "// path" comment before each
// module, so a sample's line names its source file). The profile's clock and process.hrtime are
// both the monotonic clock, so the time before the profiler started is Node's own start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Phases, in the order the table prints them. */
export const PHASES = {
  node: "Node's own start (before the first line of shardeck)",
  loader: "loading modules: Node's loader reads, resolves and compiles them",
  toplevel: "running the modules' top level (their definitions)",
  shardeck: "shardeck's code: arguments, profile, the first poll, the panes",
  client: 'the Elasticsearch client and its transport',
  ui: 'React, Ink and the terminal text helpers: the first frames',
  runtime: "Node's libraries and V8 outside any module (sockets, streams, timers)",
  gc: 'garbage collection',
  wait: 'waiting for the node (nothing else to do)',
};

/** The source file of each line of a bundled file, from esbuild's module comments. */
function moduleLines(file, cache) {
  if (!cache.has(file)) {
    const at = [];
    let current = '';
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const m = /^\/\/ ((?:node_modules|src|dev)\/\S+)$/.exec(line);
      if (m) current = m[1];
      at.push(current);
    }
    cache.set(file, at);
  }
  return cache.get(file);
}

const LOADER = /^node:internal\/(modules|bootstrap)\//;

/**
 * A sample's phase: from its frame up to the first frame of a bundled file (by the module its line
 * is in) or of Node's module loader; a sample under neither is Node's or V8's own work.
 */
function phaseOf(node, parent, cache) {
  const { functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'gc';
  if (functionName === '(idle)') return 'wait';
  for (let n = node; n; n = parent.get(n.id)) {
    const { url, lineNumber } = n.callFrame;
    if (LOADER.test(url) || n.callFrame.functionName === 'compileSourceTextModule') return 'loader';
    if (!url.startsWith('file://')) continue;
    if (lineNumber === 0) return 'toplevel';
    const source = moduleLines(new URL(url).pathname, cache)[lineNumber] ?? '';
    if (source.startsWith('src/') || source.startsWith('dev/')) return 'shardeck';
    if (/node_modules\/(@elastic|undici|hpagent|secure-json-parse|@opentelemetry)/.test(source)) return 'client';
    return 'ui';
  }
  return 'runtime';
}

/**
 * One profiled start of the console until its first data frame, timed by the bench's own
 * `timeMarkers` (a pty, the output read as it arrives): its phases in ms. The spawn is taken on
 * the monotonic clock just before, a few microseconds from timeMarkers' own start.
 */
async function profiledStart(timeMarkers, cli, url, dir) {
  const spawnUs = Number(process.hrtime.bigint() / 1000n);
  const { first } = await timeMarkers(`${process.execPath} --cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval 250 ${cli} --url ${url}`, {
    first: /YELLOW|GREEN|RED/,
  });
  // timeMarkers resolves once the process has exited, so its profile is written.
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the profiled start wrote no profile');
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  fs.rmSync(path.join(dir, file));
  return phasesOf(profile, spawnUs, spawnUs + first * 1000);
}

/** The profile's samples between its start and `endUs` (the first frame) by phase, in ms; before its start: Node's own. */
function phasesOf(profile, spawnUs, endUs) {
  const cache = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n])));
  const ms = Object.fromEntries(Object.keys(PHASES).map((k) => [k, 0]));
  ms.node = (profile.startTime - spawnUs) / 1000;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const next = t + profile.timeDeltas[i];
    if (next > endUs) break;
    ms[phaseOf(byId.get(profile.samples[i]), parent, cache)] += (next - t) / 1000;
    t = next;
  }
  ms.total = (endUs - spawnUs) / 1000;
  return ms;
}

/**
 * `runs` profiled starts of the built console: each phase's median ms and its share of the median
 * first frame. `timeMarkers` is bench/run.mjs's (handed in: run.mjs imports this file).
 */
export async function startupPhases(timeMarkers, cli, url, runs = 5) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-phases-'));
  try {
    const all = [];
    for (let i = 0; i <= runs; i++) {
      const r = await profiledStart(timeMarkers, cli, url, dir);
      if (i > 0) all.push(r); // the first warms the page cache
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const total = median(all.map((r) => r.total));
    return {
      runs,
      first_frame_ms: Math.round(total),
      phases: Object.fromEntries(
        Object.keys(PHASES).map((k) => {
          const m = median(all.map((r) => r[k]));
          return [k, { ms: Math.round(m * 10) / 10, share: Math.round((m / total) * 100) }];
        }),
      ),
      method:
        'V8 sampling profiler (250 us) under script(1); samples up to the first data frame, by the bundled module their line belongs to',
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
