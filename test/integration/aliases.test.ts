// shardeck aliases and alias add|remove|swap against a real node (issue 43 item 5): the swap moves
// the write alias in one atomic request; a change that would leave an alias without a write index
// is refused, nothing sent; a swap whose index left the alias behind its back is refused whole by
// must_exist (the new index not added); an index deleted since the preview stops the request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { Guard, GuardRefusal } from '../../src/services/guard';
import { prepareAliasChange } from '../../src/services/aliases';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

const make = async (name: string) =>
  expect((await esCall(node.url, 'PUT', `/${name}`, { settings: { number_of_replicas: 0 } })).status).toBe(200);
const actions = async (list: unknown[]) => expect((await esCall(node.url, 'POST', '/_aliases', { actions: list })).status).toBe(200);
/** index -> is_write_index ('true', 'false' or '-') of one alias, as the node says. */
async function members(alias: string): Promise<Record<string, string>> {
  const r = await esCall(node.url, 'GET', `/_cat/aliases/${alias}?format=json&h=index,is_write_index`);
  return Object.fromEntries((r.body as { index: string; is_write_index: string }[]).map((x) => [x.index, x.is_write_index]));
}

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-aliases-'));
  for (const n of ['app-old', 'app-mid', 'app-new', 'two-a', 'two-b', 'race-from', 'race-to', 'gone-from', 'gone-to']) await make(n);
  await actions([
    { add: { index: 'app-old', alias: 'app', is_write_index: true } },
    { add: { index: 'app-mid', alias: 'app' } },
    { add: { index: 'two-a', alias: 'two' } },
    { add: { index: 'two-b', alias: 'two' } },
    { add: { index: 'race-from', alias: 'race', is_write_index: true } },
    { add: { index: 'gone-from', alias: 'gone', is_write_index: true } },
    { add: { index: 'two-a', alias: 'trio', is_write_index: true } },
    { add: { index: 'two-b', alias: 'trio' } },
    { add: { index: 'app-mid', alias: 'trio' } },
  ]);
}, 180_000);

afterAll(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

describe.sequential('aliases', () => {
  it('aliases lists each alias with its write index, and flags one writes cannot go through', async () => {
    const r = await cli(['aliases', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.aliases).toContainEqual({ alias: 'app', indices: ['app-mid', 'app-old'], writeIndex: 'app-old', explicit: true });
    expect(out.aliases).toContainEqual({ alias: 'two', indices: ['two-a', 'two-b'], writeIndex: null, explicit: false });
    const text = await cli(['aliases']);
    expect(text.stdout).toContain('app -> app-mid, app-old (write)');
    expect(text.stdout).toContain('two -> two-a, two-b  no write index: writes to it fail');
  });

  it('a hostile alias name is shown inert', async () => {
    const hostile = 'evil-\u001b]0;x\u0007';
    await actions([{ add: { index: 'two-b', alias: hostile } }]);
    const r = await cli(['aliases']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('evil-\\u001b]0;x\\u0007 -> two-b (write: its only index)');
    await actions([{ remove: { index: 'two-b', alias: hostile } }]);
  });

  it('refused before sending: a change leaving the alias without a write index, names that are not one index', async () => {
    const before = auditLinesIn(cfg).length;
    const cases: [string[], RegExp][] = [
      [['alias', 'remove', 'trio', 'two-a', '--yes'], /leave the alias trio without a write index.*alias swap trio --from two-a --to NEW/],
      [['alias', 'swap', 'app', '--from', 'app-nope', '--to', 'app-new', '--yes'], /no index matches "app-nope"/],
      [
        ['alias', 'swap', 'app', '--from', 'two-a', '--to', 'app-new', '--yes'],
        /two-a is not in the alias app \(its indices: app-mid, app-old\)/,
      ],
      [['alias', 'swap', 'app', '--from', 'app-old', '--to', 'app-mid', '--yes'], /app-mid is already in the alias app/],
      [['alias', 'add', 'app', 'app-*', '--yes'], /is a pattern or a list/],
      [['alias', 'add', '*', 'app-new', '--yes'], /is a pattern or a list/],
      [['alias', 'add', 'sys', '.security', '--yes'], /system \(dot\)/],
      [['alias', 'swap', 'app', '--from', 'app-old', '--yes'], /swap ALIAS --from OLD --to NEW/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(64);
      expect(r.stderr).toMatch(message);
    }
    expect(auditLinesIn(cfg).length).toBe(before);
    expect(await members('app')).toEqual({ 'app-old': 'true', 'app-mid': '-' });
    expect(await members('trio')).toEqual({ 'two-a': 'true', 'two-b': '-', 'app-mid': '-' });
  });

  it('swap moves the write alias in one atomic request (remove with must_exist, add as the write index)', async () => {
    const before = auditLinesIn(cfg).length;
    const r = await cli(['alias', 'swap', 'app', '--from', 'app-old', '--to', 'app-new', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, applied: 'yes', result: { verified: { ok: true } } });
    expect(out.requests).toHaveLength(1);
    expect(out.requests[0]).toMatchObject({ method: 'POST', path: '/_aliases' });
    expect(out.actions).toEqual([
      { remove: { index: 'app-old', alias: 'app', must_exist: true } },
      { add: { index: 'app-new', alias: 'app', is_write_index: true } },
    ]);
    // One change in the audit log: its "sending" record and its outcome.
    expect(auditLinesIn(cfg).length - before).toBe(2);
    expect(await members('app')).toEqual({ 'app-new': 'true', 'app-mid': '-' });
  });

  it('add to an alias of one unmarked index keeps its writes there (marked in the same request)', async () => {
    await actions([{ add: { index: 'race-to', alias: 'solo' } }]);
    const r = await cli(['alias', 'add', 'solo', 'two-a', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(await members('solo')).toEqual({ 'race-to': 'true', 'two-a': '-' });
  });

  it('an index that left the alias behind its back: the swap is refused whole by must_exist (nothing added)', async () => {
    const client = createClient({ url: node.url });
    const es = createEsApi(client, node.url);
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'test', auditFile: path.join(cfg, 'audit.log') });
    const p = await prepareAliasChange(es, guard, { kind: 'swap', alias: 'race', from: 'race-from', to: 'race-to' });
    if (!p.ok) throw new Error(p.error);
    await actions([{ remove: { index: 'race-from', alias: 'race' } }]);
    const out = await guard.execute(p.plan, { by: 'yes-flag' });
    expect(out.applied).toBe('no');
    expect(await members('race')).toEqual({});

    // An index deleted since the preview: the guard stops it before sending.
    const q = await prepareAliasChange(es, guard, { kind: 'swap', alias: 'gone', from: 'gone-from', to: 'gone-to' });
    if (!q.ok) throw new Error(q.error);
    expect((await esCall(node.url, 'DELETE', '/gone-to')).status).toBe(200);
    const refused = await guard.execute(q.plan, { by: 'yes-flag' }).catch((e) => e);
    expect(refused).toBeInstanceOf(GuardRefusal);
    expect(await members('gone')).toEqual({ 'gone-from': 'true' });
    await client.close();
  });
});
