// shardeck dangling against a real node (issue 43 item 6). Two dangling indices are made as a node
// with old disks makes them: their folders copied aside, the indices deleted and their tombstones
// pushed out of the graveyard (cluster.indices.tombstones.size 1), the folders put back while the
// node is stopped. Listed by uuid with name, creation time and node; import and delete only with
// the uuid typed (even with --yes); an import brings the documents back, a delete removes the folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';

let node: Awaited<ReturnType<typeof startNode>>;
let cfg: string;
let aside: string;
const uuids: Record<string, string> = {};
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-dangling-'));
  aside = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-dangling-aside-'));
  node = await startNode({ name: 'dangling', settings: { 'cluster.indices.tombstones.size': '1' } });
  for (const name of ['lost-a', 'lost-b']) {
    expect((await esCall(node.url, 'PUT', `/${name}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
    expect((await esCall(node.url, 'PUT', `/${name}/_doc/1?refresh=true`, { kept: name })).status).toBe(201);
    uuids[name] = (await esCall(node.url, 'GET', `/${name}/_settings`)).body[name].settings.index.uuid;
  }
  expect((await esCall(node.url, 'POST', '/lost-*/_flush')).status).toBe(200);
  await node.stop();
  for (const u of Object.values(uuids)) execFileSync('cp', ['-a', path.join(node.dataDir, 'indices', u), aside]);
  node = await node.restart();
  for (const name of ['lost-a', 'lost-b']) expect((await esCall(node.url, 'DELETE', `/${name}`)).status).toBe(200);
  // Two more deletes push the lost indices' tombstones out of a graveyard of one.
  for (const name of ['evict-1', 'evict-2']) {
    expect((await esCall(node.url, 'PUT', `/${name}`, { settings: { number_of_replicas: 0 } })).status).toBe(200);
    expect((await esCall(node.url, 'DELETE', `/${name}`)).status).toBe(200);
  }
  await node.stop();
  for (const u of Object.values(uuids)) execFileSync('cp', ['-a', path.join(aside, u), path.join(node.dataDir, 'indices', u)]);
  node = await node.restart();
}, 300_000);

afterAll(async () => {
  await node?.stop();
  for (const d of [cfg, aside]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe.sequential('dangling indices', () => {
  it('lists each by uuid, name, creation time and node', async () => {
    const r = await cli(['dangling', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { dangling } = JSON.parse(r.stdout);
    expect(dangling).toEqual([
      { uuid: uuids['lost-a'], name: 'lost-a', created: expect.stringMatching(/^20\d\d-/), nodes: ['dangling'] },
      { uuid: uuids['lost-b'], name: 'lost-b', created: expect.stringMatching(/^20\d\d-/), nodes: ['dangling'] },
    ]);
    const text = await cli(['dangling']);
    expect(text.stdout).toContain(`${uuids['lost-a']}  lost-a  created `);
  });

  it('import and delete need the uuid typed, even with --yes: nothing sent otherwise', async () => {
    const before = auditLinesIn(cfg).length;
    const bare = await cli(['dangling', 'import', uuids['lost-a'], '--yes']);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toMatch(new RegExp(`needs the uuid typed again: --accept-data-loss ${uuids['lost-a']}`));
    const wrong = await cli(['dangling', 'delete', uuids['lost-b'], '--yes', '--accept-data-loss', uuids['lost-a']]);
    expect(wrong.code).toBe(5);
    expect(wrong.stdout).toMatch(new RegExp(`type "${uuids['lost-b']}" to confirm \\(nothing was sent\\)`));
    const unknown = await cli(['dangling', 'delete', 'no-such-uuid', '--yes', '--accept-data-loss', 'no-such-uuid']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(/no dangling index has the uuid no-such-uuid/);
    expect(auditLinesIn(cfg).length).toBe(before);
    expect(JSON.parse((await cli(['dangling', '--json'])).stdout).dangling).toHaveLength(2);
  });

  it('import brings the index and its documents back; delete removes the other', async () => {
    const imp = await cli(['dangling', 'import', uuids['lost-a'], '--yes', '--accept-data-loss', uuids['lost-a']]);
    expect(imp.code, imp.stderr + imp.stdout).toBe(0);
    expect(imp.stdout).toContain(`POST /_dangling/${uuids['lost-a']}?accept_data_loss=true`);
    await esCall(node.url, 'GET', '/_cluster/health/lost-a?wait_for_status=green&timeout=30s');
    expect((await esCall(node.url, 'GET', '/lost-a/_doc/1')).body._source).toEqual({ kept: 'lost-a' });
    const del = await cli(['dangling', 'delete', uuids['lost-b'], '--yes', '--accept-data-loss', uuids['lost-b'], '--json']);
    expect(del.code, del.stderr).toBe(0);
    expect(JSON.parse(del.stdout)).toMatchObject({ ok: true, applied: 'yes', result: { verified: { ok: true } } });
    expect(JSON.parse((await cli(['dangling', '--json'])).stdout).dangling).toEqual([]);
    expect((await esCall(node.url, 'GET', '/_cat/indices/lost-b?format=json')).status).toBe(404);
  });
});
