// Issue 48 on a real 8.19 node: a shard corrupted after a snapshot, with documents written in
// between (dev/corrupt.mjs: segments of 2000, then 300, then 37 documents; the snapshot after the
// first, taken with shardeck so its count is on record; the 37-document segment broken). The
// console's recorder (in this process, on the Indices pane) puts the index's last count before
// red in the incident timeline. Then, before any choice, both losses: the restore's from the
// counts (about 337 written since the snapshot), the repair's from Lucene CheckIndex on a copy of
// the shard folder (37, the node keeps running; fewer when the node's own refresh split the last
// batch in two segments on a loaded machine: what corruptShard broke is what is expected); each
// route taken loses exactly that: the restore in place leaves 2000 (337 lost) and keeps the copy;
// a restore that fails after its delete (the
// snapshot deleted between preview and send) keeps the copy, and the repair run from it keeps
// 2300 of 2337 (37 lost). The refusals answered before anything is sent: read-only mode, a copy
// that does not fit (64 KB backup place), a link in the shard folder, a snapshot that does not
// hold the shard.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { corruptShard, untilAllocationGaveUp } from '../../dev/corrupt.mjs';
import { ES_USER, startNode } from '../../dev/lib/es-node.mjs';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { urlForMessage } from '../../src/domain/urls';
import { Guard } from '../../src/services/guard';
import { Poller } from '../../src/services/poller';
import { readTimeline, TimelineRecorder } from '../../src/services/timeline';
import { restoreSession } from '../../src/services/wizards/restore';
import { createConsoleStore } from '../../src/store/console';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { waitUntil } from '../helpers/wait-until';

let node: Awaited<ReturnType<typeof startNode>>;
let cfg: string;
let work: string;
let backups: string;
let tiny: string;
let previousCfg: string | undefined;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);
const step = (what: string) => process.stderr.write(`[recovery-loss] ${new Date().toISOString()} ${what}\n`);
const BATCHES = [2000, 300, 37];
const ALL = 2337;

/** The audit's records after the first `from` lines: request (method path) or host command summary. */
function auditedSince(from: number): string[] {
  return auditLinesIn(cfg)
    .slice(from)
    .map((l) => JSON.parse(l) as { phase?: string; request?: { method: string; path: string }; summary?: string; risk?: string })
    .filter((a) => a.phase !== 'outcome' && (a.request || a.summary))
    .map((a) => (a.request ? `${a.request.method} ${a.request.path.split('?')[0]}` : `${a.risk}: ${a.summary}`));
}

const mode = (p: string) => fs.statSync(p).mode & 0o777;

/** `shardeck restore nightly SNAPSHOT --indices INDEX --replace`, confirmed by the index name, and more flags. */
const restoreInPlace = (index: string, snapshot: string, ...flags: string[]) =>
  cli(['restore', 'nightly', snapshot, '--indices', index, '--replace', '--yes', '--accept-data-loss', index, ...flags]);

/**
 * A red index like the issue's: segments of 2000, 300 and 37 documents, a snapshot taken with
 * shardeck after the first (its count on record), the console's recorder reading the Indices pane
 * throughout (the last count before red on record), the 37-document segment broken.
 */
async function redAfterSnapshot(index: string, snapshot: string): Promise<{ folder: string; segmentDocs: number }> {
  const url = urlForMessage(node.url);
  const store = createConsoleStore({
    connection: { url, profile: 'test', insecure: false, readOnly: false },
    intervalMs: 300,
    pane: 'indices',
  });
  const poller = new Poller(createEsApi(createClient({ url: node.url }), node.url), store);
  const recorder = new TimelineRecorder(store, url);
  poller.start();
  recorder.start();
  try {
    const seen = (docs: number) =>
      waitUntil(
        `the console to read ${docs} documents in ${index}`,
        () => store.getState().snapshots.indices.data?.find((r) => r.name === index)?.docsCount,
        (n) => n === docs,
        { timeoutMs: 90_000, intervalMs: 100 },
      );
    const made = await corruptShard(node, index, {
      batches: BATCHES,
      afterBatch: async (i: number) => {
        if (i === 0) {
          const s = await cli(['snapshot', 'create', 'nightly', '--indices', index, '--name', snapshot, '--wait', '--yes']);
          expect(s.code, s.stderr).toBe(0);
        }
        if (i === BATCHES.length - 1) await seen(ALL);
      },
    });
    await untilAllocationGaveUp(node.url, index);
    // The console reads the index red on its own schedule (slower on a loaded machine): what it last read is said on a timeout.
    await waitUntil(
      `the timeline to hold ${index}'s last count before red`,
      () =>
        readTimeline(url).find((e) => e.kind === 'count' && e.index === index && e.before === 'red') ?? {
          row: store.getState().snapshots.indices.data?.find((r) => r.name === index),
          read: store.getState().snapshots.indices.fetchedAt,
          error: store.getState().snapshots.indices.error?.message,
        },
      (v) => 'kind' in v,
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    return made;
  } finally {
    recorder.stop();
    poller.stop();
  }
}

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-loss-'));
  previousCfg = process.env.SHARDECK_CONFIG_DIR;
  // The console's recorder and the in-process restore session write where the CLI runs read.
  process.env.SHARDECK_CONFIG_DIR = cfg;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-loss-work-'));
  backups = path.join(work, 'copies');
  // A backup place with 64 KB: the copy does not fit (the shard folder holds ~150 KB).
  tiny = path.join(work, 'tiny');
  fs.mkdirSync(tiny);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', tiny]);
  node = await startNode({ name: 'recovery-loss', anyStatus: true });
  expect((await es('PUT', '/_snapshot/nightly', { type: 'fs', settings: { location: path.join(node.repoDir, 'nightly') } })).status).toBe(
    200,
  );
}, 240_000);

afterAll(async () => {
  if (previousCfg === undefined) delete process.env.SHARDECK_CONFIG_DIR;
  else process.env.SHARDECK_CONFIG_DIR = previousCfg;
  try {
    if (tiny) execFileSync('umount', [tiny]);
  } finally {
    try {
      await node?.stop();
    } finally {
      for (const d of [cfg, work, node?.baseDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
    }
  }
});

const INDEX = 'service_v9_broken';

it('before the choice: the restore loses about 337 (from the counts), the repair 37 (CheckIndex on a copy, the node running); the restore taken loses 337 and keeps the copy', async () => {
  step('corrupting after a snapshot, documents written in between');
  const { folder, segmentDocs: broken } = await redAfterSnapshot(INDEX, 's1');
  const pid = node.pid;

  // Read-only mode copies nothing and sends nothing.
  const before = auditLinesIn(cfg).length;
  const ro = await cli(['recover-corrupt', INDEX, '0', '--compare', '--yes', '--read-only', '--backup-dir', backups]);
  expect(ro.code, ro.stderr).toBe(4);
  expect(ro.stdout).toMatch(/about 337 documents written since: restore from nightly\/s1/);
  const roRestore = await restoreInPlace(INDEX, 's1', '--read-only');
  expect(roRestore.code).toBe(4);
  // A copy that does not fit: refused with the numbers, nothing copied or sent.
  const full = await restoreInPlace(INDEX, 's1', '--backup-dir', tiny, '--json');
  expect(full.code, full.stderr).toBe(64);
  expect(JSON.parse(full.stdout).error).toMatch(
    new RegExp(`^the copy of ${INDEX} needs \\S+ \\(\\d+ bytes\\) and ${tiny} has \\S+ \\(\\d+ bytes\\) free: .*nothing was sent$`),
  );
  expect(fs.readdirSync(tiny)).toEqual([]);
  expect(auditedSince(before)).toEqual([]);

  step('both losses before the choice');
  const cmp = await cli(['recover-corrupt', INDEX, '0', '--compare', '--yes', '--backup-dir', backups, '--json']);
  expect(cmp.code, cmp.stderr).toBe(0);
  const j = JSON.parse(cmp.stdout);
  expect(j.routes).toEqual([
    expect.objectContaining({ route: 'restore', lost: 337, about: true }),
    expect.objectContaining({ route: 'exorcise', lost: broken }),
  ]);
  expect(broken).toBeLessThan(337);
  expect(j.recommended).toBe('exorcise');
  expect(j.copy).toMatchObject({ index: INDEX, shard: 0, folder, check: { totalDocs: ALL, lostDocs: broken, brokenSegments: 1 } });
  const archive = j.copy.archive as string;
  expect(path.dirname(archive)).toBe(backups);
  expect([mode(backups), mode(archive)]).toEqual([0o700, 0o600]);
  // The node kept running (the same JVM), the index still red, nothing unpacked left behind.
  expect(node.pid).toBe(pid);
  expect((await es('GET', `/_cluster/health/${INDEX}`)).body.status).toBe('red');
  expect(fs.readdirSync(backups).sort()).toEqual([path.basename(archive), `${path.basename(archive)}.json`]);
  // The text shows them side by side and names the least.
  const again = await cli(['recover-corrupt', INDEX, '0', '--plan', '--backup-dir', backups]);
  expect(again.stdout).toMatch(
    new RegExp(
      `what each way back loses:\\n {2}about 337 documents written since: restore from nightly/s1 of .*\\n.*\\n {2}${broken} documents? \\(unidentified\\): offline repair \\(CheckIndex -exorcise\\)\\n.*\\nloses least: offline repair`,
    ),
  );

  step('the restore route taken');
  const sent = auditLinesIn(cfg).length;
  const r = await restoreInPlace(INDEX, 's1', '--backup-dir', backups, '--json', '--timeout', '300');
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  const k = JSON.parse(r.stdout);
  // The preview had both numbers and the copy (the one --compare took, checked again, not taken twice).
  expect(k.indices[0].loss.restore).toMatchObject({ lost: 337, about: true });
  expect(k.indices[0].loss.exorcise).toMatchObject({ lost: broken });
  expect(k.indices[0].copy.here).toEqual([expect.objectContaining({ shard: 0, folder, reuse: archive })]);
  expect(k.requests.map((q: { method: string; path: string }) => `${q.method} ${q.path.split('?')[0]}`)).toEqual([
    `DELETE /${INDEX}`,
    'POST /_snapshot/nightly/s1/_restore',
  ]);
  // What the restore lost is what it said: 2337 before, 2000 after.
  expect(k.report.counts).toEqual([expect.objectContaining({ index: INDEX, after: 2000 })]);
  expect(k.report.losses).toEqual([expect.objectContaining({ index: INDEX, expected: 337, lost: 337 })]);
  expect((await es('GET', `/${INDEX}/_count`)).body.count).toBe(ALL - 337);
  // The copy was checked before the delete, and is still there after.
  const audited = auditedSince(sent);
  const checked = audited.findIndex((a) => /^reversible: check the copy of service_v9_broken shard 0 \(taken before\)/.test(a));
  expect(checked).toBeGreaterThanOrEqual(0);
  expect(checked).toBeLessThan(audited.indexOf(`DELETE /${INDEX}`));
  expect(audited).toContain(
    `read: ${INDEX} restored: expected about 337 lost; 2000 documents counted once green against 2337 before: 337 lost`,
  );
  expect(fs.existsSync(archive)).toBe(true);
  // The incident timeline says the same.
  const incident = await cli(['incident']);
  expect(incident.stdout).toMatch(/restored: expected about 337 lost; 2000 documents counted once green against 2337 before: 337 lost/);
  expect(incident.stdout).toMatch(/count: service_v9_broken held 2337 documents \(the last read before it turned red\)/);
  // status names the copy while it exists.
  const status = await cli(['status', '--backup-dir', backups]);
  expect(status.stdout).toContain(`copy kept: ${archive} (${INDEX} shard 0`);
}, 900_000);

it('a restore that fails after its delete (the snapshot deleted between preview and send) keeps the copy; the repair run from it loses what CheckIndex counted', async () => {
  const index = 'service_v9_second';
  step('a second red index');
  const { segmentDocs: broken } = await redAfterSnapshot(index, 's2');
  // A snapshot that does not hold the shard: taken after the corruption (PARTIAL), refused before anything is sent.
  const partial = await cli(['snapshot', 'create', 'nightly', '--indices', index, '--name', 'after-red', '--partial', '--wait', '--yes']);
  expect(partial.code, `${partial.stdout}\n${partial.stderr}`).toBe(5);
  const before = auditLinesIn(cfg).length;
  const none = await restoreInPlace(index, 'after-red', '--backup-dir', backups);
  expect(none.code).toBe(64);
  expect(none.stderr).toMatch(/the snapshot holds no whole copy of service_v9_second/);
  // A link planted in the shard folder: the folder is not copied (a link could lead root's tar anywhere), nothing sent.
  const uuid = (await es('GET', `/_cat/indices/${index}?h=uuid&format=json`)).body[0].uuid as string;
  const planted = path.join(node.dataDir, 'indices', uuid, '0', 'index', 'planted');
  execFileSync('runuser', ['-u', ES_USER, '--', 'ln', '-s', '/etc/shadow', planted]);
  const linked = await restoreInPlace(index, 's2', '--backup-dir', backups);
  expect(linked.code).toBe(64);
  expect(linked.stderr).toMatch(/planted is a symbolic link: shardeck does not follow links in the data folder/);
  fs.rmSync(planted);
  expect(auditedSince(before).filter((a) => !a.startsWith('PUT /_snapshot'))).toEqual([]);

  const cmp = JSON.parse((await cli(['recover-corrupt', index, '0', '--compare', '--yes', '--backup-dir', backups, '--json'])).stdout);
  expect(cmp.routes.map((x: { lost: number }) => x.lost)).toEqual([337, broken]);

  step('preview, then the snapshot is deleted, then the restore is sent');
  const client = createClient({ url: node.url });
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'test' });
  const session = restoreSession(
    createEsApi(client, node.url),
    guard,
    { repository: 'nightly', snapshot: 's2', indices: index, mode: 'replace', suffix: '-restored' },
    { backupDir: backups, watchTimeoutMs: 60_000 },
  );
  const review = await session.idle();
  expect(review.phase).toBe('review');
  expect((await es('DELETE', '/_snapshot/nightly/s2')).status).toBe(200);
  session.send({ type: 'confirm', confirmation: { by: 'typed', text: index } });
  const end = await session.idle();
  expect(end.phase).toBe('failed');
  const message = (end as { message: string }).message;
  expect(message).toMatch(
    new RegExp(
      `${index} is DELETED now: run the restore again; the copy of its folders is kept: copy checked again: ${index} shard 0 -> ${cmp.copy.archive}`,
    ),
  );
  expect((await es('GET', `/_cat/indices/${index}?format=json`)).status).toBe(404);
  expect(fs.existsSync(cmp.copy.archive)).toBe(true);

  step('the repair run from the copy');
  const fixed = await cli(['recover-corrupt', '--from-copy', cmp.copy.archive, '--yes', '--json']);
  expect(fixed.code, fixed.stderr).toBe(0);
  const f = JSON.parse(fixed.stdout);
  // What the repair took away is what CheckIndex counted before the choice.
  expect(f).toMatchObject({ kept: ALL - broken, lost: broken, expected: broken });
  expect(fs.existsSync(path.join(f.folder, '0', 'index'))).toBe(true);
  expect(mode(f.folder)).toBe(0o700);

  // A copy whose archive holds a link (as one planted in the shard folder between the check and
  // tar would be): root never unpacks it.
  const planting = fs.mkdtempSync(path.join(work, 'planting-'));
  fs.mkdirSync(path.join(planting, '0', 'index'), { recursive: true });
  fs.symlinkSync('/etc', path.join(planting, '0', 'index', 'escape'));
  const evil = path.join(backups, 'service_v9_evil-0-20261128T000000Z.tar');
  execFileSync('tar', ['-C', planting, '-cf', evil, '0']);
  fs.writeFileSync(`${evil}.json`, JSON.stringify({ ...cmp.copy, index: 'service_v9_evil', archive: evil }), { mode: 0o600 });
  const refused = await cli(['recover-corrupt', '--from-copy', evil, '--yes']);
  expect(refused.code).toBe(5);
  expect(refused.stderr).toMatch(/holds an entry that is not a plain file or folder: l/);
  expect(fs.existsSync(evil.replace(/\.tar$/, '.repaired'))).toBe(false);
}, 900_000);

it('no copy taken before: the restore in place takes it itself (backup, then its check, then the delete) and leaves it behind', async () => {
  const index = 'service_v9_third';
  step('a third red index, restored in place with no copy taken before');
  const { folder } = await redAfterSnapshot(index, 's3');
  const sent = auditLinesIn(cfg).length;
  const r = await restoreInPlace(index, 's3', '--backup-dir', backups, '--json');
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  const k = JSON.parse(r.stdout);
  const [copy] = k.indices[0].copy.here;
  expect(copy).toMatchObject({ shard: 0, folder });
  expect(copy.reuse).toBeUndefined();
  // Nothing counted the repair's loss yet: the preview says how to.
  expect(k.indices[0].loss.exorcise).toMatchObject({ lost: null, why: expect.stringMatching(/--compare/) });
  expect(auditedSince(sent)).toEqual([
    `reversible: copy the shard folder of ${index} shard 0 before deleting the red index ${index} for a restore in place from nightly/s3`,
    `reversible: check the copy of ${index} shard 0 (just taken) against its folder`,
    `DELETE /${index}`,
    'POST /_snapshot/nightly/s3/_restore',
    `read: ${index} restored: expected about 337 lost; 2000 documents counted once green against 2337 before: 337 lost`,
  ]);
  expect(k.copied).toEqual([`copied: ${index} shard 0 -> ${copy.archive}`]);
  expect(mode(copy.archive)).toBe(0o600);
  expect(fs.existsSync(`${copy.archive}.json`)).toBe(true);
  expect((await es('GET', `/${index}/_count`)).body.count).toBe(2000);
}, 900_000);
