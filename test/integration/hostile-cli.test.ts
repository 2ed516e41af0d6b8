// The hostile names fixture (test/fixtures/hostile/names.json) as real indices on a real node,
// through the built CLI: every command's text output shows them with no raw control character
// (ESC, BEL, C1, the bidi overrides, zero-width characters, and a tab or line break inside a
// name appear as visible \uXXXX, as in the console), --json keeps them exact, and a
// change names exactly the hostile index it was given, no other.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayText } from '../../src/domain/text/display-text';
import { HOSTILE, HOSTILE_INDICES } from '../fixtures/hostile/names';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

// eslint-disable-next-line no-control-regex -- the names that hold control characters, on purpose
const HOLDS_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202e]/;

/** Raw controls a terminal would act on (the line break and tab are the output's own layout). */
// eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let node: SharedNode;
let cfg: string;
const cli = (...args: string[]) => runCli([args[0], '--url', node.url, ...args.slice(1)], { env: { SHARDECK_CONFIG_DIR: cfg } });
const enc = (name: string) => `/${encodeURIComponent(name)}`;
const replicasOf = async (name: string) =>
  Number((await esCall(node.url, 'GET', `${enc(name)}/_settings`)).body[name].settings.index.number_of_replicas);

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-hostile-'));
  node = await sharedNode();
  for (const name of HOSTILE_INDICES) {
    const r = await esCall(node.url, 'PUT', enc(name), { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    if (r.status !== 200) throw new Error(`the node refused the fixture's index ${JSON.stringify(name)}: ${JSON.stringify(r.body)}`);
    await esCall(node.url, 'PUT', `${enc(name)}/_doc/d1?refresh=true`, { modified_at: '2020-01-01T00:00:00Z', source: 'src-x' });
  }
  // And one the node refuses: it is not an index, whatever it looks like.
  expect(HOSTILE.some((h) => !h.es)).toBe(true);
}, 300_000);

afterAll(() => {
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('the hostile names on a real node, through every command that shows them', () => {
  it('listing commands (status, stats, cat indices) print every name inert and visible', async () => {
    for (const args of [['status'], ['stats'], ['cat', 'indices'], ['cat', 'shards']]) {
      const r = await cli(...args);
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(RAW);
      if (args[0] !== 'status')
        for (const name of HOSTILE_INDICES) expect(r.stdout, `${args.join(' ')}: ${JSON.stringify(name)}`).toContain(displayText(name));
    }
  }, 120_000);

  it('per-index commands take each hostile name as one argument and print it inert', async () => {
    // Every name through settings; every per-index command for the names that hold controls.
    const all = (name: string) => [
      ['settings', name],
      ...(HOLDS_CONTROLS.test(name)
        ? [
            ['mappings', name],
            ['stats', name],
            ['get', name, 'd1'],
            ['search', name, '--older-than', '90d'],
          ]
        : []),
    ];
    for (const name of HOSTILE_INDICES) {
      for (const args of all(name)) {
        const r = await cli(...args);
        const what = `${args[0]} ${JSON.stringify(name)}`;
        expect(r.code, `${what}: ${r.stderr}`).toBe(0);
        expect(r.stdout + r.stderr, what).not.toMatch(RAW);
      }
    }
  }, 240_000);

  it('--json keeps the exact names', async () => {
    const r = await cli('cat', 'indices', '--json');
    expect(r.code, r.stderr).toBe(0);
    const text = JSON.stringify(JSON.parse(r.stdout));
    for (const name of HOSTILE_INDICES) expect(text).toContain(JSON.stringify(name).slice(1, -1));
    const one = await cli('get', HOSTILE_INDICES[4], 'd1', '--json');
    expect(JSON.parse(one.stdout).document._index).toBe(HOSTILE_INDICES[4]);
  }, 60_000);

  it("search --size 0 gives the count only (Elasticsearch's idiom), text and --json", async () => {
    const name = HOSTILE_INDICES[4];
    const r = await cli('search', name, '--older-than', '90d', '--size', '0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 document match');
    expect(r.stdout).not.toContain('d1');
    const j = await cli('search', name, '--older-than', '90d', '--size', '0', '--json');
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: true, total: { value: 1 } });
    expect(JSON.parse(j.stdout).hits).toBeUndefined();
  }, 60_000);

  it('a change with --json and without --yes prints the plan that needs confirming, sends nothing', async () => {
    const name = HOSTILE_INDICES[5];
    const before = await replicasOf(name);
    const r = await cli('replicas', 'set', name, String(before + 1), '--json');
    expect(r.code).toBe(5);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ok: false, confirmationNeeded: true, code: 5, error: expect.stringContaining('--yes') });
    expect(j.plan).toHaveLength(1);
    expect(decodeURIComponent(j.plan[0].path)).toContain(name);
    expect(await replicasOf(name)).toBe(before);
  }, 60_000);

  it('an error about a missing hostile name is inert too', async () => {
    const r = await cli('settings', 'nope\u001b]0;pwned\u0007');
    expect(r.code).toBe(5);
    expect(r.stdout + r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('nope\\u001b]0;pwned\\u0007');
  });

  it('replicas set on a hostile name changes exactly that index, and its preview shows it inert', async () => {
    for (const name of [HOSTILE_INDICES[1], HOSTILE_INDICES[4], HOSTILE_INDICES[7]]) {
      const before = Object.fromEntries(await Promise.all(HOSTILE_INDICES.map(async (n) => [n, await replicasOf(n)] as const)));
      const r = await cli('replicas', 'set', name, String(before[name] + 1), '--yes', '--timeout', '5');
      expect(r.code, `${JSON.stringify(name)}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, JSON.stringify(name)).not.toMatch(RAW);
      expect(r.stdout, JSON.stringify(name)).toContain(displayText(name));
      for (const n of HOSTILE_INDICES)
        expect(await replicasOf(n), `${JSON.stringify(name)} -> ${JSON.stringify(n)}`).toBe(n === name ? before[n] + 1 : before[n]);
    }
  }, 240_000);
});
