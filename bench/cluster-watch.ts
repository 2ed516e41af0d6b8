// The console's polling on one pane at the default interval, through the counting proxy, for a
// while: what it costs the node per minute (the sum of the response times the proxy saw). The
// first interval (every read of the pane once, and the one-off node names) is reported apart as
// `start_node_ms`; `node_ms_per_min` is the watching after it, with its requests and the bytes of
// the answers (as they crossed the wire) per minute, per path, and every read's period at the end:
//   node bench/out/cluster-watch.mjs <url> <pane> <seconds> [intervalMs]  -> one JSON line.
import { createEsApi } from '../src/cluster/api';
import { createClient } from '../src/cluster/connection';
import { Poller } from '../src/services/poller';
import { createConsoleStore, type PaneId } from '../src/store/console';
import { startCountingProxy } from '../test/helpers/counting-proxy';

const [url, pane, secondsArg, intervalArg] = process.argv.slice(2);
const seconds = Number(secondsArg ?? 60);
const proxy = await startCountingProxy(url);
const client = createClient({ url: proxy.url });
const store = createConsoleStore({
  connection: { url: proxy.url, profile: 'bench', insecure: false, readOnly: true },
  pane: pane as PaneId,
  ...(intervalArg ? { intervalMs: Number(intervalArg) } : {}),
});
const poller = new Poller(createEsApi(client, proxy.url), store);
const t0 = performance.now();
poller.start();
await new Promise((r) => setTimeout(r, seconds * 1000));
poller.stop();
const intervalMs = store.getState().intervalMs;
const forwarded = proxy.requests.filter((q) => q.ms !== undefined);
const sum = (qs: typeof forwarded) => qs.reduce((a, q) => a + (q.ms ?? 0), 0);
const start = forwarded.filter((q) => q.at - t0 < intervalMs);
const watching = forwarded.filter((q) => q.at - t0 >= intervalMs);
const nodeMs = sum(watching);
const bytes = watching.reduce((a, q) => a + (q.bytes ?? 0), 0);
const perMin = (x: number) => Math.round((x / (seconds - intervalMs / 1000)) * 60);
const byPath: Record<string, { n: number; ms: number; bytes: number }> = {};
for (const q of watching) {
  const p = q.path.split('?')[0];
  byPath[p] = {
    n: (byPath[p]?.n ?? 0) + 1,
    ms: Math.round((byPath[p]?.ms ?? 0) + (q.ms ?? 0)),
    bytes: (byPath[p]?.bytes ?? 0) + (q.bytes ?? 0),
  };
}
const snaps = store.getState().snapshots;
// The period each read of the pane ended at (stretched ones say what their cost made them).
const periods = Object.fromEntries(
  Object.entries(snaps)
    .filter(([, x]) => x.fetchedAt !== undefined && x.periodMs !== undefined)
    .map(([name, x]) => [name, x.periodMs]),
);
process.stdout.write(
  JSON.stringify({
    pane,
    seconds,
    interval_ms: intervalMs,
    start_requests: start.length,
    start_node_ms: Math.round(sum(start)),
    requests: watching.length,
    node_ms: Math.round(nodeMs),
    node_ms_per_min: perMin(nodeMs),
    bytes,
    requests_per_min: perMin(watching.length),
    bytes_per_min: perMin(bytes),
    indices_period_ms: snaps.indices.periodMs,
    indices_cost_ms: snaps.indices.costMs,
    health_period_ms: snaps.health.periodMs,
    blocks_period_ms: snaps.blocks.periodMs,
    periods_ms: periods,
    by_path: byPath,
  }) + '\n',
);
await client.close();
await proxy.close();
process.exit(0);
