// The engine's service and plugins on a real 8.19.21 node, through the built CLI. The node runs
// from a private copy of the distribution (plugins change there, not in the shared one) and
// dev/es-service.mjs is its service manager (what systemctl is on a storage node), given as the
// --stop-cmd/--start-cmd/--status-cmd. Refusals first (read-only, --yes without the node's name,
// a wrong name, no terminal, a recovery checklist holding the node): the node must still answer
// with the same process and nothing be audited. Then stop (the node gone), status (exit 3),
// start (answers, joined, health), restart (a new process), and a plugin zip the harness builds,
// installed (loaded by the node after the restart shardeck offers), listed, removed. The service
// commands dump their environment: the Elasticsearch password is not in it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { buildTestPlugin, privateHome, TEST_PLUGIN } from '../../dev/test-plugin.mjs';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { newProgress } from '../../src/domain/corruption/progress';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { createUiStore } from '../../src/ui/state';
import { KEYS, makeStore, renderApp } from '../ui/harness';
import { expectFits, plain, until, wizardsWith } from '../helpers/wizard-ui';
import { auditLinesIn, esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';

let node: Awaited<ReturnType<typeof startNode>>;
let cfg: string;
let work: string;
let home: string;
let zip: string;
const SECRET = 'engine-secret-pw-4821';
const NAME = 'engine';

const svc = (verb: string) => `${process.execPath} ${path.resolve('dev/es-service.mjs')} ${verb} ${node.baseDir}`;
const dump = () => path.join(work, 'env-dump.txt');
/** The harness's service manager; every command first appends its environment to a file. */
const serviceFlags = () => [
  '--stop-cmd',
  `env >> ${dump()}; ${svc('stop')}`,
  '--start-cmd',
  `env >> ${dump()}; ${svc('start')}`,
  '--status-cmd',
  `env >> ${dump()}; ${svc('status')}`,
];
/** The CLI against the node, with a password in the environment (the plain node ignores it). */
const cli = (args: string[], input?: string) =>
  runCli([args[0], '--url', node.url, '--user', 'elastic', '--password-env', 'OPS_ES_PW', ...args.slice(1)], {
    env: { SHARDECK_CONFIG_DIR: cfg, OPS_ES_PW: SECRET },
    input,
  });
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

async function answers(): Promise<{ pid: number } | null> {
  try {
    const r = await esCall(node.url, 'GET', '/_nodes/process?filter_path=nodes.*.process.id');
    return { pid: (Object.values(r.body.nodes)[0] as any).process.id };
  } catch {
    return null;
  }
}

/** No such process, or only its zombie (its parent, the harness's launcher, has not reaped it yet). */
function gone(pid: number): boolean {
  try {
    return fs
      .readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .startsWith('Z');
  } catch {
    return true;
  }
}

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-engine-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-engine-work-'));
  fs.chmodSync(work, 0o755);
  home = privateHome(work);
  zip = buildTestPlugin();
  node = await startNode({ name: NAME, home });
}, 300_000);

afterAll(async () => {
  try {
    await node?.stop();
  } finally {
    for (const d of [cfg, work, node?.baseDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  }
});

it("status: the node of this host, answering, and the service manager's word", async () => {
  const r = await cli(['service', 'status', '--json', ...serviceFlags()]);
  expect(r.code, r.stderr).toBe(0);
  const out = json(r);
  expect(out).toMatchObject({ ok: true, node: { name: NAME }, pid: node.pid, answers: true, service: { running: true, exitCode: 0 } });
  expect(out.health).toMatch(/green|yellow/);
  // Read-only too: the service manager's status command is a program run on the host, audited as a read.
  const before = auditLinesIn(cfg).length;
  const ro = await cli(['service', 'status', '--read-only', '--json', ...serviceFlags()]);
  expect(ro.code, ro.stderr).toBe(0);
  const lines = auditLinesIn(cfg)
    .slice(before)
    .map((l) => JSON.parse(l));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({
    phase: 'sending',
    risk: 'read',
    confirmedBy: 'none',
    target: NAME,
    summary: `service status of node ${NAME}`,
  });
  expect(lines[0].command).toContain(svc('status'));
  expect(lines[1]).toMatchObject({ of: lines[0].id, outcome: { ok: true, status: 0 } });
  // `audit` and the timeline show it as a read, never as a change.
  const audit = await runCli(['audit', '--last', '1'], { env: { SHARDECK_CONFIG_DIR: cfg } });
  expect(audit.stdout).toMatch(/ read \(no change\) \$ .*es-service\.mjs status .* -> ok 0/);
  const incident = await runCli(['incident', '--url', node.url, '--json'], { env: { SHARDECK_CONFIG_DIR: cfg } });
  expect(incident.code, incident.stderr).toBe(0);
  const reads = json(incident).entries.filter((e: { kind: string }) => e.kind === 'read');
  expect(reads.at(-1)).toMatchObject({ kind: 'read', summary: `service status of node ${NAME}`, result: 'ok' });
  expect(json(incident).entries.filter((e: { kind: string }) => e.kind === 'change')).toEqual([]);
});

it('refusals: read-only, --yes without the node name, a wrong name, no terminal, a checklist holding the node; nothing runs', async () => {
  const audited = auditLinesIn(cfg);
  const before = await answers();
  expect(before).not.toBeNull();
  const cases: { args: string[]; code: number; err: RegExp }[] = [
    { args: ['service', 'stop', '--read-only', '--yes', '--node-name', NAME], code: 4, err: /read-only mode.*nothing was sent/ },
    { args: ['service', 'restart', '--read-only', '--yes', '--node-name', NAME], code: 4, err: /read-only mode/ },
    { args: ['plugin', 'install', zip, '--read-only', '--yes'], code: 4, err: /read-only mode/ },
    { args: ['service', 'stop', '--yes'], code: 5, err: /--yes does not confirm it: add --node-name engine; nothing was run/ },
    { args: ['service', 'stop', '--yes', '--node-name', 'other-node'], code: 5, err: /type "engine"|not confirmed/ },
    { args: ['service', 'restart'], code: 5, err: /no terminal to confirm on: add --yes --node-name engine/ },
    { args: ['plugin', 'install', 'http://example.com/x.zip', '--yes'], code: 64, err: /plain http URL/ },
    { args: ['plugin', 'install', path.join(work, 'missing.zip'), '--yes'], code: 64, err: /missing\.zip does not exist/ },
    { args: ['service', 'reload'], code: 64, err: /give one of start, stop, restart, status/ },
  ];
  for (const c of cases) {
    // The service commands of this test node; the plugin tool takes none of them.
    const r = await cli(c.args[0] === 'service' ? [...c.args, ...serviceFlags()] : c.args);
    expect(r.code, `${c.args.join(' ')}\n${r.stderr}`).toBe(c.code);
    expect(r.stderr, c.args.join(' ')).toMatch(c.err);
  }
  // A checklist stopped half way on this node (its progress file, as the runner saves it).
  const progress = newProgress(
    'checkindex',
    {
      index: 'service_v9_x',
      shard: 0,
      node: { name: NAME, id: 'id' },
      folder: '/x/indices/u/0',
      home,
      java: null,
      esUser: 'shardeck-es',
      confDir: '/x',
      backupDir: '/x',
      stamp: '20261124T0100Z',
      conn: { url: node.url },
      hasShardTool: true,
    },
    new Date().toISOString(),
  );
  progress.steps = { stop: { status: 'done', at: new Date().toISOString(), message: 'done' } } as never;
  const file = path.join(cfg, 'recoveries', 'service_v9_x-0.json');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify(progress), { mode: 0o600 });
  const held = await cli(['service', 'restart', '--yes', '--node-name', NAME, '--json', ...serviceFlags()]);
  expect(held.code, held.stderr).toBe(5);
  expect(json(held)).toMatchObject({ ok: false, sent: false, refused: 'hold' });
  expect(held.stderr).toMatch(
    /a recovery checklist holds node engine: service_v9_x shard 0, stopped after 1 step; finish it with shardeck recover-corrupt --resume service_v9_x 0/,
  );
  fs.rmSync(file);
  // The same process answers; nothing was audited (no command ran).
  expect(await answers()).toEqual(before);
  expect(auditLinesIn(cfg)).toEqual(audited);
}, 120_000);

it('stop: confirmed by the node name, audited, verified gone; status then exits 3; start brings it back and it joins', async () => {
  const pid = (await answers())!.pid;
  // The status tests before this one left their host reads in the log: only what stop adds counts.
  const earlier = auditLinesIn(cfg).length;
  const stop = await cli(['service', 'stop', '--yes', '--node-name', NAME, '--json', ...serviceFlags()]);
  expect(stop.code, stop.stderr).toBe(0);
  expect(json(stop)).toMatchObject({
    ok: true,
    sent: true,
    verified: { ok: true, message: expect.stringMatching(new RegExp(`node engine no longer answers and process ${pid} is gone`)) },
  });
  expect(await answers()).toBeNull();
  expect(gone(pid)).toBe(true);
  const audit = auditLinesIn(cfg)
    .slice(earlier)
    .map((l) => JSON.parse(l));
  expect(audit).toHaveLength(2);
  expect(audit[0]).toMatchObject({
    phase: 'sending',
    command: expect.stringContaining('es-service.mjs stop'),
    risk: 'destructive',
    target: NAME,
    confirmedBy: 'yes-flag',
  });
  expect(audit[1]).toMatchObject({ outcome: { ok: true } });

  // Down: status says so from the remembered facts, exit 3.
  const down = await cli(['service', 'status', '--json', ...serviceFlags()]);
  expect(down.code, down.stderr).toBe(3);
  expect(json(down)).toMatchObject({ ok: false, answers: false, node: { name: NAME }, service: { running: false } });

  const start = await cli(['service', 'start', '--yes', ...serviceFlags()]);
  expect(start.code, start.stderr).toBe(0);
  expect(start.stdout).toMatch(/verified: node engine answers \(pid \d+\) and is in the cluster; cluster health (green|yellow)/);
  expect(await answers()).not.toBeNull();
}, 300_000);

it('restart: one confirmation, stop then start (the profile has no restart), a new process', async () => {
  const before = (await answers())!.pid;
  const r = await cli(['service', 'restart', '--yes', '--node-name', NAME, ...serviceFlags()]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/es-service\.mjs stop .*: done/);
  expect(r.stdout).toMatch(/verified: node engine no longer answers/);
  expect(r.stdout).toMatch(new RegExp(`verified: node engine answers \\(pid \\d+, was ${before}\\)`));
  const after = (await answers())!.pid;
  expect(after).not.toBe(before);
}, 300_000);

it('plugins: a zip built by the harness installed as the engine user, loaded after the offered restart, listed, removed', async () => {
  const empty = await cli(['plugin', 'list', '--json']);
  expect(empty.code, empty.stderr).toBe(0);
  expect(json(empty).plugins).toEqual([]);
  expect(json(empty).command).toMatch(
    /^runuser -u 'shardeck-es' -- env ES_PATH_CONF='.*' ES_JAVA_HOME='.*' '.*\/bin\/elasticsearch-plugin' list$/,
  );

  const dry = await cli(['plugin', 'install', zip, '--dry-run']);
  expect(dry.code, dry.stderr).toBe(0);
  expect(fs.readdirSync(path.join(home, 'plugins'))).toEqual([]);

  const inst = await cli(['plugin', 'install', zip, '--yes']);
  expect(inst.code, inst.stderr + inst.stdout).toBe(0);
  expect(inst.stdout).toMatch(new RegExp(`verified: ${TEST_PLUGIN} installed`));
  expect(inst.stdout).toMatch(/restart it to use the change \(shardeck service restart\)/);
  expect(inst.stdout).toMatch(/next: shardeck service restart/);
  const folder = path.join(home, 'plugins', TEST_PLUGIN);
  expect(fs.existsSync(path.join(folder, 'plugin-descriptor.properties'))).toBe(true);
  // Installed as the engine's user (who owns plugins/ here): the files are its own.
  expect(fs.statSync(folder).uid).toBe(fs.statSync(path.join(home, 'plugins')).uid);

  const listed = await cli(['plugin', 'list']);
  expect(listed.stdout.trim()).toBe(TEST_PLUGIN);

  // Not loaded until the engine starts again; the restart shardeck offers loads it.
  const cat = async () =>
    (await esCall(node.url, 'GET', '/_cat/plugins?format=json&h=component')).body.map((p: { component: string }) => p.component);
  expect(await cat()).toEqual([]);
  const re = await cli(['service', 'restart', '--yes', '--node-name', NAME, ...serviceFlags()]);
  expect(re.code, re.stderr).toBe(0);
  expect(await cat()).toEqual([TEST_PLUGIN]);

  const rm = await cli(['plugin', 'remove', TEST_PLUGIN, '--yes', '--json']);
  expect(rm.code, rm.stderr).toBe(0);
  expect(json(rm)).toMatchObject({
    ok: true,
    restartNeeded: true,
    plugins: [],
    verified: { ok: true, message: `verified: ${TEST_PLUGIN} is no longer installed` },
  });
  expect(fs.existsSync(folder)).toBe(false);
  const notThere = await cli(['plugin', 'remove', TEST_PLUGIN, '--yes']);
  expect(notThere.code).toBe(5);
  const audit = auditLinesIn(cfg)
    .map((l) => JSON.parse(l))
    .filter((a) => a.phase === 'sending' && a.risk !== 'read' && /elasticsearch-plugin/.test(a.command ?? ''));
  expect(audit.map((a) => a.summary)).toEqual([
    expect.stringMatching(/^plugin install shardeck-test-plugin-8\.19\.21\.zip on node engine/),
    `plugin remove ${TEST_PLUGIN} on node engine`,
    `plugin remove ${TEST_PLUGIN} on node engine`,
  ]);
}, 400_000);

it('the console wizard (E on the Nodes pane) at 80x24: install the zip by y, the offered restart by the typed name, remove', async () => {
  const uiCfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-engine-ui-'));
  const previousCfg = process.env.SHARDECK_CONFIG_DIR;
  process.env.SHARDECK_CONFIG_DIR = uiCfg;
  process.env.NO_COLOR = '1';
  const auditFile = path.join(uiCfg, 'audit.log');
  try {
    const client = createClient({ url: node.url });
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile });
    const [, stop, , start, , status] = serviceFlags();
    const services = createWizardServices(createEsApi(client, node.url), guard, {
      engineUrl: node.url,
      engineOverrides: { serviceStop: stop, serviceStart: start, serviceStatus: status },
    });
    const store = makeStore();
    store.setState({ pane: 'nodes' });
    const app = await renderApp(store, { columns: 80, rows: 24, wizards: wizardsWith(['engine'], services), ui: createUiStore() });
    const before = (await answers())!.pid;

    await app.press('E');
    let f = await until(app, /plugins: none/, 60_000);
    expectFits(f);
    expect(f).toMatch(new RegExp(`node engine \\(pid ${before}\\): answers, cluster (green|yellow)`));
    expect(f).toMatch(/service: running/);
    expect(f).toContain("This host's engine: service and plugins"); // the title, gone once closed below

    await app.press('i');
    await until(app, /plugin zip \(path on this host\), name or https URL:/);
    await app.type(zip);
    await app.press(KEYS.enter);
    f = await until(app, /y run it/, 60_000);
    expectFits(f);
    expect(f.replace(/\n/g, '')).toContain("elasticsearch-plugin' install --batch");
    await app.press('y');
    f = await until(app, new RegExp(`verified: ${TEST_PLUGIN} installed`), 120_000);
    expectFits(f);
    expect(f).toMatch(/r restart the engine now/);

    // The restart offered: the node's name typed; a wrong one does nothing.
    await app.press('r');
    await until(app, /type engine and Enter:/, 60_000);
    await app.type('engin');
    await app.press(KEYS.enter);
    expect(plain(app.frame())).toMatch(/type engine and Enter: engin/);
    await app.type('e');
    await app.press(KEYS.enter);
    f = await until(app, /verified: node engine answers \(pid \d+, was \d+\)|FAILED|does not answer/, 240_000);
    expect(f).toMatch(new RegExp(`verified: node engine answers \\(pid \\d+, was ${before}\\)`));
    expectFits(f);
    const plugins = (await esCall(node.url, 'GET', '/_cat/plugins?format=json&h=component')).body.map(
      (p: { component: string }) => p.component,
    );
    expect(plugins).toEqual([TEST_PLUGIN]);
    await app.press('q'); // any key closes a finished wizard
    await until(app, /^(?![\s\S]*service and plugins)/);

    await app.press('E');
    await until(app, new RegExp(`plugins: ${TEST_PLUGIN}`), 60_000);
    await app.press('d');
    await until(app, /plugin to remove:/);
    await app.type(TEST_PLUGIN);
    await app.press(KEYS.enter);
    await until(app, /y run it/, 60_000);
    await app.press('y');
    await until(app, new RegExp(`verified: ${TEST_PLUGIN} is no longer installed`), 120_000);
    app.unmount();

    const sent = fs
      .readFileSync(auditFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      // The changes; the wizard's plugin-list reads are audited too, as reads.
      .filter((a) => a.phase === 'sending' && a.risk !== 'read');
    expect(sent.map((a) => [a.confirmedBy, a.risk])).toEqual([
      ['key', 'reversible'],
      ['typed', 'destructive'],
      ['typed', 'destructive'],
      ['key', 'reversible'],
    ]);
    await client.close();
  } finally {
    if (previousCfg === undefined) delete process.env.SHARDECK_CONFIG_DIR;
    else process.env.SHARDECK_CONFIG_DIR = previousCfg;
    fs.rmSync(uiCfg, { recursive: true, force: true });
  }
}, 600_000);

it('issue 47 item 1: the console wizard on a host with no systemd says why the service is "not running" while the node answers', async () => {
  expect(fs.existsSync('/run/systemd/system')).toBe(false);
  const client = createClient({ url: node.url });
  const guard = new Guard({ client, conn: { url: node.url, readOnly: true }, profile: 'ui', auditFile: path.join(cfg, 'audit-ui.log') });
  // The profile's commands left out: the default systemctl ones.
  const services = createWizardServices(createEsApi(client, node.url), guard, { engineUrl: node.url });
  const store = makeStore();
  store.setState({ pane: 'nodes' });
  const app = await renderApp(store, { columns: 80, rows: 24, wizards: wizardsWith(['engine'], services), ui: createUiStore() });
  try {
    await app.press('E');
    const f = plain(await until(app, /plugins:/, 60_000)).replace(/\s+/g, ' ');
    expect(f).toMatch(/answers, cluster/);
    expect(f).toMatch(/service: not running .*the node answers all the same: systemd does not run on this host/);
  } finally {
    app.unmount();
    await client.close();
  }
}, 120_000);

it('no host command got the password: not in any environment the service commands dumped, nor the audit log', () => {
  const dumped = fs.readFileSync(dump(), 'utf8');
  expect(dumped).toMatch(/^PATH=/m); // the dumps are real
  expect(dumped).not.toContain(SECRET);
  expect(dumped).not.toMatch(/^OPS_ES_PW=/m);
  expect(fs.readFileSync(path.join(cfg, 'audit.log'), 'utf8')).not.toContain(SECRET);
});
