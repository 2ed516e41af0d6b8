// Issue 30, node faults: the node restarted (stopped, then started on the same folders and ports,
// as its service would) in the middle of the replicas wizard and of a delete-by-query task, on a
// real 8.19 node of its own. The wizard says the change was applied and not resent; the delete's
// end is learned after the restart (its task died with the node: counted from the query); the
// audit holds one "sending" and one outcome for each change. Durations are printed (FAULTS lines)
// for the table of docs/FAULTS.md; none is asserted against the clock.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import React from 'react';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { closeClient, createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { KeyRouter } from '../../src/ui/input/router';
import { ReplicasView } from '../../src/ui/wizards/ReplicasWizard';
import { CLI, ensureBuilt, runCli, type CliResult } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';
import { waitUntil } from '../helpers/wait-until';
import { plain } from '../helpers/wizard-ui';

let node: Awaited<ReturnType<typeof startNode>>;
let dir: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const figure = (what: string, ms: number) => console.log(`FAULTS | ${what} | ${Math.round(ms)} ms`);

/** The audit log's lines in order: "sending", or "outcome" for an outcome line. */
const phasesIn = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l).phase as string | undefined) ?? 'outcome');

/** Stops the node and starts it again on its folders and ports (its data kept). */
async function restartNode(): Promise<void> {
  await node.stop();
  node = await node.restart();
}

beforeAll(async () => {
  ensureBuilt();
  // anyStatus: ready once health answers, red included. The first test restarts the node with a red
  // index on it: waiting for yellow, the restart gave up at 120 s whenever the node had recovered
  // its state before its first health answer (the fresh run of 2026-11-26, 12:21).
  node = await startNode({ name: 'faults-restart', anyStatus: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-faults-restart-'));
}, 300_000);

afterAll(async () => {
  await node?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('the replicas wizard, the node restarted while it watches health: says the change was applied and not resent; nothing sent again', async () => {
  const INDEX = 'service_v9_restart_wizard';
  // Its primary can go nowhere: the index stays red, so the wizard is still watching for green when the node stops.
  await es('PUT', `/${INDEX}?wait_for_active_shards=0`, {
    settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.require._name': 'nowhere' },
  });
  const auditFile = path.join(dir, 'wizard-audit.log');
  const client = createClient({ url: node.url });
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'restart', auditFile });
  const app = render(
    <KeyRouter onInterrupt={() => {}}>
      <ReplicasView
        services={createWizardServices(createEsApi(client, node.url), guard, { pollMs: 200, watchTimeoutMs: 240_000 })}
        initial={{ target: INDEX }}
        onClose={() => {}}
      />
    </KeyRouter>,
  );
  const until = (re: RegExp, timeoutMs = 60_000) =>
    waitUntil(
      `a frame matching ${re}`,
      () => plain(app.lastFrame() ?? ''),
      (f) => re.test(f),
      { timeoutMs, intervalMs: 50 },
    );
  try {
    await until(/replicas/);
    app.stdin.write('0');
    await until(/replicas\s+0/);
    app.stdin.write('\r');
    await until(/y send/);
    app.stdin.write('y');
    await until(/watching health until green/);
    expect(phasesIn(auditFile)).toEqual(['sending', 'outcome']);

    const t0 = performance.now();
    await restartNode();
    const said = await until(/not resent/, 240_000);
    figure('replicas wizard: node restarted while it watched health (said, from the stop)', performance.now() - t0);
    // What was applied stays on the screen, with what happened after it, in words.
    expect(said).toMatch(/every matched index now has 0 replicas/);
    expect(said.replace(/\s+/g, ' ')).toMatch(/the change was applied .* is not resent; then the cluster stopped answering/);
    expect(said).not.toMatch(/\n\s+at /);

    // Back up: the change is on the cluster, and it was sent once.
    const settings = (await es('GET', `/${INDEX}/_settings/index.number_of_replicas`)).body;
    expect(settings[INDEX].settings.index.number_of_replicas).toBe('0');
    app.stdin.write('y'); // an ended wizard sends nothing on a key
    expect(phasesIn(auditFile)).toEqual(['sending', 'outcome']);
    expect(readAudit(auditFile).records[0]).toMatchObject({ request: { method: 'PUT' }, outcome: { ok: true } });
  } finally {
    app.unmount();
    await closeClient(client);
    await es('DELETE', `/${INDEX}`);
  }
}, 420_000);

it('a delete-by-query task, the node restarted while it runs: its end is learned after the restart (gone, counted from the query), not resent', async () => {
  const INDEX = 'service_v9_restart_delete';
  const cfg = path.join(dir, 'delete-config');
  await loadDemoData(node.url, { docsPerIndex: 10_000, indices: [INDEX], yellowIndex: '' });
  const count = async (query: unknown = { match_all: {} }) => {
    await es('POST', `/${INDEX}/_refresh`);
    return (await es('POST', `/${INDEX}/_count`, { query })).body.count as number;
  };
  const before = await count();
  const previewed = await count({ term: { 'assoc:sources': 'src-crm' } });
  expect(previewed).toBeGreaterThan(1000);
  // 1,000 documents a batch at 100 per second: the first batch goes at once, the next waits ~10 s.
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      CLI,
      'delete-by-query',
      INDEX,
      '--url',
      node.url,
      '--source',
      'src-crm',
      '--yes',
      '--expect',
      String(previewed),
      '--requests-per-second',
      '100',
      '--json',
    ],
    { env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: cfg }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let ended: CliResult | undefined;
  const done = new Promise<CliResult>((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve((ended = { code, stdout, stderr })));
  });
  await waitUntil(
    'the delete task to report its first batch deleted',
    async () => {
      if (ended) throw new Error(`delete-by-query ended before its task was seen: exit ${ended.code}\n${ended.stdout}${ended.stderr}`);
      const tasks = (await es('GET', '/_tasks?actions=*byquery&detailed=true')).body;
      let n = 0;
      for (const nd of Object.values<any>(tasks.nodes ?? {})) for (const t of Object.values<any>(nd.tasks)) n = t.status?.deleted ?? 0;
      return n;
    },
    (n) => n > 0,
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  const stopped = performance.now();
  await restartNode();
  const up = performance.now();
  const r = await done;
  figure(
    `delete-by-query: node restarted mid-task (restart ${Math.round(up - stopped)} ms; the end said after it)`,
    performance.now() - up,
  );
  figure('delete-by-query: node restarted mid-task, whole run', performance.now() - t0);
  expect(r.code, r.stderr).toBe(5);
  const out = JSON.parse(r.stdout);
  const after = await count();
  expect(after).toBeLessThan(before);
  expect(after).toBeGreaterThan(before - previewed);
  expect(out).toMatchObject({
    ok: false,
    sent: true,
    gone: true,
    report: { previewed, deleted: before - after, stillMatching: previewed - (before - after) },
  });
  expect(out.report.lines.join(' ')).toMatch(
    /the task is gone \(the node restarted while it ran\).*not resent.*about \d+ were deleted.*preview again/,
  );
  // The delete once (sending + outcome, its task id), then the guarded refresh before the count; nothing resent.
  const audit = readAudit(path.join(cfg, 'audit.log')).records;
  expect(audit.map((a) => `${a.request?.method} ${a.request?.path}`)).toEqual([
    `POST /${INDEX}/_delete_by_query`,
    `POST /${INDEX}/_refresh`,
  ]);
  expect(audit[0]).toMatchObject({ outcome: { ok: true, task: out.task } });
  expect(phasesIn(path.join(cfg, 'audit.log'))).toEqual(['sending', 'outcome', 'sending', 'outcome']);
}, 420_000);

it("a real flood stage with .tasks blocked too: unblock lifts the operator's index, names .tasks left; --include-system lifts it", async () => {
  const INDEX = 'flood_ops';
  const cfg = path.join(dir, 'flood-config');
  const WM = 'cluster.routing.allocation.disk.watermark';
  const setWatermarks = (v: string | null, flood: string | null = v) =>
    es('PUT', '/_cluster/settings', {
      transient: {
        [`${WM}.low`]: v,
        [`${WM}.high`]: v,
        [`${WM}.flood_stage`]: flood,
        'cluster.info.update.interval': v === null ? null : '10s',
      },
    });
  const isBlocked = async (index: string) =>
    (await es('GET', `/${index}/_settings/index.blocks.read_only_allow_delete?flat_settings=true&expand_wildcards=all`)).body[index]
      ?.settings?.['index.blocks.read_only_allow_delete'] === 'true';
  const unblock = (...args: string[]) =>
    runCli(['unblock', '--url', node.url, '--json', ...args], { env: { SHARDECK_CONFIG_DIR: cfg, NO_COLOR: '1' } });
  await es('PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await es('POST', `/${INDEX}/_doc?refresh=true`, { a: 1 });
  // A task run with wait_for_completion=false stores its result in .tasks: Elasticsearch's own index exists.
  const task = (await es('POST', `/${INDEX}/_delete_by_query?wait_for_completion=false`, { query: { match_none: {} } })).body.task;
  await es('GET', `/_tasks/${task}?wait_for_completion=true&timeout=30s`);
  await waitUntil(
    '.tasks to exist',
    async () => (await es('GET', '/_cat/indices/.tasks?format=json&expand_wildcards=all')).status,
    (s) => s === 200,
    {
      timeoutMs: 30_000,
      intervalMs: 200,
    },
  );
  try {
    // Past every watermark (absolute ones are free space that must remain: the disk's whole size is never free).
    const total = Number((await es('GET', '/_cat/allocation?format=json&bytes=b&h=disk.total')).body[0]['disk.total']);
    await setWatermarks(`${total}b`);
    await waitUntil('the flood-stage block on both', async () => (await isBlocked(INDEX)) && (await isBlocked('.tasks')), Boolean, {
      timeoutMs: 90_000,
      intervalMs: 500,
    });
    expect((await es('POST', `/${INDEX}/_doc`, { a: 2 })).status).toBe(429);
    // Below flood stage, still above high: Elasticsearch keeps the blocks; shardeck may lift them.
    await setWatermarks(`${total}b`, '1b');
    await waitUntil(
      'shardeck to see the disk below flood stage',
      async () => JSON.parse((await unblock('--dry-run')).stdout),
      (r) => r.disks?.[0]?.level === 'high',
      {
        timeoutMs: 90_000,
        intervalMs: 1000,
      },
    );
    const r = await unblock('--yes');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.blocked).toEqual(expect.arrayContaining([INDEX, '.tasks']));
    expect(out.leftSystem).toContain('.tasks');
    expect(out.notes.join(' ')).toMatch(/\.tasks.*--include-system/);
    for (const q of out.requests) expect(q.path).not.toMatch(/\.tasks|\*|_all/);
    expect(await isBlocked(INDEX)).toBe(false);
    expect(await isBlocked('.tasks')).toBe(true);
    expect((await es('POST', `/${INDEX}/_doc`, { a: 3 })).status).toBe(201);
    // Asked for: Elasticsearch's own index too, by name.
    const sys = await unblock('--yes', '--include-system');
    expect(sys.code, sys.stdout + sys.stderr).toBe(0);
    expect(
      JSON.parse(sys.stdout)
        .requests.map((q: { path: string }) => q.path)
        .join(' '),
    ).toMatch(/\.tasks/);
    expect(await isBlocked('.tasks')).toBe(false);
    // Each change once: sending and outcome.
    expect(phasesIn(path.join(cfg, 'audit.log'))).toEqual(['sending', 'outcome', 'sending', 'outcome']);
  } finally {
    await setWatermarks(null);
  }
}, 420_000);
