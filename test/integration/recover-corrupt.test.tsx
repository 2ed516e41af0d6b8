// Corruption recovery end to end on a real 8.19.21 node: documents indexed and flushed, the index
// closed, one byte of a segment file changed, the index opened -> red. shardeck names the shard,
// then runs the checklist with --yes (and --accept-data-loss INDEX for the steps that lose
// documents: --yes alone stops before them) and the harness's service commands
// (dev/es-service.mjs) in place of systemctl. The checklist is made to fail at each dangerous point on the way (stop
// command fails, backup place full, CheckIndex exits non-zero, node does not come back); each
// failure stops it with the data as it was, and --resume goes on. The loss shardeck reports must
// equal the real difference in document count, and the backup archive must hold every file.
// The host commands run without the password: the shard-tool run passes --user/--password-env
// (the plain node ignores credentials) and service commands that dump their environment.
// Last, the console's wizard (C on the Shards pane) walks the same checklist by keys at 80x24.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { Guard } from '../../src/services/guard';
import { waitForIndexHealth } from '../../src/services/recovery-runner';
import { createWizardServices } from '../../src/services/wizards';
import { setSnapshot } from '../../src/store/console';
import { createUiStore } from '../../src/ui/state';
import { KEYS, makeStore, renderApp } from '../ui/harness';
import { waitUntil } from '../helpers/wait-until';
import { javaHome } from '../../dev/lib/es-dist.mjs';
import { corruptShard, untilAllocationGaveUp } from '../../dev/corrupt.mjs';
import { ES_USER, startNode } from '../../dev/lib/es-node.mjs';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { startCountingProxy } from '../helpers/counting-proxy';
import { readAudit } from '../../src/services/audit';
import { expectFits, plain, until, wizardsWith } from '../helpers/wizard-ui';

let node: Awaited<ReturnType<typeof startNode>>;
let cfg: string;
let work: string;
let fullDir: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);
const service = (verb: 'stop' | 'start') => `${process.execPath} ${path.resolve('dev/es-service.mjs')} ${verb} ${node.baseDir}`;
const DOCS = 2000;
const LATE = 37;

/** dev/corrupt.mjs on the test's node: a red index whose smaller segment (LATE documents) is broken. */
async function corruptIndex(index: string, beforeCorrupting?: () => Promise<void>): Promise<{ folder: string; segmentDocs: number }> {
  const made = await corruptShard(node, index, { docs: DOCS, late: LATE, beforeCorrupting });
  expect((await es('GET', `/_cluster/health/${index}`)).body.status).toBe('red');
  // Detection is asked once Elasticsearch has given up retrying the copy.
  await untilAllocationGaveUp(node.url, index);
  return made;
}

/** Every file under dir as "relative-path size", sorted: what the archive must hold. */
function listing(dir: string): string[] {
  const base = path.dirname(dir);
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${path.relative(base, p)} ${fs.statSync(p).size}`);
    }
  };
  walk(dir);
  return out.sort();
}

function archiveListing(archive: string): string[] {
  return execFileSync('tar', ['-tvf', archive], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l && !l.startsWith('d'))
    .map((l) => {
      const f = l.trim().split(/\s+/);
      return `${f[5]} ${f[2]}`;
    })
    .sort();
}

const docCount = async (index: string) => {
  await es('POST', `/${index}/_refresh`);
  return (await es('GET', `/${index}/_count`)).body.count as number;
};

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-corrupt-'));
  // The data owner runs the file steps, so what it executes must be reachable for it.
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-corrupt-work-'));
  fs.chmodSync(work, 0o755);
  // A snapshot repository the node may write (path.repo), to show what recovers without loss.
  const repo = path.join(work, 'repo');
  fs.mkdirSync(repo);
  node = await startNode({ name: 'corrupt', anyStatus: true, settings: { 'path.repo': repo } });
  // After startNode: it makes the shardeck-es user when missing.
  execFileSync('chown', [ES_USER, repo]);
  await es('PUT', '/_snapshot/nightly', { type: 'fs', settings: { location: repo } });
  // A backup place with 64 KB: full before the shard folder fits.
  fullDir = path.join(work, 'full');
  fs.mkdirSync(fullDir);
  // mode=0700: a backup folder must be root's alone (tmpfs is 1777 by default, refused as open to others).
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', fullDir]);
}, 180_000);

afterAll(async () => {
  // Each clean-up runs even when one before it fails (a busy tmpfs must not leave the node running).
  try {
    if (fullDir) execFileSync('umount', [fullDir]);
  } finally {
    try {
      await node?.stop();
    } finally {
      for (const d of [cfg, work, node?.baseDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
    }
  }
});

it('checklist with CheckIndex: every failure stops it with the data as it was, --resume goes on, and the loss is counted right', async () => {
  const index = 'service_v9_broken';
  const { folder, segmentDocs } = await corruptIndex(index, async () => {
    const snap = await es('PUT', '/_snapshot/nightly/before-corruption?wait_for_completion=true', { indices: index });
    expect(snap.body.snapshot.state).toBe('SUCCESS');
  });

  // Detection names the shard, its folder on this host, the user owning it, what the log says,
  // and first what loses nothing: the snapshot holding the index.
  const detect = await cli(['recover-corrupt', '--json']);
  expect(detect.code).toBe(2);
  const found = JSON.parse(detect.stdout).corrupt[0];
  expect(found.snapshots).toEqual([
    { repository: 'nightly', snapshot: 'before-corruption', state: 'SUCCESS', endTime: expect.any(String) },
  ]);
  expect(found.options[0]).toMatch(/^snapshot nightly\/before-corruption \(SUCCESS.*_restore/);
  expect(found.logEvidence.join('\n')).toMatch(new RegExp(`\\[${index}\\]\\[0\\][\\s\\S]*CorruptIndexException`));
  const text = await cli(['recover-corrupt']);
  expect(text.stdout).toMatch(/first, what loses nothing:\n {2}- snapshot nightly\/before-corruption/);
  // no_valid_shard_copy once Elasticsearch gave up on the copy; 'no' while its allocation retries are counted.
  expect(found).toMatchObject({
    index,
    shard: 0,
    canAllocate: expect.stringMatching(/^(no_valid_shard_copy|no)$/),
    corrupt: true,
    folder,
    folderOnThisHost: true,
    dataOwner: 'shardeck-es',
    hasShardTool: true,
  });
  // The last step's health wait outlasts the client's request timeout (8 s here, 15 s by
  // default), which one request cannot raise: it asks in short waits until the whole wait is over.
  // What the node was asked to wait (each answer timed out, or the wait would have ended) must
  // add up to the whole 10 s, each request's wait under the client's timeout. It waits beside the
  // refusals below (none of them stops the node or changes the index), and ends before step 2.
  const healthWait = (async () => {
    const proxy = await startCountingProxy(node.url);
    try {
      const waited = await waitForIndexHealth(
        createEsApi(createClient({ url: proxy.url, requestTimeoutMs: 8000 }), proxy.url),
        index,
        10_000,
      );
      expect(waited).toMatchObject({ status: 'red', timed_out: true });
      const asked = proxy.requests
        .filter((r) => r.path.startsWith(`/_cluster/health/${index}?`))
        .map((r) => Number(/[?&]timeout=(\d+)s(&|$)/.exec(r.path)?.[1]));
      expect(asked.length).toBeGreaterThan(1);
      for (const s of asked) expect(s).toBeLessThan(8);
      expect(asked.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10);
    } finally {
      await proxy.close();
    }
  })().then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  );

  const planned = await cli(['recover-corrupt', index, '0', '--plan']);
  expect(planned.code).toBe(0);
  expect(planned.stdout).toMatch(/CheckIndex '.*\/index' -exorcise/);
  expect(planned.stdout).toMatch(/elasticsearch-shard' remove-corrupted-data --index 'service_v9_broken' --shard-id 0/);

  // Read-only mode runs nothing.
  const ro = await cli(['recover-corrupt', index, '0', '--yes', '--read-only', '--stop-cmd', service('stop')]);
  expect(ro.code).toBe(4);
  // No terminal and no --yes: stops before the first step, having run nothing.
  const declined = await cli(['recover-corrupt', index, '0', '--json', '--stop-cmd', service('stop')]);
  expect(declined.code).toBe(5);
  expect(JSON.parse(declined.stdout)).toMatchObject({ status: 'declined', stoppedAt: 'stop', steps: {} });
  expect(auditLinesIn(cfg)).toEqual([]);
  const again = await cli(['recover-corrupt', index, '0', '--yes']);
  expect(again.code).toBe(64);
  expect(again.stderr).toMatch(/under way .* --resume/);

  // Another shardeck running this checklist (two operators on one node) holds its lock: refused, nothing run.
  const lock = path.join(cfg, 'recoveries', `${index}-0.lock`);
  fs.writeFileSync(lock, String(process.pid));
  const busy = await cli(['recover-corrupt', '--resume', '--yes', '--json', '--stop-cmd', service('stop')]);
  expect(busy.code).toBe(5);
  expect(JSON.parse(busy.stdout)).toMatchObject({
    status: 'busy',
    holderPid: process.pid,
    error: expect.stringMatching(/another shardeck .* is running this checklist/),
  });
  expect(auditLinesIn(cfg)).toEqual([]);
  expect((await es('GET', '/_cluster/health')).status).toBe(200);
  // A lock left by a process that is gone is taken over.
  fs.writeFileSync(lock, '2147483646');

  // 0. A stop command that succeeds without stopping the node (it stops something else) fails the step.
  const stopsNothing = await cli(['recover-corrupt', '--resume', '--yes', '--json', '--stop-cmd', 'true']);
  expect(stopsNothing.code).toBe(5);
  expect(JSON.parse(stopsNothing.stdout)).toMatchObject({
    status: 'failed',
    stoppedAt: 'stop',
    error: expect.stringMatching(/succeeded but node corrupt \(pid \d+\) still runs/),
  });

  // 1. The stop command fails: nothing changed, the node still answers.
  const stopFails = await cli(['recover-corrupt', '--resume', '--yes', '--json', '--stop-cmd', 'false']);
  expect(stopFails.code).toBe(5);
  expect(JSON.parse(stopFails.stdout)).toMatchObject({ status: 'failed', stoppedAt: 'stop', advice: expect.stringMatching(/--resume/) });
  expect(fs.existsSync(lock)).toBe(false);
  expect((await es('GET', '/_cluster/health')).status).toBe(200);

  const healthWaitFailed = await healthWait;
  if (healthWaitFailed) throw healthWaitFailed;

  // 2. The engine stops; the backup place is full: the partial archive is removed, the folder untouched.
  const full = await cli([
    'recover-corrupt',
    '--resume',
    index,
    '0',
    '--yes',
    '--json',
    '--stop-cmd',
    service('stop'),
    '--backup-dir',
    fullDir,
  ]);
  expect(full.code).toBe(5);
  expect(JSON.parse(full.stdout)).toMatchObject({
    status: 'failed',
    stoppedAt: 'backup',
    steps: { stop: { status: 'done' }, backup: { message: expect.stringMatching(/^tar exit status/) } },
  });
  expect(fs.readdirSync(fullDir)).toEqual([]);
  const before = listing(folder);
  expect(before.some((l) => /\.cfs /.test(l))).toBe(true);

  // 3. CheckIndex exits non-zero without a verdict: nothing changed; the verified backup stays.
  const badJava = path.join(work, 'broken-java');
  fs.writeFileSync(badJava, '#!/bin/sh\necho "Error: could not find or load main class org.apache.lucene.index.CheckIndex" >&2\nexit 3\n', {
    mode: 0o755,
  });
  const backupDir = path.join(work, 'backups');
  const checkFails = await cli(['recover-corrupt', '--resume', '--yes', '--json', '--backup-dir', backupDir, '--java', badJava]);
  expect(checkFails.code).toBe(5);
  const r3 = JSON.parse(checkFails.stdout);
  expect(r3).toMatchObject({
    status: 'failed',
    stoppedAt: 'check',
    steps: { backup: { status: 'done' }, 'verify-backup': { status: 'done' } },
  });
  expect(listing(folder)).toEqual(before);
  expect(archiveListing(r3.archive)).toEqual(before);

  // --yes alone runs the read-only check but not -exorcise, which loses documents: refused, the folder untouched.
  const java = path.join(javaHome(), 'bin', 'java');
  const yesOnly = await cli(['recover-corrupt', '--resume', '--yes', '--json', '--java', java]);
  expect(yesOnly.code).toBe(5);
  expect(JSON.parse(yesOnly.stdout)).toMatchObject({
    status: 'refused',
    stoppedAt: 'exorcise',
    steps: { check: { status: 'done' } },
    error:
      'step 5 "Remove the broken segments (CheckIndex -exorcise)" loses documents and --yes does not confirm it: add --accept-data-loss service_v9_broken (the index name) to run it; nothing of it was run',
  });
  expect(JSON.parse(yesOnly.stdout).steps.exorcise).toBeUndefined();
  expect(listing(folder)).toEqual(before);
  expect(auditLinesIn(cfg).some((l) => /-exorcise/.test(l))).toBe(false);
  // Another name is refused before anything runs.
  const otherName = await cli(['recover-corrupt', '--resume', '--yes', '--accept-data-loss', 'service_v9_brokenx', '--json']);
  expect(otherName.code).toBe(5);
  expect(JSON.parse(otherName.stdout).error).toBe(
    '--accept-data-loss names "service_v9_brokenx" but this checklist repairs service_v9_broken: give that index name exactly; nothing was run',
  );
  expect(listing(folder)).toEqual(before);

  // 4. The repair runs, but the node does not come back (a start command that starts nothing).
  const noNode = await cli([
    'recover-corrupt',
    '--resume',
    '--yes',
    '--accept-data-loss',
    index,
    '--json',
    '--java',
    java,
    '--start-cmd',
    'true',
    '--wait-timeout',
    '5',
  ]);
  expect(noNode.code).toBe(5);
  const r4 = JSON.parse(noNode.stdout);
  expect(r4).toMatchObject({
    status: 'failed',
    stoppedAt: 'wait',
    check: { totalDocs: DOCS + LATE, brokenSegments: 1, lostDocs: segmentDocs },
  });
  expect(r4.steps).toMatchObject({ check: { status: 'done' }, exorcise: { status: 'done' }, markers: { status: 'done' } });
  expect(listing(folder).some((l) => /\/corrupted_/.test(l))).toBe(false);

  // 5. Resumed with the real start command: started, allocated, verified, loss counted.
  const done = await cli(['recover-corrupt', '--resume', '--yes', '--accept-data-loss', index, '--json', '--start-cmd', service('start')]);
  expect(done.code, done.stderr).toBe(0);
  const r5 = JSON.parse(done.stdout);
  const after = await docCount(index);
  expect(r5.status).toBe('finished');
  // The repaired copy kept its allocation id: Elasticsearch took it back without a stale-primary reroute.
  expect(r5.steps.reroute).toMatchObject({
    status: 'skipped',
    message: expect.stringMatching(/the primary is (started|initializing) on corrupt: no reroute needed/),
  });
  expect(r5.loss).toEqual({ docsBefore: DOCS + LATE, docsAfter: after, lost: DOCS + LATE - after, predictedLost: segmentDocs });
  expect(DOCS + LATE - after).toBe(segmentDocs);
  expect((await es('GET', `/_cluster/health/${index}`)).body.status).toBe('green');
  expect(archiveListing(r5.archive)).toEqual(before);

  // Every step that ran has its audit record; none holds a secret.
  const audit = readAudit(path.join(cfg, 'audit.log')).records;
  expect(audit.filter((a) => a.outcome?.ok === false).map((a) => a.summary)).toEqual([
    expect.stringMatching(/step 1: Stop the engine/),
    expect.stringMatching(/step 1: Stop the engine/),
    expect.stringMatching(/step 2: Back up/),
    expect.stringMatching(/step 4: Check the index/),
    expect.stringMatching(/step 8: Wait for the node/),
  ]);
  // Issue 48: what CheckIndex said the repair would lose against what was counted once back, in the audit (and so the timeline).
  expect(audit.filter((a) => a.risk === 'read').map((a) => a.summary)).toContain(
    `${index} repaired: expected ${segmentDocs} lost; ${after} documents counted once green against ${DOCS + LATE} before: ${segmentDocs} lost`,
  );
  expect(audit.find((a) => /Remove the broken segments/.test(a.summary))).toMatchObject({
    risk: 'destructive',
    confirmedBy: 'typed',
    command: expect.stringMatching(/-exorcise$/),
  });
}, 420_000);

it('checklist with elasticsearch-shard: its reroute is used, accepting the loss, and the count matches; no host command sees the password', async () => {
  const index = 'service_v9_broken2';
  const { segmentDocs } = await corruptIndex(index);
  const backupDir = path.join(work, 'backups2');
  // The service commands write their environment, and that of a child they start, where the test reads it.
  const dumps = path.join(work, 'env-dumps');
  fs.mkdirSync(dumps);
  const dumping = (verb: 'stop' | 'start') =>
    `env > ${dumps}/${verb}.env && bash -c 'cat /proc/$$/environ' > ${dumps}/${verb}.child-environ && ${service(verb)}`;
  const PASSWORD = 'pw-of-the-elastic-user-7f3a9c';
  const r = await runCli(
    [
      'recover-corrupt',
      '--url',
      node.url,
      '--user',
      'elastic',
      '--password-env',
      'OPS_ES_PW',
      index,
      '0',
      '--method',
      'shard-tool',
      '--yes',
      '--accept-data-loss',
      index,
      '--json',
      '--stop-cmd',
      dumping('stop'),
      '--start-cmd',
      dumping('start'),
      '--backup-dir',
      backupDir,
    ],
    { env: { SHARDECK_CONFIG_DIR: cfg, OPS_ES_PW: PASSWORD, COPY_OF_PW: PASSWORD, SHARDECK_PLATFORM_TOKEN: 'platform-token-1b2c3d4e' } },
  );
  expect(r.code, r.stderr).toBe(0);
  for (const f of ['stop.env', 'stop.child-environ', 'start.env', 'start.child-environ']) {
    const text = fs.readFileSync(path.join(dumps, f), 'utf8');
    expect(text, f).toMatch(/PATH=/); // the dump is real
    expect(text, f).not.toContain(PASSWORD);
    expect(text, f).not.toContain('OPS_ES_PW');
    expect(text, f).not.toContain('platform-token-1b2c3d4e');
  }
  expect(r.stdout + r.stderr).not.toContain(PASSWORD);
  expect(auditLinesIn(cfg).join('\n')).not.toContain(PASSWORD);
  const out = JSON.parse(r.stdout);
  const after = await docCount(index);
  expect(out.loss).toEqual({ docsBefore: DOCS + LATE, docsAfter: after, lost: DOCS + LATE - after, predictedLost: segmentDocs });
  expect(DOCS + LATE - after).toBe(segmentDocs);
  expect(out.steps.reroute.status).toBe('done');
  const reroute: any = readAudit(path.join(cfg, 'audit.log')).records.find(
    (a) => a.request?.path === '/_cluster/reroute' && a.target === index,
  );
  expect(reroute.request.body.commands[0].allocate_stale_primary).toMatchObject({ index, shard: 0, accept_data_loss: true });
  expect((await es('GET', `/_cluster/health/${index}`)).body.status).toBe('green');
  expect(fs.existsSync(out.archive)).toBe(true);
}, 300_000);

it('the console wizard: C on the red primary, lossless options first, c starts the checklist, n stops it, r resumes, typed name for the loss', async () => {
  const index = 'service_v9_broken3';
  const { segmentDocs } = await corruptIndex(index);
  const uiCfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-corrupt-ui-'));
  const previousCfg = process.env.SHARDECK_CONFIG_DIR;
  process.env.SHARDECK_CONFIG_DIR = uiCfg;
  process.env.NO_COLOR = '1';
  try {
    const client = createClient({ url: node.url });
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile: path.join(uiCfg, 'audit.log') });
    const services = createWizardServices(createEsApi(client, node.url), guard, {
      serviceStop: service('stop'),
      serviceStart: service('start'),
    });
    const store = makeStore();
    setSnapshot(store, 'shards', {
      data: [
        {
          index,
          shard: 0,
          primary: true,
          state: 'UNASSIGNED',
          node: null,
          docs: null,
          storeBytes: null,
          unassignedReason: 'ALLOCATION_FAILED',
          unassignedDetails: null,
        },
      ],
      fetchedAt: Date.now(),
      failures: 0,
    });
    store.setState({ pane: 'shards' });
    const wizards = wizardsWith(['recovery'], services);
    const ui = createUiStore();
    const app = await renderApp(store, { columns: 80, rows: 24, wizards, ui });
    await until(app, new RegExp(index));
    expect(ui.getState().selection.shards).toMatchObject({ index, shard: 0, primary: true });

    await app.press('C');
    let f = await until(app, /first, what loses nothing/);
    expectFits(f);
    expect(f).toContain(`${index} shard 0 primary on node corrupt`);
    expect(f).toMatch(/c offline repair with CheckIndex · t with elasticsearch-shard/);

    await app.press('c');
    f = await until(app, /step 1\/11\nStop the engine/);
    expectFits(f);
    expect(f).toContain('es-service.mjs stop');
    await app.press('y');
    f = await until(app, /step 2\/11\nBack up the shard folder/, 60_000);
    expect(f).toMatch(/ok: done/);
    // n stops before the backup; the node stays stopped, the checklist is resumable.
    await app.press('n');
    f = await until(app, /stopped before "Back up the shard folder"/);
    await app.press('x');
    await app.press('C');
    f = await until(app, /a checklist is under way: service_v9_broken3 shard 0: Back up the shard folder/, 60_000);
    expect(f).toMatch(/r resume the checklist · Esc close/);
    await app.press('r');
    // Answer each step as it asks (the reroute is skipped when the shard comes back by itself).
    let answered = 1;
    const asking = /y run this step|and Enter:/;
    const ended = /recovered: |failed: /;
    for (;;) {
      // The end, or a question from a step after the last one answered.
      f = await waitUntil(
        `a question after step ${answered}, or the end`,
        () => plain(app.frame()),
        (x) => ended.test(x) || (asking.test(x) && Number(/step (\d+)\/11/.exec(x)?.[1]) > answered),
        { timeoutMs: 120_000, intervalMs: 50 },
      );
      if (ended.test(f)) break;
      answered = Number(/step (\d+)\/11/.exec(f)?.[1]);
      if (/type service_v9_broken3 and Enter/.test(f)) {
        // A wrong name is not accepted; the right one runs the step. (The machine answers a wrong
        // name at once, with no effect to wait for: the frame after Enter is its answer.)
        await app.type('service_v9_broken');
        await app.press(KEYS.enter);
        expect(plain(app.frame())).toMatch(/type service_v9_broken3 and Enter/);
        await app.type('3');
        await app.press(KEYS.enter);
      } else await app.press('y');
    }
    f = await until(app, new RegExp(`recovered: ${index}`), 120_000);
    expectFits(f);
    const after = await docCount(index);
    expect(DOCS + LATE - after).toBe(segmentDocs);
    expect(f).toContain(`documents before ${DOCS + LATE} -> after ${after}: ${segmentDocs} lost`);
    expect((await es('GET', `/_cluster/health/${index}`)).body.status).toBe('green');
    app.unmount();
  } finally {
    delete process.env.NO_COLOR;
    if (previousCfg === undefined) delete process.env.SHARDECK_CONFIG_DIR;
    else process.env.SHARDECK_CONFIG_DIR = previousCfg;
    fs.rmSync(uiCfg, { recursive: true, force: true });
  }
}, 300_000);
