// Root-safe host steps (issue 31): shardeck runs as root next to files the engine's user owns.
// Run as root, with the harness's unprivileged user (shardeck-es) standing in for the engine's
// user: it owns an Elasticsearch home with a data folder, as on a tarball install, and does what
// it may do there (plant links, swap folders). No Elasticsearch node is needed: the host steps
// are run the way the checklist runs them (carryOutHostStep), on real files with the real tools.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ES_USER } from '../../dev/lib/es-node.mjs';
import { recoveryPlan, type PlanFacts } from '../../src/domain/corruption/plan';
import { newProgress } from '../../src/domain/corruption/progress';
import { planFacts, type CorruptShardReport } from '../../src/services/corruption';
import { carryOutHostStep } from '../../src/services/recovery-runner';

let base: string;
let home: string;
let folder: string;
let victim: string;
const VICTIM_TEXT = 'root only: must never change\n';
const noSecrets = { envNames: [], values: [] };
const conn = { url: 'http://127.0.0.1:9200' };

/** As the engine's user (what it may do in its own home). */
const asEngine = (...argv: string[]) => execFileSync('runuser', ['-u', ES_USER, '--', ...argv], { encoding: 'utf8' });

/** What detection reports of a corrupt shard in the engine user's home (plain values). */
function report(over: Partial<CorruptShardReport> = {}): CorruptShardReport {
  return {
    index: 'logs',
    shard: 0,
    node: { name: 'n1', id: 'abc' },
    folder,
    folderOnThisHost: true,
    nodeFacts: { id: 'abc', name: 'n1', home, dataPaths: [path.join(home, 'data')], bundledJdk: true } as never,
    java: null,
    hasShardTool: true,
    dataOwner: ES_USER,
    confDir: path.join(home, 'config'),
    local: { ok: true, dataPath: path.join(home, 'data') },
    ...over,
  } as CorruptShardReport;
}

function facts(over: Partial<PlanFacts> = {}): PlanFacts {
  const f = planFacts(report(), undefined, conn, over);
  if (typeof f === 'string') throw new Error(f);
  return f;
}

async function runStep(f: PlanFacts, id: string) {
  const p = newProgress('checkindex', f, new Date().toISOString());
  const step = recoveryPlan(f).steps.find((s) => s.id === id)!;
  let out = '';
  const r = await carryOutHostStep(p, step, { output: (s) => (out += s) }, noSecrets);
  return { ...r, out };
}

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-root-safe-'));
  fs.chmodSync(base, 0o755);
  home = path.join(base, 'es-home');
  folder = path.join(home, 'data', 'indices', 'uuid1', '0');
  fs.mkdirSync(path.join(folder, 'index'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'index', '_0.cfs'), 'segment bytes');
  fs.writeFileSync(path.join(folder, 'index', 'segments_1'), 'commit');
  execFileSync('chown', ['-R', `${ES_USER}:`, home]);
  victim = path.join(base, 'victim');
  fs.writeFileSync(victim, VICTIM_TEXT, { mode: 0o600 });
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

it('31.1: a backup folder the engine user can write is refused; its planted link never makes root overwrite a file', async () => {
  // The old default: beside the data path, inside the engine user's home. The archive's name is
  // predictable: the engine user plants a link there to a root-only file.
  const inHome = path.join(home, 'shardeck-backups');
  const f = facts({ backupDir: inHome });
  asEngine('mkdir', '-p', inHome);
  asEngine('ln', '-s', victim, recoveryPlan(f).archive);
  const r = await runStep(f, 'backup');
  expect(fs.readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  expect(r.ok).toBe(false);
  // The first folder on the way that the engine's user owns is named.
  expect(r.message).toContain(`${home} belongs to another user (uid ${execFileSync('id', ['-u', ES_USER], { encoding: 'utf8' }).trim()})`);
});

it('31.1: a root-owned folder under the engine user\'s home is refused too (the home\'s owner can rename it away)', async () => {
  const under = path.join(home, 'root-owned');
  fs.mkdirSync(under, { mode: 0o700 });
  const r = await runStep(facts({ backupDir: path.join(under, 'backups') }), 'backup');
  expect(r.ok).toBe(false);
  expect(r.message).toContain(`${home} belongs to another user`);
  expect(fs.existsSync(path.join(under, 'backups'))).toBe(false);
});

it('31.1/31.3: by default root backs up into /var/backups/shardeck; the archive is a new 0600 file in a 0700 folder, verified, never written over', async () => {
  expect(facts().backupDir).toBe('/var/backups/shardeck');
  const dir = path.join(base, 'root-backups');
  const f = facts({ backupDir: dir });
  const { archive } = recoveryPlan(f);
  const r = await runStep(f, 'backup');
  expect(r).toMatchObject({ ok: true, message: `archive ${archive}` });
  expect(fs.lstatSync(dir).mode & 0o777).toBe(0o700);
  expect(fs.lstatSync(archive).mode & 0o777).toBe(0o600);
  expect(fs.lstatSync(archive).uid).toBe(0);
  expect(execFileSync('tar', ['-tf', archive], { encoding: 'utf8' }).split('\n').filter(Boolean).sort()).toEqual(['0/', '0/index/', '0/index/_0.cfs', '0/index/segments_1']);
  const verified = await runStep(f, 'verify-backup');
  expect(verified.ok).toBe(true);
  // A second run with the same name (a link planted by anyone who could): refused, the target untouched.
  fs.rmSync(archive);
  fs.symlinkSync(victim, archive);
  const again = await runStep(f, 'backup');
  expect(again.ok).toBe(false);
  expect(again.message).toContain(`${archive} already exists`);
  expect(fs.readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
  fs.rmSync(archive);
});

it('31.1: a backup folder that is a link, or that others can open, is refused (not followed, not chmod-ed)', async () => {
  const real = path.join(base, 'real-backups');
  fs.mkdirSync(real, { mode: 0o700 });
  const link = path.join(base, 'link-backups');
  fs.symlinkSync(real, link);
  const viaLink = await runStep(facts({ backupDir: link }), 'backup');
  expect(viaLink.message).toContain(`${link} is a symbolic link`);
  expect(fs.readdirSync(real)).toEqual([]);
  const open = path.join(base, 'open-backups');
  fs.mkdirSync(open);
  fs.chmodSync(open, 0o755);
  const opened = await runStep(facts({ backupDir: open }), 'backup');
  expect(opened.message).toContain(`${open} can be opened by others (mode 0755`);
  expect(fs.statSync(open).mode & 0o777).toBe(0o755);
});
