// The node goes away while a delete-by-query runs: the CLI reports the task lost (exit 5, one
// audit record, nothing retried), and once the node is back `shardeck tasks ID` counts what the
// delete did from the query its audit record kept (after a guarded refresh). Real 8.19.21 node with
// the ported reindex module.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { CLI, ensureBuilt, type CliResult } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { readAudit } from '../../src/services/audit';
import { waitUntil } from '../helpers/wait-until';

const INDEX = 'service_v9_lost';
const QUERY = { term: { 'assoc:sources': 'src-crm' } };
let node: Awaited<ReturnType<typeof startNode>>;
let cfg: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);
const count = async (query: unknown = { match_all: {} }) => {
  await es('POST', `/${INDEX}/_refresh`);
  return (await es('POST', `/${INDEX}/_count`, { query })).body.count as number;
};

/** The CLI in the background, so the test can stop the node under it. */
function startCli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, args[0], '--url', node.url, ...args.slice(1)], {
      // The node is stopped for good here: lost after 15 s instead of waiting out a restart (3 min).
      env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: cfg, SHARDECK_TASK_LOST_AFTER_MS: '15000' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'lost-task' });
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-lost-'));
  await loadDemoData(node.url, { docsPerIndex: 10_000, indices: [INDEX], yellowIndex: '' });
}, 180_000);

afterAll(async () => {
  await node?.stop();
  fs.rmSync(cfg, { recursive: true, force: true });
});

it('a bad --requests-per-second is refused before anything is sent', async () => {
  const r = await cli(['delete-by-query', INDEX, '--source', 'src-crm', '--requests-per-second', 'fast', '--yes', '--expect', '1']);
  expect(r.code).toBe(64);
  expect(r.stderr).toMatch(/--requests-per-second "fast" is not a rate/);
  expect(auditLinesIn(cfg)).toEqual([]);
});

// Node ids are random base64url: one in 64 starts with '-', and its task id must not be read as a flag.
it('a task id whose node id starts with a dash reaches the command (asked of the node, not refused as an option)', async () => {
  const r = await cli(['tasks', '-Xy3Qq8TRbWkC2lJ1n0aZw:12345']);
  expect(r.stderr).not.toMatch(/Unknown option/);
  expect(r.stderr).toContain('the node knows no task -Xy3Qq8TRbWkC2lJ1n0aZw:12345');
});

it('node stopped mid-delete: lost, not retried; after the restart `tasks ID` tells what was deleted', async () => {
  const before = await count();
  const previewed = await count(QUERY);
  expect(previewed).toBeGreaterThan(1000);
  // 1,000 documents a batch at 100 per second: the first batch goes at once, the next waits ~10 s.
  const running = startCli([
    'delete-by-query',
    INDEX,
    '--source',
    'src-crm',
    '--yes',
    '--expect',
    String(previewed),
    '--requests-per-second',
    '100',
    '--json',
  ]);
  const deleted = await waitUntil(
    'the delete task to report its first batch deleted',
    async () => {
      const tasks = (await es('GET', '/_tasks?actions=*byquery&detailed=true')).body;
      let n = 0;
      for (const node of Object.values<any>(tasks.nodes ?? {})) for (const t of Object.values<any>(node.tasks)) n = t.status?.deleted ?? 0;
      return n;
    },
    (n) => n > 0,
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  expect(deleted).toBeGreaterThan(0);
  await node.stop();
  const r = await running;
  expect(r.code).toBe(5);
  expect(r.stderr).toMatch(/lost task \S+: its status could not be read .* it was not retried/);
  const out = JSON.parse(r.stdout);
  expect(out).toMatchObject({ ok: false, sent: true, lost: true });
  // One mutation: its sending record and outcome, read as one record.
  const audit = readAudit(path.join(cfg, 'audit.log')).records;
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({
    request: { querystring: { requests_per_second: '100' }, body: { max_docs: previewed } },
    outcome: { ok: true, task: out.task },
  });

  node = await node.restart();
  await es('GET', `/_cluster/health/${INDEX}?wait_for_status=green&timeout=60s`);
  const after = await count();
  expect(after).toBeLessThan(before);
  expect(after).toBeGreaterThan(before - previewed);
  const t = await cli(['tasks', out.task, '--json']);
  expect(t.code, t.stderr).toBe(0);
  expect(JSON.parse(t.stdout)).toMatchObject({
    lost: true,
    index: INDEX,
    previewed,
    stillMatching: previewed - (before - after),
    deleted: before - after,
  });
  const text = await cli(['tasks', out.task]);
  expect(text.stdout).toContain(`about ${before - after} were deleted`);
  // The delete was not sent again; each `tasks` refreshed the index through the guard (audited,
  // carrying the delete's --yes) before counting.
  expect(
    readAudit(path.join(cfg, 'audit.log')).records.map((a) => `${a.request?.method} ${a.request?.path} ${a.risk} ${a.confirmedBy}`),
  ).toEqual([
    `POST /${INDEX}/_delete_by_query destructive yes-flag`,
    `POST /${INDEX}/_refresh reversible yes-flag`,
    `POST /${INDEX}/_refresh reversible yes-flag`,
  ]);
}, 180_000);
