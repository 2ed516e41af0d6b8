// shardeck hot-threads against a real 8.19.21 node kept busy by bulk requests sent back to back
// while it samples: the node by name (its id in the request), the sample's interval and type,
// each thread's share and pool, text at 80 columns; a pattern or unknown node refused (64) with
// nothing sampled; every node without NODE.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-cli';
import { cliAgainst, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_hot';
let node: SharedNode;
let cfg: string;
let busy = false;
let load: Promise<void> | undefined;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-hot-'));
  await es('PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const lines: string[] = [];
  for (let i = 0; i < 1000; i++) lines.push(JSON.stringify({ index: {} }), JSON.stringify({ n: i, title: `order ${i} lorem ipsum` }));
  const bulk = lines.join('\n') + '\n';
  busy = true;
  // Two loops of bulks while the tests sample (stopped in afterAll).
  load = Promise.all(
    [0, 1].map(async () => {
      while (busy)
        await fetch(`${node.url}/${INDEX}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: bulk }).then(
          (r) => r.arrayBuffer(),
          () => undefined,
        );
    }),
  ).then(() => undefined);
}, 180_000);

afterAll(async () => {
  busy = false;
  await load;
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

it('the node by name: its sample parsed, with interval, type and threads (json)', async () => {
  const r = await cli(['hot-threads', node.name, '--json', '--threads', '5', '--interval', '300ms']);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out).toMatchObject({ ok: true, command: 'hot-threads', threads: 5, interval: '300ms', type: 'cpu' });
  expect(out.nodes).toHaveLength(1);
  expect(out.nodes[0]).toMatchObject({ name: node.name, interval: '300ms', busiest: 5 });
  for (const t of out.nodes[0].threads) {
    expect(typeof t.percent).toBe('number');
    expect(t.stacks.length).toBeGreaterThan(0);
  }
});

it('text at 80 columns; type wait; every node without NODE', async () => {
  const r = await cli(['hot-threads', node.name, '--type', 'wait']);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(new RegExp(`^${node.name}: wait over 500ms · sampled \\d{4}-`));
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
  const all = JSON.parse((await cli(['hot-threads', '--json', '--interval', '100ms'])).stdout);
  expect(all.nodes.map((n: { name: string }) => n.name)).toEqual([node.name]);
});

it('refuses a pattern, an unknown node and bad options (64)', async () => {
  for (const args of [['*'], ['_all'], ['nosuchnode'], [node.name, '--type', 'mem'], [node.name, '--interval', '1m']]) {
    const r = await cli(['hot-threads', ...args]);
    expect(r.code, args.join(' ')).toBe(64);
  }
  expect((await cli(['hot-threads', '*'])).stderr).toMatch(/no node is named "\*"/);
});
