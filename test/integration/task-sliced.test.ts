// A sliced delete-by-query on a real 8.19.21 node (2 slices at 1 document a second): its parent's
// own counters stay 0 until the slices end, so `shardeck tasks ID` (the same task read as the
// cancel wizard's) sums its slices: 300 documents, 2 slices running. Cancelled afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-cli';
import { cliAgainst, esCall } from '../helpers/real-node';
import { startSlowDelete } from '../../dev/lib/sick-node.mjs';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_sliced';
let node: SharedNode;
let cfg: string;
let task = '';
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-sliced-'));
  task = await startSlowDelete(node.url, INDEX, { slices: 2 });
}, 180_000);

afterAll(async () => {
  if (task) await es('POST', `/_tasks/${task}/_cancel`);
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

it("the parent's progress is its slices' summed, not 0 / 0", async () => {
  // The node's own answer for the parent: nothing counted yet, both slices running.
  const own = (await es('GET', `/_tasks/${task}`)).body as { task: { status: { total: number; slices: unknown[] } } };
  expect(own.task.status.total).toBe(0);
  expect(own.task.status.slices).toEqual([null, null]);
  const r = await cli(['tasks', task, '--json']);
  expect(r.code).toBe(0);
  const p = JSON.parse(r.stdout).task;
  expect(p).toMatchObject({ id: task, completed: false, total: 300, slices: { count: 2, running: 2 } });
  expect(p.requestsPerSecond).toBe(1);
  const text = await cli(['tasks', task]);
  expect(text.stdout).toMatch(/\/ 300 .*sliced: 2 slices, 2 running/);
});
