// The guarded path against a real node: bad input and read-only mode send nothing (checked in the
// audit file AND on the cluster), a sent mutation leaves exactly one 0600 audit line, a failed
// one is recorded once (never retried: no-retry.test.ts), and destructive plans need the typed name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { readAudit } from '../../src/services/audit';
import { Guard, GuardRefusal, type Approver } from '../../src/services/guard';
import type { MutationPlan } from '../../src/domain/mutation/plan';
import { pinIndices } from '../../src/domain/mutation/targets';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;
const INDEX = 'guard_idx';

const es = async (method: string, p: string, body?: unknown): Promise<any> => (await esCall(node.url, method, p, body)).body;

const auditPath = () => path.join(cfg, 'audit.log');
const auditLines = () => auditLinesIn(cfg);
const replicasOnCluster = async () =>
  (await es('GET', `/${INDEX}/_settings/index.number_of_replicas?flat_settings=true`))[INDEX].settings['index.number_of_replicas'];
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-guard-'));
  await es('PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await es('PUT', '/.guard_system', { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.hidden': true } });
});

afterAll(() => {
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('bad input is refused before anything is sent', () => {
  const cases: [string[], RegExp][] = [
    // A negative number is a value, not an option: it reaches the command's own check.
    [['replicas', 'set', INDEX, '-1'], /cannot be negative/],
    [['replicas', 'set', INDEX, '--', '-1'], /cannot be negative/],
    [['replicas', 'set', INDEX, '1.5'], /must be a whole number/],
    [['replicas', 'set', INDEX, 'abc'], /is not a number/],
    [['replicas', 'set', 'no_such_index', '1'], /no index matches "no_such_index"/],
    [['replicas', 'set', '*', '1'], /would match every index/],
    [['replicas', 'set', '_all', '1'], /would match every index/],
    [['replicas', 'set', `${INDEX},,x`, '1'], /empty name/],
    [['replicas', 'set', `${INDEX},*`, '1'], /would match every index/],
    [['replicas', 'set', '*guard*', '1'], /system \(dot\) index \(\.guard_system\)/],
    [['replicas', 'set', 'guard_nomatch_*', '1'], /matches no index/],
    [['scroll-limit', '0'], /not a whole number of 1 or more/],
  ];
  it.each(cases)('%j', async (args, message) => {
    const r = await cli([args[0], '--yes', ...args.slice(1)]);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')[0]).toMatch(message); // the first line says it, no stack
    expect(r.code).toBe(64);
    expect(auditLines()).toEqual([]);
    expect(await replicasOnCluster()).toBe('0');
  });

  it('--json gives the error in a stable shape', async () => {
    const r = await cli(['replicas', 'set', INDEX, 'abc', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ schema: 1, command: 'replicas', ok: false, error: expect.stringMatching(/not a number/) });
  });
});

describe('read-only mode', () => {
  it('refuses every mutating command with exit 4 and sends nothing', async () => {
    const before = await es('GET', '/_cluster/settings?flat_settings=true');
    for (const args of [['replicas', 'set', INDEX, '1'], ['unblock'], ['scroll-limit', '900'], ['reroute', '--retry-failed']]) {
      const r = await cli([...args, '--yes', '--read-only']);
      expect(r.code, args.join(' ')).toBe(4);
      expect(r.stderr).toMatch(/read-only mode.*nothing was sent/);
    }
    expect(auditLines()).toEqual([]);
    expect(await replicasOnCluster()).toBe('0');
    expect(await es('GET', '/_cluster/settings?flat_settings=true')).toEqual(before);
  });

  it('still shows what is there (scroll-limit without a number reads only)', async () => {
    const r = await cli(['scroll-limit', '--read-only', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ limit: 500, nodes: [{ name: node.name, open: 0, limit: 500, full: false }] });
  });
});

describe('dry run and the preview', () => {
  it('shows method, path, body and the curl line, and sends nothing', async () => {
    const r = await cli(['replicas', 'set', INDEX, '1', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ dryRun: true, sent: false, matched: [INDEX] });
    expect(out.requests[0]).toMatchObject({
      method: 'PUT',
      path: `/${INDEX}/_settings?expand_wildcards=all`,
      body: { index: { number_of_replicas: 1 } },
    });
    expect(out.requests[0].curl).toBe(
      `curl -X PUT '${node.url}/${INDEX}/_settings?expand_wildcards=all' -H 'Content-Type: application/json' -d '{"index":{"number_of_replicas":1}}'`,
    );
    expect(auditLines()).toEqual([]);
    expect(await replicasOnCluster()).toBe('0');
  });

  it('without --yes and without a terminal it refuses to guess', async () => {
    const r = await cli(['replicas', 'set', INDEX, '1']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/add --yes/);
    expect(auditLines()).toEqual([]);
  });
});

describe('the guard itself', () => {
  const guardFor = (readOnly = false) =>
    new Guard({
      client: createClient({ url: node.url }),
      conn: { url: node.url, readOnly },
      profile: 'test',
      platformUser: 'u-42',
      auditFile: auditPath(),
    });

  it('sends once, records one 0600 audit line, and reads the cluster back', async () => {
    const guard = guardFor();
    const plan: MutationPlan = {
      method: 'PUT',
      path: `/${INDEX}/_settings`,
      querystring: {},
      body: { index: { refresh_interval: '2s' } },
      risk: 'reversible',
      target: INDEX,
      summary: 'refresh every 2s',
      verify: {
        path: `/${INDEX}/_settings/index.refresh_interval`,
        querystring: { flat_settings: 'true' },
        check: (b: any) => ({ ok: b[INDEX].settings['index.refresh_interval'] === '2s', message: 'read back' }),
      },
    };
    const out = await guard.execute(plan, { by: 'key' });
    expect(out).toMatchObject({ ok: true, status: 200, verified: { ok: true } });
    expect(fs.statSync(auditPath()).mode & 0o777).toBe(0o600);
    const { records } = readAudit(auditPath());
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      profile: 'test',
      platformUser: 'u-42',
      url: node.url,
      request: { method: 'PUT', path: `/${INDEX}/_settings`, body: { index: { refresh_interval: '2s' } } },
      confirmedBy: 'key',
      outcome: { ok: true, status: 200 },
    });
    fs.rmSync(auditPath());
  });

  // A 400 is never retried by any client, so this only shows the record of a failure; that nothing
  // is resent on a 503 or a reset connection (what a client would retry) is no-retry.test.ts.
  it('records a failed (400) mutation once, with the error', async () => {
    const guard = guardFor();
    const out = await guard.execute(
      {
        method: 'PUT',
        path: `/${INDEX}/_settings`,
        querystring: {},
        body: { index: { number_of_replicas: 'lots' } },
        risk: 'reversible',
        target: INDEX,
        summary: 'bad value',
      },
      { by: 'yes-flag' },
    );
    expect(out.ok).toBe(false);
    expect(out.status).toBe(400);
    const { records } = readAudit(auditPath());
    expect(records).toHaveLength(1);
    expect(records[0].outcome).toMatchObject({ ok: false, status: 400, error: expect.stringMatching(/number_of_replicas/) });
    fs.rmSync(auditPath());
  });

  it('a destructive plan needs the typed target; a keypress or a wrong name sends nothing', async () => {
    const guard = guardFor();
    const plan: MutationPlan = {
      method: 'DELETE',
      path: `/${INDEX}`,
      querystring: {},
      risk: 'destructive',
      target: INDEX,
      summary: 'delete the index',
    };
    await expect(guard.execute(plan, { by: 'key' })).rejects.toMatchObject({ kind: 'unconfirmed' });
    await expect(guard.execute(plan, { by: 'typed', text: `${INDEX}x` })).rejects.toBeInstanceOf(GuardRefusal);
    expect(auditLines()).toEqual([]);
    expect((await es('GET', `/${INDEX}`))[INDEX]).toBeDefined();
  });

  it('an index deleted and re-created under its name during the approval wait is another index: refused by UUID, nothing sent', async () => {
    const name = 'guard_uuid_idx';
    await es('PUT', `/${name}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    const plan = pinIndices(
      {
        method: 'PUT',
        path: `/${name}/_settings`,
        querystring: {},
        body: { index: { number_of_replicas: 1 } },
        risk: 'reversible',
        target: name,
        summary: 'replicas 1',
      },
      name,
      [name],
    );
    // The second person takes their time; meanwhile someone deletes the index and creates another under its name.
    const approver: Approver = {
      required: true,
      async approve() {
        await es('DELETE', `/${name}`);
        await es('PUT', `/${name}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
        return { approvedBy: 'someone-else' };
      },
    };
    const guard = new Guard({
      client: createClient({ url: node.url }),
      conn: { url: node.url, readOnly: false },
      profile: 'test',
      auditFile: auditPath(),
      approver,
    });
    const audited = fs.existsSync(auditPath()) ? auditLines().length : 0;
    const err = await guard.execute(plan, { by: 'yes-flag' }).catch((e) => e);
    expect(err).toBeInstanceOf(GuardRefusal);
    expect(err).toMatchObject({ kind: 'changed' });
    expect((err as Error).message).toMatch(/guard_uuid_idx was deleted and re-created since the preview .*nothing was sent/);
    expect(
      (await es('GET', `/${name}/_settings/index.number_of_replicas?flat_settings=true`))[name].settings['index.number_of_replicas'],
    ).toBe('0');
    expect(fs.existsSync(auditPath()) ? auditLines().length : 0).toBe(audited);
    await es('DELETE', `/${name}`);
  });

  it('refuses a plan whose path targets every index, and anything in read-only mode', async () => {
    const all: MutationPlan = {
      method: 'PUT',
      path: '/_all/_settings',
      querystring: {},
      body: { 'index.blocks.write': true },
      risk: 'reversible',
      target: '_all',
      summary: 'x',
    };
    await expect(guardFor().execute(all, { by: 'yes-flag' })).rejects.toMatchObject({ kind: 'target' });
    const star = { ...all, path: '/*/_settings' }; // the unblock path, but not the unblock body
    await expect(guardFor().execute(star, { by: 'yes-flag' })).rejects.toMatchObject({ kind: 'target' });
    const fine = { ...all, path: `/${INDEX}/_settings` };
    await expect(guardFor(true).execute(fine, { by: 'yes-flag' })).rejects.toMatchObject({ kind: 'read-only' });
    expect(auditLines()).toEqual([]);
    expect(await es('GET', `/${INDEX}/_settings/index.blocks.*`)).toEqual({});
  });
});

describe('shardeck audit', () => {
  it('lists what was sent, as text and as JSON', async () => {
    const r1 = await cli(['replicas', 'set', INDEX, '0', '--yes', '--timeout', '10']);
    expect(r1.code).toBe(0);
    const text = await cli(['audit']);
    expect(text.stdout).toMatch(
      new RegExp(`default PUT /${INDEX}/_settings\\?expand_wildcards=all \\{"index":\\{"number_of_replicas":0\\}\\} -> ok 200`),
    );
    const json = JSON.parse((await cli(['audit', '--json'])).stdout);
    expect(json.records).toHaveLength(1);
    expect(json.records[0]).toMatchObject({ profile: 'default', confirmedBy: 'yes-flag', outcome: { ok: true, status: 200 } });
    expect(json.records[0].platformUser).toBeUndefined();
  });
});
