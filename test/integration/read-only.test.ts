// Read-only mode, proved at the wire: a counting proxy sits in front of a real node set up so that
// every command WOULD change something (documents to delete, deleted documents to merge away, a
// replica count to change, a block to lift, a failed allocation to retry, a corrupt primary to
// repair, a lost delete task whose count wants a refresh). Every command of the CLI's command
// table runs with --read-only, and every dangerous key of the keymap is pressed in the console
// with its confirming keys; the proxy must see no request that changes anything. The walk is
// driven by the tables themselves: a new command without an entry here fails the test.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { corruptShard } from '../../dev/corrupt.mjs';
import { startPlatformServer } from '../../dev/platform-server.mjs';
import { COMMANDS } from '../../src/commands';
import { KEYMAP, keysOf } from '../../src/keys/keymap';
import { PANE_SPECS, type PaneId } from '../../src/store/panes';
import { RESOURCES, resourcesOfPane } from '../../src/cluster/resources';
import { WIZARDS } from '../../src/ui/wizards/registry';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { waitUntil } from '../helpers/wait-until';
import { auditLinesIn, esCall } from '../helpers/real-node';
import { CLI, ensureBuilt, runCli, type CliResult } from '../helpers/run-cli';

const INDEX = 'service_v9_ro';
const BLOCKED = 'service_v9_blocked';
const CORRUPT = 'ro_corrupt';
const QUERY = { term: { 'assoc:sources': 'src-crm' } };
const LOST_TASK = 'lostnode0000000000000:4242';

let node: Awaited<ReturnType<typeof startNode>>;
let platform: Awaited<ReturnType<typeof startPlatformServer>>;
let proxy: CountingProxy;
let dir: string;
let cfg: string;
let finishedTask: string;
let matching: number;
/** A document id the setup's deletes left in place (get reads it). */
let existingDoc: string;
const es = async (method: string, p: string, body?: unknown) => (await esCall(node.url, method, p, body)).body;
const marker = (name: string) => path.join(dir, name);

/**
 * What the cluster looks like where the commands would change it; compared before and after. Not
 * the flood-stage block: below the high watermark Elasticsearch lifts it by itself within ~20 s
 * (setBlock puts it back before each walk, so unblock would really change something).
 */
async function clusterState(): Promise<unknown> {
  const [replicas, settings, docs, deleted, tasks] = await Promise.all([
    es('GET', `/${INDEX}/_settings/index.number_of_replicas?flat_settings=true`),
    es('GET', '/_cluster/settings?flat_settings=true'),
    // No refresh here: a refresh sent by the test would hide one sent by shardeck.
    es('GET', `/_cat/indices/${INDEX},${BLOCKED}?format=json&h=index,docs.count,docs.deleted&s=index`),
    es('GET', `/_cat/segments/${INDEX}?format=json&h=segment`),
    es('GET', '/_tasks?actions=*byquery,*forcemerge*&group_by=none'),
  ]);
  return { replicas, settings, docs, segments: deleted.length, tasks: tasks.tasks.length };
}

const setBlock = () => es('PUT', `/${BLOCKED}/_settings`, { 'index.blocks.read_only_allow_delete': true });

beforeAll(async () => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-ro-'));
  cfg = path.join(dir, 'conf');
  [node, platform] = await Promise.all([startNode({ name: 'read-only', anyStatus: true }), startPlatformServer()]);
  // A corrupt primary (red, allocation failed 5 times): recover-corrupt and reroute would act on it.
  await corruptShard(node, CORRUPT, { docs: 300, late: 7 });
  await loadDemoData(node.url, { docsPerIndex: 500, indices: [INDEX, BLOCKED], yellowIndex: '' });
  // Deleted documents for forcemerge --expunge-deletes; a long refresh interval, so a count
  // without a refresh visibly lags (and `tasks` must say by how much time).
  await es('POST', `/${INDEX}/_delete_by_query?refresh=true`, { query: { term: { 'assoc:sources': 'src-ftp' } }, max_docs: 20 });
  await es('PUT', `/${INDEX}/_settings`, { index: { refresh_interval: '30s' } });
  // A finished delete task, stored in the node's task results (`tasks ID` reads it).
  const started = await es('POST', `/${INDEX}/_delete_by_query?wait_for_completion=false`, {
    query: { term: { 'assoc:sources': 'src-wiki' } },
    max_docs: 3,
  });
  finishedTask = started.task;
  await es('GET', `/_tasks/${finishedTask}?wait_for_completion=true&timeout=30s`);
  await es('POST', `/${INDEX}/_refresh`); // nothing pending: a scheduled refresh changes nothing during the walk
  matching = (await es('POST', `/${INDEX}/_count`, { query: QUERY })).count;
  existingDoc = (await es('POST', `/${INDEX}/_search`, { query: QUERY, size: 1 })).hits.hits[0]._id;
  // A delete whose task died with its node, as the audit log keeps it: `tasks` would refresh and count.
  fs.mkdirSync(cfg, { recursive: true, mode: 0o700 });
  const lost = {
    time: new Date().toISOString(),
    profile: 'default',
    url: node.url,
    request: {
      method: 'POST',
      path: `/${INDEX}/_delete_by_query`,
      querystring: { wait_for_completion: 'false' },
      body: { query: QUERY, max_docs: matching },
    },
    risk: 'destructive',
    target: INDEX,
    summary: `delete at most ${matching} documents of ${INDEX} matching the previewed query`,
    confirmedBy: 'yes-flag',
    outcome: { ok: true, status: 200, durationMs: 5, task: LOST_TASK },
  };
  fs.writeFileSync(path.join(cfg, 'audit.log'), JSON.stringify(lost) + '\n', { mode: 0o600 });
  fs.writeFileSync(marker('query.json'), JSON.stringify({ query: QUERY }));
  proxy = await startCountingProxy(node.url);
}, 300_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all([node?.stop(), platform?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  args: string[];
  /** The exit code: 4 where the command would change the cluster, the read's own code otherwise. */
  exit: number;
  /** It must reach the node (reads through the proxy), so a zero count is not a wrong --url. */
  reads?: boolean;
  stdin?: string;
  check?: (r: CliResult) => void;
}

/** Every command of the table, with arguments that WOULD change something. `console`: walked in tmux below. */
const WALK: Record<string, Run[] | 'console'> = {
  tui: 'console',
  status: [{ args: ['status'], exit: 2, reads: true }],
  // The saved profiles (none here) and the --url node: red (the corrupt primary).
  fleet: [{ args: ['fleet'], exit: 2, reads: true }],
  login: [{ args: ['login', '--platform', '@platform'], exit: 0, stdin: '@token\n' }],
  whoami: [{ args: ['whoami'], exit: 0 }],
  projects: [{ args: ['projects'], exit: 0, reads: true }],
  profiles: [{ args: ['profiles'], exit: 0 }],
  logout: [{ args: ['logout'], exit: 0 }],
  replicas: [{ args: ['replicas', 'set', INDEX, '1', '--yes'], exit: 4 }],
  shrink: [
    { args: ['shrink', INDEX, '--shards', '1', '--yes', '--accept-data-loss', INDEX], exit: 4 },
    { args: ['shrink', INDEX, '--shards', '1', '--dry-run'], exit: 4 },
    { args: ['shrink', '--resume', '--yes', '--accept-data-loss', INDEX], exit: 4 },
  ],
  unblock: [{ args: ['unblock', '--yes'], exit: 4 }],
  'scroll-limit': [
    { args: ['scroll-limit', '1000', '--yes'], exit: 4 },
    { args: ['scroll-limit'], exit: 0, reads: true },
  ],
  explain: [
    { args: ['explain'], exit: 0, reads: true },
    { args: ['explain', CORRUPT, '0', 'primary'], exit: 0, reads: true },
  ],
  reroute: [{ args: ['reroute', '--retry-failed', '--yes'], exit: 4 }],
  allocation: [
    { args: ['allocation', 'enable', 'primaries', '--yes'], exit: 4 },
    { args: ['allocation', 'restore', '--yes'], exit: 4 },
    { args: ['allocation'], exit: 0, reads: true },
    { args: ['allocation', 'filters'], exit: 0, reads: true },
    { args: ['allocation', 'filters', 'clear', 'cluster.routing.allocation.exclude._name', '--yes'], exit: 4 },
  ],
  lock: [
    { args: ['lock'], exit: 0 },
    { args: ['lock', 'take', '--holder', 'x', '--yes'], exit: 4 },
  ],
  'restart-node': [{ args: ['restart-node', '--yes', '--node-name', 'x'], exit: 4 }],
  deprecations: [{ args: ['deprecations'], exit: 0, reads: true }],
  balance: [{ args: ['balance'], exit: 0, reads: true }],
  drain: [
    { args: ['drain', 'x', '--yes'], exit: 4 },
    { args: ['drain', '--undo', 'x', '--yes'], exit: 4 },
  ],
  recovery: [
    { args: ['recovery'], exit: 0, reads: true },
    { args: ['recovery', 'throttle', '--max-bytes-per-sec', '100mb', '--yes'], exit: 4 },
    { args: ['recovery', 'throttle', '--restore', '--yes'], exit: 4 },
  ],
  'cluster-settings': [
    { args: ['cluster-settings', '--changed'], exit: 0, reads: true },
    { args: ['cluster-settings', 'set', 'search.max_open_scroll_context', '900', '--yes'], exit: 4 },
    { args: ['cluster-settings', 'reset', 'search.max_open_scroll_context', '--yes'], exit: 4 },
    { args: ['cluster-settings', 'restore', 'search.max_open_scroll_context', '--yes'], exit: 4 },
  ],
  index: [
    { args: ['index', 'close', INDEX, '--yes'], exit: 4 },
    { args: ['index', 'open', INDEX, '--yes'], exit: 4 },
    { args: ['index', 'delete', INDEX, '--yes', '--expect', '1', '--confirm-project', INDEX], exit: 4 },
  ],
  aliases: [{ args: ['aliases'], exit: 0, reads: true }],
  alias: [
    { args: ['alias', 'add', 'ro-alias', INDEX, '--yes'], exit: 4 },
    { args: ['alias', 'remove', 'ro-alias', INDEX, '--yes'], exit: 4 },
    { args: ['alias', 'swap', 'ro-alias', '--from', INDEX, '--to', CORRUPT, '--yes'], exit: 4 },
  ],
  move: [
    { args: ['move', INDEX, '0'], exit: 0, reads: true },
    { args: ['move', INDEX, '0', '--to', 'x', '--yes'], exit: 4 },
  ],
  dangling: [
    { args: ['dangling'], exit: 0, reads: true },
    { args: ['dangling', 'delete', 'ro-uuid', '--yes', '--accept-data-loss', 'ro-uuid'], exit: 4 },
  ],
  audit: [{ args: ['audit'], exit: 0 }],
  snapshots: [{ args: ['snapshots'], exit: 0, reads: true }],
  snapshot: [
    { args: ['snapshot', 'repo', 'add', 'ro-repo', '--location', 'ro-repo', '--yes'], exit: 4 },
    { args: ['snapshot', 'repo', 'verify', 'ro-repo', '--yes'], exit: 4 },
    { args: ['snapshot', 'repo', 'remove', 'ro-repo', '--yes'], exit: 4 },
    { args: ['snapshot', 'create', 'ro-repo', '--indices', INDEX, '--wait', '--yes'], exit: 4 },
  ],
  restore: [
    { args: ['restore', 'ro-repo', 'ro-snap', '--indices', INDEX, '--yes'], exit: 4 },
    { args: ['restore', 'ro-repo', 'ro-snap', '--indices', INDEX, '--replace', '--yes', '--accept-data-loss', INDEX], exit: 4 },
  ],
  help: [
    { args: ['help'], exit: 0 },
    { args: ['help', '--complete', 'indices'], exit: 0 },
  ],
  'recover-corrupt': [
    {
      args: [
        'recover-corrupt',
        CORRUPT,
        '0',
        '--yes',
        '--stop-cmd',
        `touch @stopped`,
        '--start-cmd',
        `touch @started`,
        '--backup-dir',
        '@backup',
      ],
      exit: 4,
    },
    {
      args: ['recover-corrupt', '--resume', CORRUPT, '0', '--yes', '--stop-cmd', `touch @stopped`, '--start-cmd', `touch @started`],
      exit: 4,
    },
    { args: ['recover-corrupt', '--detect'], exit: 2, reads: true },
  ],
  'delete-by-query': [
    { args: ['delete-by-query', INDEX, '--source', 'src-crm', '--expect', '@matching', '--yes'], exit: 4 },
    {
      args: ['delete-by-query', INDEX, '--query-file', '@query.json', '--expect', '@matching', '--yes', '--conflicts', 'proceed'],
      exit: 4,
    },
    { args: ['delete-by-query', INDEX, '--until', '2026-10-01', '--expect', '@matching', '--yes'], exit: 4 },
  ],
  get: [{ args: ['get', INDEX, '@doc'], exit: 0, reads: true }],
  search: [
    { args: ['search', INDEX, '--source', 'src-crm'], exit: 0, reads: true },
    { args: ['search', INDEX, '--query-file', '@query.json', '--until', '2026-10-01'], exit: 64 },
  ],
  forcemerge: [{ args: ['forcemerge', INDEX, '--expunge-deletes', '--yes'], exit: 4 }],
  templates: [
    { args: ['templates'], exit: 0, reads: true },
    { args: ['templates', '--platform-json'], exit: 0, reads: true },
  ],
  nodes: [{ args: ['nodes'], exit: 0, reads: true }],
  xray: [{ args: ['xray', INDEX], exit: 0, reads: true }],
  'hot-threads': [{ args: ['hot-threads', '--interval', '100ms'], exit: 0, reads: true }],
  pending: [{ args: ['pending'], exit: 0, reads: true }],
  'field-limits': [{ args: ['field-limits'], exit: 0, reads: true }],
  'component-template': [{ args: ['component-template', 'put', 'ro_no_body', '--disable-field', 'body', '--yes'], exit: 4 }],
  // Reads only (allocation explains are POST reads): exit 2 for the corrupt primary.
  doctor: [{ args: ['doctor'], exit: 2, reads: true }],
  service: [
    { args: ['service', 'stop', '--yes', '--node-name', 'read-only', '--stop-cmd', 'touch @stopped'], exit: 4 },
    {
      args: ['service', 'restart', '--yes', '--node-name', 'read-only', '--stop-cmd', 'touch @stopped', '--start-cmd', 'touch @started'],
      exit: 4,
    },
    { args: ['service', 'start', '--yes', '--start-cmd', 'touch @started'], exit: 4 },
    { args: ['service', 'status', '--status-cmd', 'true'], exit: 0, reads: true },
  ],
  plugin: [
    { args: ['plugin', 'install', 'analysis-icu', '--yes'], exit: 4 },
    { args: ['plugin', 'remove', 'analysis-icu', '--yes'], exit: 4 },
  ],
  tasks: [
    { args: ['tasks'], exit: 0, reads: true },
    { args: ['tasks', '--all'], exit: 0, reads: true },
    // Refused before the task is even read: the guard's read-only check comes first.
    { args: ['tasks', 'cancel', '@finished', '--yes'], exit: 4 },
    { args: ['tasks', 'rethrottle', '@finished', '--rps', '5', '--yes'], exit: 4 },
    { args: ['tasks', '@finished'], exit: 0, reads: true },
    {
      args: ['tasks', LOST_TASK, '--json'],
      exit: 0,
      reads: true,
      check: (r) => {
        const out = JSON.parse(r.stdout);
        // Counted without a refresh, and says so with the index's own refresh interval.
        expect(out).toMatchObject({
          lost: true,
          index: INDEX,
          refreshed: false,
          countMayLag: expect.stringMatching(/read-only mode: not refreshed.*lag.*\(30s\)/),
        });
      },
    },
    {
      args: ['tasks', LOST_TASK],
      exit: 0,
      reads: true,
      check: (r) => expect(r.stdout).toMatch(/may lag by the index's refresh interval \(30s\)/),
    },
  ],
  mappings: [{ args: ['mappings', INDEX, '--field', 'modified_at'], exit: 0, reads: true }],
  settings: [{ args: ['settings', INDEX, '--all'], exit: 0, reads: true }],
  stats: [
    { args: ['stats'], exit: 0, reads: true },
    { args: ['stats', INDEX], exit: 0, reads: true },
  ],
  cat: [
    { args: ['cat'], exit: 0, reads: true },
    { args: ['cat', 'shards', INDEX, '--columns', 'index,shard,prirep,state'], exit: 0, reads: true },
  ],
  // Never talks to the cluster: nobody shares on this socket.
  follow: [{ args: ['follow', '@backup.sock'], exit: 5, check: (r) => expect(r.stderr).toMatch(/nobody shares on/) }],
  // Reads the config folder's timeline and audit log only.
  incident: [
    {
      args: ['incident', '--json'],
      exit: 0,
      check: (r) => expect(JSON.parse(r.stdout)).toMatchObject({ command: 'incident', entries: expect.any(Array) }),
    },
    { args: ['incident', 'export', '--md'], exit: 0, check: (r) => expect(r.stdout).toMatch(/^# Incident timeline/) },
  ],
};

function fill(a: string): string {
  return a
    .replace('@platform', platform.url)
    .replace('@token', platform.refreshToken)
    .replace('@matching', String(matching))
    .replace('@finished', finishedTask)
    .replace('@doc', existingDoc)
    .replace(/@(stopped|started|backup\.sock|backup|query\.json)/, (_, f) => marker(f));
}

describe('every CLI command with --read-only sends nothing that changes the cluster', () => {
  it('the walk has an entry for every command of the command table (add one for a new command)', () => {
    expect(Object.keys(WALK).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it('runs each command against the counting proxy: exit 4 where it would change something, zero changing requests', async () => {
    await setBlock();
    const before = await clusterState();
    const seenReads: string[] = [];
    /** One run through a proxy of its own (runs of other commands go on beside it). */
    const walk = async (name: string, run: Run) => {
      const own = await startCountingProxy(node.url);
      try {
        const args = run.args.map(fill);
        const r = await runCli([args[0], '--url', own.url, '--read-only', ...args.slice(1)], {
          env: { SHARDECK_CONFIG_DIR: cfg },
          input: run.stdin ? fill(run.stdin) : undefined,
        });
        const what = `${args.join(' ')} --read-only -> ${r.code}\n${r.stderr}`;
        expect(r.code, what).toBe(run.exit);
        if (run.exit === 4) expect(r.stderr, what).toMatch(/read-only mode.*nothing was sent/);
        expect(own.changing(), what).toEqual([]);
        if (run.reads) expect(own.requests.length, `${what}: no request reached the proxy`).toBeGreaterThan(0);
        run.check?.(r);
        seenReads.push(...own.requests.map((q) => `${name}: ${q.method} ${q.path}`));
      } finally {
        await own.close();
      }
    };
    // Three lanes at once (most of a run is a CLI process starting): each command's runs in order in
    // one lane; the commands that read or write the saved profiles and the platform sign-in in the
    // first, in the table's order, so what one saves is there for the next as before.
    const SAVED_STATE = ['fleet', 'login', 'whoami', 'projects', 'profiles', 'logout'];
    const commands = Object.entries(WALK).filter((e): e is [string, Run[]] => e[1] !== 'console');
    const lanes: [string, Run[]][][] = [commands.filter(([n]) => SAVED_STATE.includes(n)), [], []];
    commands.filter(([n]) => !SAVED_STATE.includes(n)).forEach((c, i) => lanes[1 + (i % 2)].push(c));
    // Every lane ends before the first failure is thrown: no run goes on into the console's walk.
    const ended = await Promise.allSettled(
      lanes.map(async (lane) => {
        for (const [name, runs] of lane) for (const run of runs) await walk(name, run);
      }),
    );
    for (const e of ended) if (e.status === 'rejected') throw e.reason;
    // The counts above are only worth something if POST reads did pass the proxy (and were told apart).
    expect(seenReads.some((l) => /POST \/service_v9_ro\/_count/.test(l))).toBe(true);
    // Nothing moved: no host command ran, the audit log holds the lost delete and, besides it, only
    // the host reads read-only mode may run (`service status`: audited as reads, risk 'read').
    for (const f of ['stopped', 'started', 'backup']) expect(fs.existsSync(marker(f)), f).toBe(false);
    const [lostDelete, ...added] = auditLinesIn(cfg);
    expect(lostDelete).toBeDefined();
    const addedRecords = added.map((l) => JSON.parse(l) as { risk?: string; of?: string; command?: string });
    expect(addedRecords.filter((r) => !r.of).map((r) => [r.risk, r.command])).toEqual([['read', 'true']]);
    expect(await clusterState()).toEqual(before);
  }, 240_000);
});

// --- the console ------------------------------------------------------------------------------

const SOCKET = `shardeck-ro-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = (s: string) => tmux('capture-pane', '-p', '-t', s);
/** Ink's key names as tmux send-keys names them. */
const TMUX_KEY: Record<string, string> = { up: 'Up', down: 'Down', return: 'Enter', escape: 'Escape', tab: 'Tab' };
const press = (s: string, key: string) => tmux('send-keys', '-t', s, TMUX_KEY[key] ?? key);

function waitFor(s: string, test: (text: string) => boolean, what: string): Promise<string> {
  return waitUntil(what, () => screen(s), test, { timeoutMs: 20_000, intervalMs: 200 });
}

/** The pane of a key scope is on screen: its title heads the third line. */
const onPane = (scope: string) => (t: string) => (t.split('\n')[2] ?? '').startsWith(PANE_SPECS[scope as PaneId].title);
/** Reads of the first resource the pane polls (health on most, the index templates on Templates). */
const panePolls = (scope: string) => {
  const path = RESOURCES[resourcesOfPane(scope as PaneId)[0]].request.path;
  return () => proxy.requests.filter((r) => r.path.split('?')[0] === path).length;
};

function launch(s: string, flags: string): void {
  const cmd = `env -u CI -u NO_COLOR -u FORCE_COLOR SHARDECK_CONFIG_DIR=${cfg} node ${CLI} --url ${proxy.url} --interval 1 ${flags}; echo EXIT=$?; sleep 600`;
  tmux('new-session', '-d', '-s', s, '-x', '80', '-y', '24', cmd);
}

// Pane keys: a dangerous key inside a wizard (snapshot first, the checklist's restore route, a
// restore's cancel) is reached only in a wizard that read-only mode never opens, and what it
// sends goes through the Guard all the same.
const DANGEROUS = KEYMAP.filter((k) => k.dangerous && k.scope in PANE_SPECS);
const titleOf = (id: string) => WIZARDS.find((w) => w.commandId === id)?.title ?? id;

describe('every dangerous key of the console with --read-only does nothing', () => {
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // no session left
    }
  });

  it('the keymap has dangerous keys and each opens a wizard (so the walk below presses real things)', () => {
    expect(DANGEROUS.length).toBeGreaterThan(0);
    for (const k of DANGEROUS)
      expect(
        WIZARDS.some((w) => w.commandId === k.id),
        k.id,
      ).toBe(true);
  });

  it('writable: each dangerous key opens its wizard on its pane (the walk reaches the key)', async () => {
    const s = 'writable';
    launch(s, '');
    await waitFor(s, (t) => /health report/.test(t), 'the console');
    for (const k of DANGEROUS) {
      press(s, keysOf(`pane.${k.scope}`)[0]);
      await waitFor(s, onPane(k.scope), `the ${k.scope} pane`);
      press(s, keysOf('row.down')[0]);
      press(s, k.keys[0]);
      // Head of the title: long titles are cut at 80 columns.
      await waitFor(s, (t) => t.includes(titleOf(k.id).slice(0, 30)), `${k.id} opening its wizard`);
      press(s, 'escape');
      await waitFor(s, (t) => !t.includes(titleOf(k.id).slice(0, 30)), `${k.id} closing`);
    }
    tmux('kill-session', '-t', s);
  }, 120_000);

  it('read-only: each dangerous key, then y, Enter, the index name and Enter, changes nothing', async () => {
    const s = 'readonly';
    await setBlock();
    const before = await clusterState();
    proxy.reset();
    launch(s, '--read-only');
    await waitFor(s, (t) => /health report/.test(t) && /READ-ONLY/.test(t), 'the console in read-only mode');
    for (const k of DANGEROUS) {
      press(s, keysOf(`pane.${k.scope}`)[0]);
      await waitFor(s, onPane(k.scope), `the ${k.scope} pane`);
      press(s, keysOf('row.down')[0]);
      for (const dangerousKey of k.keys) {
        for (const key of [dangerousKey, 'y', 'return']) press(s, key);
        tmux('send-keys', '-t', s, '-l', INDEX);
        press(s, 'return');
        // Not a fixed sleep: two more polls seen by the proxy (an interval apart) prove the keys were read
        // and a poll interval passed, so a request they started would have gone out by then.
        const polls = panePolls(k.scope);
        const polled = polls();
        await waitUntil(`two polls after ${k.id} ${dangerousKey}`, polls, (n) => n >= polled + 2, { timeoutMs: 30_000, intervalMs: 100 });
        const t = screen(s);
        expect(t, `${k.id} ${dangerousKey}`).not.toContain(titleOf(k.id).slice(0, 30));
        expect(t, `${k.id} ${dangerousKey}`).toMatch(/READ-ONLY/);
        // The refused key left the Enters to the pane (an index detail may be open) and the typed
        // name's digits to the number keys (the 9 of service_v9_ro opens Snapshots): Esc and the
        // pane's key until the pane itself is back, so the next key is pressed where it would open its wizard.
        await waitUntil(
          `back on the ${k.scope} pane`,
          () => {
            const now = screen(s);
            if (!onPane(k.scope)(now)) {
              press(s, 'escape');
              press(s, keysOf(`pane.${k.scope}`)[0]);
            }
            return now;
          },
          onPane(k.scope),
          { timeoutMs: 20_000, intervalMs: 300 },
        );
      }
    }
    expect(screen(s)).not.toMatch(/EXIT=/); // still running: no key quit it half way
    expect(proxy.requests.length).toBeGreaterThan(10); // the polls went through the proxy
    expect(proxy.changing()).toEqual([]);
    expect(await clusterState()).toEqual(before);
  }, 240_000);
});
