// The maintenance reads of issue 27 against one real 8.19.21 node of this file, started with a
// setting 8.19 deprecates (cluster.routing.allocation.disk.watermark.enable_for_single_data_node):
// `shardeck deprecations` and the doctor's upgrade section (the test distribution has no
// deprecation module: the API's absence is said, and the node's own deprecation log names the
// setting).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { ensureBuilt, runCli } from '../helpers/run-cli';

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
    expect(upgrade[0]).toMatchObject({ severity: 'warn', finding: expect.stringContaining(DEPRECATED), remedy: expect.stringContaining('restart-node') });
  });
});
