// Root-safe host steps (issue 31): shardeck runs as root next to files the engine's user owns.
// Run as root, with the harness's unprivileged user (shardeck-es) standing in for the engine's
// user: it owns an Elasticsearch home with a data folder, as on a tarball install, and does what
// it may do there (plant links, swap folders). No Elasticsearch node is needed: the host steps
// are run the way the checklist runs them (carryOutHostStep), on real files with the real tools.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ES_USER } from '../../dev/lib/es-node.mjs';
import { recoveryPlan, type PlanFacts } from '../../src/domain/corruption/plan';
import { newProgress } from '../../src/domain/corruption/progress';
import { planFacts, processUser, type CorruptShardReport } from '../../src/services/corruption';
import { carryOutHostStep } from '../../src/services/recovery-runner';
import { runShell } from '../../src/boundary/host-shell';
import { pluginToolRefusal } from '../../src/services/engine';
import { parsePluginSource } from '../../src/domain/host/engine';

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
    nodeFacts: { id: 'abc', name: 'n1', home, dataPaths: [path.join(home, 'data')], bundledJdk: true },
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

async function runStep(f: PlanFacts, id: string, method: 'checkindex' | 'shard-tool' = 'checkindex') {
  const p = newProgress(method, f, new Date().toISOString());
  const plan = recoveryPlan(f);
  const step = (method === 'shard-tool' ? plan.alternative! : plan.steps).find((s) => s.id === id)!;
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

it("31.1: a root-owned folder under the engine user's home is refused too (the home's owner can rename it away)", async () => {
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
  expect(execFileSync('tar', ['-tf', archive], { encoding: 'utf8' }).split('\n').filter(Boolean).sort()).toEqual([
    '0/',
    '0/index/',
    '0/index/_0.cfs',
    '0/index/segments_1',
  ]);
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

// --- 31.2: the engine's user ----------------------------------------------------------------------

const esUid = () => Number(execFileSync('id', ['-u', ES_USER], { encoding: 'utf8' }).trim());
const esGid = () => Number(execFileSync('id', ['-g', ES_USER], { encoding: 'utf8' }).trim());

/** A java stand-in: writes the uid it ran as, and its arguments, where the test reads them. */
function recordingJava(dir: string, name = 'java'): { java: string; ran: string } {
  // Modes set explicitly, whatever the umask (077 on hardened roots): the engine's user runs the
  // stand-in and writes what it saw.
  fs.mkdirSync(path.join(dir, 'out'), { recursive: true });
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(path.join(dir, 'out'), 0o755);
  execFileSync('chown', [ES_USER, path.join(dir, 'out')]);
  const ran = path.join(dir, 'out', `${name}.ran`);
  const java = path.join(dir, name);
  fs.writeFileSync(java, `#!/bin/sh\nid -u >> ${ran}\necho "$@" >> ${ran}\n`);
  fs.chmodSync(java, 0o755);
  return { java, ran };
}

let engine: ChildProcess | undefined;
afterAll(() => {
  engine?.kill();
});

it("31.2: the engine's user is read from its running process (/proc/<pid>/status), not from a folder's owner", async () => {
  // A stand-in JVM of the engine's user: its command line names Elasticsearch's main class.
  engine = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'org.elasticsearch.bootstrap.Elasticsearch'], {
    uid: esUid(),
    gid: esGid(),
    stdio: 'ignore',
  });
  await new Promise((r) => engine!.once('spawn', r));
  expect(processUser(engine.pid!)).toBe(ES_USER);
  expect(processUser(process.pid)).toBe('root');
  // Told another user than the one the engine runs as: refused before the engine is stopped.
  const stop = await runStep(facts({ esUser: 'nobody', pid: engine.pid!, serviceStop: 'true' }), 'stop');
  expect(stop.ok).toBe(false);
  expect(stop.message).toContain(`the engine (pid ${engine.pid}) runs as uid ${esUid()}, not nobody`);
});

it("31.2: a shard folder reached through a link is refused, and root is never the engine's user: CheckIndex does not run", async () => {
  const { java, ran } = recordingJava(path.join(base, 'tools'));
  // The engine's user swaps indices/<uuid> for a link to a root-owned folder with a shard inside.
  const rootOwned = path.join(base, 'root-owned-index');
  fs.mkdirSync(path.join(rootOwned, '0', 'index'), { recursive: true });
  const uuidDir = path.join(home, 'data', 'indices', 'uuid2');
  asEngine('ln', '-s', rootOwned, uuidDir);
  const linked = path.join(uuidDir, '0');
  // Facts as the old code made them: the owner of the folder after following the link (root).
  const asRoot = await runStep(facts({ folder: linked, esUser: 'root', java }), 'check');
  expect(asRoot.ok).toBe(false);
  expect(asRoot.message).toMatch(/^the engine's user would be root \(uid 0\)/);
  const asEngineUser = await runStep(facts({ folder: linked, java }), 'check');
  expect(asEngineUser.ok).toBe(false);
  expect(asEngineUser.message).toContain(`${uuidDir} is a symbolic link`);
  expect(fs.existsSync(ran)).toBe(false);
  // The real folder, the engine's user's own: CheckIndex runs, as that user.
  const ok = await runStep(facts({ java }), 'check');
  expect(fs.readFileSync(ran, 'utf8').split('\n')[0]).toBe(String(esUid()));
  expect(ok.message).toContain('CheckIndex gave no verdict'); // the stand-in prints none
});

it('31.2: java or elasticsearch-shard that a third user can change is refused with its reason', async () => {
  const nobodyDir = path.join(base, 'nobody-tools');
  const { java, ran } = recordingJava(nobodyDir);
  execFileSync('chown', ['nobody', java]);
  const r = await runStep(facts({ java }), 'check');
  expect(r.ok).toBe(false);
  expect(r.message).toContain(`${java}: ${java} belongs to uid 65534, so another user could change what runs`);
  const tool = path.join(home, 'bin', 'elasticsearch-shard');
  fs.mkdirSync(path.dirname(tool), { recursive: true });
  fs.writeFileSync(tool, '#!/bin/sh\nexit 0\n', { mode: 0o777 });
  fs.chmodSync(tool, 0o777);
  const t = await runStep(facts(), 'shard-tool', 'shard-tool');
  expect(t.message).toContain(`${tool} can be written by others`);
  expect(fs.existsSync(ran)).toBe(false);
});

// --- 31.8 / 23.6: host commands' environment, the plugin tool ---------------------------------------

it("31.8: a host command's environment is an allow-list: a proxy password, a DATABASE_URL, the engine's ES_PATH_CONF and the inherited PATH stay behind", async () => {
  const keep = { ...process.env };
  Object.assign(process.env, {
    https_proxy: 'http://op:proxy-pw-77@proxy:3128',
    DATABASE_URL: 'postgres://u:db-pw-77@db/x',
    ES_PATH_CONF: '/home/es/evil',
    PATH: `/tmp/evil-bin:${process.env.PATH}`,
  });
  try {
    const r = await runShell('env; command -v bash', () => undefined, noSecrets);
    expect(r.ok).toBe(true);
    expect(r.output).not.toContain('proxy-pw-77');
    expect(r.output).not.toContain('db-pw-77');
    expect(r.output).not.toContain('/home/es/evil');
    expect(r.output).toMatch(/^PATH=\/usr\/sbin:\/usr\/bin:\/sbin:\/bin$/m);
  } finally {
    for (const k of ['https_proxy', 'DATABASE_URL', 'ES_PATH_CONF']) delete process.env[k];
    process.env.PATH = keep.PATH;
  }
});

it('23.6: a plugin URL with credentials is refused before anything runs (it would show in ps, the audit log, the journal and the timeline)', () => {
  expect(parsePluginSource('https://deploy:s3cret@repo.example.com/p.zip')).toMatch(/credentials/);
  expect(parsePluginSource('https://deploy:s3cret@repo.example.com/p.zip')).not.toContain('s3cret');
});

it("23.6: a symlinked plugins folder (or plugin) is refused; the tool's folder must not be another user's to change", () => {
  const esHome = path.join(base, 'plugin-home');
  fs.mkdirSync(path.join(esHome, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(esHome, 'bin', 'elasticsearch-plugin'), '#!/bin/sh\n', { mode: 0o755 });
  const elsewhere = path.join(base, 'elsewhere-plugins');
  fs.mkdirSync(elsewhere);
  fs.symlinkSync(elsewhere, path.join(esHome, 'plugins'));
  const facts = {
    node: { name: 'n1', id: 'abc' },
    home: { home: esHome, user: 'root', confDir: '/etc/elasticsearch', javaHome: null },
    answers: true,
    seen: 'now',
  };
  expect(pluginToolRefusal(facts)).toContain(`${esHome}/plugins is a symbolic link`);
  fs.rmSync(path.join(esHome, 'plugins'));
  fs.mkdirSync(path.join(esHome, 'plugins'));
  fs.symlinkSync(elsewhere, path.join(esHome, 'plugins', 'sneaky'));
  expect(pluginToolRefusal(facts)).toContain(`${esHome}/plugins/sneaky is a symbolic link`);
  fs.rmSync(path.join(esHome, 'plugins', 'sneaky'));
  expect(pluginToolRefusal(facts)).toBeNull();
  // Run as root, the tool must be root's alone.
  execFileSync('chown', [ES_USER, path.join(esHome, 'bin', 'elasticsearch-plugin')]);
  expect(pluginToolRefusal(facts)).toContain(`belongs to uid ${esUid()}`);
});
