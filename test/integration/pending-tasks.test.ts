// Pending cluster tasks against a real 8.19.21 node: the quiet node (the filtered answer is `{}`:
// none) through `shardeck pending` and its JSON; the read while the node is made busy on purpose
// (dev/lib/sick-node.mjs: index creations sent at once, each a cluster-state update the master
// queues), parsed as the poller parses it; a bad argument refused (64) in the one JSON error shape.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-cli';
import { cliAgainst } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { RESOURCES } from '../../src/cluster/resources';
import type { PendingTask } from '../../src/domain/inspect/pending-tasks';
import { queueIndexCreations } from '../../dev/lib/sick-node.mjs';

let node: SharedNode;
let cfg: string;
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-pending-'));
}, 180_000);

afterAll(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

it('a quiet node: none pending, exit 0 (text and json)', async () => {
  const text = await cli(['pending']);
  expect(text.code).toBe(0);
  expect(text.stdout).toBe('no pending cluster tasks\n');
  const json = await cli(['pending', '--json']);
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toEqual({ schema: 1, command: 'pending', ok: true, count: 0, oldestMillis: 0, tasks: [] });
});

it('a bad argument: exit 64, one JSON error object, nothing read', async () => {
  const r = await cli(['pending', 'extra', '--json']);
  expect(r.code).toBe(64);
  expect(JSON.parse(r.stdout)).toEqual({
    schema: 1,
    command: 'pending',
    ok: false,
    code: 64,
    error: expect.stringMatching(/takes no arguments/),
  });
});

it('a busy node: the read (as the poller sends it) lists the queued index creations', async () => {
  const { request, parse } = RESOURCES.pendingTasks;
  const seen: PendingTask[][] = [];
  const read = async () => {
    const body = await (await fetch(`${node.url}${request.path}?${new URLSearchParams(request.querystring).toString()}`)).json();
    seen.push(parse(body));
    return body;
  };
  const busy = await queueIndexCreations(node.url, 'service_v9_pending', { count: 20, read });
  expect(busy.created).toBeGreaterThan(0);
  const most = seen.reduce((a, b) => (b.length > a.length ? b : a), []);
  expect(most.length).toBeGreaterThan(0);
  expect(most.some((t) => /^create-index \[service_v9_pending_\d+\], cause \[api\]$/.test(t.source))).toBe(true);
  for (const t of most)
    expect(t).toEqual({
      insertOrder: expect.any(Number),
      priority: expect.any(String),
      source: expect.any(String),
      executing: expect.any(Boolean),
      timeInQueueMs: expect.any(Number),
    });
}, 120_000);
