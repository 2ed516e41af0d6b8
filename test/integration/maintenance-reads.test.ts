// The maintenance reads of issue 27 against one real 8.19.21 node of this file, started with a
// setting 8.19 deprecates (cluster.routing.allocation.disk.watermark.enable_for_single_data_node):
// `shardeck deprecations` and the doctor's upgrade section (the test distribution has no
// deprecation module: the API's absence is said, and the node's own deprecation log names the
// setting); `shardeck balance` (the desired balance, 8.6+) on an index whose replicas no node may
// take; and the shutdown records of status, silent where the node has no shutdown module.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';

const DEPRECATED = 'cluster.routing.allocation.disk.watermark.enable_for_single_data_node';
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-maint-reads-'));
let node: Awaited<ReturnType<typeof startNode>>;
const cli = (args: string[]) => runCli([args[0], '--url', node.url, ...args.slice(1)], { env: { SHARDECK_CONFIG_DIR: configDir } });

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'maint-reads', settings: { [DEPRECATED]: 'true' } });
}, 240_000);

afterAll(async () => {
  await node?.stop();
  fs.rmSync(configDir, { recursive: true, force: true });
});

describe('upgrade readiness', () => {
  it('deprecations names the deprecated setting the node was started with, with its fix, and says the API is not served', async () => {
    const r = await cli(['deprecations', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.api).toEqual({ read: false, why: expect.stringMatching(/does not serve GET _migration\/deprecations \(answered 405/) });
    expect(report.log).toEqual({ read: true, file: path.join(node.logsDir, `${node.clusterName}_deprecation.json`) });
    const issue = report.issues.find((i: { code?: string }) => i.code === DEPRECATED);
    expect(issue).toMatchObject({ source: 'log', level: 'settings', severity: 'warning', count: 1 });
    expect(issue.fix).toContain(`[${DEPRECATED}] in elasticsearch.yml`);

    const text = await cli(['deprecations']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('WARNING: deprecated, to fix before the next major');
    expect(text.stdout).toContain(`- settings: [${DEPRECATED}] setting was deprecated`);
    expect(text.stdout).toMatch(/fix: remove or replace/);
  });

  it("the doctor's upgrade section holds the same issue", async () => {
    const r = await cli(['doctor', '--json']);
    const findings = JSON.parse(r.stdout).findings as { id: string; family: string; severity: string; finding: string; remedy?: string }[];
    const upgrade = findings.filter((f) => f.family === 'upgrade');
    expect(upgrade).toHaveLength(1);
    expect(upgrade[0]).toMatchObject({
      severity: 'warn',
      finding: expect.stringContaining(DEPRECATED),
      remedy: expect.stringContaining('restart-node'),
    });
  });
});

describe('why shards move', () => {
  it('balance explains the node, and the replicas the balancer finds no node for', async () => {
    const put = await esCall(node.url, 'PUT', '/spread', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    expect(put.status).toBe(200);
    await esCall(node.url, 'GET', '/_cluster/health/spread?wait_for_status=yellow&timeout=30s');
    const r = await cli(['balance', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const b = JSON.parse(r.stdout);
    expect(b.stats).toMatchObject({ undesired: 0, unassigned: 2 });
    expect(b.nodes).toEqual([expect.objectContaining({ name: 'maint-reads', shards: 2, undesired: 0 })]);
    expect(b.unplaced).toEqual([
      { index: 'spread', shard: 0, copies: 1 },
      { index: 'spread', shard: 1, copies: 1 },
    ]);
    const text = await cli(['balance']);
    expect(text.stdout).toContain('every assigned shard copy (2) is where the balancer wants it');
    expect(text.stdout).toContain('maint-reads: 2 shards, all where the balancer wants them');
    expect(text.stdout).toContain('spread[0]: 1 copy the balancer found no node for');
  });
});

describe('shutdown records', () => {
  it('the test node has no shutdown module: status says nothing of them and does not fail', async () => {
    const raw = await esCall(node.url, 'GET', '/_nodes/shutdown');
    // What it answers instead: node info of a node named "shutdown" (none).
    expect(raw).toMatchObject({ status: 200, body: { nodes: {} } });
    const r = await cli(['status', '--json']);
    expect(r.code, r.stderr).toBe(1); // yellow: the replicas of spread
    expect(JSON.parse(r.stdout).shutdownRecords).toEqual([]);
    const text = await cli(['status']);
    expect(text.stdout + text.stderr).not.toMatch(/shutdown/i);
  });
});
