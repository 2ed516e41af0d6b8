// Allocation is never left off by shardeck, on a real 8.19 node through the built CLI: a limit set
// by hand makes status warn (exit 1, the reason in JSON); a limit set by shardeck is recorded
// first (0600 in a 0700 folder under the lock folder), the next command on that cluster says so on
// stderr, and `shardeck allocation restore` puts it back and drops the record. The record is seen by
// every operator of the host: a second OS user's record is offered to root and the other way round.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliForOtherUsers, ensureBuilt, runCli } from '../helpers/run-cli';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { createUiStore } from '../../src/ui/state';
import { makeStore, renderApp } from '../ui/harness';
import { expectFits, until, wizardsWith } from '../helpers/wizard-ui';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-alloc-'));
// The other user must reach the shared folder inside it (the folder itself is made 1777 by shardeck).
fs.chmodSync(dir, 0o755);
const lockDir = path.join(dir, 'locks');
const env = { SHARDECK_CONFIG_DIR: path.join(dir, 'config'), SHARDECK_LOCK_DIR: lockDir };
/** This user's allocation records: <lockDir>/<cluster>.allocation.<uid>.json (config/allocation-record.ts). */
const records = (): string[] =>
  fs.existsSync(lockDir) ? fs.readdirSync(lockDir).filter((n) => n.endsWith(`.allocation.${process.getuid!()}.json`)) : [];

let node: SharedNode;

async function es(method: string, p: string, body?: unknown) {
  const res = await fetch(node.url + p, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

const cli = (args: string[]) => runCli([...args, '--url', node.url], { env });
const enableSetting = async () =>
  ((await es('GET', '/_cluster/settings?flat_settings=true')) as { persistent: Record<string, string> }).persistent[
    'cluster.routing.allocation.enable'
  ];

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
});
afterAll(() => {
  if (otherUid !== undefined) spawnSync('userdel', [OTHER]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const OTHER = `shardeck-alloc-${process.pid % 100000}`;
let otherUid: number | undefined;

/** The built CLI as the other OS user, with nothing of root's environment but the shared lock folder. */
function asOther(args: string[]) {
  const r = spawnSync(
    'runuser',
    ['-u', OTHER, '--', 'env', '-i', `PATH=${process.env.PATH}`, `SHARDECK_CONFIG_DIR=${path.join(dir, 'other-conf')}`].concat([
      `SHARDECK_LOCK_DIR=${lockDir}`,
      'NO_COLOR=1',
      process.execPath,
      cliForOtherUsers(),
      ...args,
      '--url',
      node.url,
    ]),
    { encoding: 'utf8', cwd: '/' },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every operator's allocation record of the node, by owner uid. */
const recordsOf = (uid: number): string[] =>
  fs.existsSync(lockDir) ? fs.readdirSync(lockDir).filter((n) => n.endsWith(`.allocation.${uid}.json`)) : [];

describe('allocation limits and the record of what shardeck changed', () => {
  it('set by hand: status warns with exit 1 and the reason in JSON; nothing is offered back (shardeck did not set it)', async () => {
    await es('PUT', '/_cluster/settings', {
      persistent: { 'cluster.routing.rebalance.enable': 'none', 'cluster.routing.allocation.exclude._name': 'gone-node' },
    });
    const r = await cli(['status', '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.status).toBe('green');
    expect(report.allocationLimits.map((l: { setting: string; value: string }) => [l.setting, l.value])).toEqual([
      ['cluster.routing.rebalance.enable', 'none'],
      ['cluster.routing.allocation.exclude._name', 'gone-node'],
    ]);
    expect(r.stderr).toBe('');
    const text = await cli(['status']);
    expect(text.stdout).toMatch(/WARNING rebalancing is limited to none/);
    expect(text.stdout).toMatch(/WARNING an allocation exclude is set: cluster.routing.allocation.exclude._name=gone-node/);
    const a = await cli(['allocation', '--json']);
    expect(JSON.parse(a.stdout)).toMatchObject({ ok: true, left: null });
    await es('PUT', '/_cluster/settings', {
      persistent: { 'cluster.routing.rebalance.enable': null, 'cluster.routing.allocation.exclude._name': null },
    });
    expect((await cli(['status', '--json'])).code).toBe(0);
  });

  it('set by shardeck and not put back: recorded before, said by the next command, restored by allocation restore', async () => {
    const set = await cli(['allocation', 'enable', 'primaries', '--yes']);
    expect(set.stdout).toMatch(/ok: cluster.routing.allocation.enable is primaries/);
    expect(await enableSetting()).toBe('primaries');
    // The record: in the shared sticky lock folder, this user's file 0644 (every operator reads it), the value before (unset).
    expect(fs.statSync(lockDir).mode & 0o7777).toBe(0o1777);
    const [file] = records();
    expect(fs.statSync(path.join(lockDir, file)).mode & 0o777).toBe(0o644);
    expect(JSON.parse(fs.readFileSync(path.join(lockDir, file), 'utf8')).before).toEqual({
      persistent: { 'cluster.routing.allocation.enable': null },
      transient: {},
    });

    // Any next command on the cluster says it on stderr (its own output untouched).
    const st = await cli(['status', '--json']);
    expect(st.code).toBe(1);
    expect(JSON.parse(st.stdout).allocationLimits[0]).toMatchObject({ setting: 'cluster.routing.allocation.enable', value: 'primaries' });
    expect(st.stderr).toMatch(
      /shardeck: WARNING: shardeck changed allocation at .* and it was not put back: cluster.routing.allocation.enable is primaries \(persistent; it was unset\); put it back with: shardeck allocation restore/,
    );
    expect((await cli(['nodes'])).stderr).toMatch(/put it back with: shardeck allocation restore/);

    // Read-only: refused, nothing sent, the record stays.
    const ro = await cli(['allocation', 'restore', '--yes', '--read-only']);
    expect(ro.code).toBe(4);
    expect(await enableSetting()).toBe('primaries');

    const dry = await cli(['allocation', 'restore', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/PUT .*\/_cluster\/settings/);
    expect(await enableSetting()).toBe('primaries');

    const back = await cli(['allocation', 'restore', '--yes']);
    expect(back.code).toBe(0);
    expect(back.stdout).toMatch(/ok: allocation is back to what it was/);
    expect(await enableSetting()).toBeUndefined();
    expect(records()).toEqual([]);
    const after = await cli(['status', '--json']);
    expect(after.code).toBe(0);
    expect(after.stderr).toBe('');
    // The restore is audited like every change.
    expect((await runCli(['audit', '--last', '2'], { env })).stdout).toMatch(
      /PUT \/_cluster\/settings\?flat_settings=true \{"persistent":\{"cluster.routing.allocation.enable":null\}\} -> ok 200/,
    );
  });

  it('put back by hand: the next command finds nothing left and drops the record', async () => {
    await cli(['allocation', 'enable', 'none', '--yes']);
    expect(records()).toHaveLength(1);
    await es('PUT', '/_cluster/settings', { persistent: { 'cluster.routing.allocation.enable': null } });
    const r = await cli(['status', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(records()).toEqual([]);
  });

  it('the console: the dialog (A on the Health pane; the console opens the same one at start) says what is left and y puts it back', async () => {
    await cli(['allocation', 'enable', 'primaries', '--yes']);
    const saved = { cfg: process.env.SHARDECK_CONFIG_DIR, lock: process.env.SHARDECK_LOCK_DIR };
    process.env.SHARDECK_CONFIG_DIR = env.SHARDECK_CONFIG_DIR;
    process.env.SHARDECK_LOCK_DIR = lockDir;
    process.env.NO_COLOR = '1';
    const client = createClient({ url: node.url });
    try {
      const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui' });
      const services = createWizardServices(createEsApi(client, node.url), guard, {});
      const store = makeStore();
      store.setState({ pane: 'health' });
      const app = await renderApp(store, {
        columns: 80,
        rows: 24,
        wizards: wizardsWith(['allocationRestore'], services),
        ui: createUiStore(),
      });
      await app.press('A');
      let f = await until(app, /y put it back/, 60_000);
      expectFits(f);
      expect(f.replace(/\n/g, ' ')).toMatch(/shardeck changed allocation at/);
      expect(f).toMatch(/PUT .*_cluster\/settings/);
      await app.press('y');
      f = await until(app, /ok: allocation is back to what it was|FAILED/, 60_000);
      expect(f).toMatch(/ok: allocation is back to what it was/);
      expect(await enableSetting()).toBeUndefined();
      expect(records()).toEqual([]);
      app.unmount();
    } finally {
      await client.close();
      for (const [k, v] of [
        ['SHARDECK_CONFIG_DIR', saved.cfg],
        ['SHARDECK_LOCK_DIR', saved.lock],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  }, 120_000);

  it("every operator of the host sees it: the other user's record is offered to root, root's to the other user; each puts it back", async () => {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    otherUid = Number(spawnSync('id', ['-u', OTHER], { encoding: 'utf8' }).stdout.trim());
    fs.mkdirSync(path.join(dir, 'other-conf'), { mode: 0o700 });
    fs.chownSync(path.join(dir, 'other-conf'), otherUid, otherUid);
    // The shared folder as shardeck makes it (this test may run alone: nothing made it yet).
    fs.mkdirSync(lockDir, { recursive: true });
    fs.chmodSync(lockDir, 0o1777);

    // The other operator's shardeck leaves allocation at primaries (as a crash after the change would).
    const left = asOther(['allocation', 'enable', 'primaries', '--yes']);
    expect(left.code, left.stderr).toBe(0);
    expect(await enableSetting()).toBe('primaries');
    const [theirs] = recordsOf(otherUid);
    expect(fs.statSync(path.join(lockDir, theirs)).uid).toBe(otherUid);

    // Root's next command says so, naming whose record it is from the file system.
    const st = await cli(['status', '--json']);
    expect(st.code).toBe(1);
    expect(st.stderr).toMatch(
      new RegExp(
        `cluster.routing.allocation.enable is primaries \\(persistent; it was unset\\) \\(the record of ${OTHER} \\(uid ${otherUid}\\), another operator`,
      ),
    );
    expect(JSON.parse((await cli(['allocation', '--json'])).stdout).left).toMatchObject({ recordOwner: `${OTHER} (uid ${otherUid})` });

    // A change of root meanwhile keeps what was there before the OTHER's change: one restore puts
    // allocation back to unset (not to the primaries the other left), and root drops both records.
    expect((await cli(['allocation', 'enable', 'none', '--yes'])).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(lockDir, records()[0]), 'utf8')).before.persistent).toEqual({
      'cluster.routing.allocation.enable': null,
    });
    const back = await cli(['allocation', 'restore', '--yes']);
    expect(back.code, back.stderr).toBe(0);
    expect(await enableSetting()).toBeUndefined();
    expect(recordsOf(otherUid)).toEqual([]);
    expect(records()).toEqual([]);

    // The other way round: root's record, seen and put back by the other user, who may not remove
    // root's file (sticky folder): it stays, counts for nothing, and root's next start drops it.
    expect((await cli(['allocation', 'enable', 'none', '--yes'])).code).toBe(0);
    const seen = asOther(['status', '--json']);
    expect(seen.code).toBe(1);
    expect(seen.stderr).toMatch(/cluster.routing.allocation.enable is none .*the record of root \(uid 0\), another operator/);
    const theirBack = asOther(['allocation', 'restore', '--yes']);
    expect(theirBack.code, theirBack.stderr).toBe(0);
    expect(await enableSetting()).toBeUndefined();
    expect(records()).toHaveLength(1);
    const quiet = asOther(['status', '--json']);
    expect([quiet.code, quiet.stderr]).toEqual([0, '']);
    const mine = await cli(['status', '--json']);
    expect([mine.code, mine.stderr]).toEqual([0, '']);
    expect(records()).toEqual([]);

    // A record under the other user's name that root wrote (the owner is not the uid in its name) is
    // not the other's: ignored, though the setting it claims differs from now.
    const key = theirs.split('.')[0];
    const planted = path.join(lockDir, `${key}.allocation.${otherUid}.json`);
    fs.writeFileSync(
      planted,
      JSON.stringify({
        version: 1,
        clusterUuid: (
          (await es('GET', '/_cluster/state/metadata?filter_path=metadata.cluster_uuid')) as { metadata: { cluster_uuid: string } }
        ).metadata.cluster_uuid,
        url: node.url,
        at: new Date().toISOString(),
        user: OTHER,
        pid: 1,
        what: 'planted',
        before: { persistent: { 'cluster.routing.allocation.enable': 'none' }, transient: {} },
      }),
      { mode: 0o644 },
    );
    const ignored = await cli(['status', '--json']);
    expect([ignored.code, ignored.stderr]).toEqual([0, '']);
    fs.chownSync(planted, otherUid, otherUid);
    // The same file owned by the uid in its name is that operator's record: offered.
    expect((await cli(['status', '--json'])).stderr).toMatch(/it was none\) \(the record of/);
    fs.rmSync(planted);
  }, 240_000);
});
