#!/usr/bin/env node
// npm run es:start [-- --secure] | npm run es:stop
// Starts one real Elasticsearch 8 node on a free loopback port (idempotent: a running node is reused)
// and prints ES_URL=... as the last line.
import fs from 'node:fs';
import path from 'node:path';
import { nodePid, startNode, stopPid } from './lib/es-node.mjs';
import { runDir, ensureDir } from './lib/paths.mjs';

const stateFile = path.join(runDir, 'es-default.json');

function readState() {
  try {
    return JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function esStart({ secure = false, quiet = false } = {}) {
  const state = readState();
  // A bare pid may since belong to another process: only the JVM running from the node's folder counts.
  const running = state?.baseDir ? nodePid(state.baseDir) : 0;
  if (running && state.secure === secure) return { ...state, pid: running };
  if (running) await stopPid(running);
  if (state?.baseDir) fs.rmSync(state.baseDir, { recursive: true, force: true });
  const node = await startNode({ name: 'shardeck-dev', secure });
  const next = { url: node.url, pid: node.pid, baseDir: node.baseDir, secure, ca: node.ca, user: node.user, version: node.version };
  ensureDir(runDir, 0o700);
  // A secured node's throwaway password lives in its own 0600 file, never in the state or output.
  if (secure) {
    const pwFile = path.join(runDir, 'es-default.password');
    fs.writeFileSync(pwFile, node.password, { mode: 0o600 });
    next.passwordFile = pwFile;
  }
  fs.writeFileSync(stateFile, JSON.stringify(next, null, 2));
  if (!quiet) process.stderr.write(`started Elasticsearch ${node.version} (pid ${node.pid}, data in ${node.baseDir})\n`);
  return next;
}

export async function esStop() {
  const state = readState();
  if (state?.baseDir) await stopPid(nodePid(state.baseDir));
  fs.rmSync(stateFile, { force: true });
  if (state?.baseDir) fs.rmSync(state.baseDir, { recursive: true, force: true });
  return state;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === 'start') {
    const s = await esStart({ secure: rest.includes('--secure') });
    if (s.secure) console.log(`ES_CA=${s.ca}\nES_USER=${s.user}\nES_PASSWORD_FILE=${s.passwordFile}`);
    console.log(`ES_URL=${s.url}`);
  } else if (cmd === 'stop') {
    const s = await esStop();
    console.log(s ? `stopped Elasticsearch (pid ${s.pid})` : 'no node was running');
  } else {
    console.error('usage: node dev/es.mjs start [--secure] | stop');
    process.exit(64);
  }
}
