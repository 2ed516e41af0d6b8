// Issue 43 item 3 in a real terminal (tmux at 80x23) on a real two-node cluster: m on the Shards
// pane moves the highlighted started copy. The node allocation explain accepts is offered, the
// reroute dry run checks it, the move is sent once and followed until the copy is started on its
// new node; a copy no node accepts (a replica beside its primary: same_shard) says which decider
// said no and sends nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../../dev/lib/es-node.mjs';
import { shardeckCommand, Terminals } from '../helpers/tmux';
import { ensureBuilt } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';

const term = new Terminals('shardeck-move', 30_000);
const { waitFor, keys } = term;
let cluster: Awaited<ReturnType<typeof startCluster>>;
let cfg: string;

function launch(session: string, args: string): void {
  term.start(session, shardeckCommand(args, `SHARDECK_CONFIG_DIR=${cfg}`));
}
async function placed(index: string): Promise<{ prirep: string; state: string; node: string }[]> {
  return (await esCall(cluster.url, 'GET', `/_cat/shards/${index}?format=json&h=prirep,state,node`)).body;
}

beforeAll(async () => {
  ensureBuilt();
  cluster = await startCluster({ count: 2 });
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-move-e2e-'));
  for (const [name, replicas] of [
    ['service_v9_mv', 0],
    ['service_v9_twin', 1],
  ] as const)
    expect(
      (
        await esCall(cluster.url, 'PUT', `/${name}?wait_for_active_shards=all`, {
          settings: { number_of_shards: 1, number_of_replicas: replicas },
        })
      ).status,
    ).toBe(200);
}, 240_000);

afterAll(async () => {
  term.close();
  await cluster?.stop();
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

/** The Shards pane narrowed to one index. */
async function shardsOf(session: string, index: string): Promise<void> {
  await waitFor(session, (s) => s.includes('GREEN'), 'the console on a green cluster');
  keys(session, '3');
  await waitFor(session, (s) => /Shards/.test(s.split('\n').slice(2, 4).join('\n')), 'the Shards pane');
  keys(session, '/');
  keys(session, '-l', index);
  keys(session, 'Enter');
  await waitFor(session, (s) => s.split('\n').filter((l) => l.includes(index)).length >= 1, `the shards of ${index}`);
}

describe.sequential('m on the Shards pane, two nodes, at 80x23', () => {
  it('offers the node explain accepts, checks it with the dry run, moves the copy and follows it until started', async () => {
    const [{ node: from }] = await placed('service_v9_mv');
    const to = from === 'node-1' ? 'node-2' : 'node-1';
    launch('mv', `--url ${cluster.url} --interval 1`);
    await shardsOf('mv', 'service_v9_mv');
    keys('mv', 'm');
    const offer = await waitFor('mv', (s) => s.includes('nodes that accept it'), 'the offer');
    expect(offer).toContain(`service_v9_mv shard 0 primary on ${from}`);
    expect(offer).toMatch(new RegExp(`^ +${to}\\s*$`, 'm'));
    keys('mv', 'Enter');
    const review = await waitFor('mv', (s) => s.includes('the reroute dry run accepts the move'), 'the review');
    expect(review).toContain(`to ${to}`);
    expect(review.replace(/[│\s]/g, '')).toContain('/_cluster/reroute');
    keys('mv', 'y');
    await waitFor('mv', (s) => s.includes(`started on ${to}`), 'the copy started on its new node', 60_000);
    expect(await placed('service_v9_mv')).toEqual([{ prirep: 'p', state: 'STARTED', node: to }]);
    keys('mv', 'Enter');
    keys('mv', 'q');
  });

  it('a replica beside its primary: no node accepts it, the same_shard decider is named, nothing sent', async () => {
    const before = await placed('service_v9_twin');
    launch('twin', `--url ${cluster.url} --interval 1`);
    await shardsOf('twin', 'service_v9_twin');
    keys('twin', 'm');
    const s = await waitFor('twin', (x) => x.includes('nothing sent: no node accepts this copy now'), 'the refusal');
    expect(s).toMatch(/node-\d: no/);
    expect(s).toMatch(/same_shard|same shard/i);
    expect(await placed('service_v9_twin')).toEqual(before);
    keys('twin', 'Enter');
    keys('twin', 'q');
  });
});
