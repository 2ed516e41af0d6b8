#!/usr/bin/env node
// npm run platform:start [-- --token-ttl SECONDS] [-- --rotate] | npm run platform:stop
// Starts the reference platform server (dev/platform-server.mjs) detached on a free loopback port
// (idempotent: a running one with the same options is reused) and prints PLATFORM_URL=... and
// REFRESH_TOKEN=... (the demo user's throwaway token) as its last lines.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isAlive, isProcessOf, stopPid } from './lib/es-node.mjs';
import { ensureDir, runDir } from './lib/paths.mjs';
import { waitUntil } from './lib/wait.mjs';

const stateFile = path.join(runDir, 'platform.json');
const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'platform-server.mjs');

function readState() {
  try {
    return JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The pid in the state file, if it is still our server (a bare pid may since be anyone's). */
function serverPid(state) {
  return state && isProcessOf(state.pid, serverScript) && isProcessOf(state.pid, stateFile) ? state.pid : 0;
}

export async function platformStart({ tokenTtl = 600, rotate = false } = {}) {
  const state = readState();
  const running = serverPid(state);
  if (running && state.ttl === tokenTtl && Boolean(state.rotate) === rotate) return state;
  if (running) await stopPid(running);
  ensureDir(runDir, 0o700);
  fs.rmSync(stateFile, { force: true });
  const log = fs.openSync(path.join(runDir, 'platform.log'), 'a');
  const args = [serverScript, '--token-ttl', String(tokenTtl), '--state-file', stateFile, ...(rotate ? ['--rotate'] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log] });
  child.unref();
  fs.closeSync(log);
  // The server writes the state file once it listens.
  let s;
  try {
    s = await waitUntil(
      'the reference platform server to listen',
      () => readState(),
      (st) => st?.pid === child.pid || !isAlive(child.pid),
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  } catch (e) {
    await stopPid(child.pid);
    throw new Error(`the reference platform server did not start (${e.message}): see ${path.join(runDir, 'platform.log')}`, { cause: e });
  }
  if (s?.pid !== child.pid) throw new Error(`the reference platform server exited at start: see ${path.join(runDir, 'platform.log')}`);
  s.rotate = rotate;
  fs.writeFileSync(stateFile, JSON.stringify(s), { mode: 0o600 });
  return s;
}

export async function platformStop() {
  const state = readState();
  await stopPid(serverPid(state));
  fs.rmSync(stateFile, { force: true });
  return state;
}

/**
 * For the demo: starts (or reuses) the server, then signs `profile` in with the built CLI the way
 * an operator does (`shardeck login`, the token on stdin), so the TUI shows user@tenant and the
 * project names. The profile keeps its other fields (storage URL, user...).
 */
export async function platformSignIn({ cli = 'dist/cli.js', configDir, profile = 'default', tokenTtl = 600 } = {}) {
  const s = await platformStart({ tokenTtl });
  const env = { ...process.env, ...(configDir ? { SHARDECK_CONFIG_DIR: configDir } : {}) };
  const r = spawnSync(process.execPath, [cli, 'login', '--profile', profile, '--platform', s.url], {
    input: `${s.refreshToken}\n`,
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`demo sign-in to the reference platform failed: ${(r.stderr || r.stdout).trim()}`);
  return s;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === 'start') {
    const i = rest.indexOf('--token-ttl');
    const tokenTtl = i >= 0 ? Number(rest[i + 1]) : 600;
    if (!Number.isFinite(tokenTtl) || tokenTtl <= 0) {
      console.error('--token-ttl takes a number of seconds greater than 0, e.g. --token-ttl 30');
      process.exit(64);
    }
    const s = await platformStart({ tokenTtl, rotate: rest.includes('--rotate') });
    process.stderr.write(
      `reference platform server (pid ${s.pid}, access tokens live ${s.ttl} s${s.rotate ? ', rotating refresh tokens' : ''})\n`,
    );
    console.log(`PLATFORM_URL=${s.url}\nREFRESH_TOKEN=${s.refreshToken}`);
  } else if (cmd === 'stop') {
    const s = await platformStop();
    console.log(s ? `stopped the reference platform server (pid ${s.pid})` : 'no reference platform server was running');
  } else {
    console.error('usage: node dev/platform.mjs start [--token-ttl SECONDS] [--rotate] | stop');
    process.exit(64);
  }
}
