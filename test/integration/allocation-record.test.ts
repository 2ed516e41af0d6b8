// Allocation is never left off by shardeck, on a real 8.19 node through the built CLI: a limit set
// by hand makes status warn (exit 1, the reason in JSON); a limit set by shardeck is recorded
// first (0600 in a 0700 folder under the lock folder), the next command on that cluster says so on
// stderr, and `shardeck allocation restore` puts it back and drops the record.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { createUiStore } from '../../src/ui/state';
import { makeStore, renderApp } from '../ui/harness';
import { expectFits, until, wizardsWith } from '../helpers/wizard-ui';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-alloc-'));
const lockDir = path.join(dir, 'locks');
const env = { SHARDECK_CONFIG_DIR: path.join(dir, 'config'), SHARDECK_LOCK_DIR: lockDir };
const recordDir = path.join(lockDir, `allocation.${process.getuid!()}`);

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
  fs.rmSync(dir, { recursive: true, force: true });
});

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
    // The record: this user's folder 0700, the file 0600, the value before (unset).
    expect(fs.statSync(recordDir).mode & 0o777).toBe(0o700);
    const [file] = fs.readdirSync(recordDir);
    expect(fs.statSync(path.join(recordDir, file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(path.join(recordDir, file), 'utf8')).before).toEqual({
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
    expect(fs.readdirSync(recordDir)).toEqual([]);
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
    expect(fs.readdirSync(recordDir)).toHaveLength(1);
    await es('PUT', '/_cluster/settings', { persistent: { 'cluster.routing.allocation.enable': null } });
    const r = await cli(['status', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(fs.readdirSync(recordDir)).toEqual([]);
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
      expect(fs.readdirSync(recordDir)).toEqual([]);
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
});
