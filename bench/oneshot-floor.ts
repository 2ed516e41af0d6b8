// The floor for `shardeck status --json`: a bare node process that sends the same reads with
// node:http (from cluster/resources.ts, the version from the nodes' info, the right-sizings'
// temporary copies), health first as status does and the shard list after it when the cluster is
// not green (as status does), prints the answers as one JSON document and ends by itself (no
// process.exit: its exit delay is measured like shardeck's). No client library, no checks, no error
// handling.
import http from 'node:http';
import { RESOURCES, requestsOf, VERSIONS_READ } from '../src/cluster/resources';
import { TEMPORARY_COPIES_READ } from '../src/cluster/shrink';

const url = process.argv[2];
const get = (path: string, q: Record<string, string>) =>
  new Promise<unknown>((resolve, reject) => {
    http
      .get(`${url}${path}?${new URLSearchParams(q).toString()}`, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(JSON.parse(body)));
      })
      .on('error', reject);
  });
const req = (name: keyof typeof RESOURCES) => Promise.all(requestsOf(name).map((q) => get(q.path, q.querystring ?? {})));
const health = await req('health');
const rest = await Promise.all([
  get(VERSIONS_READ[0], VERSIONS_READ[1]),
  get(TEMPORARY_COPIES_READ[0], TEMPORARY_COPIES_READ[1]),
  ...(['healthReport', 'allocation', 'settings', 'blocks', 'nodes', 'nodeShutdown'] as const).map(req),
]);
const shards = (health[0] as { status?: string }).status === 'green' ? undefined : await req('shards');
process.stdout.write(JSON.stringify({ health, rest, shards }) + '\n');
