// Issue 17's timeline across users and tasks, against a real node with the built CLI: two OS users
// (root and a throwaway system user made here and removed after) each change the same node; root's
// `shardeck incident --json` shows both changes with the right user, the other user's its own (the
// journals are 0600: root reads all), while each user's config folder and audit log stay 0600 and
// the shared journal holds no request body. And a
// delete-by-query's task end reaches the timeline once, with its result and duration, also when
// `shardeck tasks ID` reads the finished task again. And the one-time join token: a leader run as
// the unprivileged user cannot read a root follower's /proc/<pid>/fd, so the follower's user is
// unknown to it: without the token it is refused, with it (--token-env) it follows, once.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { CLI, ensureBuilt, runCli, cliForOtherUsers } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';
import { waitUntil } from '../helpers/wait-until';

const OTHER = `shardeck-jrnl-${process.pid % 100000}`;
const INDEX = 'service_v9_journal';
const DBQ = 'service_v9_journal_dbq';

let node: Awaited<ReturnType<typeof startNode>>;
let dir: string;
let lockDir: string;
let rootConf: string;
let otherConf: string;
let otherMade = false;

const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);

/** The built CLI as root, with this test's config and shared folders. */
const asRoot = (args: string[]) => runCli(args, { env: { SHARDECK_CONFIG_DIR: rootConf, SHARDECK_LOCK_DIR: lockDir } });

/** The built CLI as the other user, with nothing of root's environment. */
function asOther(args: string[]) {
  return spawnSync(
    'runuser',
    [
      '-u',
      OTHER,
      '--',
      'env',
      '-i',
      `PATH=${process.env.PATH}`,
      `SHARDECK_CONFIG_DIR=${otherConf}`,
      `SHARDECK_LOCK_DIR=${lockDir}`,
      'NO_COLOR=1',
      process.execPath,
      cliForOtherUsers(),
      ...args,
    ],
    {
      encoding: 'utf8',
      cwd: '/',
    },
  );
}

type Entry = {
  kind: string;
  who?: string;
  summary?: string;
  target?: string;
  request?: string;
  result?: string;
  phase?: string;
  task?: string;
  durationMs?: number;
};
const changesOf = (stdout: string): Entry[] => (JSON.parse(stdout).entries as Entry[]).filter((e) => e.kind === 'change');

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'journal' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-journal-'));
  // The other user must reach the shared folder inside it (the folder itself is made 1777 by shardeck).
  fs.chmodSync(dir, 0o755);
  lockDir = path.join(dir, 'locks');
  rootConf = path.join(dir, 'root-conf');
  const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  otherMade = true;
  otherConf = path.join(dir, 'other-conf');
  fs.mkdirSync(otherConf, { mode: 0o700 });
  const uid = Number(spawnSync('id', ['-u', OTHER], { encoding: 'utf8' }).stdout.trim());
  fs.chownSync(otherConf, uid, uid);
  await es('PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await es('PUT', `/${DBQ}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const bulk = Array.from({ length: 500 }, (_, i) => `{"index":{}}\n{"n":${i},"secret_marker":"body-${i}"}\n`).join('');
  const r = await fetch(`${node.url}/${DBQ}/_bulk?refresh=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: bulk,
  });
  expect(r.status).toBe(200);
}, 240_000);

const TMUX = `shardeck-journal-${process.pid}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', TMUX, ...args], { encoding: 'utf8' });
const screen = (session: string): string => tmux('capture-pane', '-p', '-t', session);

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // no session was started
  }
  // The leader run as that user ends a moment after its tmux server: userdel refuses a user still running.
  if (otherMade)
    await waitUntil(
      'the throwaway user removed',
      () => spawnSync('userdel', [OTHER]).status,
      (code) => code === 0 || code === 6,
      { timeoutMs: 10_000, intervalMs: 200 },
    );
  await node?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('every change from any shardeck process on the host reaches the timeline', () => {
  it('two OS users each change the node: incident --json of either shows both, with the right user', async () => {
    const byRoot = await asRoot(['replicas', 'set', INDEX, '1', '--yes', '--url', node.url]);
    expect(byRoot.code, byRoot.stderr).toBe(0);
    const byOther = asOther(['replicas', 'set', INDEX, '0', '--yes', '--url', node.url]);
    expect(byOther.status, byOther.stderr).toBe(0);

    const fromRoot = await asRoot(['incident', '--json', '--url', node.url]);
    expect(fromRoot.code, fromRoot.stderr).toBe(0);
    const fromOther = asOther(['incident', '--json', '--url', node.url]);
    expect(fromOther.status, fromOther.stderr).toBe(0);
    // Root reads every user's 0600 journal; the other user reads only its own (docs/THREATS.md).
    const byBoth = [
      ['root', `set number_of_replicas to 1 on 1 index: ${INDEX}`, 'ok'],
      [OTHER, `set number_of_replicas to 0 on 1 index: ${INDEX}`, 'ok'],
    ];
    const rows = (changes: Entry[]) => changes.map((c) => [c.who, c.summary!.replace(/\s+/g, ' '), c.result!.slice(0, 2)]);
    expect(rows(changesOf(fromRoot.stdout))).toEqual(byBoth);
    expect(rows(changesOf(fromOther.stdout))).toEqual([byBoth[1]]);
    expect(changesOf(fromRoot.stdout)[1].request).toMatch(new RegExp(`^PUT /${INDEX}/_settings`));

    // Each user's own files stay private; the journals are the writer's, 0600, in the sticky folder.
    for (const conf of [rootConf, otherConf]) {
      expect(fs.statSync(conf).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(conf, 'audit.log')).mode & 0o777).toBe(0o600);
    }
    expect(fs.statSync(lockDir).mode & 0o7777).toBe(0o1777);
    const journals = fs.readdirSync(lockDir).filter((f) => f.includes('.changes.'));
    expect(journals).toHaveLength(2);
    for (const f of journals) {
      const st = fs.statSync(path.join(lockDir, f));
      expect(st.mode & 0o777).toBe(0o600);
      expect(f).toMatch(new RegExp(`\\.changes\\.${st.uid}\\.jsonl$`));
      // Method and path only: no request body crosses to other users.
      expect(fs.readFileSync(path.join(lockDir, f), 'utf8')).not.toContain('"body"');
    }
  });

  it("a journal another user planted under root's name is neither written through nor believed", async () => {
    const planted = path.join(
      lockDir,
      fs.readdirSync(lockDir).find((f) => f.endsWith('.changes.0.jsonl'))!,
    );
    const keep = fs.readFileSync(planted, 'utf8');
    fs.rmSync(planted);
    // The other user makes "root's" journal and writes a change claiming to be root's.
    const fake = JSON.stringify({
      id: 'forged',
      phase: 'sending',
      time: new Date().toISOString(),
      profile: 'x',
      osUser: 'root',
      url: JSON.parse(keep.split('\n')[0]).url,
      risk: 'low',
      target: INDEX,
      summary: 'forged by the other user',
      confirmedBy: 'yes-flag',
    });
    const w = spawnSync('runuser', ['-u', OTHER, '--', 'sh', '-c', `umask 022; printf '%s\\n' '${fake}' > ${planted}`], {
      encoding: 'utf8',
    });
    expect(w.status, w.stderr).toBe(0);
    const inc = await asRoot(['incident', '--json', '--url', node.url]);
    expect(inc.stdout).not.toContain('forged by the other user');
    // Root's next change does not append to a file it does not own (the audit log still has it).
    const r = await asRoot(['replicas', 'set', INDEX, '0', '--yes', '--url', node.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(planted, 'utf8')).toBe(`${fake}\n`);
    fs.rmSync(planted);
    fs.writeFileSync(planted, keep, { mode: 0o644 });
  });
});

describe('task starts and ends', () => {
  it("a delete-by-query's end is recorded once, with its result and duration; shardeck tasks ID adds no second one", async () => {
    const qf = path.join(dir, 'all.json');
    fs.writeFileSync(qf, JSON.stringify({ query: { match_all: {} } }));
    const del = await asRoot(['delete-by-query', DBQ, '--query-file', qf, '--yes', '--expect', '500', '--json', '--url', node.url]);
    expect(del.code, del.stderr).toBe(0);
    const task = JSON.parse(del.stdout).task as string;
    expect(task).toMatch(/^[\w-]+:\d+$/);
    const tasksOf = async () =>
      (JSON.parse((await asRoot(['incident', '--json', '--url', node.url])).stdout).entries as Entry[]).filter(
        (e) => e.kind === 'task' && e.task === task,
      );
    const first = await tasksOf();
    expect(first.map((e) => e.phase)).toEqual(['start', 'end']);
    expect(first[1]).toMatchObject({ result: 'ok, 500 deleted', durationMs: expect.any(Number) });

    const again = await asRoot(['tasks', task, '--json', '--url', node.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).task.completed).toBe(true);
    expect((await tasksOf()).map((e) => e.phase)).toEqual(['start', 'end']);
    const text = await asRoot(['incident', '--url', node.url]);
    expect(text.stdout).toMatch(new RegExp(`task ended ${task}: .* -> ok, 500 deleted after \\d+s`));
  });
});

describe("the one-time join token, where the leader cannot read the follower's user", () => {
  it('a leader run by an unprivileged user: a root follower without the token is refused, with it follows, and the token works once', async () => {
    const uid = Number(spawnSync('id', ['-u', OTHER], { encoding: 'utf8' }).stdout.trim());
    const runtime = path.join(dir, 'other-run');
    fs.mkdirSync(runtime, { mode: 0o700 });
    fs.chownSync(runtime, uid, uid);
    const env = [
      `PATH=${process.env.PATH}`,
      'TERM=xterm-256color',
      `SHARDECK_CONFIG_DIR=${otherConf}`,
      `SHARDECK_LOCK_DIR=${lockDir}`,
      `XDG_RUNTIME_DIR=${runtime}`,
    ];
    tmux(
      'new-session',
      '-d',
      '-s',
      'leader',
      '-x',
      '100',
      '-y',
      '30',
      `runuser -u ${OTHER} -- env -i ${env.join(' ')} ${process.execPath} ${cliForOtherUsers()} --url ${node.url} --interval 1 --share; echo EXIT=$?; sleep 600`,
    );
    const tokenOnScreen = async () =>
      /token (\S{16})/.exec(
        await waitUntil(
          'the leader, shared, showing a join token',
          () => screen('leader'),
          (s) => s.includes('SHARED') && /token (\S{16})/.test(s),
          { timeoutMs: 30_000, intervalMs: 100 },
        ).catch((e) => {
          throw new Error(`${(e as Error).message}\n--- leader ---\n${screen('leader')}`);
        }),
      )![1];
    const token = await tokenOnScreen();
    const shareDir = path.join(runtime, `shardeck-${uid}`);
    const sock = path.join(
      shareDir,
      fs.readdirSync(shareDir).find((f) => f.endsWith('.sock'))!,
    );
    expect(fs.statSync(sock).uid).toBe(uid);

    // Root may connect to any socket, but the leader (not root) cannot read root's /proc/<pid>/fd.
    const follow = (extraEnv: Record<string, string>, args: string[] = []) =>
      spawnSync(process.execPath, [CLI, 'follow', sock, '--json', ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, NO_COLOR: '1', ...extraEnv },
      });
    const without = follow({});
    expect(without.status).toBe(5);
    expect(without.stderr).toMatch(/the join token is missing or wrong/);

    const wrong = follow({ JOIN: 'x'.repeat(16) }, ['--token-env', 'JOIN']);
    expect(wrong.status).toBe(5);

    const withToken = follow({ JOIN: token }, ['--token-env', 'JOIN']);
    expect(withToken.status, withToken.stderr).toBe(0);
    expect(JSON.parse(withToken.stdout)).toMatchObject({
      ok: true,
      leader: expect.stringMatching(new RegExp(`^${OTHER} pid \\d+$`)),
      cluster: node.url,
    });

    // One-time: the same token again is refused; the leader shows a new one.
    const reused = follow({ JOIN: token }, ['--token-env', 'JOIN']);
    expect(reused.status).toBe(5);
    expect(reused.stderr).toMatch(/the join token is missing or wrong/);
    // The leader was told of each refusal (its status line names the last one).
    expect(screen('leader')).toMatch(/REFUSED \d\d:\d\d:\d\d a peer whose user could not be read: the join token is/);
    expect(screen('leader')).not.toContain('EXIT=');
    tmux('kill-session', '-t', 'leader');
  });
});
