// The node pressure read and its twins against a real 8.19.21 node of its own made sick on purpose
// (dev/lib/sick-node.mjs, the same as the fixtures' recording): a write pool of one thread with a
// queue of one (node settings, so not a shared node) flooded with bulk requests, and the request
// breaker tripped by a limit lowered for one search and set back. shardeck nodes --pressure (text,
// --json, --samples) and the doctor's pressure rules read what the node counted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { floodWrites, SICK_WRITE_POOL, tripRequestBreaker } from '../../dev/lib/sick-node.mjs';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';

let node: Awaited<ReturnType<typeof startNode>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-pressure-'));
const env = { SHARDECK_CONFIG_DIR: path.join(dir, 'config'), NO_COLOR: '1' };
const cli = (args: string[]) => runCli([...args, '--url', node.url], { env });
let flood: { rejectedRequests: number; rejectedItems: number };
let trip: { status: number; type: string | null };

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'pressure', settings: SICK_WRITE_POOL });
  flood = await floodWrites(node.url, 'service_v9_flood');
  trip = await tripRequestBreaker(node.url, 'service_v9_flood');
}, 300_000);

afterAll(async () => {
  await node?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('the node was made sick: bulk items rejected, the aggregation refused, the breaker limit set back', async () => {
  expect(flood.rejectedItems + flood.rejectedRequests).toBeGreaterThan(0);
  expect(trip.status).toBe(429);
  const settings = await esCall(node.url, 'GET', '/_cluster/settings');
  expect(settings.body.persistent).toEqual({});
});

it('nodes --pressure --json: the write rejections and the tripped request breaker, as the node counts them', async () => {
  const r = await cli(['nodes', '--pressure', '--json']);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out).toMatchObject({ command: 'nodes', ok: true, pressure: true, samples: 1 });
  const [n] = out.nodes;
  const write = n.pools.find((p: { name: string }) => p.name === 'write');
  expect(write.rejected).toBeGreaterThan(0);
  expect(write.rejectedSince).toBeNull(); // one read: nothing to compare with
  expect(n.breakers.find((b: { name: string }) => b.name === 'request').tripped).toBeGreaterThan(0);
  expect(n.oldGen.percent).toBeGreaterThan(0);
  expect(n.samples).toHaveLength(1);
});

it('nodes --pressure --samples 2: what changed between the reads (nothing: the flood is over), two samples', async () => {
  const r = await cli(['nodes', '--pressure', '--json', '--samples', '2', '--interval', '1']);
  expect(r.code).toBe(0);
  const [n] = JSON.parse(r.stdout).nodes;
  expect(n.pools.find((p: { name: string }) => p.name === 'write').rejectedSince).toBe(0);
  expect(n.sinceMs).toBeGreaterThan(0);
  expect(n.samples).toHaveLength(2);
  expect(n.samples[1].rejections).toBe(0);
});

it('nodes --pressure (text): the pools line and the breakers line; a wrong flag refused', async () => {
  const r = await cli(['nodes', '--pressure']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/a\/q\/rej write \d+\/\d+\/\d+/);
  expect(r.stdout).toMatch(/breakers parent .* request .* tripped \d+/);
  const bad = await cli(['nodes', '--samples', '2']);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('--samples and --interval go with --pressure');
});

it("doctor: the rejections and the request breaker's trips, with the remedy and where to look", async () => {
  const r = await cli(['doctor', '--json']);
  const report = JSON.parse(r.stdout);
  const byId = Object.fromEntries(report.findings.map((f: { id: string }) => [f.id.replace(/\.[^.]+$/, ''), f]));
  expect(byId['pressure.rejections']).toMatchObject({ severity: 'warn', fix: { key: 'P', pane: 'nodes' } });
  expect(byId['pressure.rejections'].evidence[0]).toMatch(/^thread_pool\.write: active \d+, queue \d+ of 1, rejected \d+$/);
  expect(byId['pressure.breaker']).toMatchObject({ severity: 'warn' });
  expect(byId['pressure.breaker'].finding).toMatch(/^circuit breaker tripped: request \d+ times/);
  expect(byId['pressure.old-gen'].severity).toBe('ok');
});
