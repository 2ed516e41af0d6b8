// The field-limit read (`shardeck field-limits`, the doctor's `mapping` rule) against a real
// cluster, through the counting proxy: what one read costs the node (the response times the proxy
// saw, summed over its requests) and the bytes of its answers, `runs` times (median), with the
// product's client and read (cluster/indices.ts fieldCounts):
//   node bench/out/field-limits.mjs <url> [runs]  -> one JSON line.
import { createEsApi } from '../src/cluster/api';
import { createClient } from '../src/cluster/connection';
import { startCountingProxy } from '../test/helpers/counting-proxy';

const [url, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const proxy = await startCountingProxy(url);
const client = createClient({ url: proxy.url });
const es = createEsApi(client, proxy.url);
const nodeMs: number[] = [];
const wallMs: number[] = [];
const bytes: number[] = [];
let indices = 0;
let requests = 0;
for (let i = 0; i < runs; i++) {
  const from = proxy.requests.length;
  const t0 = performance.now();
  const counts = await es.fieldCounts();
  wallMs.push(performance.now() - t0);
  const seen = proxy.requests.slice(from);
  nodeMs.push(seen.reduce((a, q) => a + (q.ms ?? 0), 0));
  bytes.push(seen.reduce((a, q) => a + (q.bytes ?? 0), 0));
  indices = counts.length;
  requests = seen.length;
}
process.stdout.write(
  JSON.stringify({
    indices,
    runs,
    requests,
    node_ms: Math.round(median(nodeMs)),
    node_ms_runs: nodeMs.map(Math.round),
    wall_ms: Math.round(median(wallMs)),
    bytes: median(bytes),
  }) + '\n',
);
await client.close();
await proxy.close();
process.exit(0);
