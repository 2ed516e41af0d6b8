// shardeck tasks --all / rethrottle / cancel against a real 8.19.21 node running a delete-by-query
// made slow on purpose (1 document a second, batches of 10): listed, rethrottled, cancelled, each
// through the Guard (one audit record naming exactly that task, nothing retried), and refused
// where it cannot be (a task that takes no rate, an unknown id, no terminal to type the id on).
// Read-only mode refusing both is in read-only.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { waitUntil } from '../helpers/wait-until';
import { startSlowDelete } from '../../dev/lib/sick-node.mjs';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_slow';
let node: SharedNode;
let cfg: string;
let task: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);
/** The requests the audit log records (each also has its outcome's line, which names no request). */
const audit = () =>
  auditLinesIn(cfg)
    .map((l) => JSON.parse(l) as { request?: { path: string }; target: string; confirmedBy: string })
    .filter((r) => r.request);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-tasks-'));
  task = await startSlowDelete(node.url, INDEX);
  expect(task).toMatch(/^[\w-]+:\d+$/);
}, 180_000);

afterAll(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

it('tasks --all lists the slow delete with its progress, among every other task', async () => {
  const r = await cli(['tasks', '--all', '--json']);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  const mine = out.tasks.find((t: { id: string }) => t.id === task);
  expect(mine).toMatchObject({ action: 'indices:data/write/delete/byquery', cancellable: true, nodeName: node.name });
  expect(mine.progress.total).toBe(300);
  expect(out.tasks.some((t: { action: string }) => !t.action.includes('byquery'))).toBe(true);
  const text = await cli(['tasks', '--all']);
  expect(text.stdout).toContain(`${task}  ${node.name}  indices:data/write/delete/byquery`);
  expect(text.stdout).toMatch(/deleted \d+ \/ 300/);
});

it('refuses what cannot be done, sending nothing: a bad rate, an unknown id, a task that takes no rate, no terminal', async () => {
  expect((await cli(['tasks', 'rethrottle', task, '--rps', 'fast', '--yes'])).code).toBe(64);
  const unknown = await cli(['tasks', 'cancel', 'nosuchnode:1', '--yes']);
  expect(unknown.code).toBe(64);
  expect(unknown.stderr).toMatch(/knows no task nosuchnode:1/);
  const all = JSON.parse((await cli(['tasks', '--all', '--json'])).stdout);
  const other = all.tasks.find((t: { action: string; cancelled: boolean }) => !/byquery|reindex/.test(t.action));
  const noRate = await cli(['tasks', 'rethrottle', other.id, '--rps', '5', '--yes']);
  expect(noRate.code).toBe(5);
  expect(noRate.stderr).toMatch(/takes no rate/);
  // The delete writes: its cancel asks for the id typed, and with no terminal nothing is sent.
  const untyped = await cli(['tasks', 'cancel', task]);
  expect(untyped.code).toBe(5);
  expect(untyped.stderr).toMatch(/no terminal to confirm on/);
  expect(audit()).toEqual([]);
  expect((await es('GET', `/_tasks/${task}`)).body.completed).toBe(false);
});

it('rethrottles the delete through the guard: the node takes the new rate, one audit record names the task', async () => {
  const r = await cli(['tasks', 'rethrottle', task, '--rps', '2', '--yes', '--json']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({
    ok: true,
    action: 'rethrottle',
    task,
    sent: true,
    applied: 'yes',
    after: { requestsPerSecond: 2 },
  });
  const status = await waitUntil(
    'the task runs at the new rate',
    async () => (await es('GET', `/_tasks/${task}`)).body.task.status.requests_per_second as number,
    (rps) => rps === 2,
  );
  expect(status).toBe(2);
  const records = audit();
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ target: task, request: { path: `/_delete_by_query/${encodeURIComponent(task)}/_rethrottle` } });
});

it('cancels the delete: preview, then exactly that task, never retried; the node reports it cancelled', async () => {
  const dry = await cli(['tasks', 'cancel', task, '--dry-run']);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain(`/_tasks/${encodeURIComponent(task)}/_cancel`);
  expect(dry.stdout).toMatch(/nothing was sent/);
  const r = await cli(['tasks', 'cancel', task, '--yes']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^ok: cancel task .* what it wrote stays written/m);
  // What it did before it stopped, said at once (issue 47).
  expect(r.stdout).toMatch(/^ {2}now: (cancelling|cancelled by request); deleted \d+ \/ \d+ \(\d+%\)/m);
  const done = await waitUntil(
    'the delete ends cancelled',
    async () => (await es('GET', `/_tasks/${task}`)).body,
    (b) => b.completed === true,
  );
  expect(done.response.canceled).toMatch(/by user request/);
  expect(done.response.deleted).toBeLessThan(300);
  const records = audit();
  expect(records).toHaveLength(2);
  expect(records[1]).toMatchObject({
    target: task,
    request: { path: `/_tasks/${encodeURIComponent(task)}/_cancel` },
    confirmedBy: 'yes-flag',
  });
  // Its status says what happened, not "finished with problems".
  const status = await cli(['tasks', task]);
  expect(status.stdout).toMatch(new RegExp(`^ *\\d[\\d.]*(ms|s|m|h)  ${task} indices:data/write/delete/byquery cancelled by request`, 'm'));
  // Finished: a second cancel is refused and sends nothing.
  const again = await cli(['tasks', 'cancel', task, '--yes']);
  expect(again.code).toBe(5);
  expect(again.stderr).toMatch(/has finished/);
  expect(audit()).toHaveLength(2);
});
