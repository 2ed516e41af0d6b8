// The fault battery: one real 8.19 node behind the fault proxy (test/helpers/counting-proxy.ts).
// One-shot commands end with their documented exit code and one JSON document under every fault
// of a read (no hang, no exit 70); a change whose answer was lost is read back, never resent, and
// the audit holds one "sending" and one outcome; a 429 on a change is never retried. Each case's
// duration is printed (FAULTS lines) for the table of docs/FAULTS.md; none is asserted against the clock.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeClient, createClient } from '../../src/cluster/connection';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { onPath, startCountingProxy, type CountingProxy, type Fault } from '../helpers/counting-proxy';
import { esCall } from '../helpers/real-node';
import { CLI, ensureBuilt } from '../helpers/run-cli';
import { waitUntil } from '../helpers/wait-until';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { fileTempDir } from '../helpers/file-temp';

let node: SharedNode;
let proxy: CountingProxy;
let cfg: string;
/** A stalled read is given up after this (the default is 15 s; docs/FAULTS.md gives both). */
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
  node = await sharedNode();
  proxy = await startCountingProxy(node.url);
  await esCall(node.url, 'PUT', '/service_v9_faults', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
}, 240_000);

afterAll(async () => {
  await proxy?.close();
});

beforeEach(() => {
  cfg = fileTempDir('shardeck-faults-'); // removed after the file (test/setup/nodes.ts)
  proxy.clearTraps();
  proxy.reset();
});

/** The audit log's lines in order: "sending", or "outcome" for an outcome line. */
function phasesOf(): string[] {
  return fs
    .readFileSync(path.join(cfg, 'audit.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l).phase as string | undefined) ?? 'outcome');
}

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
  ['the node list (version check)', onPath('GET', /^\/_nodes\/_all\/_none$/)],
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
    proxy.trap({ match: onPath('GET', /^\/_nodes\/_all\/_none$/), action: { status: 429, headers: { 'retry-after': '1' } }, times: 1 });
    const r = await cli(['status', '--url', proxy.url, '--json'], 20_000);
    figure('status, version check 429 once then healed', r);
    expect(r.code).toBe(0);
    // Every read goes out at once (services/status.ts): another node-list read may come between the
    // refused one and its retry, so the retry is the next request of the same path.
    const nodeReads = proxy.requests.filter((q) => q.path.startsWith('/_nodes/_all/_none'));
    const refused = nodeReads.find((q) => q.handled === 'answered');
    expect(refused).toBeDefined();
    expect(nodeReads.filter((q) => q.path === refused!.path).map((q) => q.handled)).toEqual(['answered', 'forwarded']);
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

describe('one change of each kind, its answer lost after the node took it: read back or said unknown, never resent', () => {
  const INDEX = 'service_v9_faults_changes';
  const count = async () =>
    (await esCall(node.url, 'POST', `/${INDEX}/_count`, { query: { term: { 'assoc:sources': 'src-gone' } } })).body.count;

  beforeAll(async () => {
    await esCall(node.url, 'PUT', `/${INDEX}`, {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { 'assoc:sources': { type: 'keyword' } } },
    });
    for (let i = 0; i < 5; i++) await esCall(node.url, 'POST', `/${INDEX}/_doc`, { 'assoc:sources': i < 3 ? 'src-gone' : 'src-kept' });
    await esCall(node.url, 'POST', `/${INDEX}/_refresh`);
  });

  it('delete-by-query (a task): the node started it, its answer (the task id) lost: exit 5 "unknown", one POST, one sending and one outcome', async () => {
    const deletePost = onPath('POST', new RegExp(`^/${INDEX}/_delete_by_query$`));
    proxy.trap({ match: deletePost, action: { resetAfterBytes: 0 } });
    const r = await cli(['delete-by-query', INDEX, '--source', 'src-gone', '--expect', '3', '--yes', '--json', '--url', proxy.url], 60_000);
    figure('delete-by-query, answer lost after the node took it', r);
    expect(r.killed).toBe(false);
    expect(proxy.requests.filter((q) => deletePost(q.method, q.path))).toHaveLength(1);
    // Nothing else changed after it: no refresh, no second delete.
    expect(proxy.changing().map((q) => `${q.method} ${q.path.split('?')[0]}`)).toEqual([`POST /${INDEX}/_delete_by_query`]);
    expect(phasesOf()).toEqual(['sending', 'outcome']);
    expect(readAudit(path.join(cfg, 'audit.log')).records[0].outcome).toMatchObject({ applied: 'unknown' });
    expect(r.stdout + r.stderr).toMatch(/unknown.*not resent/s);
    expect(r.code).toBe(5);
    // The node did run it (the proxy cut only its answer): the operator's "check before running it again" holds.
    await waitUntil('the delete done on the node', count, (n) => n === 0, { timeoutMs: 30_000 });
  });

  it('force merge: its answer lost after the node took it: exit 5 "unknown" (no read-back check), one POST, one sending and one outcome for it', async () => {
    const mergePost = onPath('POST', new RegExp(`^/${INDEX}/_forcemerge$`));
    proxy.trap({ match: mergePost, action: { resetAfterBytes: 0 } });
    const r = await cli(['forcemerge', INDEX, '--expunge-deletes', '--yes', '--json', '--url', proxy.url], 60_000);
    figure('forcemerge, answer lost after the node took it', r);
    expect(r.killed).toBe(false);
    const doc = oneJsonDocument(r.stdout, 5);
    expect(doc).toMatchObject({ sent: true, applied: 'unknown' });
    expect(doc.error).toMatch(/not resent/);
    expect(proxy.requests.filter((q) => mergePost(q.method, q.path))).toHaveLength(1);
    // Two changes: the flush before the merge (answered), then the merge: one sending and one outcome each.
    expect(phasesOf()).toEqual(['sending', 'outcome', 'sending', 'outcome']);
    const [flush, merge] = readAudit(path.join(cfg, 'audit.log')).records;
    expect(flush).toMatchObject({ request: { path: `/${INDEX}/_flush` }, outcome: { ok: true } });
    expect(merge).toMatchObject({ request: { path: `/${INDEX}/_forcemerge` }, outcome: { applied: 'unknown' } });
  });

  it('the flood-stage block cleared (unblock): its answer lost after the node took it: read back applied, exit 0, one PUT, one sending and one outcome', async () => {
    const blocked = `${INDEX}_blocked`;
    await esCall(node.url, 'PUT', `/${blocked}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await esCall(node.url, 'PUT', `/${blocked}/_settings`, { 'index.blocks.read_only_allow_delete': true });
    const settingsPut = onPath('PUT', /\/_settings$/);
    proxy.trap({ match: settingsPut, action: { resetAfterBytes: 0 } });
    const r = await cli(['unblock', '--yes', '--json', '--url', proxy.url], 60_000);
    figure('unblock, answer lost after the node took it', r);
    expect(r.killed).toBe(false);
    expect(
      proxy.requests.filter((q) => settingsPut(q.method, q.path)),
      r.stdout,
    ).toHaveLength(1);
    expect(phasesOf()).toEqual(['sending', 'outcome']);
    expect(readAudit(path.join(cfg, 'audit.log')).records[0].outcome).toMatchObject({ applied: 'yes' });
    const after = await esCall(node.url, 'GET', `/${blocked}/_settings?flat_settings=true`);
    expect(after.body[blocked].settings['index.blocks.read_only_allow_delete']).toBeUndefined();
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});

describe('shardeck killed between "sending" and the answer (SIGKILL while the answer stalls)', () => {
  const settingsPut = onPath('PUT', /^\/_cluster\/settings$/);
  const scrollLimit = async () =>
    (await esCall(node.url, 'GET', '/_cluster/settings?flat_settings=true')).body.persistent?.['search.max_open_scroll_context'];

  /** Starts scroll-limit `n` and kills it once the proxy holds its PUT as `fault` does. */
  async function killedMidChange(n: number, fault: Fault, held: (q: { handled: string }) => boolean): Promise<void> {
    proxy.trap({ match: settingsPut, action: fault });
    const child = spawn(process.execPath, [CLI, 'scroll-limit', String(n), '--url', proxy.url, '--yes'], {
      env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: cfg, SHARDECK_REQUEST_TIMEOUT_MS: '60000' },
      stdio: 'ignore',
    });
    const exited = once(child, 'exit');
    await waitUntil(
      'the change held by the proxy',
      () => proxy.requests.find((q) => settingsPut(q.method, q.path)),
      (q) => !!q && held(q),
    );
    child.kill('SIGKILL');
    await exited;
    expect(phasesOf()).toEqual(['sending']);
    proxy.clearTraps();
    proxy.reset();
  }

  it('the node took it: the next run says so, reads it back "applied", records the outcome, and sends nothing again', async () => {
    const want = 600 + Math.floor(Math.random() * 90);
    await killedMidChange(want, { withhold: true }, (q) => q.handled === 'stalled');
    expect(String(await scrollLimit())).toBe(String(want));
    // The next run: any change command to that cluster; a dry run sends nothing of its own.
    const r = await cli(['scroll-limit', String(want + 1), '--url', proxy.url, '--dry-run'], 30_000);
    figure('killed mid-change (applied): the next run reads it back', r);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `an earlier change was sent, but shardeck stopped before its answer; read back now: .*PUT /_cluster/settings .*${want}.* read back: applied; it was not resent`,
      ),
    );
    expect(proxy.changing()).toEqual([]);
    expect(phasesOf()).toEqual(['sending', 'outcome']);
    expect(readAudit(path.join(cfg, 'audit.log')).records[0].outcome).toMatchObject({ applied: 'yes' });
    // Said once: the run after has nothing to say.
    const again = await cli(['scroll-limit', String(want + 1), '--url', proxy.url, '--dry-run'], 30_000);
    expect(again.stderr).not.toMatch(/earlier change/);
    expect((await cli(['audit'], 10_000)).stdout).toMatch(/PUT \/_cluster\/settings .* read back: applied\n$/);
  });

  it('the node never saw it: the next run reads it back "not applied"; nothing resent', async () => {
    const before = await scrollLimit();
    await killedMidChange(991, { stall: 'nothing' }, (q) => q.handled === 'stalled');
    const r = await cli(['scroll-limit', '992', '--url', proxy.url, '--dry-run'], 30_000);
    figure('killed mid-change (not applied): the next run reads it back', r);
    expect(r.stderr).toMatch(/read back now: .*PUT \/_cluster\/settings .* read back: not applied; it was not resent/);
    expect(proxy.changing()).toEqual([]);
    expect(await scrollLimit()).toBe(before);
    expect(readAudit(path.join(cfg, 'audit.log')).records[0].outcome).toMatchObject({ applied: 'no' });
  });

  it('shardeck audit lists it as unfinished; --read-back reads it back (applied), records the outcome, sends nothing', async () => {
    const want = 700 + Math.floor(Math.random() * 90);
    await killedMidChange(want, { withhold: true }, (q) => q.handled === 'stalled');
    const listed = await cli(['audit'], 10_000);
    expect(listed.stdout).toMatch(/PUT \/_cluster\/settings .* -> outcome unknown/);
    expect(listed.stdout).toContain(
      `1 change(s) above were sent by a shardeck that stopped before their answer (killed, a dropped SSH session): read them back (nothing is resent) with shardeck audit --read-back --url ${proxy.url}`,
    );
    expect(JSON.parse((await cli(['audit', '--json'], 10_000)).stdout).unfinished).toEqual([
      { id: readAudit(path.join(cfg, 'audit.log')).records[0].id, url: proxy.url },
    ]);
    const r = await cli(['audit', '--read-back', '--url', proxy.url], 30_000);
    figure('killed mid-change: shardeck audit --read-back', r);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^read back: .*PUT /_cluster/settings .*${want}.* read back: applied; it was not resent\n$`));
    expect(proxy.changing()).toEqual([]);
    expect(phasesOf()).toEqual(['sending', 'outcome']);
    expect((await cli(['audit'], 10_000)).stdout).not.toMatch(/stopped before their answer/);
    expect((await cli(['audit', '--read-back', '--url', proxy.url], 30_000)).stdout).toBe(
      'no unfinished change to this cluster: nothing to read back\n',
    );
  });

  it('a slow delete-by-query (1 document a second) killed after "sending", its task still running: audit --read-back finds it among the running tasks, "applied", one outcome', async () => {
    const INDEX = 'service_v9_faults_killed_delete';
    const deletePost = onPath('POST', new RegExp(`^/${INDEX}/_delete_by_query$`));
    await esCall(node.url, 'PUT', `/${INDEX}`, {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { 'assoc:sources': { type: 'keyword' } } },
    });
    // More than one batch (1,000): the first goes at once, the next waits ~1,000 s at 1 a second.
    const lines: string[] = [];
    for (let i = 0; i < 1100; i++) lines.push(JSON.stringify({ index: {} }), JSON.stringify({ 'assoc:sources': 'src-slow', n: i }));
    await fetch(`${node.url}/${INDEX}/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('\n') + '\n',
    });
    const running = async () => {
      const body = (await esCall(node.url, 'GET', '/_tasks?actions=*byquery&detailed=true&group_by=none')).body;
      return (body.tasks as { node: string; id: number; description: string }[]).filter((t) => t.description.includes(INDEX));
    };
    try {
      proxy.trap({ match: deletePost, action: { withhold: true } });
      const child = spawn(
        process.execPath,
        [
          CLI,
          'delete-by-query',
          INDEX,
          '--source',
          'src-slow',
          '--expect',
          '1100',
          '--requests-per-second',
          '1',
          '--yes',
          '--url',
          proxy.url,
        ],
        { env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: cfg, SHARDECK_REQUEST_TIMEOUT_MS: '60000' }, stdio: 'ignore' },
      );
      const exited = once(child, 'exit');
      // The node started it (its task runs) and the proxy holds its answer (the task id): shardeck never learns it.
      await waitUntil(
        'the delete held by the proxy, its task running on the node',
        async () => ({ held: proxy.requests.some((q) => deletePost(q.method, q.path) && q.handled === 'stalled'), tasks: await running() }),
        (r) => r.held && r.tasks.length === 1,
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      child.kill('SIGKILL');
      await exited;
      expect(phasesOf()).toEqual(['sending']);
      proxy.clearTraps();
      proxy.reset();
      const [task] = await running();
      const r = await cli(['audit', '--read-back', '--url', proxy.url], 30_000);
      figure('killed mid delete-by-query, its task running: shardeck audit --read-back', r);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^read back: .*POST /${INDEX}/_delete_by_query\\?.* read back: applied; it was not resent\n$`));
      expect(proxy.changing()).toEqual([]);
      expect(phasesOf()).toEqual(['sending', 'outcome']);
      // Found by its recorded request (action, index, started after the record): the very task the node runs.
      const id = `${task.node}:${task.id}`;
      expect(readAudit(path.join(cfg, 'audit.log')).records[0].outcome).toMatchObject({
        applied: 'yes',
        readBack: `(by a later run) its task ${id} runs (shardeck tasks ${id} follows it)`,
      });
      // Still the one task: nothing was sent again.
      expect((await running()).map((t) => `${t.node}:${t.id}`)).toEqual([id]);
    } finally {
      for (const t of await running()) await esCall(node.url, 'POST', `/_tasks/${t.node}:${t.id}/_cancel`);
      await esCall(node.url, 'DELETE', `/${INDEX}`);
    }
  });

  it('two shardecks starting at once settle it once (the cluster lock): one outcome, one says it, the other finds nothing left', async () => {
    const want = 900 + Math.floor(Math.random() * 90);
    await killedMidChange(want, { withhold: true }, (q) => q.handled === 'stalled');
    const auditFile = path.join(cfg, 'audit.log');
    const guards = [0, 1].map(() => {
      const client = createClient({ url: proxy.url });
      return { client, guard: new Guard({ client, conn: { url: proxy.url, readOnly: false }, profile: 'race', auditFile }) };
    });
    try {
      // Both see the change unfinished before either reads it back.
      expect(guards.map(({ guard }) => guard.unfinished().length)).toEqual([1, 1]);
      const said = await Promise.all(guards.map(({ guard }) => guard.settleUnfinished()));
      expect(said.flat()).toEqual([
        expect.stringMatching(new RegExp(`PUT /_cluster/settings .*${want}.* read back: applied; it was not resent$`)),
      ]);
      expect(phasesOf()).toEqual(['sending', 'outcome']);
      expect(proxy.changing()).toEqual([]);
    } finally {
      await Promise.all(guards.map(({ client }) => closeClient(client)));
    }
  });

  it('the console at start: a dialog lists it, y reads it back (applied) and records the outcome; nothing resent', async () => {
    const want = 800 + Math.floor(Math.random() * 90);
    await killedMidChange(want, { withhold: true }, (q) => q.handled === 'stalled');
    const SOCKET = `shardeck-unfinished-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
    // The screen as one line of words: the dialog wraps its sentences inside its box.
    const screen = () => tmux('capture-pane', '-p', '-t', 'start').replace(/[\s│|]+/g, ' ');
    const waitFor = (what: string, test: (s: string) => boolean) => waitUntil(what, screen, test, { timeoutMs: 60_000, intervalMs: 200 });
    try {
      const cmd = `env -u CI -u NO_COLOR -u FORCE_COLOR SHARDECK_CONFIG_DIR=${cfg} node ${CLI} --url ${proxy.url} --interval 2; echo EXIT=$?; sleep 600`;
      const t0 = performance.now();
      tmux('new-session', '-d', '-s', 'start', '-x', '80', '-y', '24', cmd);
      const dialog = await waitFor('the dialog at start', (s) => s.includes('were sent by a shardeck that stopped before their answer'));
      console.log(`FAULTS | console start: the unfinished change offered after | ${Math.round(performance.now() - t0)} ms`);
      expect(dialog).toContain('PUT /_cluster/settings');
      expect(phasesOf()).toEqual(['sending']); // nothing read back before the operator says so
      tmux('send-keys', '-t', 'start', 'y');
      await waitFor('the read-back said', (s) => s.includes('read back: applied; it was not resent'));
      expect(proxy.changing()).toEqual([]);
      expect(phasesOf()).toEqual(['sending', 'outcome']);
      expect(readAudit(path.join(cfg, 'audit.log')).records[0].outcome).toMatchObject({ applied: 'yes' });
      tmux('send-keys', '-t', 'start', 'x');
      await waitFor('the dialog closed', (s) => !s.includes('read back: applied'));
      tmux('send-keys', '-t', 'start', 'q');
      await waitFor('the exit', (s) => s.includes('EXIT=0'));
    } finally {
      try {
        tmux('kill-server');
      } catch {
        // no session left
      }
    }
  });
});

describe('a host step under a fault: the engine service command hangs', () => {
  /** Processes whose command line is exactly `argv` (the hung script's child, found by its own arguments). */
  const running = (...argv: string[]) =>
    fs.readdirSync('/proc').filter((p) => {
      try {
        return /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8') === argv.join('\0') + '\0';
      } catch {
        return false;
      }
    });
  const pidOfNode = async () =>
    (Object.values((await esCall(node.url, 'GET', '/_nodes/_local/process')).body.nodes)[0] as { process: { id: number } }).process.id;

  it('service stop whose command never ends: stopped at --wait-timeout with what it started, exit 5, one JSON error naming what to check, one sending and one outcome, not run again', async () => {
    const pid = await pidOfNode();
    // A service script that hangs: it says it stops, then waits on a child that never ends.
    const hang = `echo stopping; sleep 317; echo never`;
    const r = await cli(
      ['service', 'stop', '--url', node.url, '--stop-cmd', hang, '--wait-timeout', '3', '--yes', '--node-name', node.name, '--json'],
      60_000,
    );
    figure('service stop, its command hangs (--wait-timeout 3)', r);
    expect(r.killed).toBe(false);
    expect(r.code, r.stderr).toBe(5);
    const doc = oneJsonDocument(r.stdout, 5) as { ok: boolean; sent: boolean; error: string };
    expect(doc).toMatchObject({ ok: false, sent: true });
    expect(doc.error).toContain(`$ ${hang}: did not end within 3 s and was stopped (SIGTERM to its process group)`);
    expect(doc.error).toContain(`it was not run again; node ${node.name} answers now (pid ${pid})`);
    expect(doc.error).toMatch(/check it \(shardeck service status, the service manager's status and journal\) and the node's log/);
    // What it started went with it; the node was never touched.
    expect(running('sleep', '317')).toEqual([]);
    expect(await pidOfNode()).toBe(pid);
    expect(phasesOf()).toEqual(['sending', 'outcome']);
    expect(readAudit(path.join(cfg, 'audit.log')).records[0]).toMatchObject({
      command: hang,
      outcome: { ok: false, error: expect.stringMatching(/did not end within 3 s/) },
    });
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
