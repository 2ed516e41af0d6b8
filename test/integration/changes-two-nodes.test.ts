// Replicas on a real two-node cluster: one replica can be placed, so the indices turn green, and
// shardeck does not warn about it (it warns about 0 replicas instead, platform rule 3).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCluster } from '../../dev/lib/es-node.mjs';
import { ensureBuilt } from '../helpers/run-cli';
import { cliAgainst } from '../helpers/real-node';

let cluster: Awaited<ReturnType<typeof startCluster>>;
let cfg: string;

const cli = cliAgainst(
  () => cluster.url,
  () => cfg,
);

beforeAll(async () => {
  ensureBuilt();
  cluster = await startCluster({ count: 2 });
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-two-'));
  const res = await fetch(`${cluster.url}/service_v9_pair`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { number_of_shards: 2, number_of_replicas: 0 } }),
  });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(cfg, { recursive: true, force: true });
});

it('0 replicas on two nodes is warned about; replicas 1 turns green', async () => {
  const dry = JSON.parse((await cli(['replicas', 'set', 'service_v9_pair', '0', '--dry-run', '--json'])).stdout);
  expect(dry.warnings.join(' ')).toMatch(/with 2 data nodes at least one replica is recommended/);

  const r = await cli(['replicas', 'set', 'service_v9_pair', '1', '--yes', '--timeout', '60', '--json']);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.warnings).toEqual([]);
  expect(out.expected).toBe('green');
  expect(out.report.after).toMatchObject({ health: 'green', replicas: { service_v9_pair: 1 }, reachedExpected: true });
  const shards = (await (await fetch(`${cluster.url}/_cat/shards/service_v9_pair?format=json&h=prirep,state,node`)).json()) as any[];
  expect(shards.filter((s: any) => s.state === 'STARTED')).toHaveLength(4);
  expect(new Set(shards.map((s: any) => s.node)).size).toBe(2);
});
