// The guarded path tells the truth, against a real node behind a small local proxy that can hold a
// request (never forwarded), or forward it and withhold the node's answer:
// - the audit "sending" record is written before the request goes out (a CLI killed mid-request
//   leaves it; `shardeck audit` shows "outcome unknown"), its outcome after; an audit log that
//   cannot take the outcome does not turn an applied change into a failure; one that cannot take
//   the sending record means nothing is sent;
// - no answer is read back: applied / not applied / unknown, never resent;
// - a change goes to the indices the preview showed: an index created since is refused, untouched.
import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { replicasSession } from '../../src/services/wizards/replicas';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { fileTempDir } from '../helpers/file-temp';

/**
 * pass: forward and answer; hold: never forward, never answer; withhold: forward, keep the answer
 * back; drop: forward, then close the connection without answering.
 */
type Action = 'pass' | 'hold' | 'withhold' | 'drop';

/** A tiny HTTP proxy in front of the node: counts requests and applies `rule` to each. */
async function startProxy(target: string) {
  const events = new EventEmitter();
  const seen: string[] = [];
  let release!: () => void;
  let released = new Promise<void>((r) => (release = r));
  const proxy = {
    url: '',
    seen,
    events,
    rule: (_method: string, _url: string): Action | Promise<Action> => 'pass',
    /** Lets every withheld answer go (the client may have given up by then). */
    release: () => release(),
    reset() {
      seen.length = 0;
      proxy.rule = () => 'pass';
      released = new Promise<void>((r) => (release = r));
    },
  };
  const upstream = new URL(target);
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const line = `${req.method} ${req.url}`;
    seen.push(line);
    const action = await proxy.rule(req.method!, req.url!);
    if (action === 'hold') return void events.emit('held', line);
    const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (r) => {
          const b: Buffer[] = [];
          r.on('data', (c: Buffer) => b.push(c));
          r.on('error', reject);
          r.on('end', () => resolve({ status: r.statusCode ?? 502, headers: r.headers, body: Buffer.concat(b) }));
        },
      );
      up.on('error', reject);
      up.end(Buffer.concat(chunks));
    });
    if (action === 'drop') return void res.socket?.destroy();
    if (action === 'withhold') {
      events.emit('withheld', line);
      await released;
    }
    if (res.destroyed) return;
    const { 'transfer-encoding': _te, connection: _c, ...headers } = answer.headers;
    res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
    res.end(answer.body);
  };
  const server = http.createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return Object.assign(proxy, { close });
}

let node: SharedNode;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let cfg: string;

const es = async (method: string, p: string, body?: unknown): Promise<any> => (await esCall(node.url, method, p, body)).body;
const auditPath = () => path.join(cfg, 'audit.log');
const auditLines = (file = auditPath()) =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
const replicasOf = async (index: string) =>
  Number((await es('GET', `/${index}/_settings/index.number_of_replicas?flat_settings=true`))[index].settings['index.number_of_replicas']);
const puts = () => proxy.seen.filter((l) => l.startsWith('PUT ') || l.startsWith('POST /gt'));
/** The CLI through the proxy, with this test's config dir (and a short request timeout when given). */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli([args[0], '--url', proxy.url, ...args.slice(1)], { env: { SHARDECK_CONFIG_DIR: cfg, ...env } });

async function makeIndex(name: string, replicas = 0, docs = 0): Promise<void> {
  await es('PUT', `/${name}?wait_for_active_shards=0`, { settings: { number_of_shards: 1, number_of_replicas: replicas } });
  for (let i = 0; i < docs; i++) await es('PUT', `/${name}/_doc/${i}?refresh=true`, { modified_at: '2020-01-01T00:00:00Z', n: i });
}

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  proxy = await startProxy(node.url);
}, 240_000);

afterAll(async () => {
  await proxy?.close();
});

beforeEach(async () => {
  proxy.release(); // nothing from an earlier test stays withheld
  proxy.reset();
  cfg = fileTempDir('shardeck-truth-'); // removed after the file (test/setup/nodes.ts)
  // One by one: Elasticsearch 8 refuses a wildcard delete (action.destructive_requires_name).
  for (const { index } of await es('GET', '/_cat/indices/gt*?format=json&h=index&expand_wildcards=all')) await es('DELETE', `/${index}`);
});

describe('the audit record is written before sending, its outcome after', () => {
  it('an audit log that cannot take the outcome does not turn an applied change into a failure', async () => {
    await makeIndex('gt_a');
    await makeIndex('gt_b');
    // Once the node has applied the change (its answer is withheld), the audit log is swapped for a
    // directory: appending the outcome then fails (EISDIR), also for root, whom file modes do not stop.
    proxy.rule = (m, u) => (m === 'PUT' && u.includes('/_settings') ? 'withhold' : 'pass');
    const moved = path.join(cfg, 'audit.log.sent');
    proxy.events.once('withheld', () => {
      fs.renameSync(auditPath(), moved);
      fs.mkdirSync(auditPath());
      proxy.release();
    });
    const r = await cli(['replicas', 'set', 'gt_*', '0', '--yes', '--timeout', '20']);
    expect(r.stderr).toMatch(/warning: its outcome could not be written to the audit log .*audit\.log \(EISDIR\)/);
    expect(r.stdout).toMatch(/ok: set number_of_replicas to 0 on 2 indices: gt_a, gt_b/);
    expect(r.stdout).toMatch(/sent; watching health until/);
    expect(r.code).toBe(0);
    // The sending record was written before the request and names the previewed indices.
    const lines = auditLines(moved);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ phase: 'sending', request: { method: 'PUT', path: '/gt_a,gt_b/_settings' }, confirmedBy: 'yes-flag' });
    expect(lines[0].outcome).toBeUndefined();
    expect(puts()).toEqual(['PUT /gt_a,gt_b/_settings?expand_wildcards=all']);
  });

  it('an audit log that cannot take the sending record means nothing is sent', async () => {
    await makeIndex('gt_a');
    fs.mkdirSync(auditPath());
    const r = await cli(['replicas', 'set', 'gt_a', '1', '--yes', '--timeout', '5']);
    expect(r.stderr).toMatch(/cannot write the audit log .*audit\.log \(EISDIR\): nothing was sent; make it writable and run again/);
    // Nothing went out, so nothing says "sent" (it used to, before the guard had decided).
    expect(r.stdout).not.toMatch(/\bsent\b/);
    expect(r.code).toBe(5);
    expect(puts()).toEqual([]);
    expect(await replicasOf('gt_a')).toBe(0);
  });

  it('a CLI killed mid-request (a dropped SSH session) leaves the sending record; shardeck audit says outcome unknown', async () => {
    await makeIndex('gt_a');
    proxy.rule = (m) => (m === 'PUT' ? 'hold' : 'pass');
    const child = spawn(process.execPath, [CLI, 'replicas', '--url', proxy.url, 'set', 'gt_a', '1', '--yes'], {
      env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: cfg },
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    await once(proxy.events, 'held');
    child.kill('SIGKILL');
    await exited;
    const lines = auditLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      phase: 'sending',
      request: { method: 'PUT', path: '/gt_a/_settings', body: { index: { number_of_replicas: 1 } } },
    });
    const shown = await runCli(['audit'], { env: { SHARDECK_CONFIG_DIR: cfg } });
    const [record, note, ...rest] = shown.stdout.trim().split('\n');
    expect(record).toMatch(
      / PUT \/gt_a\/_settings\?expand_wildcards=all \{"index":\{"number_of_replicas":1\}\} -> outcome unknown \(no answer recorded\)$/,
    );
    // Its sender is gone: the listing says so and how to read it back (nothing is resent).
    expect(note).toBe(
      `1 change(s) above were sent by a shardeck that stopped before their answer (killed, a dropped SSH session): read them back (nothing is resent) with shardeck audit --read-back --url ${proxy.url} (or --profile NAME)`,
    );
    expect(rest).toEqual([]);
    const asJson = JSON.parse((await runCli(['audit', '--json'], { env: { SHARDECK_CONFIG_DIR: cfg } })).stdout);
    expect(asJson.records).toEqual([
      expect.objectContaining({ request: expect.objectContaining({ path: '/gt_a/_settings' }), outcome: null }),
    ]);
  });
});

describe('no answer is read back, never resent', () => {
  const SHORT = { SHARDECK_REQUEST_TIMEOUT_MS: '1500' };

  it('applied: the node took the change but its answer never came', async () => {
    await makeIndex('gt_a');
    proxy.rule = (m) => (m === 'PUT' ? 'withhold' : 'pass');
    const r = await cli(['replicas', 'set', 'gt_a', '0', '--yes', '--json', '--timeout', '10'], SHORT);
    const out = JSON.parse(r.stdout);
    expect(out.report.results[0]).toMatchObject({ ok: true, applied: 'yes', verified: { ok: true } });
    expect(out.report.results[0].message).toMatch(
      /^no answer \(.*did not answer in time.*\), but the cluster read back shows it applied .*; it was not resent$/,
    );
    expect(r.code).toBe(0);
    expect(puts()).toHaveLength(1);
    const [rec] = readAudit(auditPath()).records;
    expect(rec.outcome).toMatchObject({
      ok: false,
      applied: 'yes',
      readBack: expect.stringMatching(/every matched index now has 0 replicas/),
    });
    expect((await runCli(['audit'], { env: { SHARDECK_CONFIG_DIR: cfg } })).stdout).toMatch(/-> no answer \(.*\); read back: applied\n$/);
  });

  it('applied: the connection dropped after the node took the change', async () => {
    await makeIndex('gt_a');
    proxy.rule = (m) => (m === 'PUT' ? 'drop' : 'pass');
    const r = await cli(['replicas', 'set', 'gt_a', '0', '--yes', '--json', '--timeout', '10']);
    const out = JSON.parse(r.stdout);
    expect(out.report.results[0]).toMatchObject({
      ok: true,
      applied: 'yes',
      message: expect.stringMatching(
        /^no answer \(http:\/\/127\.0\.0\.1:\d+ closed the connection before answering\), but the cluster read back shows it applied/,
      ),
    });
    expect(r.code).toBe(0);
    expect(puts()).toHaveLength(1);
  });

  it('not applied: the request never reached the node', async () => {
    await makeIndex('gt_a');
    proxy.rule = (m) => (m === 'PUT' ? 'hold' : 'pass');
    const r = await cli(['replicas', 'set', 'gt_a', '1', '--yes', '--timeout', '10'], SHORT);
    expect(r.stderr).toMatch(
      /no answer \(.*\), and the cluster read back shows it NOT applied \(still not 1 replicas: gt_a\).*; it was not resent/,
    );
    expect(r.code).toBe(5);
    expect(puts()).toHaveLength(1);
    expect(await replicasOf('gt_a')).toBe(0);
    expect(readAudit(auditPath()).records[0].outcome).toMatchObject({ ok: false, applied: 'no' });
  });

  it('unknown: a merge (no read-back check) whose answer never came', async () => {
    await makeIndex('gt_a', 0, 2);
    proxy.rule = (m, u) => (m === 'POST' && u.includes('_forcemerge') ? 'withhold' : 'pass');
    const r = await cli(['forcemerge', 'gt_a', '--expunge-deletes', '--yes', '--json'], SHORT);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: false, sent: true, applied: 'unknown' });
    expect(out.error).toMatch(/no answer .*whether it was applied is unknown.*it was not resent/);
    expect(r.code).toBe(5);
    expect(proxy.seen.filter((l) => l.includes('_forcemerge'))).toHaveLength(1);
    expect(readAudit(auditPath()).records[0].outcome).toMatchObject({
      applied: 'unknown',
      readBack: 'this request has no read-back check',
    });
  });
});

describe('a change goes to the indices the preview showed', () => {
  it('replicas wizard: an index created between review and confirmation is refused; nothing changes on either', async () => {
    await makeIndex('gt_a');
    await makeIndex('gt_b');
    const client = createClient({ url: node.url });
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'test', auditFile: auditPath() });
    const session = replicasSession(createEsApi(client, node.url), guard, { target: 'gt_*', replicas: '1' }, { watchTimeoutMs: 2000 });
    session.send({ type: 'submit' });
    const review = await session.idle();
    expect(review).toMatchObject({ phase: 'review', review: { facts: { indices: ['gt_a', 'gt_b'] } } });
    await makeIndex('gt_new');
    session.send({ type: 'confirm', confirmation: { by: 'key' } });
    const end = await session.idle();
    expect(end).toMatchObject({
      phase: 'failed',
      message:
        '"gt_*" now also matches 1 index the preview did not show (gt_new): nothing was sent; preview again and confirm what it matches now',
    });
    for (const i of ['gt_a', 'gt_b', 'gt_new']) expect(await replicasOf(i)).toBe(0);
    expect(auditLines()).toEqual([]);
  });

  it('delete-by-query: documents of an index created after the preview are never deleted (refused, nothing deleted anywhere)', async () => {
    await makeIndex('gt_a', 0, 3);
    // The CLI resolves the pattern for its preview, then the guard resolves it again right before
    // sending: the new index appears in between, as if created while the operator read the preview.
    let resolutions = 0;
    proxy.rule = async (m, u): Promise<Action> => {
      if (m === 'GET' && u.startsWith('/_cat/indices/gt_') && ++resolutions === 2) await makeIndex('gt_new', 0, 3);
      return 'pass';
    };
    const r = await cli(['delete-by-query', 'gt_*', '--older-than', '2021-01-01', '--yes', '--expect', '3']);
    expect(r.stdout).toMatch(/POST \/gt_a\/_delete_by_query/); // the preview names the index, not the pattern
    expect(r.stderr).toMatch(/"gt_\*" now also matches 1 index the preview did not show \(gt_new\): nothing was sent/);
    expect(r.code).toBe(5); // refused, not bad input
    expect(proxy.seen.filter((l) => l.includes('_delete_by_query'))).toEqual([]);
    expect((await es('GET', '/gt_a/_count')).count).toBe(3);
    expect((await es('GET', '/gt_new/_count')).count).toBe(3);
  });

  it('forcemerge with a pattern previews and sends the concrete indices', async () => {
    await makeIndex('gt_a');
    await makeIndex('gt_b');
    const r = await cli(['forcemerge', 'gt_*', '--expunge-deletes', '--dry-run']);
    expect(r.stdout).toMatch(/POST \/gt_a,gt_b\/_forcemerge\?only_expunge_deletes=true&wait_for_completion=false/);
    expect(r.stdout).toMatch(/equivalent: curl -X POST '.*\/gt_a,gt_b\/_forcemerge\?only_expunge_deletes=true&wait_for_completion=false'/);
  });
});

describe('a command run on the node host follows the same audit order', () => {
  const hostGuard = () =>
    new Guard({
      client: createClient({ url: node.url }),
      conn: { url: node.url, readOnly: false },
      profile: 'test',
      auditFile: auditPath(),
    });
  const step = { command: 'systemctl stop elasticsearch', risk: 'reversible' as const, target: 'gt_a', summary: 'step 1: Stop the engine' };

  it('the sending record is on disk while the command runs; its outcome follows', async () => {
    let whileRunning: any[] = [];
    const result = await hostGuard().runHostCommand(step, { by: 'yes-flag' }, () => {
      whileRunning = auditLines();
      return Promise.resolve({ ok: true, exitCode: 0 });
    });
    expect(result).toEqual({ ok: true, exitCode: 0 });
    expect(whileRunning).toEqual([expect.objectContaining({ phase: 'sending', command: step.command })]);
    expect(readAudit(auditPath()).records).toEqual([
      expect.objectContaining({ command: step.command, outcome: expect.objectContaining({ ok: true, status: 0 }) }),
    ]);
  });

  it('an audit log that cannot take the sending record: the command does not run', async () => {
    fs.mkdirSync(auditPath());
    let ran = false;
    await expect(
      hostGuard().runHostCommand(step, { by: 'yes-flag' }, () => ((ran = true), Promise.resolve({ ok: true }))),
    ).rejects.toMatchObject({
      kind: 'audit',
      message: expect.stringMatching(/\(EISDIR\): "step 1: Stop the engine" was not run; make it writable/),
    });
    expect(ran).toBe(false);
  });

  it('an audit log that cannot take the outcome: the result stands, with the warning', async () => {
    const result = await hostGuard().runHostCommand(step, { by: 'yes-flag' }, () => {
      fs.renameSync(auditPath(), `${auditPath()}.sent`);
      fs.mkdirSync(auditPath());
      return Promise.resolve({ ok: true, exitCode: 0 });
    });
    expect(result).toMatchObject({
      ok: true,
      exitCode: 0,
      auditWarning: expect.stringMatching(/its outcome could not be written .*EISDIR/),
    });
  });
});
