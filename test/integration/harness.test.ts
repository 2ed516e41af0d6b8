// The harness itself: what a fresh machine, a busy port or a failed start-up must not break.
// Runs against real nodes (the same dev/lib/es-node.mjs every real-node suite uses).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeStartedNodes, ES_USER, freePort, isAlive, startNode } from '../../dev/lib/es-node.mjs';
import { cacheRoot, ensureDir, isRoot, nodesRoot } from '../../dev/lib/paths.mjs';
import { waitUntil } from '../helpers/wait-until';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-harness-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Processes whose command line mentions `marker` (a node's folder). */
function processesOf(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A process's command line, one argument an entry. */
function argvOf(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

describe('before any file runs (global set-up)', () => {
  it("the node user exists and can get through the cache to this run's node folder", () => {
    // Nothing in this file has started a node yet: the global set-up made all of this.
    if (isRoot) expect(() => execFileSync('id', ['-u', ES_USER], { stdio: 'ignore' })).not.toThrow();
    for (const dir of [cacheRoot, path.dirname(nodesRoot()), nodesRoot()]) expect(fs.statSync(dir).mode & 0o011, dir).toBe(0o011);
    expect(path.basename(nodesRoot())).toMatch(/^run-/);
  });
});

describe('umask 077', () => {
  it('ensureDir gives the mode asked for to the folder and its new parents, whatever the umask', () => {
    const old = process.umask(0o077);
    try {
      const dir = ensureDir(path.join(tmp, 'a', 'b'), 0o755);
      expect(fs.statSync(path.join(tmp, 'a')).mode & 0o777).toBe(0o755);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o755);
    } finally {
      process.umask(old);
    }
  });
});

// The two start-ups run at once.
describe.concurrent('startNode', () => {
  it('kills the JVM and removes its folder when start-up is given up', async () => {
    const before = fs.readdirSync(nodesRoot());
    // A node that runs but never answers health without a password. Its start-up is given up once
    // it answers 401 (the JVM fully up, its pid file written): through startNode's signal, the
    // deadline's own way out (a fixed deadline either waited idle or, under load, ended before the JVM was up).
    let jvmSeen = false;
    let httpPort = 0;
    const giveUp = new AbortController();
    const watch = setInterval(() => {
      const dir = fs.readdirSync(nodesRoot()).find((d) => d.startsWith('never-ready-'));
      if (dir && fs.existsSync(path.join(nodesRoot(), dir, 'es.pid'))) jvmSeen = true;
      if (jvmSeen && httpPort)
        void fetch(`http://127.0.0.1:${httpPort}/`).then(
          (r) => r.status === 401 && giveUp.abort(),
          () => undefined,
        );
    }, 200);
    const pickPort = async () => {
      const port = await freePort();
      httpPort ||= port; // the first port asked for is the HTTP one
      return port;
    };
    const err = await startNode({
      name: 'never-ready',
      // Past this test's own timeout: only the signal can end the start-up in time.
      timeoutMs: 600_000,
      signal: giveUp.signal,
      pickPort,
      settings: { 'xpack.security.enabled': 'true' },
    })
      .catch((e: Error) => e)
      .finally(() => clearInterval(watch));
    expect(giveUp.signal.aborted).toBe(true);
    expect(err).toBeInstanceOf(Error);
    // Given up by the signal (the test saw 401), whatever the loop's own last probe was.
    expect((err as Error).message).toMatch(/did not become ready \(given up by the caller; last probe: /);
    expect(jvmSeen).toBe(true);
    // (The port-race node of the test beside this one may have made its folder meanwhile.)
    const made = fs.readdirSync(nodesRoot()).filter((d) => !before.includes(d) && d.startsWith('never-ready-'));
    expect(made).toEqual([]); // its folder is gone...
    // ...and nothing runs from it any more.
    await waitUntil(
      'no process of the timed-out node',
      () => processesOf(`${nodesRoot()}/never-ready-`),
      (p) => p.length === 0,
      { timeoutMs: 10_000 },
    );
  }, 240_000);

  it('a port taken between freePort() and the bind: the node tries again with new ports and comes up', async () => {
    // A listener holds the first port handed out, as another process would.
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', () => r()));
    const taken = (squatter.address() as net.AddressInfo).port;
    let calls = 0;
    const pickPort = async () => (calls++ === 0 ? taken : freePort());
    try {
      const node = await startNode({ name: 'port-race', pickPort });
      try {
        expect(calls).toBeGreaterThan(2); // the first attempt's two ports, then new ones
        expect(node.httpPort).not.toBe(taken);
        expect((await fetch(`${node.url}/_cluster/health`)).status).toBe(200);
      } finally {
        await node.stop();
      }
    } finally {
      squatter.close();
    }
  }, 240_000);
});

describe('after every file', () => {
  it("a node the file never stopped (its set-up failed halfway): stopped and its folder removed, the launcher's leftovers with it", async () => {
    const node = await startNode({ name: 'forgotten' });
    const pid = node.pid;
    expect(isAlive(pid)).toBe(true);
    // The launcher JVM got its options through runuser (as root only ES_* variables used to): C1
    // only, and a temp folder in the node's, where it leaves a final-flags folder at every start.
    const [launcher] = processesOf(node.baseDir).filter((p) => argvOf(p).includes('-Dcli.name=server'));
    const launcherTmp = path.join(node.baseDir, 'launcher-tmp');
    expect(argvOf(launcher)).toEqual(expect.arrayContaining(['-XX:TieredStopAtLevel=1', `-Djava.io.tmpdir=${launcherTmp}`]));
    expect(fs.readdirSync(launcherTmp).some((f) => f.startsWith('final-flags'))).toBe(true);
    await disposeStartedNodes(); // what test/setup/nodes.ts runs after each file
    expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(node.baseDir)).toBe(false);
  }, 240_000);
});

describe('state files never trust a bare pid', () => {
  const dev = path.resolve('dev');
  /** A state file naming a live process that is not ours: stop must leave it alone. */
  function stopLeavesStranger(script: string, stateName: string, state: (pid: number) => object) {
    const cache = fs.mkdtempSync(path.join(tmp, 'cache-'));
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      ensureDir(path.join(cache, 'run'), 0o700);
      fs.writeFileSync(path.join(cache, 'run', stateName), JSON.stringify(state(stranger.pid!)));
      execFileSync(process.execPath, [path.join(dev, script), 'stop'], {
        env: { ...process.env, SHARDECK_DEV_CACHE: cache },
        stdio: 'ignore',
      });
      expect(isAlive(stranger.pid!)).toBe(true);
      expect(fs.existsSync(path.join(cache, 'run', stateName))).toBe(false);
    } finally {
      stranger.kill('SIGKILL');
    }
  }

  it('es:stop does not kill a process that merely has the pid of the old node', () =>
    stopLeavesStranger('es.mjs', 'es-default.json', (pid) => ({
      pid,
      baseDir: path.join(tmp, 'gone-node'),
      url: 'http://127.0.0.1:1',
      secure: false,
    })));

  it('platform:stop does not kill a process that merely has the pid of the old server', () =>
    stopLeavesStranger('platform.mjs', 'platform.json', (pid) => ({ pid, url: 'http://127.0.0.1:1', ttl: 600 })));
});
