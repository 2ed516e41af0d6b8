// One poll cycle of a pane against a real node, with the product's Poller and client:
//   node bench/out/poll.mjs <url> <pane> <cycles> [watchSeconds]  -> one JSON line.
// A cycle is Poller.refreshNow(): one read of every resource the pane needs (an upper bound: on
// its timer, healthReport and blocks are read every 2nd and settings every 6th interval).
// With watchSeconds the Poller also runs on its own timers at a 1 s interval for that long, to
// check that no poll of a resource starts while the previous one is in flight.
import { createEsApi } from '../src/cluster/api';
import { createClient } from '../src/cluster/connection';
import { Poller } from '../src/services/poller';
import { createConsoleStore, type PaneId } from '../src/store/console';

const [url, pane, cyclesArg, watchArg] = process.argv.slice(2);
const cycles = Number(cyclesArg ?? 7);
const watchS = Number(watchArg ?? 0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

const client = createClient({ url });
const store = createConsoleStore({ connection: { url, profile: 'bench', insecure: false, readOnly: false }, pane: pane as PaneId });
const poller = new Poller(createEsApi(client, url), store);
// Twice first: the health status decides whether the Health pane also needs the shard list.
await poller.refreshNow();
await poller.refreshNow();
const ms: number[] = [];
const requests: number[] = [];
const bytes: number[] = [];
for (let i = 0; i < cycles; i++) {
  const before = { ...poller.stats };
  const t0 = performance.now();
  await poller.refreshNow();
  ms.push(performance.now() - t0);
  requests.push(poller.stats.requests - before.requests);
  bytes.push(poller.stats.bytes - before.bytes);
}
const errors = Object.entries(store.getState().snapshots)
  .filter(([, s]) => s.error)
  .map(([n, s]) => `${n}: ${s.error?.message}`);
let watch: Record<string, number> | undefined;
if (watchS > 0) {
  store.setState({ intervalMs: 1000 });
  const before = { ...poller.stats };
  poller.start();
  await new Promise((r) => setTimeout(r, watchS * 1000));
  poller.stop();
  watch = { seconds: watchS, requests: poller.stats.requests - before.requests, overlaps: poller.stats.overlaps - before.overlaps };
}
process.stdout.write(
  JSON.stringify({
    pane,
    requests: median(requests),
    bytes: median(bytes),
    ms: median(ms),
    overlaps: poller.stats.overlaps,
    watch,
    errors,
  }) + '\n',
);
await client.close();
process.exit(0);
