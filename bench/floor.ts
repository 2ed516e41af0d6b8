// The floor for the first data frame: a bare node process that fetches what the Health pane reads
// (the same requests, from cluster/resources.ts), in parallel, prints a marker and exits. No client
// library, no React: what any program must at least spend to show these numbers.
import { RESOURCES } from '../src/cluster/resources';
import { PANE_RESOURCES } from '../src/services/poller';

const url = process.argv[2];
const reads = PANE_RESOURCES.health.map((name) => RESOURCES[name].request);
const bodies = await Promise.all(
  reads.map(async (r) => {
    const res = await fetch(`${url}${r.path}?${new URLSearchParams(r.querystring).toString()}`);
    return res.json();
  }),
);
process.stdout.write(`FLOOR-DONE ${bodies.length}\n`);
process.exit(0);
