// Allocation is never left off by shardeck, on a real 8.19 node through the built CLI: a limit set
// by hand makes status warn (exit 1, the reason in JSON); a limit set by shardeck is recorded
// first (0600 in the shared sticky lock folder), the next command on that cluster says so on
// stderr, and `shardeck allocation restore` puts it back and drops the record. Another OS user's
// record is shown with its owner and never obeyed (issue 40 N2), a forged one included.
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
    // The record: in the shared sticky lock folder, this user's file 0600 (written through the boundary), the value before (unset).
    expect(fs.statSync(lockDir).mode & 0o7777).toBe(0o1777);
    const [file] = records();
    expect(fs.statSync(path.join(lockDir, file)).mode & 0o777).toBe(0o600);
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

  it("another operator's record is shown with its owner and never obeyed; restored only when chosen with --of, after its preview (issue 40 N2)", async () => {
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
    const theirStat = fs.statSync(path.join(lockDir, theirs));
    expect([theirStat.uid, theirStat.mode & 0o777]).toEqual([otherUid, 0o600]);

    // Root's next command names it by its owner (root reads every record), and does not offer it.
    const st = await cli(['status', '--json']);
    expect(st.code).toBe(1);
    expect(st.stderr).toMatch(
      new RegExp(
        `cluster.routing.allocation.enable is primaries \\(persistent; it was unset\\) \\(the record of ${OTHER} \\(uid ${otherUid}\\), another operator of this host: not acted on`,
      ),
    );
    expect(st.stderr).not.toMatch(/put it back with: shardeck allocation restore\n/);
    const listed = JSON.parse((await cli(['allocation', '--json'])).stdout);
    expect(listed.left).toBeNull();
    expect(listed.others).toMatchObject([{ recordOwner: `${OTHER} (uid ${otherUid})` }]);

    // Root's restore restores only root's own: nothing sent, their setting and record stay.
    const none = await cli(['allocation', 'restore', '--yes']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/nothing of yours to put back/);
    expect(await enableSetting()).toBe('primaries');
    expect(recordsOf(otherUid)).toEqual([theirs]);

    // A change of root's own records what was there before it (primaries), not the other's "before":
    // root's restore puts back primaries, and leaves the other's record to them.
    expect((await cli(['allocation', 'enable', 'none', '--yes'])).code).toBe(0);
    const rootRecord = path.join(lockDir, records()[0]);
    expect(fs.statSync(rootRecord).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(rootRecord, 'utf8')).before.persistent).toEqual({ 'cluster.routing.allocation.enable': 'primaries' });
    const mineBack = await cli(['allocation', 'restore', '--yes']);
    expect(mineBack.code, mineBack.stderr).toBe(0);
    expect(await enableSetting()).toBe('primaries');
    expect(records()).toEqual([]);
    expect(recordsOf(otherUid)).toEqual([theirs]);

    // Chosen by name: previewed (the request it sends), then sent; root removes the record it put back.
    const chosen = await cli(['allocation', 'restore', '--of', OTHER, '--yes']);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).toMatch(/PUT \/_cluster\/settings/);
    expect(await enableSetting()).toBeUndefined();
    expect(recordsOf(otherUid)).toEqual([]);

    // The other way round: root's record is 0600, so the other user sees that one exists and whose
    // it is, not what it says; it is never theirs to act on.
    expect((await cli(['allocation', 'enable', 'none', '--yes'])).code).toBe(0);
    const seen = asOther(['status', '--json']);
    expect(seen.stderr).toMatch(/a record of root \(uid 0\) in the shared lock folder \(not readable by you\): not acted on/);
    const theirTry = asOther(['allocation', 'restore', '--yes']);
    expect(theirTry.code, theirTry.stderr).toBe(0);
    expect(theirTry.stdout).toMatch(/nothing of yours to put back/);
    expect(await enableSetting()).toBe('none');
    expect((await cli(['allocation', 'restore', '--yes'])).code).toBe(0);
    expect(await enableSetting()).toBeUndefined();
    expect(records()).toEqual([]);

    // A forged record (the other user writes it by hand: an old date, allocation off and every node
    // excluded as "before"): root's enable-then-restore sends only root's own values back.
    const uuid = ((await es('GET', '/_cluster/state/metadata?filter_path=metadata.cluster_uuid')) as { metadata: { cluster_uuid: string } })
      .metadata.cluster_uuid;
    const key = theirs.split('.')[0];
    const forged = path.join(lockDir, `${key}.allocation.${otherUid}.json`);
    const forgedText = JSON.stringify({
      version: 1,
      clusterUuid: uuid,
      url: node.url,
      at: '2000-01-01T00:00:00.000Z',
      user: 'root',
      pid: 1,
      what: 'forged',
      before: {
        persistent: { 'cluster.routing.allocation.enable': 'none', 'cluster.routing.allocation.exclude._name': '*' },
        transient: {},
      },
    });
    const wrote = spawnSync('runuser', ['-u', OTHER, '--', 'sh', '-c', `umask 022; cat > "$1"`, 'sh', forged], {
      input: forgedText,
      encoding: 'utf8',
    });
    expect(wrote.status, wrote.stderr).toBe(0);
    const on = await cli(['allocation', 'enable', 'primaries', '--yes']);
    expect(on.code, on.stderr).toBe(0);
    const back = await cli(['allocation', 'restore', '--yes']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).not.toMatch(/"cluster\.routing\.allocation\.exclude\._name"/);
    expect(back.stdout).toMatch(/"cluster\.routing\.allocation\.enable":null/);
    const flat = ((await es('GET', '/_cluster/settings?flat_settings=true')) as { persistent: Record<string, string> }).persistent;
    expect(flat['cluster.routing.allocation.enable']).toBeUndefined();
    expect(flat['cluster.routing.allocation.exclude._name']).toBeUndefined();
    // Still there, still named by its owner, still not obeyed.
    expect(fs.existsSync(forged)).toBe(true);
    expect((await cli(['allocation'])).stdout).toMatch(new RegExp(`left by another operator.*the record of ${OTHER}`));

    // A record under the other user's name that root wrote (the owner is not the uid in its name) is
    // not the other's: named with its real owner, its claims never read.
    fs.rmSync(forged);
    fs.writeFileSync(forged, forgedText, { mode: 0o644 });
    const ignored = await cli(['status', '--json']);
    expect(ignored.stderr).toMatch(
      new RegExp(`a record of root \\(uid 0\\) .*owned by root \\(uid 0\\), not by the uid ${otherUid} its name claims`),
    );
    fs.rmSync(forged);
  }, 240_000);
});
