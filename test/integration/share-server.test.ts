// The share server with real sockets in this process: the ninth follower is refused, a follower
// that stops reading is dropped without holding the leader back, and four eyes without a follower
// tells the leader and sends nothing (the Guard refuses before the step runs).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { listShareSockets } from '../../src/config/runtime';
import { CONNECT_BURST, CONNECTS_PER_SECOND, MAX_FOLLOWERS, NOTE_BURST } from '../../src/domain/share';
import { peerOf } from '../../src/boundary/peer';
import { Guard, GuardRefusal } from '../../src/services/guard';
import { FollowClient } from '../../src/services/follow-client';
import { ShareServer } from '../../src/services/share-server';
import { TimelineRecorder } from '../../src/services/timeline';
import { createConsoleStore, setSnapshot } from '../../src/store/console';
import { waitUntil } from '../helpers/wait-until';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-share-server-'));
let server: ShareServer | undefined;
const sockets: net.Socket[] = [];

/** A second OS user: the other pair of eyes, and the one who plants a share folder. */
const OTHER = `shardeck-eyes-${process.pid % 100000}`;
let otherMade = false;
const cleanup: string[] = [];

beforeAll(() => {
  const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER], {
    encoding: 'utf8',
  });
  expect(made.status, made.stderr).toBe(0);
  otherMade = true;
});

afterAll(() => {
  if (otherMade) spawnSync('userdel', [OTHER]);
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.stop();
  server = undefined;
});

const newStore = () => createConsoleStore({ connection: { url: 'http://127.0.0.1:1', profile: 'p', insecure: false, readOnly: false } });

function join(file: string, onData?: (d: string) => void): Promise<net.Socket> {
  return new Promise((resolve) => {
    const s = net.createConnection(file, () => {
      s.write('{"t":"hello"}\n');
      resolve(s);
    });
    s.setEncoding('utf8');
    s.on('error', () => undefined); // a peer the leader drops sees a reset
    if (onData) s.on('data', onData);
    sockets.push(s);
  });
}

describe('share server', () => {
  it(`takes ${MAX_FOLLOWERS} followers and refuses the next, telling the leader`, async () => {
    const store = newStore();
    server = new ShareServer(store, { socketPath: path.join(dir, 'max.sock') });
    const file = await server.start();
    for (let i = 0; i < MAX_FOLLOWERS; i++) await join(file);
    await waitUntil(
      '8 followers joined',
      () => store.getState().share?.followers.length,
      (n) => n === MAX_FOLLOWERS,
    );
    let answer = '';
    await join(file, (d) => (answer += d));
    await waitUntil(
      'the refusal',
      () => answer,
      (a) => a.includes('refused'),
    );
    expect(answer).toContain(`already has ${MAX_FOLLOWERS} followers`);
    expect(store.getState().share?.refused.at(-1)).toMatch(/already has 8 followers/);
  });

  it('drops a follower that stops reading; the leader and a reading follower carry on', async () => {
    const store = newStore();
    server = new ShareServer(store, { socketPath: path.join(dir, 'slow.sock') });
    const file = await server.start();
    const slow = await join(file);
    slow.pause(); // never reads again
    const reader = createConsoleStore({ connection: { url: '(following)', profile: '', insecure: false, readOnly: true } });
    const client = new FollowClient(reader, file);
    await client.connect();
    await waitUntil(
      'two followers',
      () => store.getState().share?.followers.length,
      (n) => n === 2,
    );
    // Big tables, changed often: far more than a socket buffers.
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ index: `idx-${i}`, health: 'green', docs: i }));
    const started = performance.now();
    let slowest = 0;
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      setSnapshot(store, 'indices', { data: rows.map((r) => ({ ...r, docs: r.docs + i })) as never, fetchedAt: Date.now() });
      // A flush per update: the next waits until the reading follower has this one (not a fixed sleep).
      await waitUntil(
        `the reading follower has update ${i}`,
        () => (reader.getState().snapshots.indices.data as { docs: number }[] | undefined)?.[0]?.docs,
        (d) => d === i,
        { timeoutMs: 10_000, intervalMs: 10 },
      );
      slowest = Math.max(slowest, performance.now() - t);
    }
    await waitUntil(
      'the slow follower dropped',
      () => server!.stats.dropped,
      (n) => n >= 1,
    );
    expect(server.stats.dropped).toBe(1);
    expect(store.getState().share?.message).toMatch(/dropped follower .*: it stopped reading/);
    expect(store.getState().share?.followers).toHaveLength(1);
    // The leader's loop never waited on the slow follower: the reading one got every update
    // and the slow one was dropped. The durations are a figure for the log, not asserted on the clock.
    console.log(`share, slow follower: 60 updates in ${(performance.now() - started).toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms`);
    await waitUntil(
      'the reading follower has the last update',
      () => (reader.getState().snapshots.indices.data as { docs: number }[] | undefined)?.[0]?.docs,
      (d) => d === 59,
      { timeoutMs: 10_000 },
    );
    client.stop();
  });

  it('four eyes without a follower: the leader is told the change needs one, and nothing runs', async () => {
    const store = newStore();
    server = new ShareServer(store, { socketPath: path.join(dir, 'four.sock'), requireApproval: true });
    await server.start();
    const guard = new Guard({
      client: createClient({ url: 'http://127.0.0.1:1' }),
      conn: { url: 'http://127.0.0.1:1', readOnly: false },
      profile: 'p',
      auditFile: path.join(dir, 'audit.log'),
      approver: server,
    });
    let ran = false;
    const step = { command: 'systemctl stop elasticsearch', risk: 'reversible' as const, target: 'node', summary: 'stop the node' };
    const err = await guard
      .runHostCommand(step, { by: 'key' }, () => {
        ran = true;
        return Promise.resolve({ ok: true });
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(GuardRefusal);
    expect((err as GuardRefusal).kind).toBe('unapproved');
    expect((err as Error).message).toMatch(/needs a follower's approval .* nobody follows this console: nothing was sent/);
    expect(store.getState().share?.message).toMatch(/nobody follows/);
    expect(ran).toBe(false);
    expect(fs.existsSync(path.join(dir, 'audit.log'))).toBe(false);
  });

  it('a bad hello of any bytes is refused cleanly and the leader keeps running', async () => {
    const store = newStore();
    server = new ShareServer(store, { socketPath: path.join(dir, 'hostile.sock') });
    const file = await server.start();
    // Fixed seed: the same "random" bytes every run, so a failure can be replayed.
    let seed = 23;
    const rnd = (n: number) => Buffer.from(Array.from({ length: n }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 16) & 0xff));
    const payloads: (string | Buffer)[] = [
      rnd(64 * 1024),
      Buffer.concat([rnd(300), Buffer.from('\n')]),
      'not json at all\n',
      'null\n',
      '[1,2,3]\n',
      '{"t":"note","text":"before hello"}\n',
      '{"t":"hello"', // partial, then the peer closes
      Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0xc3, 0x28, 0x0a]), // invalid UTF-8 and NULs
      '{"t":"hello","token":"' + 'é'.repeat(40) + '"}\n',
      '{"t":"hello","token":' + '['.repeat(5000) + '\n', // deep nesting
      'x'.repeat(2 * 1024 * 1024), // huge, no newline
      '{"t":"hello","__proto__":{"joined":true}}\n{"t":"note","text":"' + 'y'.repeat(20_000) + '"}\n', // joins, then an over-long line
    ];
    for (const p of payloads) {
      const ended = new Promise<string>((resolve) => {
        let got = '';
        const s = net.createConnection(file, () => s.end(p));
        sockets.push(s);
        s.setEncoding('utf8');
        s.on('data', (d: string) => (got += d));
        s.on('error', () => undefined);
        s.on('close', () => resolve(got));
      });
      await ended; // the leader closed it (or the peer did, having sent all); no crash either way
    }
    // Still serving: a proper follower joins and gets the state.
    const reader = createConsoleStore({ connection: { url: '(following)', profile: '', insecure: false, readOnly: true } });
    const client = new FollowClient(reader, file);
    await client.connect();
    expect(reader.getState().share?.leader).toMatch(/pid \d+$/);
    client.stop();
    expect(store.getState().share?.refused.join('\n')).toMatch(/first message was not a hello/);
  });

  it('a peer whose user cannot be read joins only with the token; a multibyte token is refused, not a crash', async () => {
    const store = newStore();
    // As for a non-root leader and another user's follower: the kernel's answer is not readable.
    server = new ShareServer(store, { socketPath: path.join(dir, 'token.sock'), identify: () => Promise.resolve(null) });
    const file = await server.start();
    for (const token of ['é'.repeat(16), '€'.repeat(64), 'x'.repeat(7000), '']) {
      let answer = '';
      const s = await new Promise<net.Socket>((resolve) => {
        const c = net.createConnection(file, () => resolve(c));
        sockets.push(c);
      });
      s.setEncoding('utf8');
      s.on('data', (d: string) => (answer += d));
      s.write(JSON.stringify({ t: 'hello', token }) + '\n');
      await waitUntil(
        'the refusal',
        () => answer,
        (a) => a.includes('refused'),
      );
      expect(answer).toContain('the join token is missing or wrong');
    }
    const reader = createConsoleStore({ connection: { url: '(following)', profile: '', insecure: false, readOnly: true } });
    const client = new FollowClient(reader, file, { token: server.joinToken });
    await client.connect();
    expect(store.getState().share?.followers).toEqual([expect.objectContaining({ user: 'unknown', via: 'token' })]);
    client.stop();
  });

  it("issue 40 N7: a follower joined with the token (its user unknown: maybe the leader's own) sees the change but its approval never counts", async () => {
    const store = newStore();
    server = new ShareServer(store, {
      socketPath: path.join(dir, 'token-eyes.sock'),
      requireApproval: true,
      identify: () => Promise.resolve(null),
    });
    const file = await server.start();
    const reader = createConsoleStore({ connection: { url: '(following)', profile: '', insecure: false, readOnly: true } });
    const client = new FollowClient(reader, file, { token: server.joinToken });
    await client.connect();
    expect(store.getState().share?.followers).toEqual([expect.objectContaining({ user: 'unknown', via: 'token' })]);
    const audit = path.join(dir, 'token-eyes-audit.log');
    const guard = new Guard({
      client: createClient({ url: 'http://127.0.0.1:1' }),
      conn: { url: 'http://127.0.0.1:1', readOnly: false },
      profile: 'p',
      auditFile: audit,
      approver: server,
    });
    let ran = false;
    const step = { command: 'systemctl stop elasticsearch', risk: 'reversible' as const, target: 'node', summary: 'stop the node' };
    const running = guard
      .runHostCommand(step, { by: 'key' }, () => {
        ran = true;
        return Promise.resolve({ ok: true });
      })
      .catch((e: unknown) => e);
    await waitUntil(
      'the request on the token follower',
      () => reader.getState().share?.approval,
      (a) => a !== undefined,
    );
    // Told up front, and its y sent anyway is refused by the leader; the change keeps waiting.
    expect(reader.getState().share?.approval?.cannotApprove).toMatch(/joined with the join token, so the leader cannot tell who it is/);
    client.approve(reader.getState().share!.approval!.id);
    await waitUntil(
      'the token follower told it cannot approve',
      () => reader.getState().share?.message ?? '',
      (m) => /you cannot approve: unknown joined with the join token/.test(m),
    );
    expect(store.getState().share?.message).toMatch(/not approved: unknown joined with the join token.*still waiting for another follower/);
    expect(store.getState().share?.approval).toBeDefined();
    expect(ran).toBe(false);
    client.stop();
    const err = await running;
    expect(err).toBeInstanceOf(GuardRefusal);
    expect((err as Error).message).toMatch(/the last follower left before approving: nothing was sent/);
    expect(ran).toBe(false);
    expect(fs.existsSync(audit)).toBe(false);
  });

  it('a note flood is rate-limited: the leader keeps its loop time and its timeline takes only a few', async () => {
    const prevConf = process.env.SHARDECK_CONFIG_DIR;
    process.env.SHARDECK_CONFIG_DIR = path.join(dir, 'flood-conf');
    const store = newStore();
    // The console's own note path: every note is appended to the timeline file and re-read.
    const recorder = new TimelineRecorder(store, 'http://127.0.0.1:1');
    server = new ShareServer(store, { socketPath: path.join(dir, 'flood.sock'), onNote: (author, text) => recorder.addNote(author, text) });
    const file = await server.start();
    const flooder = await join(file);
    await waitUntil(
      'the flooder joined',
      () => store.getState().share?.followers.length,
      (n) => n === 1,
    );
    const NOTES = 3000;
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    flooder.write(Array.from({ length: NOTES }, (_, i) => JSON.stringify({ t: 'note', text: `flood ${i}` })).join('\n') + '\n');
    // Done when the leader has read every line: it either took the note or counted it over the limit (or dropped the flooder).
    const noteCount = () => (store.getState().timeline ?? []).filter((e) => e.kind === 'note').length;
    await waitUntil(
      'the flood read',
      () => ({ dropped: server!.stats.dropped, notes: noteCount() }),
      (x) => x.dropped > 0 || x.notes === NOTES,
      { timeoutMs: 110_000, intervalMs: 20 },
    );
    const took = performance.now() - started;
    loop.disable();
    const notes = noteCount();
    // The figure asked for (issue 23), in the log, not asserted against the clock.
    console.log(
      `share flood: ${NOTES} notes read in ${took.toFixed(0)} ms; leader loop delay max ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms; ${notes} notes reached the timeline`,
    );
    expect(notes).toBeLessThanOrEqual(NOTE_BURST + 1);
    expect(server.stats.dropped).toBe(1);
    if (prevConf === undefined) delete process.env.SHARDECK_CONFIG_DIR;
    else process.env.SHARDECK_CONFIG_DIR = prevConf;
  });

  it('issue 40 N9: 200 rapid connections: the excess is refused with a message before its peer is looked up, and the leader keeps ticking', async () => {
    const store = newStore();
    let lookups = 0;
    const identify = (socket: net.Socket) => {
      lookups++;
      return peerOf(socket);
    };
    server = new ShareServer(store, { socketPath: path.join(dir, 'storm.sock'), identify });
    const file = await server.start();
    // A host with many open files (an Elasticsearch node holds thousands of segments): a look-up of a
    // peer reads /proc/<pid>/fd of each process up to the peer's, so these (started before the
    // connecting process, lower pids) are read for every connection.
    const node = (code: string) => spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'], cwd: '/' });
    const holders = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() => {
        const child = node(
          "const fs=require('fs');for(let i=0;i<19000;i++)fs.openSync('/dev/null','r');console.log('ready');setInterval(()=>{},1e6)",
        );
        return new Promise<typeof child>((resolve) => child.stdout.once('data', () => resolve(child)));
      }),
    );
    try {
      // The leader's loop: a 10 ms tick, its worst gap measured while the connections arrive.
      let last = performance.now();
      let worstGap = 0;
      const tick = setInterval(() => {
        const now = performance.now();
        worstGap = Math.max(worstGap, now - last);
        last = now;
      }, 10);
      // Another process opens 200 connections at once; each ends with the leader's first line (hello, or refused and why) or a close.
      // It marks when all 200 are queued (and their hellos written) while the leader is held busy, so
      // they reach the leader in one accept batch, as on a loaded host.
      const allQueued = path.join(dir, 'storm-queued');
      const storm = node(`
const net = require('net');
const fs = require('fs');
const out = [];
let queued = 0;
for (let i = 0; i < 200; i++) {
  let got = '';
  let done = false;
  const s = net.createConnection(${JSON.stringify(file)}, () => {
    s.write('{"t":"hello"}\\n');
    if (++queued === 200) fs.writeFileSync(${JSON.stringify(allQueued)}, '');
  });
  s.setEncoding('utf8');
  const end = () => {
    if (done) return;
    done = true;
    out.push(got.split('\\n')[0]);
    if (out.length === 200) process.stdout.write(JSON.stringify(out), () => process.exit(0));
  };
  s.on('data', (d) => { got += d; if (got.includes('\\n')) end(); });
  s.on('error', () => undefined);
  s.on('close', end);
}`);
      let text = '';
      storm.stdout.on('data', (d) => (text += d));
      const started = performance.now();
      const holdUntil = started + 20_000;
      while (!fs.existsSync(allQueued) && performance.now() < holdUntil) {
        // the leader busy: nothing accepted yet
      }
      expect(fs.existsSync(allQueued)).toBe(true);
      last = performance.now();
      await new Promise((resolve) => storm.on('close', resolve));
      const took = performance.now() - started;
      clearInterval(tick);
      const answers = JSON.parse(text) as string[];
      const tooMany = answers.filter((a) => a.includes('too many connections to this console at once')).length;
      const joined = answers.filter((a) => a.startsWith('{"t":"hello"')).length;
      const tally: Record<string, number> = {};
      for (const a of answers) tally[a.slice(0, 60)] = (tally[a.slice(0, 60)] ?? 0) + 1;
      console.log(
        `share, 200 connections: answered in ${took.toFixed(0)} ms, leader loop worst gap ${worstGap.toFixed(0)} ms; ${joined} joined, ${tooMany} refused as too many; server counted ${server.stats.tooMany}; answers ${JSON.stringify(tally)}`,
      );
      // Every connection was told something: joined, or refused and why (none closed without a word).
      expect(joined + answers.filter((a) => a.startsWith('{"t":"refused"')).length).toBe(200);
      // Refused before its peer was looked up: only what the rate lets through was.
      expect(lookups).toBeLessThanOrEqual(CONNECT_BURST + Math.ceil((took / 1000) * CONNECTS_PER_SECOND));
      // Generous (a few ms when the look-ups yield; one synchronous walk of these 114000 links took 0.5 s here, and they came back to back).
      expect(worstGap).toBeLessThan(500);
      expect(tooMany).toBeGreaterThan(100);
      // A connection that failed writing its hello after the refusal may not have read the line.
      expect(server.stats.tooMany).toBeGreaterThanOrEqual(tooMany);
      expect(joined).toBeLessThanOrEqual(MAX_FOLLOWERS);
      expect(store.getState().share?.message).toMatch(/refusing connections: too many at once \(\d+ refused so far\)/);
    } finally {
      for (const h of holders) h.kill();
    }
  });

  it('follow without a path trusts only a 0700/0710 folder of its own user, not one another user planted', () => {
    const uid = process.getuid!();
    const runtime = fs.mkdtempSync(path.join(dir, 'run-'));
    const prevXdg = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = runtime;
    const planted = path.join(os.tmpdir(), `shardeck-${uid}-g${90000 + (process.pid % 9000)}`);
    try {
      // Ours: the leader's folder with a socket (a socket file stays when its process exits at once).
      const own = path.join(runtime, `shardeck-${uid}`);
      fs.mkdirSync(own, { mode: 0o700 });
      const bind = (user: string | null, sock: string) => {
        const argv = [process.execPath, '-e', `require('net').createServer().listen(${JSON.stringify(sock)}, () => process.exit(0))`];
        const r = user
          ? spawnSync('runuser', ['-u', user, '--', ...argv], { encoding: 'utf8', cwd: '/' })
          : spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
      };
      bind(null, path.join(own, 'console-1.sock'));
      // Theirs: a folder under our name, made by another OS user, with a socket of theirs.
      const mk = spawnSync('runuser', ['-u', OTHER, '--', 'mkdir', '-m', '0755', planted], { encoding: 'utf8' });
      expect(mk.status, mk.stderr).toBe(0);
      bind(OTHER, path.join(planted, 'console-2.sock'));
      expect(fs.statSync(path.join(planted, 'console-2.sock')).isSocket()).toBe(true);
      expect(listShareSockets()).toEqual([path.join(own, 'console-1.sock')]);
      // Even made 0700 by its owner, it is still not ours.
      spawnSync('runuser', ['-u', OTHER, '--', 'chmod', '0700', planted]);
      expect(listShareSockets()).toEqual([path.join(own, 'console-1.sock')]);
    } finally {
      if (prevXdg === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = prevXdg;
      fs.rmSync(planted, { recursive: true, force: true });
    }
  });

  it("four eyes is two people: a follower of the leader's own user cannot approve; another OS user can, with the same typed confirmation", async () => {
    const store = newStore();
    // The other user reaches the socket through its group (as with --share-group).
    const shareDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-four-eyes-'));
    fs.chmodSync(shareDir, 0o711);
    cleanup.push(shareDir);
    server = new ShareServer(store, { socketPath: path.join(shareDir, 'typed.sock'), requireApproval: true, group: OTHER });
    const file = await server.start();
    // Same user as the leader (root), in this process.
    const same = createConsoleStore({ connection: { url: '(following)', profile: '', insecure: false, readOnly: true } });
    const sameClient = new FollowClient(same, file);
    await sameClient.connect();
    // Another OS user, in its own process: approves with a wrong text first, then the right one when asked again.
    const script = path.join(shareDir, 'approver.mjs');
    fs.writeFileSync(
      script,
      `import net from 'node:net';
const s = net.createConnection(process.argv[2], () => s.write('{"t":"hello"}\\n'));
let buf = '', asked = 0;
s.setEncoding('utf8');
s.on('data', (d) => {
  buf += d;
  const lines = buf.split('\\n'); buf = lines.pop();
  for (const l of lines) {
    const m = JSON.parse(l);
    if (m.t === 'refused') { console.log('refused ' + m.reason); process.exit(3); }
    if (m.t === 'approval' && m.request) { asked++; s.write(JSON.stringify({ t: 'approve', id: m.request.id, text: asked === 1 ? 'log' : 'logs' }) + '\\n'); }
    if (m.t === 'approval' && !m.request && asked) { console.log('asked ' + asked); process.exit(0); }
  }
});
`,
    );
    fs.chmodSync(script, 0o644); // the other user reads it: explicit, whatever the umask (077 on hardened roots)
    const audit = path.join(dir, 'typed-audit.log');
    const guard = new Guard({
      client: createClient({ url: 'http://127.0.0.1:1' }),
      conn: { url: 'http://127.0.0.1:1', readOnly: false },
      profile: 'p',
      auditFile: audit,
      approver: server,
    });
    const step = {
      command: 'rm -rf /data/corrupt-segment',
      risk: 'destructive' as const,
      target: 'logs',
      summary: 'remove the corrupt segment',
    };
    const running = guard.runHostCommand(step, { by: 'typed', text: 'logs' }, () => Promise.resolve({ ok: true }));
    await waitUntil(
      'the request on the same-user follower',
      () => same.getState().share?.approval?.need,
      (n) => n?.kind === 'type',
    );
    // It sees the change, told up front that it cannot approve; a y sent anyway is refused by the leader.
    expect(same.getState().share?.approval?.cannotApprove).toMatch(/leader's own user .* second person/);
    sameClient.approve(same.getState().share!.approval!.id, 'logs');
    await waitUntil(
      'the same-user follower told it cannot approve',
      () => same.getState().share?.message ?? '',
      (m) => /you cannot approve: .*four eyes needs a second person/.test(m),
    );
    expect(store.getState().share?.message).toMatch(/not approved: .*still waiting for another follower/);
    expect(store.getState().share?.approval).toBeDefined();
    expect(fs.existsSync(audit)).toBe(false);
    const other = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('runuser', ['-u', OTHER, '--', process.execPath, script, file], { cwd: '/' });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect((await running).ok).toBe(true);
    // The wrong text did not count: the leader asked again.
    expect(other).toEqual({ code: 0, out: 'asked 2\n' });
    const sent = JSON.parse(fs.readFileSync(audit, 'utf8').split('\n')[0]);
    expect(sent).toMatchObject({ command: step.command, proposedBy: os.userInfo().username, approvedBy: OTHER });
    sameClient.stop();
  });
});
