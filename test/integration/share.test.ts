// Two operators, one incident, with real processes: the built CLI's console as leader and
// `shardeck follow` as follower, each in its own tmux terminal, against a real secured node and the
// dev platform server (so the leader holds a password and platform tokens). The follower shows the
// leader's health; a replicas change on the leader waits for the follower's approval (four eyes)
// and both then show green and the timeline entry; a user without permission on the socket is
// refused; two processes racing for a change take turns; the leader killed leaves the follower up,
// saying so; and nothing secret crossed the socket.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { startPlatformServer } from '../../dev/platform-server.mjs';
import { withClusterLock } from '../../src/config/cluster-lock';
import { ensureBuilt, CLI, runCli, cliForOtherUsers } from '../helpers/run-cli';
import { waitUntil } from '../helpers/wait-until';

const TMUX = `shardeck-share-${process.pid}`;
const INDEX = 'service_v9_pair';
const STRANGER = `shardeck-stranger-${process.pid % 100000}`;
/** The second pair of eyes: another OS user, in the group the leader shares with (short: it shows on screens). */
const EYES = `eyes${process.pid % 10000}`;
let eyesDir = '';

let node: Awaited<ReturnType<typeof startNode>>;
let platform: Awaited<ReturnType<typeof startPlatformServer>>;
let dir: string;
let env: Record<string, string>;
let passwordFile: string;
let socketPath = '';
let strangerMade = false;
let eyesMade = false;
let groupDir = '';
/** Everything the leader sent to a raw follower of the test's own. */
let captured = '';
const joinTokens: string[] = [];
let raw: net.Socket | undefined;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', TMUX, ...args], { encoding: 'utf8' });
}

function launch(session: string, cmd: string, columns = 100, rows = 30): void {
  tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', String(rows), `${cmd}; echo EXIT=$?; sleep 600`);
}

const screen = (session: string): string => tmux('capture-pane', '-p', '-t', session);
const keys = (session: string, ...k: string[]): void => void tmux('send-keys', '-t', session, ...k);
const waitFor = (session: string, test: (s: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> =>
  waitUntil(what, () => screen(session), test, { timeoutMs, intervalMs: 100 }).catch((e) => {
    // The whole screen, not the one line the timeout quotes.
    throw new Error(`${(e as Error).message}\n--- ${session} ---\n${screen(session)}`);
  });

function envLine(extra: Record<string, string> = {}): string {
  return Object.entries({ ...env, ...extra })
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(' ');
}

const leaderArgs = () => ['--url', node.url, '--user', node.user!, '--ca', node.ca!, '--password-file', passwordFile];

beforeAll(async () => {
  ensureBuilt();
  const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', EYES], {
    encoding: 'utf8',
  });
  expect(made.status, made.stderr).toBe(0);
  eyesMade = true;
  eyesDir = path.join(
    os.tmpdir(),
    `shardeck-${process.getuid!()}-g${Number(execFileSync('getent', ['group', EYES], { encoding: 'utf8' }).split(':')[2])}`,
  );
  [platform, node] = await Promise.all([startPlatformServer(), startNode({ name: 'share', secure: true })]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-share-'));
  const runtime = path.join(dir, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  env = {
    SHARDECK_CONFIG_DIR: path.join(dir, 'conf'),
    XDG_RUNTIME_DIR: runtime,
    SHARDECK_LOCK_DIR: path.join(dir, 'locks'),
    TERM: 'xterm-256color',
    PATH: process.env.PATH ?? '/usr/bin:/bin',
  };
  passwordFile = path.join(dir, 'es.password');
  fs.writeFileSync(passwordFile, `${node.password}\n`, { mode: 0o600 });
  // One replica on one node: yellow until the change.
  const { Client } = await import('@elastic/elasticsearch');
  const es = new Client({
    node: node.url,
    auth: { username: 'elastic', password: node.password! },
    tls: { ca: fs.readFileSync(node.ca!, 'utf8') },
  });
  await es.indices.create({ index: INDEX, settings: { number_of_shards: 1, number_of_replicas: 1 } });
  await es.close();
  // The leader is signed in to the platform: it holds a refresh and an access token.
  const login = await runCli(['login', '--platform', platform.url], {
    env: { SHARDECK_CONFIG_DIR: env.SHARDECK_CONFIG_DIR },
    input: platform.refreshToken,
  });
  expect(login.code).toBe(0);
});

afterAll(async () => {
  raw?.destroy();
  try {
    tmux('kill-server');
  } catch {
    // no session left
  }
  if (strangerMade) spawnSync('userdel', [STRANGER]);
  if (eyesMade) spawnSync('userdel', [EYES]);
  if (eyesDir) fs.rmSync(eyesDir, { recursive: true, force: true });
  if (groupDir) fs.rmSync(groupDir, { recursive: true, force: true });
  await Promise.all([node?.stop(), platform?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('two operators, one incident (built CLI in tmux, real node)', () => {
  it("the follower shows the leader's live panes, with no credential and no connection of its own", async () => {
    launch(
      'leader',
      `env -u CI -u NO_COLOR ${envLine()} node ${CLI} ${leaderArgs().join(' ')} --interval 1 --share --share-group ${EYES} --require-approval`,
    );
    const lead = await waitFor('leader', (s) => s.includes('YELLOW') && s.includes('SHARED'), 'the leader, yellow and shared');
    socketPath = /shardeck follow (\S+\.sock)/.exec(lead)?.[1] ?? '';
    // The one-time join token is on the leader's screen only.
    joinTokens.push(/token (\S{16})/.exec(lead)![1]);
    // The status line may be cut: the socket is the only one in the group's share folder.
    if (!socketPath.endsWith('.sock'))
      socketPath = path.join(
        eyesDir,
        fs.readdirSync(eyesDir).find((f) => f.endsWith('.sock'))!,
      );
    // Shared with EYES's group (the second pair of eyes must be another OS user).
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o660);
    expect(fs.statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o710);

    // The raw follower of this test: records every byte the leader sends, for the secret grep.
    raw = net.createConnection(socketPath);
    raw.setEncoding('utf8');
    raw.on('data', (d: string) => (captured += d));
    raw.write(JSON.stringify({ t: 'hello' }) + '\n');

    // The follower's environment has no password, no config folder, no token: only PATH and TERM.
    launch('follower', `env -i PATH=${JSON.stringify(env.PATH)} TERM=xterm-256color node ${CLI} follow ${socketPath}`, 80, 24);
    const f = await waitFor(
      'follower',
      (s) => s.includes('YELLOW') && s.includes('following'),
      "the follower, showing the leader's yellow health",
    );
    expect(f).toMatch(/unassigned 1 \(pri 0\)/);
    // At 80 columns the command to hand a colleague stays whole; who follows comes after it.
    await waitFor(
      'leader',
      (s) => new RegExp(`SHARED \\(2\\)( · token \\S+)? · shardeck follow ${socketPath.replace(/[.]/g, '\\.')}`).test(s),
      'the leader counting its two followers',
    );

    // The doctor runs on the leader (it reads the node and its files); its findings reach the
    // follower's Doctor pane, which cannot run one itself.
    keys('leader', '7');
    await waitFor('leader', (s) => /checked /.test(s), "the leader's doctor run");
    const doctor = await waitFor(
      'follower',
      (s) => /checked /.test(s) && /replica/i.test(s),
      "the leader's findings on the follower's Doctor pane",
    );
    expect(doctor).not.toContain('checking the node');
    keys('leader', '1');
    await waitFor('follower', (s) => /Health/.test(s) && !/checked /.test(s), 'the follower back on Health with the leader');
  });

  it("a change on the leader waits for the follower's approval; both show green and the timeline entry within 2 s", async () => {
    // Without approval nothing is sent: the leader's wizard waits while the follower sees the preview.
    keys('leader', '2');
    await waitFor('leader', (s) => s.includes(INDEX), 'the Indices pane with the index');
    await waitFor('follower', (s) => s.includes(INDEX), 'the follower following the leader to Indices');
    keys('leader', 'R');
    // The wizard's title (the pane's footer already says "R replicas").
    await waitFor('leader', (s) => s.includes('Replicas of an index or pattern'), 'the replicas wizard');
    keys('leader', 'BSpace', 'BSpace', '0');
    await waitFor('leader', (s) => /replicas +0/.test(s), 'the replicas field at 0');
    keys('leader', 'Enter');
    await waitFor('leader', (s) => /y send/.test(s), 'the review');
    keys('leader', 'y');
    const asked = await waitFor('follower', (s) => s.includes('four eyes: root asks you to approve'), 'the approval on the follower');
    expect(asked).toContain(`PUT /${INDEX}/_settings`);
    await waitFor('leader', (s) => s.includes('waiting for a follower to approve'), 'the leader waiting');
    expect((await fetchHealth()).status).toBe('yellow'); // nothing sent yet
    // The follower goes to the Timeline pane on its own, then approves.
    // Four eyes is two people: the follower running as the leader's own user (root) sees the change
    // and is told it cannot approve it; its y sends nothing.
    await waitFor('follower', (s) => s.includes('you cannot approve this: root'), 'the same-user follower told it cannot approve');
    keys('follower', 'y');
    expect((await fetchHealth()).status).toBe('yellow');
    // Another OS user, in the group the leader shares with, approves.
    launch(
      'eyes',
      `runuser -u ${EYES} -- env -i PATH=${JSON.stringify(env.PATH)} TERM=xterm-256color node ${cliForOtherUsers()} follow ${socketPath}`,
      80,
      24,
    );
    await waitFor('eyes', (s) => s.includes('four eyes: root asks you to approve'), "the approval on the second person's follower");
    keys('eyes', 'y');
    let leaderGreenAt = 0;
    let followerGreenAt = 0;
    await waitUntil(
      "both consoles green with the change on the follower's timeline",
      () => {
        const l = screen('leader');
        const f = screen('follower');
        if (!leaderGreenAt && l.includes(' GREEN ')) leaderGreenAt = Date.now();
        if (!followerGreenAt && f.includes(' GREEN ')) followerGreenAt = Date.now();
        return { l, f };
      },
      () => leaderGreenAt > 0 && followerGreenAt > 0,
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    // How far the follower trailed is a figure for the log, not a clock assertion: both turning green is the check.
    console.log(`share: the follower turned green ${followerGreenAt - leaderGreenAt} ms after the leader`);
    keys('follower', 'f', '8');
    const tl = await waitFor(
      'follower',
      // The row's short form of "change by root, approved by EYES:" (the detail line has it whole).
      (s) => new RegExp(`root(/alice)? \\+${EYES}: `).test(s) && /yellow -> green/.test(s),
      "the change and the transition on the follower's timeline",
      5000,
    );
    expect(tl).toContain('Timeline');
    // The audit record names who proposed and who approved.
    const audit = fs
      .readFileSync(path.join(env.SHARDECK_CONFIG_DIR, 'audit.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const sent = audit.find((r) => r.phase === 'sending');
    expect(sent).toMatchObject({ proposedBy: 'root', approvedBy: EYES, osUser: 'root', summary: expect.stringContaining('replicas') });
    // Esc and a key sent together read as Alt-key: the 8 only once the Esc has closed the result.
    await waitFor('leader', (s) => s.includes('any key closes'), "the leader's wizard showing its result");
    keys('leader', 'Escape');
    await waitFor('leader', (s) => !s.includes('any key closes'), "the leader's wizard closed");
    keys('leader', '8');
    await waitFor('leader', (s) => s.includes('entries (UTC)'), 'the leader on its Timeline pane');
  });

  it("a note from the follower lands on the leader's timeline with its author, and in shardeck incident", async () => {
    keys('follower', 'n');
    await waitFor('follower', (s) => s.includes('note:'), 'the note prompt');
    keys('follower', '-l', 'replicas were one too many on one node');
    keys('follower', 'Enter');
    await waitFor('leader', (s) => s.includes('note by root: replicas were one too many'), 'the note on the leader');
    const out = await runCli(['incident', '--url', node.url, '--since', '1h', '--json'], {
      env: { SHARDECK_CONFIG_DIR: env.SHARDECK_CONFIG_DIR },
    });
    expect(out.code).toBe(0);
    const kinds = JSON.parse(out.stdout).entries.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['health', 'change', 'note']));
    const md = await runCli(['incident', 'export', '--md', '--url', node.url], { env: { SHARDECK_CONFIG_DIR: env.SHARDECK_CONFIG_DIR } });
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/\| yellow \| green \| .* UTC \(.* local\) \|/);
    expect(md.stdout).toContain(`request: \`PUT /${INDEX}/_settings`);
    const file = path.join(env.SHARDECK_CONFIG_DIR, 'timeline', fs.readdirSync(path.join(env.SHARDECK_CONFIG_DIR, 'timeline'))[0]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("a follower proposes a change: the leader's console opens that wizard on that row for review", async () => {
    // The leader has marked another index: the follower's row, not the leader's marks, is reviewed.
    const other = 'service_v9_leadermark';
    const { Client } = await import('@elastic/elasticsearch');
    const es = new Client({
      node: node.url,
      auth: { username: 'elastic', password: node.password! },
      tls: { ca: fs.readFileSync(node.ca!, 'utf8') },
    });
    await es.indices.create({ index: other, settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es.close();
    keys('leader', '2');
    await waitFor('leader', (s) => s.includes(other), "the leader's Indices pane with the other index");
    keys('leader', '/');
    keys('leader', '-l', other);
    keys('leader', 'Enter', 'Space');
    await waitFor('leader', (s) => s.includes('1 marked'), "the leader's mark");
    keys('leader', '8');
    await waitFor('leader', (s) => s.includes('entries (UTC)'), 'the leader back on the Timeline');
    keys('follower', '2'); // on its own since f
    await waitFor('follower', (s) => s.includes(INDEX) && s.includes('Indices'), 'the follower on Indices');
    keys('follower', 'R');
    await waitFor('follower', (s) => s.includes(`proposed to the leader: replicas of ${INDEX.slice(0, 10)}`), 'the proposal sent');
    const review = await waitFor(
      'leader',
      (s) => s.includes('Replicas of an index') && s.includes('root proposes'),
      'the wizard open on the leader',
    );
    expect(review).toContain(INDEX);
    expect(review).not.toContain(other);
    keys('leader', 'Escape');
    await waitFor('leader', (s) => s.includes('entries (UTC)') && s.includes("root's proposal closed"), 'the wizard closed, nothing sent');
  });

  it('a user without permission on the socket is refused', () => {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', STRANGER], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    strangerMade = true;
    const r = spawnSync(
      'runuser',
      ['-u', STRANGER, '--', 'env', '-i', `PATH=${env.PATH}`, process.execPath, cliForOtherUsers(), 'follow', socketPath, '--json'],
      { encoding: 'utf8', cwd: '/' },
    );
    expect(r.status).toBe(5);
    expect(r.stderr).toMatch(/permission denied on .*\.sock: the leader shares only with its own user/);
    expect(screen('leader')).not.toContain(STRANGER);
  });

  it('with --share-group, a member of that group follows: socket 0660 in a 0710 folder of that group', async () => {
    const gid = Number(execFileSync('getent', ['group', STRANGER], { encoding: 'utf8' }).split(':')[2]);
    groupDir = path.join(os.tmpdir(), `shardeck-${process.getuid!()}-g${gid}`);
    launch('leader2', `env -u CI -u NO_COLOR ${envLine()} node ${CLI} ${leaderArgs().join(' ')} --share-group ${STRANGER}`);
    await waitFor('leader2', (s) => s.includes('SHARED'), 'the second leader, shared with the group');
    const sock = path.join(
      groupDir,
      fs.readdirSync(groupDir).find((f) => f.endsWith('.sock'))!,
    );
    expect(fs.statSync(sock).mode & 0o777).toBe(0o660);
    expect(fs.statSync(sock).gid).toBe(gid);
    expect(fs.statSync(groupDir).mode & 0o777).toBe(0o710);
    const r = spawnSync(
      'runuser',
      ['-u', STRANGER, '--', 'env', '-i', `PATH=${env.PATH}`, process.execPath, cliForOtherUsers(), 'follow', sock, '--json'],
      { encoding: 'utf8', cwd: '/' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, leader: expect.stringMatching(/^root pid \d+$/), health: { status: 'green' } });
    tmux('kill-session', '-t', 'leader2');
  });

  it('two processes racing for a change to one cluster take turns: the second waits and says who holds it', async () => {
    // This process takes the lock the way the CLI does: the same folder.
    process.env.SHARDECK_LOCK_DIR = env.SHARDECK_LOCK_DIR;
    // Keyed by the cluster's UUID, not by the URL: the CLI reaching the node by its URL waits for it.
    const { Client } = await import('@elastic/elasticsearch');
    const es = new Client({
      node: node.url,
      auth: { username: 'elastic', password: node.password! },
      tls: { ca: fs.readFileSync(node.ca!, 'utf8') },
    });
    const uuid = (
      (await es.cluster.state({ metric: 'metadata', filter_path: 'metadata.cluster_uuid' })) as { metadata: { cluster_uuid: string } }
    ).metadata.cluster_uuid;
    await es.close();
    // Held until the CLI says it waits (no guess at how long the CLI takes to get there).
    let release!: () => void;
    const held = withClusterLock(uuid, 'a test holding the change lock', () => new Promise<void>((r) => (release = r)));
    let stderr = '';
    const child = spawn(process.execPath, [CLI, 'replicas', 'set', INDEX, '0', '--yes', ...leaderArgs()], {
      env: {
        PATH: process.env.PATH,
        SHARDECK_CONFIG_DIR: env.SHARDECK_CONFIG_DIR,
        SHARDECK_LOCK_DIR: env.SHARDECK_LOCK_DIR,
        NO_COLOR: '1',
      },
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let released = false;
    const exited = new Promise<{ code: number | null; afterRelease: boolean }>((resolve) =>
      child.on('exit', (code) => resolve({ code, afterRelease: released })),
    );
    await waitUntil(
      'the CLI waiting for the lock',
      () => stderr,
      (e) => /waiting for another change/.test(e),
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    released = true;
    release();
    await held;
    const r = await exited;
    expect(stderr).toMatch(
      /waiting for another change to this cluster to finish: root: a test holding the change lock \(pid \d+, lock owned by root \(uid 0\)\)/,
    );
    expect(r.code).toBe(0);
    // It went on only once the lock was released (the order of events, not the clock).
    expect(r.afterRelease).toBe(true);
  });

  it('the leader killed: the follower stays up and says so, keeping the last data marked stale', async () => {
    const pid = Number(/console-(\d+)\.sock$/.exec(socketPath)![1]);
    process.kill(pid, 'SIGKILL');
    const gone = await waitFor('follower', (s) => s.includes('LEADER GONE'), 'the follower saying the leader is gone', 10_000);
    expect(gone).toContain('STALE');
    // Still up and still answering keys (not a fixed wait for an exit that may come late): a pane
    // key moves it from the Indices pane it was on to the Timeline, still saying the leader is gone.
    keys('follower', '8');
    const later = await waitFor(
      'follower',
      (s) => /^Timeline/m.test(s) && s.includes('entries (UTC)') && s.includes('LEADER GONE'),
      'the follower answering a pane key after the leader is gone',
      10_000,
    );
    expect(later).not.toContain('EXIT=');
  });

  it('nothing secret crossed the socket: no password, no refresh or access token', () => {
    expect(captured.length).toBeGreaterThan(1000);
    expect(captured).toContain('"t":"state"');
    const secrets = [node.password!, ...platform.issuedTokens(), ...joinTokens];
    expect(platform.issuedTokens().length).toBeGreaterThanOrEqual(2); // a refresh and an access token were issued
    for (const s of secrets) expect(captured.includes(s), 'a secret in the socket traffic').toBe(false);
  });
});

async function fetchHealth(): Promise<{ status: string }> {
  const { Client } = await import('@elastic/elasticsearch');
  const es = new Client({
    node: node.url,
    auth: { username: 'elastic', password: node.password! },
    tls: { ca: fs.readFileSync(node.ca!, 'utf8') },
  });
  try {
    return await es.cluster.health({ index: INDEX });
  } finally {
    await es.close();
  }
}
