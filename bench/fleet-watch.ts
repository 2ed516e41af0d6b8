// The Fleet view's reads for a fleet of profiles: time to the first full table, then the CPU this
// process spends watching (the fleet re-read every 15 s, as in the console; no rendering):
//   SHARDECK_CONFIG_DIR=<empty 0700 dir> node bench/out/fleet-watch.mjs <seconds> <url>...  -> one JSON line.
import { saveProfile } from '../src/config/profiles';
import { FleetReader, FleetWatcher, fleetTargets } from '../src/services/fleet';
import { createFleetStore } from '../src/store/fleet';

const [secondsArg, ...urls] = process.argv.slice(2);
const seconds = Number(secondsArg ?? 60);
urls.forEach((url, i) => saveProfile(`fleet-${String(i + 1).padStart(2, '0')}`, { url }));
const store = createFleetStore();
const watcher = new FleetWatcher(new FleetReader(fleetTargets()), store);
const t0 = performance.now();
// When the first row of a cluster that answered came (a refusal is not an answer), and the last
// such row (the silent ones wait for their deadline).
let firstRowMs: number | undefined;
let lastAnswerMs = 0;
let seenAnswered = 0;
// Each profile's first row of the first round: when it landed and how long its own read took.
const landed = new Map<string, { at_ms: number; took_ms?: number; status: string }>();
store.subscribe((s) => {
  for (const r of s.rows)
    if (r.status !== 'pending' && !landed.has(r.profile))
      landed.set(r.profile, { at_ms: Math.round(performance.now() - t0), took_ms: r.tookMs, status: r.status });
  const real = s.rows.filter((r) => r.status !== 'pending' && r.status !== 'unreachable').length;
  if (real > seenAnswered) {
    seenAnswered = real;
    lastAnswerMs = performance.now() - t0;
    firstRowMs ??= lastAnswerMs;
  }
});
watcher.start();
while (store.getState().fullAt === undefined) await new Promise((r) => setTimeout(r, 5));
const firstTableMs = performance.now() - t0;
const rows = store.getState().rows;
const cpu0 = process.cpuUsage();
const w0 = performance.now();
await new Promise((r) => setTimeout(r, seconds * 1000));
const cpu = process.cpuUsage(cpu0);
const wallS = (performance.now() - w0) / 1000;
await watcher.stop();
const cpuS = (cpu.user + cpu.system) / 1e6;
const statuses: Record<string, number> = {};
for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
process.stdout.write(
  JSON.stringify({
    profiles: urls.length,
    first_table_ms: Math.round(firstTableMs),
    first_row_ms: Math.round(firstRowMs ?? NaN),
    answered_rows_ms: Math.round(lastAnswerMs),
    cpu_s_per_min: Math.round((cpuS / wallS) * 60 * 100) / 100,
    rounds: store.getState().rounds,
    statuses,
    slowest_answer_ms: Math.max(...rows.map((r) => r.tookMs ?? 0)),
    errors: [...new Set(rows.map((r) => r.error).filter(Boolean))].slice(0, 4),
    // The most this process held, for the whole run (KiB from getrusage).
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    rows: Object.fromEntries([...landed].sort((a, b) => a[1].at_ms - b[1].at_ms)),
  }) + '\n',
);
process.exit(0);
