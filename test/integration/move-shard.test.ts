// shardeck move and allocation filters on a real two-node cluster (issue 43 items 3 and 2). Move: the node allocation explain accepts
// is offered; the move goes through the guard and is followed until the copy is started on its new
// node; a refused move says which decider said no (same_shard, filter), a node that is not in the
// cluster is named, and nothing is sent for any of them. Filters: the cluster's and an index's,
// with the nodes each keeps shards off (a wildcard value too); each cleared through the guard.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../../dev/lib/es-node.mjs';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';

let cluster: Awaited<ReturnType<typeof startCluster>>;
let cfg: string;
const cli = cliAgainst(
  () => cluster.url,
  () => cfg,
);

async function placed(index: string): Promise<{ prirep: string; state: string; node: string }[]> {
  return (await esCall(cluster.url, 'GET', `/_cat/shards/${index}?format=json&h=prirep,state,node`)).body;
}
const other = (node: string) => (node === 'node-1' ? 'node-2' : 'node-1');

beforeAll(async () => {
  ensureBuilt();
  cluster = await startCluster({ count: 2 });
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-move-'));
  for (const [name, replicas] of [
    ['service_v9_move', 0],
    ['service_v9_pair', 1],
  ] as const) {
    const r = await esCall(cluster.url, 'PUT', `/${name}?wait_for_active_shards=all`, {
      settings: { number_of_shards: 1, number_of_replicas: replicas },
    });
    expect(r.status).toBe(200);
  }
  const docs = Array.from({ length: 500 }, (_, i) => `{"index":{}}\n{"n":${i},"text":"document ${i}"}\n`).join('');
  const bulk = await fetch(`${cluster.url}/service_v9_move/_bulk?refresh=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: docs,
  });
  expect(bulk.status).toBe(200);
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

describe.sequential('move a shard on two nodes', () => {
  it('offers the node allocation explain accepts, then moves the copy there and follows it until started', async () => {
    const [{ node: from }] = await placed('service_v9_move');
    const to = other(from);
    const offer = await cli(['move', 'service_v9_move', '0', '--json']);
    expect(offer.code, offer.stderr).toBe(0);
    expect(JSON.parse(offer.stdout)).toMatchObject({
      copy: { primary: true, node: from, state: 'STARTED' },
      targets: { yes: [to], no: [] },
    });
    const r = await cli(['move', 'service_v9_move', '0', '--to', to, '--yes', '--timeout', '90']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`POST /_cluster/reroute`);
    expect(r.stdout).toContain(`"move":{"index":"service_v9_move","shard":0,"from_node":"${from}","to_node":"${to}"}`);
    expect(r.stdout).toMatch(new RegExp(`started on ${to}\\n$`));
    expect(await placed('service_v9_move')).toEqual([{ prirep: 'p', state: 'STARTED', node: to }]);
    const count = (await esCall(cluster.url, 'GET', '/service_v9_move/_count')).body.count;
    expect(count).toBe(500);
  });

  it('a refused move says which decider said no, and nothing is sent', async () => {
    const before = auditLinesIn(cfg).length;
    const pair = await placed('service_v9_pair');
    const primary = pair.find((c) => c.prirep === 'p')!.node;
    const same = await cli(['move', 'service_v9_pair', '0', '--from', primary, '--to', other(primary), '--yes']);
    expect(same.code).toBe(64);
    expect(same.stderr).toMatch(
      new RegExp(`would not move it to ${other(primary)} \\(no\\): same_shard: a copy of this shard is already allocated`),
    );

    const [{ node: at }] = await placed('service_v9_move');
    const exclude = await esCall(cluster.url, 'PUT', '/service_v9_move/_settings', { 'index.routing.allocation.exclude._name': other(at) });
    expect(exclude.status).toBe(200);
    const filtered = await cli(['move', 'service_v9_move', '0', '--to', other(at), '--yes', '--json']);
    expect(filtered.code).toBe(64);
    expect(JSON.parse(filtered.stdout).error).toMatch(
      /\(no\): filter: node matches index setting \[index\.routing\.allocation\.exclude\.\]/,
    );
    const text = await cli(['move', 'service_v9_move', '0']);
    expect(text.stdout).toMatch(/nodes that accept it: none/);
    expect(text.stdout).toContain(`${other(at)}: no\n    filter: node matches`);
    await esCall(cluster.url, 'PUT', '/service_v9_move/_settings', { 'index.routing.allocation.exclude._name': null });

    const gone = await cli(['move', 'service_v9_move', '0', '--to', 'node-9', '--yes']);
    expect(gone.code).toBe(64);
    expect(gone.stderr).toMatch(/node-9 is not a node of this cluster \(its nodes: node-1, node-2\)/);
    const many = await cli(['move', 'service_v9_pair', '0', '--to', 'node-1', '--yes']);
    expect(many.code).toBe(64);
    expect(many.stderr).toMatch(/2 started copies: say which with --from NODE/);
    expect(auditLinesIn(cfg).length).toBe(before);
    expect(await placed('service_v9_move')).toEqual([{ prirep: 'p', state: 'STARTED', node: at }]);
  });
});

describe.sequential('allocation filters on two nodes', () => {
  it('lists the cluster and index filters with the nodes each keeps shards off, and clears each through the guard', async () => {
    const put = await esCall(cluster.url, 'PUT', '/_cluster/settings', {
      persistent: { 'cluster.routing.allocation.exclude._name': 'node-2' },
    });
    expect(put.status).toBe(200);
    const idx = await esCall(cluster.url, 'PUT', '/service_v9_filtered', {
      settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'node-*1' },
    });
    expect(idx.status).toBe(200);
    // A system index (.tasks, made by a task kept for later): the filters' read must not touch it
    // (Elasticsearch logs such an access as deprecated, and shardeck deprecations would report it).
    const task = await esCall(cluster.url, 'POST', '/service_v9_filtered/_delete_by_query?wait_for_completion=false', {
      query: { match_none: {} },
    });
    expect(task.status).toBe(200);
    for (
      let i = 0;
      i < 50 && (await esCall(cluster.url, 'GET', '/_cat/indices/.tasks?format=json&expand_wildcards=all')).status !== 200;
      i++
    )
      await new Promise((r) => setTimeout(r, 200));
    const r = await cli(['allocation', 'filters', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { filters } = JSON.parse(r.stdout);
    expect(filters).toEqual([
      expect.objectContaining({
        level: 'cluster',
        origin: 'persistent',
        key: 'cluster.routing.allocation.exclude._name',
        value: 'node-2',
        keepsOff: ['node-2'],
      }),
      expect.objectContaining({
        level: 'index',
        index: 'service_v9_filtered',
        kind: 'require',
        attribute: '_name',
        value: 'node-*1',
        keepsOff: ['node-2'],
      }),
    ]);
    const text = await cli(['allocation', 'filters']);
    expect(text.stdout).toContain('cluster (persistent): cluster.routing.allocation.exclude._name = node-2  keeps shards off node-2');
    await new Promise((r) => setTimeout(r, 1000)); // the deprecation log is written after the answer
    const deprecations = await cli(['deprecations', '--json']);
    expect(deprecations.stdout).not.toMatch(/accesses system indices/);

    const notSet = await cli(['allocation', 'filters', 'clear', 'cluster.routing.allocation.include._name', '--yes']);
    expect(notSet.code).toBe(64);
    expect(notSet.stderr).toMatch(/is not set on the cluster/);
    const cleared = await cli(['allocation', 'filters', 'clear', 'cluster.routing.allocation.exclude._name', '--yes']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toMatch(/ok: cluster\.routing\.allocation\.exclude\._name is unset/);
    const onIndex = await cli([
      'allocation',
      'filters',
      'clear',
      'index.routing.allocation.require._name',
      '--index',
      'service_v9_filtered',
      '--yes',
    ]);
    expect(onIndex.code, onIndex.stderr).toBe(0);
    const after = JSON.parse((await cli(['allocation', 'filters', '--json'])).stdout);
    expect(after.filters).toEqual([]);
    const settings = (await esCall(cluster.url, 'GET', '/service_v9_filtered/_settings?flat_settings=true')).body;
    expect(settings.service_v9_filtered.settings['index.routing.allocation.require._name']).toBeUndefined();
  });
});
