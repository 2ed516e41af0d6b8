// Locks between real processes (src/config/files.ts tryLock / withFileLock). Several node
// children race, at the same instant, for locks whose holder is dead: each lock must get exactly
// one winner (the old rm-then-create takeover let a slow contender delete the new holder's lock and
// create its own). And withFileLock never runs its function without the lock.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LockBusyError, releaseLock, tryLock, withFileLock } from '../../src/config/files';

let dir: string;
let childScript: string;
const CHILDREN = 8;
const ROUNDS = 150;

/** A pid that belonged to a process that has exited (so its lock is a dead holder's). */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => c.on('exit', r));
  return c.pid!;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-lock-race-'));
  // The child: for each round, spin until the shared start instant, try the round's lock once,
  // report, and keep every lock it won (it stays alive, so those stay held) until told to exit.
  fs.writeFileSync(
    path.join(dir, 'child.ts'),
    `import { tryLock } from ${JSON.stringify(path.resolve('src/config/files.ts'))};
const [locks, startAt, step, rounds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const won: number[] = [];
for (let i = 0; i < rounds; i++) {
  while (Date.now() < startAt + i * step) {}
  if (tryLock(locks + '/round-' + i + '.lock')) won.push(i);
}
process.stdout.write(JSON.stringify(won) + '\\n');
process.stdin.on('data', () => process.exit(0));
`,
  );
  childScript = path.join(dir, 'child.mjs');
  await build({
    entryPoints: [path.join(dir, 'child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: childScript,
    logLevel: 'silent',
  });
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("taking over a dead holder's lock", () => {
  it(`${CHILDREN} processes racing for each of ${ROUNDS} dead holders' locks: exactly one winner each time`, async () => {
    const locks = path.join(dir, 'locks');
    fs.mkdirSync(locks, { mode: 0o700 });
    const dead = await deadPid();
    for (let i = 0; i < ROUNDS; i++) {
      // Both shapes a dead holder may have left: the old "<pid>" and the current "<pid> <nonce>".
      fs.writeFileSync(path.join(locks, `round-${i}.lock`), i % 2 ? `${dead}` : `${dead} 0123456789abcdef\n`, { mode: 0o600 });
    }
    const startAt = Date.now() + 1500; // every child loaded and spinning by then
    const step = 15;
    const children = Array.from({ length: CHILDREN }, () =>
      spawn(process.execPath, [childScript, locks, String(startAt), String(step), String(ROUNDS)], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const results = await Promise.all(
      children.map(
        (c) =>
          new Promise<number[]>((resolve, reject) => {
            let out = '';
            c.stdout.on('data', (d) => {
              out += d;
              if (out.includes('\n')) resolve(JSON.parse(out));
            });
            c.on('exit', (code) => reject(new Error(`child exited ${code} before reporting`)));
          }),
      ),
    );
    for (const c of children) c.stdin.end('bye\n');
    const winners = Array.from({ length: ROUNDS }, (_, i) => results.filter((won) => won.includes(i)).length);
    const wrong = winners.map((n, i) => ({ round: i, winners: n })).filter((w) => w.winners !== 1);
    expect(wrong).toEqual([]);
    // Each lock names its one winner, and no claim or temp file is left behind.
    expect(fs.readdirSync(locks).filter((n) => !/^round-\d+\.lock$/.test(n))).toEqual([]);
  });
});

describe('a takeover interrupted by a crash', () => {
  it('a claim left by a dead contender (between its claim and its rename) does not block the lock forever', async () => {
    const lock = path.join(dir, 'claimed.lock');
    const dead = await deadPid();
    fs.writeFileSync(lock, `${dead} aaaaaaaaaaaaaaaa\n`, { mode: 0o600 });
    expect(tryLock(lock)).toBe(true); // a first takeover leaves no claim behind...
    releaseLock(lock);
    // ...so make one by hand: the claim name is derived from the stale lock's content.
    fs.writeFileSync(lock, `${dead} aaaaaaaaaaaaaaaa\n`, { mode: 0o600 });
    const { createHash } = await import('node:crypto');
    const claim = `${lock}.claim-${createHash('sha256').update(`${dead} aaaaaaaaaaaaaaaa\n`).digest('hex').slice(0, 16)}`;
    fs.writeFileSync(claim, `${dead} bbbbbbbbbbbbbbbb\n`, { mode: 0o600 });
    expect(tryLock(lock)).toBe(true);
    expect(fs.readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('claimed.lock.'))).toEqual([]);
    releaseLock(lock);
  });
});

describe('withFileLock', () => {
  it('never runs the function without the lock: a live holder past waitMs is a LockBusyError naming its pid', async () => {
    const lock = path.join(dir, 'held.lock');
    expect(tryLock(lock)).toBe(true); // held by this (live) process
    let ran = false;
    // The clock is the test's: it gives up at waitMs, not before, whatever the machine's load.
    vi.useFakeTimers();
    let settled: 'ran' | Error | undefined;
    try {
      const waiting = withFileLock(
        lock,
        () => {
          ran = true;
          return Promise.resolve();
        },
        { waitMs: 400, staleMs: 60_000 },
      ).then(
        () => (settled = 'ran'),
        (e: Error) => (settled = e),
      );
      await vi.advanceTimersByTimeAsync(399);
      expect(settled).toBeUndefined(); // still trying, one ms before its deadline
      await vi.advanceTimersByTimeAsync(100); // past it, with the longest pause between two tries
      await waiting;
    } finally {
      vi.useRealTimers();
    }
    expect(settled).toBeInstanceOf(LockBusyError);
    expect(ran).toBe(false);
    await expect(withFileLock(lock, () => Promise.resolve(1), { waitMs: 100 })).rejects.toThrow(new RegExp(`pid ${process.pid}`));
    releaseLock(lock);
    expect(await withFileLock(lock, () => Promise.resolve('ran'), { waitMs: 100 })).toBe('ran');
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a holder that runs longer than staleMs keeps its lock (mtime heartbeat); a stuck one (old mtime) is taken over', async () => {
    const lock = path.join(dir, 'long.lock');
    let stolen: boolean | undefined;
    await withFileLock(
      lock,
      async () => {
        // Real time must pass: the heartbeat is the lock file's mtime, which the fs clock stamps.
        await new Promise((r) => setTimeout(r, 400));
        stolen = tryLock(lock, 150);
      },
      { staleMs: 150 },
    );
    expect(stolen).toBe(false);
    // A live pid whose lock has not been touched for longer than staleMs: stuck, taken over.
    fs.writeFileSync(lock, `${process.pid} feedfeedfeedfeed\n`, { mode: 0o600 });
    const old = new Date(Date.now() - 10_000);
    fs.utimesSync(lock, old, old);
    expect(tryLock(lock, 5_000)).toBe(true);
    releaseLock(lock);
  });
});
