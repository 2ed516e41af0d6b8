// The fault battery: one real 8.19 node behind the fault proxy (test/helpers/counting-proxy.ts).
// One-shot commands end with their documented exit code and one JSON document under every fault
// of a read (no hang, no exit 70); a change whose answer was lost is read back, never resent, and
// the audit holds one "sending" and one outcome; a 429 on a change is never retried. Each case's
// duration is printed (FAULTS lines) for the README's Faults table; none is asserted against the clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { readAudit } from '../../src/services/audit';
import { onPath, startCountingProxy, type CountingProxy, type Fault } from '../helpers/counting-proxy';
import { esCall } from '../helpers/real-node';
import { CLI, ensureBuilt } from '../helpers/run-cli';
import { waitUntil } from '../helpers/wait-until';

let node: Awaited<ReturnType<typeof startNode>>;
let proxy: CountingProxy;
let cfg: string;
/** A stalled read is given up after this (the default is 15 s; the README's table gives both). */
const REQUEST_TIMEOUT_MS = 3000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  killed: boolean;
}

/** The built CLI; killed (and the test failed) if it is still running after limitMs: a hang. */
function cli(args: string[], limitMs: number, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: cfg, SHARDECK_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - t0), killed });
    });
  });
}

const figure = (what: string, r: Run) => console.log(`FAULTS | ${what} | exit ${r.code} | ${r.ms} ms`);

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'faults' });
  proxy = await startCountingProxy(node.url);
  await esCall(node.url, 'PUT', '/service_v9_faults', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
}, 240_000);

afterAll(async () => {
  await proxy?.close();
  await node?.stop();
});

beforeEach(() => {
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-faults-'));
  proxy.clearTraps();
  proxy.reset();
});

const READ_FAULTS: [string, Fault][] = [
  ['stall, nothing at all', { stall: 'nothing' }],
  ['stall, headers then nothing', { stall: 'headers' }],
  ['reset after 100 bytes of the answer', { resetAfterBytes: 100 }],
  ['answer cut short (truncated JSON)', { truncateBodyAt: 40 }],
  ['answer not JSON', { invalidJson: true }],
  [
    '429 with Retry-After: 1',
    {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' }, status: 429 },
    },
  ],
  ['502 from a proxy', { status: 502, body: { message: 'bad gateway' }, headers: { 'x-elastic-product': '' } }],
  ['503', { status: 503 }],
  ['504', { status: 504 }],
];

/** Every failure under --json: one JSON document on stdout, either status's monitoring shape or { ok: false, error, code }. */
function oneJsonDocument(stdout: string, code: number | null): Record<string, unknown> {
  const doc = JSON.parse(stdout) as Record<string, unknown>;
  if ('reachable' in doc) expect(doc).toMatchObject({ reachable: false, status: 'unknown', error: { message: expect.any(String) } });
  else expect(doc).toMatchObject({ ok: false, error: expect.any(String), code });
  return doc;
}

describe.each([
  ['the first read (health)', onPath('GET', /^\/_cluster\/health$/)],
  // The node list is also what the version check reads, right after health.
  ['the node list (version check)', onPath('GET', /^\/_cat\/nodes$/)],
  ['a later read (cluster settings)', onPath('GET', /^\/_cluster\/settings$/)],
])('status --json when %s fails', (_where, match) => {
  it.each(READ_FAULTS)('%s: exit 3, one JSON document, a sentence, no stack trace', async (what, fault) => {
    proxy.trap({ match, action: fault });
    const r = await cli(['status', '--url', proxy.url, '--json'], REQUEST_TIMEOUT_MS + 15_000);
    figure(`status, ${_where}: ${what}`, r);
    expect(r.killed).toBe(false);
    expect(r.code).toBe(3);
    const doc = oneJsonDocument(r.stdout, 3);
    expect(JSON.stringify(doc)).not.toMatch(/\n\s+at |Unexpected token|Unexpected end|Timeout Error/);
    if ('stall' in (fault as object)) expect(JSON.stringify(doc)).toMatch(/did not answer in time|stopped answering half way/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Healed: the next run is green again.
    proxy.clearTraps();
    const healed = await cli(['status', '--url', proxy.url, '--json'], REQUEST_TIMEOUT_MS + 15_000);
    expect(healed.code).toBe(0);
  });
});

describe('a read answered 429 with Retry-After', () => {
  it('once: status retries it after Retry-After (bounded) and succeeds; the proxy saw it twice', async () => {
    proxy.trap({ match: onPath('GET', /^\/_cluster\/health$/), action: { status: 429, headers: { 'retry-after': '1' } }, times: 1 });
    const r = await cli(['status', '--url', proxy.url, '--json'], 20_000);
    figure('status, health 429 once then healed', r);
    expect(r.code).toBe(0);
    expect(proxy.requests.filter((q) => q.path.startsWith('/_cluster/health')).map((q) => q.handled)).toEqual(['answered', 'forwarded']);
  });

  it("the version check's read (the node list, the first read after health): retried the same way", async () => {
    proxy.trap({ match: onPath('GET', /^\/_cat\/nodes$/), action: { status: 429, headers: { 'retry-after': '1' } }, times: 1 });
    const r = await cli(['status', '--url', proxy.url, '--json'], 20_000);
    figure('status, version check 429 once then healed', r);
    expect(r.code).toBe(0);
    const nodeReads = proxy.requests.filter((q) => q.path.startsWith('/_cat/nodes'));
    expect(nodeReads[0]).toMatchObject({ handled: 'answered' });
    expect(nodeReads[1]).toMatchObject({ handled: 'forwarded', path: nodeReads[0].path });
  });

  it('asked to wait longer than the cap (Retry-After: 60): not waited for, exit 3 with the sentence, asked once', async () => {
    proxy.trap({ match: onPath('GET', /^\/_cluster\/health$/), action: { status: 429, headers: { 'retry-after': '60' } } });
    const r = await cli(['status', '--url', proxy.url, '--json'], 20_000);
    figure('status, health 429 asking 60 s', r);
    expect(r.code).toBe(3);
    expect(JSON.stringify(oneJsonDocument(r.stdout, 3))).toMatch(/429/);
    expect(proxy.requests.filter((q) => q.path.startsWith('/_cluster/health'))).toHaveLength(1);
  });
});

describe('a change whose answer was lost or refused is never resent', () => {
  const settingsPut = onPath('PUT', /^\/_cluster\/settings$/);
  const scrollLimit = async () =>
    (await esCall(node.url, 'GET', '/_cluster/settings?flat_settings=true')).body.persistent?.['search.max_open_scroll_context'];

  function auditOf(): { phases: string[]; records: ReturnType<typeof readAudit>['records'] } {
    const text = fs.readFileSync(path.join(cfg, 'audit.log'), 'utf8');
    const phases = text
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l).phase as string | undefined) ?? 'outcome');
    return { phases, records: readAudit(path.join(cfg, 'audit.log')).records };
  }

  it('reset after the node took it: read back applied, exit 0, one PUT, one sending and one outcome', async () => {
    const want = 700 + Math.floor(Math.random() * 100);
    proxy.trap({ match: settingsPut, action: { resetAfterBytes: 0 } });
    const r = await cli(['scroll-limit', String(want), '--url', proxy.url, '--yes', '--json'], 30_000);
    figure('scroll-limit, answer lost after the node applied it', r);
    expect(r.killed).toBe(false);
    expect(proxy.requests.filter((q) => settingsPut(q.method, q.path))).toHaveLength(1);
    expect(String(await scrollLimit())).toBe(String(want));
    const { phases, records } = auditOf();
    expect(phases).toEqual(['sending', 'outcome']);
    expect(records[0].outcome).toMatchObject({ applied: 'yes' });
    expect(r.code).toBe(0);
  });

  it('reset before the node saw it: read back not applied, exit 5, one PUT, one sending and one outcome', async () => {
    const before = await scrollLimit();
    proxy.trap({ match: settingsPut, action: 'reset' });
    const r = await cli(['scroll-limit', '901', '--url', proxy.url, '--yes', '--json'], 30_000);
    figure('scroll-limit, reset before the node saw it', r);
    expect(r.code).toBe(5);
    oneJsonDocument(r.stdout, 5);
    expect(proxy.requests.filter((q) => settingsPut(q.method, q.path))).toHaveLength(1);
    expect(await scrollLimit()).toBe(before);
    const { phases, records } = auditOf();
    expect(phases).toEqual(['sending', 'outcome']);
    expect(records[0].outcome).toMatchObject({ applied: 'no' });
  });

  it('429 with Retry-After: not retried, exit 5, one PUT, one sending and one outcome', async () => {
    proxy.trap({
      match: settingsPut,
      action: {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution of cluster settings update' }, status: 429 },
      },
    });
    const r = await cli(['scroll-limit', '902', '--url', proxy.url, '--yes', '--json'], 30_000);
    figure('scroll-limit, 429', r);
    expect(r.code).toBe(5);
    const doc = oneJsonDocument(r.stdout, 5);
    expect(doc.error).toMatch(/429|rejected/);
    expect(proxy.requests.filter((q) => settingsPut(q.method, q.path))).toHaveLength(1);
    const { phases } = auditOf();
    expect(phases).toEqual(['sending', 'outcome']);
  });
});

describe('the console under a stalled read (tmux, 80x24)', () => {
  const SOCKET = `shardeck-faults-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', 'stall');
  const waitFor = (what: string, test: (s: string) => boolean, timeoutMs = 60_000) =>
    waitUntil(what, screen, test, { timeoutMs, intervalMs: 200 });

  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // no session left
    }
  });

  it('says what is wrong in words, keeps running, and recovers by itself once healed', async () => {
    const cmd = `env -u CI -u NO_COLOR -u FORCE_COLOR SHARDECK_CONFIG_DIR=${cfg} SHARDECK_REQUEST_TIMEOUT_MS=${REQUEST_TIMEOUT_MS} node ${CLI} --url ${proxy.url} --interval 2; echo EXIT=$?; sleep 600`;
    tmux('new-session', '-d', '-s', 'stall', '-x', '80', '-y', '24', cmd);
    await waitFor('the Health pane, green', (s) => s.includes('GREEN'));
    proxy.trap({ match: onPath('GET', /^\/_cluster\/health$/), action: { stall: 'headers' } });
    const t0 = performance.now();
    // The pane's own sentence (not the HTTP library's "Body Timeout Error"), and the status bar's.
    const inWords = /stopped answering half way/;
    const stalled = await waitFor('the stall said in words', (s) => inWords.test(s));
    console.log(`FAULTS | console, health read stalled: said in words after | ${Math.round(performance.now() - t0)} ms`);
    console.log(`FAULTS | console screen under the stall:\n${stalled}`);
    expect(stalled).not.toMatch(/\n\s+at |Error:|EXIT=/);
    // It keeps running: the other panes still draw.
    tmux('send-keys', '-t', 'stall', '5');
    await waitFor('the Nodes pane while health stalls', (s) => s.includes('search.max_open_scroll_context'));
    tmux('send-keys', '-t', 'stall', '1');
    await waitFor('back on Health', (s) => inWords.test(s) && s.includes('health report'));
    proxy.clearTraps();
    const t1 = performance.now();
    await waitFor('recovered after heal', (s) => s.includes('GREEN') && !inWords.test(s) && !/STALE/.test(s), 90_000);
    console.log(`FAULTS | console, health read stalled: recovered after heal in | ${Math.round(performance.now() - t1)} ms`);
    tmux('send-keys', '-t', 'stall', 'q');
    await waitFor('the exit', (s) => s.includes('EXIT=0'));
  });
});
