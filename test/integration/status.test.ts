// `shardeck status` (the built CLI) against real Elasticsearch 8 nodes: a plain one that goes
// yellow, green and red, and a secured one (TLS with our own CA, basic credentials), plus the
// connection failures an operator meets, each with its one-sentence explanation.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { closeClient, createClient } from '../../src/cluster/connection';
import { readStatus } from '../../src/services/status';
import { onPath, startCountingProxy } from '../helpers/counting-proxy';
import { fileTempDir } from '../helpers/file-temp';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, sharedSecureNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

const configDir = fileTempDir('shardeck-status-');
const env = { SHARDECK_CONFIG_DIR: configDir };

async function es(url: string, method: string, p: string, body?: unknown) {
  const res = await fetch(url + p, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function status(args: string[]) {
  const r = await runCli(['status', '--json', ...args], { env });
  return { code: r.code, report: JSON.parse(r.stdout), stderr: r.stderr };
}

describe('status on a plain node', () => {
  let node: SharedNode;
  beforeAll(async () => {
    ensureBuilt();
    node = await sharedNode();
  });

  it('is green with exit 0 on an empty node', async () => {
    const { code, report } = await status(['--url', node.url]);
    expect(code).toBe(0);
    expect(report).toMatchObject({ schema: 1, reachable: true, status: 'green', cluster: { version: '8.19.21', nodes: 1 } });
    expect(report.disk.nodes[0]).toMatchObject({ node: node.name, level: 'ok' });
    expect(report.disk.nodes[0].marks.flood).toBeGreaterThan(report.disk.nodes[0].marks.high);
  });

  it('sends its reads at once: all of them are in flight while the health answer is held back (a fleet row too)', async () => {
    // Health, then the version, then the rest was three round trips in turn (a fleet row's time
    // on a slow cluster); now one. The health answer is held at a proxy until every read arrived.
    const proxy = await startCountingProxy(node.url);
    const client = createClient({ url: proxy.url, requestTimeoutMs: 120_000 });
    try {
      for (const [parts, reads] of [
        ['row', 5],
        // The node list is two requests (the nodes' info and the state's master_node).
        ['full', 9],
      ] as const) {
        proxy.reset();
        proxy.trap({ match: onPath('GET', /^\/_cluster\/health$/), action: { delayMs: 600_000 } });
        const report = readStatus(createEsApi(client, proxy.url), parts);
        await waitUntil(
          `${reads} reads of a ${parts} status at the proxy`,
          () => proxy.requests.length,
          (n) => n === reads,
        );
        expect(proxy.requests.find((q) => q.path.startsWith('/_cluster/health'))?.handled).toBe('delayed');
        proxy.clearTraps();
        expect(await report).toMatchObject({ reachable: true, status: 'green' });
      }
    } finally {
      await closeClient(client, 500);
      await proxy.close();
    }
  });

  it('says yellow (exit 1) and why when an index has a replica on one node', async () => {
    await es(node.url, 'PUT', '/service_v9_status', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    await es(node.url, 'GET', '/_cluster/health?wait_for_status=yellow&timeout=30s');
    const { code, report } = await status(['--url', node.url]);
    expect(code).toBe(1);
    expect(report.status).toBe('yellow');
    expect(report.unassigned).toEqual([
      { index: 'service_v9_status', shard: 0, primary: false, reason: 'INDEX_CREATED', details: null },
      { index: 'service_v9_status', shard: 1, primary: false, reason: 'INDEX_CREATED', details: null },
    ]);
    const text = await runCli(['status', '--url', node.url], { env });
    expect(text.stdout).toMatch(/^YELLOW /);
    expect(text.stdout).toMatch(/why: unassigned shards: 2 replica INDEX_CREATED: replicas cannot be placed on a single-node cluster/);
  });

  it('says red (exit 2) and names the unassigned primary first', async () => {
    await es(node.url, 'PUT', '/service_v9_nowhere?wait_for_active_shards=0', {
      settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'no-such-node' },
    });
    const { code, report } = await status(['--url', node.url]);
    expect(code).toBe(2);
    expect(report.unassigned[0]).toMatchObject({ index: 'service_v9_nowhere', primary: true });
    await es(node.url, 'DELETE', '/service_v9_nowhere');
    await es(node.url, 'DELETE', '/service_v9_status');
  });

  it('shows a read-only block', async () => {
    await es(node.url, 'PUT', '/service_v9_ro', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es(node.url, 'PUT', '/service_v9_ro/_settings', { 'index.blocks.read_only_allow_delete': true });
    const { report } = await status(['--url', node.url]);
    // ES 8 may lift the block itself below the high watermark; it was set a moment ago.
    expect(report.readOnlyIndices).toContain('service_v9_ro');
    await es(node.url, 'DELETE', '/service_v9_ro');
  });

  it('reports a node that is not there as unreachable (exit 3) in one sentence', async () => {
    const { code, report } = await status(['--url', 'http://127.0.0.1:1']);
    expect(code).toBe(3);
    expect(report).toMatchObject({ reachable: false, error: { kind: 'unreachable' } });
    expect(report.error.message).toMatch(/connection refused.*is Elasticsearch running/);
  });

  it('rejects bad flags with usage and exit 64, sending nothing', async () => {
    const r = await runCli(['status', '--password', 'x'], { env });
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/Unknown option '--password'/);
  });
});

describe('status on a secured node (TLS with a custom CA, basic credentials)', () => {
  let node: SharedNode;
  let pwFile: string;
  beforeAll(async () => {
    ensureBuilt();
    node = await sharedSecureNode();
    pwFile = path.join(configDir, 'es-password');
    fs.writeFileSync(pwFile, node.password + '\n', { mode: 0o600 });
  });

  it('works with --ca, --user and --password-file', async () => {
    const { code, report } = await status(['--url', node.url, '--ca', node.ca!, '--user', 'elastic', '--password-file', pwFile]);
    expect(code).toBe(0);
    expect(report.status).toBe('green');
  });

  it('takes the password from --password-env too', async () => {
    const r = await runCli(['status', '--url', node.url, '--ca', node.ca!, '--user', 'elastic', '--password-env', 'TEST_ES_PW'], {
      env: { ...env, TEST_ES_PW: node.password! },
    });
    expect(r.code).toBe(0);
  });

  it('explains a wrong password (401) without echoing it', async () => {
    const r = await runCli(['status', '--url', node.url, '--ca', node.ca!, '--user', 'elastic', '--password-env', 'TEST_ES_PW'], {
      env: { ...env, TEST_ES_PW: 'definitely-wrong-pw' },
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/refused the credentials \(401\): check --user and the password/);
    expect(r.stdout + r.stderr).not.toContain('definitely-wrong-pw');
  });

  it('explains an untrusted certificate, and --insecure gets through', async () => {
    const noCa = await status(['--url', node.url, '--user', 'elastic', '--password-file', pwFile]);
    expect(noCa.code).toBe(3);
    expect(noCa.report.error.kind).toBe('tls');
    expect(noCa.report.error.message).toMatch(/not trusted.*--ca FILE/);
    const insecure = await status(['--url', node.url, '--insecure', '--user', 'elastic', '--password-file', pwFile]);
    expect(insecure.code).toBe(0);
  });

  it('explains plain http sent to an https node', async () => {
    const { code, report } = await status(['--url', node.url.replace('https:', 'http:'), '--user', 'elastic', '--password-file', pwFile]);
    expect(code).toBe(3);
    expect(report.error.kind).toBe('tls-mismatch');
    expect(report.error.message).toMatch(/use https:\/\//);
  });

  it('refuses a password file others can read, with the fix', async () => {
    const loose = path.join(configDir, 'loose-password');
    fs.writeFileSync(loose, node.password!, { mode: 0o644 });
    fs.chmodSync(loose, 0o644);
    const r = await runCli(['status', '--url', node.url, '--ca', node.ca!, '--user', 'elastic', '--password-file', loose], { env });
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/can be read by others.*chmod 600/);
  });
});
