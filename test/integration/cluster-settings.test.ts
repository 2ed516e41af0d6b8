// cluster-settings against a real node (issue 43 item 1): a setting changed by hand is listed with
// its origin and default; set then restore puts the value back from the 0600 record; an unknown
// key is refused with the nearest known ones and a value out of range is refused, nothing sent;
// a transient value is flagged deprecated and blocks a persistent set it would hide; a hostile
// value is shown inert.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

const SCROLL = 'search.max_open_scroll_context';
const LOW = 'cluster.routing.allocation.disk.watermark.low';

async function flat(): Promise<{ persistent: Record<string, unknown>; transient: Record<string, unknown> }> {
  return (await esCall(node.url, 'GET', '/_cluster/settings?flat_settings=true')).body;
}

function recordFiles(): string[] {
  const dir = path.join(cfg, 'cluster-settings');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
}

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-csettings-'));
}, 180_000);

afterAll(async () => {
  await esCall(node.url, 'PUT', '/_cluster/settings', {
    persistent: { [SCROLL]: null, [LOW]: null, 'cluster.routing.allocation.exclude._name': null },
    transient: { 'cluster.routing.allocation.node_concurrent_recoveries': null },
  });
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

describe.sequential('cluster-settings', () => {
  it('--changed lists a setting changed by hand with its origin and default (json and text)', async () => {
    expect((await esCall(node.url, 'PUT', '/_cluster/settings', { persistent: { [LOW]: '80%' } })).status).toBe(200);
    const json = await cli(['cluster-settings', '--changed', '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out).toMatchObject({ schema: 1, command: 'cluster-settings', ok: true, changedOnly: true });
    expect(out.settings).toContainEqual(
      expect.objectContaining({ key: LOW, value: '80%', origin: 'persistent', default: '85%', meaning: expect.stringMatching(/disk/) }),
    );
    // --changed leaves out what is at its default; without it the watched ones show.
    expect(out.settings.map((s: { key: string }) => s.key)).not.toContain(SCROLL);
    const all = JSON.parse((await cli(['cluster-settings', '--json'])).stdout);
    expect(all.settings).toContainEqual(expect.objectContaining({ key: SCROLL, value: '500', origin: 'default' }));
    const text = await cli(['cluster-settings', '--changed']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${LOW} = 80%  (persistent; default 85%)`);
  });

  it('set then restore puts the value back, the value before kept in a 0600 record until then', async () => {
    const set = await cli(['cluster-settings', 'set', SCROLL, '777', '--yes', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ ok: true, action: 'set', key: SCROLL, applied: 'yes' });
    expect((await flat()).persistent[SCROLL]).toBe('777');
    const [file] = recordFiles();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).before[SCROLL]).toMatchObject({ persistent: null, transient: null });
    // A second change keeps the first value: restore goes back to before shardeck, not one step.
    expect((await cli(['cluster-settings', 'set', SCROLL, '888', '--yes'])).code).toBe(0);
    const restore = await cli(['cluster-settings', 'restore', SCROLL, '--yes']);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/ok: search\.max_open_scroll_context is unset \(persistent\)/);
    expect((await flat()).persistent[SCROLL]).toBeUndefined();
    expect(recordFiles()).toEqual([]);
    // Nothing kept any more: said, nothing sent.
    const again = await cli(['cluster-settings', 'restore', SCROLL, '--yes']);
    expect(again.code).toBe(64);
    expect(again.stderr).toMatch(/no value of search\.max_open_scroll_context was kept/);
  });

  it('an unknown key is refused with the nearest known ones, a value out of range too: nothing sent', async () => {
    const before = auditLinesIn(cfg).length;
    const typo = await cli(['cluster-settings', 'set', 'search.max_open_scrol_context', '1000', '--yes', '--json']);
    expect(typo.code).toBe(64);
    expect(JSON.parse(typo.stdout)).toMatchObject({
      ok: false,
      code: 64,
      error: expect.stringMatching(/not a cluster setting this node knows; the nearest known: search\.max_open_scroll_context/),
    });
    const range = await cli(['cluster-settings', 'set', SCROLL, '-5', '--yes']);
    expect(range.code).toBe(64);
    expect(range.stderr).toMatch(/"-5" is not a whole number from 0 to 2147483647/);
    const watermark = await cli(['cluster-settings', 'set', LOW, '120%', '--yes']);
    expect(watermark.code).toBe(64);
    expect(watermark.stderr).toMatch(/percentage of 100 or less/);
    const word = await cli(['cluster-settings', 'set', 'cluster.routing.allocation.enable', 'some', '--yes']);
    expect(word.code).toBe(64);
    expect(word.stderr).toMatch(/one of all, primaries, new_primaries, none/);
    expect(auditLinesIn(cfg).length).toBe(before);
    expect((await flat()).persistent['search.max_open_scrol_context']).toBeUndefined();
  });

  it('a transient value is flagged deprecated and blocks a persistent set it would hide; reset unsets it', async () => {
    const key = 'cluster.routing.allocation.node_concurrent_recoveries';
    expect((await esCall(node.url, 'PUT', '/_cluster/settings', { transient: { [key]: '3' } })).status).toBe(200);
    const list = await cli(['cluster-settings', '--changed']);
    expect(list.stdout).toContain(`${key} = 3  (transient, deprecated; default 2)`);
    expect(list.stdout).toMatch(/note: transient settings are deprecated in 8/);
    const set = await cli(['cluster-settings', 'set', key, '4', '--yes']);
    expect(set.code).toBe(64);
    expect(set.stderr).toMatch(/is set transient \(3\).*reset it first/);
    const reset = await cli(['cluster-settings', 'reset', key, '--yes']);
    expect(reset.code, reset.stderr).toBe(0);
    expect((await flat()).transient[key]).toBeUndefined();
    // The transient value was kept: restore puts it back where it was.
    expect((await cli(['cluster-settings', 'restore', key, '--yes'])).code).toBe(0);
    expect((await flat()).transient[key]).toBe('3');
  });

  it('a hostile value set behind its back is shown inert (escaped), in text and JSON', async () => {
    const hostile = 'x\u001b]0;owned\u0007\u001b[2J';
    const put = await esCall(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'cluster.routing.allocation.exclude._name': hostile },
    });
    expect(put.status).toBe(200);
    const text = await cli(['cluster-settings', '--changed']);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('\u001b');
    expect(text.stdout).toContain('cluster.routing.allocation.exclude._name = x\\u001b]0;owned\\u0007\\u001b[2J');
    const json = await cli(['cluster-settings', '--changed', '--json']);
    expect(json.stdout).not.toContain('\u001b');
    expect(JSON.parse(json.stdout).settings).toContainEqual(expect.objectContaining({ value: hostile }));
  });
});
