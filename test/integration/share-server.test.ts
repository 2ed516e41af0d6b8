// The share server with real sockets in this process: the ninth follower is refused, a follower
// that stops reading is dropped without holding the leader back, and four eyes without a follower
// tells the leader and sends nothing (the Guard refuses before the step runs).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { MAX_FOLLOWERS } from '../../src/domain/share';
import { Guard, GuardRefusal } from '../../src/services/guard';
import { FollowClient } from '../../src/services/follow-client';
import { ShareServer } from '../../src/services/share-server';
import { createConsoleStore, setSnapshot } from '../../src/store/console';
import { waitUntil } from '../helpers/wait-until';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-share-server-'));
let server: ShareServer | undefined;
const sockets: net.Socket[] = [];

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
    await waitUntil('8 followers joined', () => store.getState().share?.followers.length, (n) => n === MAX_FOLLOWERS);
    let answer = '';
    await join(file, (d) => (answer += d));
    await waitUntil('the refusal', () => answer, (a) => a.includes('refused'));
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
    await waitUntil('two followers', () => store.getState().share?.followers.length, (n) => n === 2);
    // Big tables, changed often: far more than a socket buffers.
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ index: `idx-${i}`, health: 'green', docs: i }));
    const started = performance.now();
    let slowest = 0;
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      setSnapshot(store, 'indices', { data: rows.map((r) => ({ ...r, docs: r.docs + i })) as never, fetchedAt: Date.now() });
      await new Promise((r) => setTimeout(r, 60)); // a flush per update
      slowest = Math.max(slowest, performance.now() - t);
    }
    await waitUntil('the slow follower dropped', () => server!.stats.dropped, (n) => n >= 1);
    expect(server.stats.dropped).toBe(1);
    expect(store.getState().share?.message).toMatch(/dropped follower .*: it stopped reading/);
    expect(store.getState().share?.followers).toHaveLength(1);
    // The leader's loop never waited on the slow follower: each update took about its own 60 ms.
    expect(slowest).toBeLessThan(1000);
    expect(performance.now() - started).toBeLessThan(60 * 60 + 5000);
    await waitUntil('the reading follower has the last update', () => (reader.getState().snapshots.indices.data as { docs: number }[] | undefined)?.[0]?.docs, (d) => d === 59, { timeoutMs: 10_000 });
    client.stop();
  });

  it('four eyes without a follower: the leader is told the change needs one, and nothing runs', async () => {
    const store = newStore();
    server = new ShareServer(store, { socketPath: path.join(dir, 'four.sock'), requireApproval: true });
    await server.start();
    const guard = new Guard({ client: createClient({ url: 'http://127.0.0.1:1' } as never), conn: { url: 'http://127.0.0.1:1', readOnly: false }, profile: 'p', auditFile: path.join(dir, 'audit.log'), approver: server });
    let ran = false;
    const step = { command: 'systemctl stop elasticsearch', risk: 'reversible' as const, target: 'node', summary: 'stop the node' };
    const err = await guard
      .runHostCommand(step, { by: 'key' }, async () => {
        ran = true;
        return { ok: true };
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(GuardRefusal);
    expect((err as GuardRefusal).kind).toBe('unapproved');
    expect((err as Error).message).toMatch(/needs a follower's approval .* nobody follows this console: nothing was sent/);
    expect(store.getState().share?.message).toMatch(/nobody follows/);
    expect(ran).toBe(false);
    expect(fs.existsSync(path.join(dir, 'audit.log'))).toBe(false);
  });

  it('a follower approves only with the same typed confirmation; the audit says who proposed and who approved', async () => {
    const store = newStore();
    server = new ShareServer(store, { socketPath: path.join(dir, 'typed.sock'), requireApproval: true });
    const file = await server.start();
    const reader = createConsoleStore({ connection: { url: '(following)', profile: '', insecure: false, readOnly: true } });
    const client = new FollowClient(reader, file);
    await client.connect();
    await waitUntil('one follower', () => store.getState().share?.followers.length, (n) => n === 1);
    const audit = path.join(dir, 'typed-audit.log');
    const guard = new Guard({ client: createClient({ url: 'http://127.0.0.1:1' } as never), conn: { url: 'http://127.0.0.1:1', readOnly: false }, profile: 'p', auditFile: audit, approver: server });
    const step = { command: 'rm -rf /data/corrupt-segment', risk: 'destructive' as const, target: 'logs', summary: 'remove the corrupt segment' };
    const running = guard.runHostCommand(step, { by: 'typed', text: 'logs' }, async () => ({ ok: true }));
    await waitUntil('the request on the follower', () => reader.getState().share?.approval?.need, (n) => n?.kind === 'type');
    const id = reader.getState().share!.approval!.id;
    client.approve(id, 'log'); // wrong: still waiting
    await new Promise((r) => setTimeout(r, 200));
    expect(fs.existsSync(audit)).toBe(false);
    client.approve(id, 'logs');
    expect((await running).ok).toBe(true);
    const sent = JSON.parse(fs.readFileSync(audit, 'utf8').split('\n')[0]!);
    expect(sent).toMatchObject({ command: step.command, proposedBy: os.userInfo().username, approvedBy: os.userInfo().username });
    client.stop();
  });
});
