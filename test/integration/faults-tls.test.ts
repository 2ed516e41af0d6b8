// Issue 30, certificate rotation: the secured node's certificate replaced by one of a new CA while
// the console watches (the harness makes new TLS material each time a secured node starts, so a
// restart on the same folders is a rotation). shardeck was given a copy of the old CA with --ca:
// the console and `status` say in words that the certificate is not signed by the CA in that file
// and what to do; once the operator puts the new CA in that file, the console recovers by itself
// (the file is read again after a certificate is not trusted). Real secured 8.19 node of its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTlsMaterial, startNode } from '../../dev/lib/es-node.mjs';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';
import { waitUntil } from '../helpers/wait-until';

let node: Awaited<ReturnType<typeof startNode>>;
let dir: string;
let caCopy: string;
let pwFile: string;
const SOCKET = `shardeck-tls-rotate-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
/** The screen as one line of words (a sentence wraps inside the pane). */
const screen = () => tmux('capture-pane', '-p', '-t', 'tls').replace(/[\s│|]+/g, ' ');
/** Waits for the screen; on a timeout the error carries the whole screen as drawn. */
const waitFor = (what: string, test: (s: string) => boolean, timeoutMs = 90_000) =>
  waitUntil(what, screen, test, { timeoutMs, intervalMs: 200 }).catch((e: Error) => {
    throw new Error(`${e.message.slice(0, 200)}\n${tmux('capture-pane', '-p', '-t', 'tls')}`);
  });
/** The start of the sentence: the path after it may wrap anywhere in the pane. */
const NOT_SIGNED = /not signed by the --ca file's CA: if rotated, put the new CA in/;

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'tls-rotate', secure: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-tls-rotate-'));
  // shardeck's own copy of the CA, as an operator keeps one: the node's own file changes with the rotation.
  caCopy = path.join(dir, 'ca.crt');
  fs.copyFileSync(node.ca!, caCopy);
  pwFile = path.join(dir, 'pw');
  fs.writeFileSync(pwFile, node.password, { mode: 0o600 });
}, 300_000);

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // no session left
  }
  await node?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const conn = () => ['--url', node.url, '--user', 'elastic', '--password-file', pwFile, '--ca', caCopy];

it('the certificate rotated while the console watches: said in words with what to do; recovers once the CA file is updated', async () => {
  const before = fs.readFileSync(node.ca!, 'utf8');
  const cmd = `env -u CI -u NO_COLOR -u FORCE_COLOR SHARDECK_CONFIG_DIR=${path.join(dir, 'conf')} node ${CLI} ${conn().join(' ')} --interval 1; echo EXIT=$?; sleep 600`;
  tmux('new-session', '-d', '-s', 'tls', '-x', '80', '-y', '24', cmd);
  await waitFor('the Health pane', (s) => /GREEN|YELLOW/.test(s));

  // The rotation: the node comes back with a certificate of a new CA.
  await node.stop();
  node = await node.restart();
  expect(fs.readFileSync(node.ca!, 'utf8')).not.toBe(before);
  const t0 = performance.now();
  const said = await waitFor('the rotation said in words', (s) => NOT_SIGNED.test(s));
  console.log(`FAULTS | certificate rotated: the console says so after the node is up | ${Math.round(performance.now() - t0)} ms`);
  expect(said).not.toMatch(/ at \S+:\d+:\d+|Error:|EXIT=/);
  expect(said).not.toContain(node.password);

  // A one-shot command says the same, exit 3 (unreachable), one JSON document.
  const r = await runCli(['status', ...conn(), '--json'], { env: { SHARDECK_CONFIG_DIR: path.join(dir, 'conf') } });
  expect(r.code).toBe(3);
  expect(JSON.parse(r.stdout).error.message).toBe(
    `certificate of ${node.url} not signed by the --ca file's CA: if rotated, put the new CA in ${caCopy}`,
  );

  // The operator updates the CA file shardeck was given: the console is back by itself.
  fs.copyFileSync(node.ca!, caCopy);
  const t1 = performance.now();
  await waitFor('recovered with the new CA', (s) => /GREEN|YELLOW/.test(s) && !NOT_SIGNED.test(s) && !/STALE/.test(s));
  console.log(
    `FAULTS | certificate rotated: the console recovered after the CA file was updated | ${Math.round(performance.now() - t1)} ms`,
  );
  tmux('send-keys', '-t', 'tls', 'q');
  await waitFor('the exit', (s) => s.includes('EXIT=0'));
}, 420_000);

it("the certificate files replaced in place (no restart: the node reloads them itself) while the console watches: noticed within the sockets' age, said with the --ca file, recovers once it is updated", async () => {
  // Whatever the first case left: shardeck's copy trusts the node's certificate now.
  fs.copyFileSync(node.ca!, caCopy);
  const session = 'tls';
  try {
    tmux('kill-session', '-t', session);
  } catch {
    // none left by the first case
  }
  const cmd = `env -u CI -u NO_COLOR -u FORCE_COLOR SHARDECK_CONFIG_DIR=${path.join(dir, 'conf-hot')} node ${CLI} ${conn().join(' ')} --interval 1; echo EXIT=$?; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', cmd);
  await waitFor('the Health pane', (s) => /GREEN|YELLOW/.test(s));
  const pid = node.pid;

  // The rotation in place: new material of a new CA written over the node's own files; the node
  // (xpack.security.http.ssl, its resource watcher) loads them by itself within seconds.
  const fresh = makeTlsMaterial(fs.mkdtempSync(path.join(dir, 'tls-')));
  const tlsDir = path.dirname(node.ca!);
  for (const [from, to] of [
    [fresh.key, 'node.key'],
    [fresh.cert, 'node.crt'],
    [fresh.ca, 'ca.crt'],
  ])
    fs.writeFileSync(path.join(tlsDir, to), fs.readFileSync(from)); // the same files: owner and mode kept
  const t0 = performance.now();
  // The console's socket is never idle (polled every second): only its age ends it, and the next connection sees the new certificate.
  const said = await waitFor('the hot rotation said in words', (s) => NOT_SIGNED.test(s), 120_000);
  console.log(`FAULTS | certificate files replaced in place: the console says so after | ${Math.round(performance.now() - t0)} ms`);
  expect(said).not.toMatch(/ at \S+:\d+:\d+|Error:|EXIT=/);
  expect(node.pid).toBe(pid); // not restarted

  fs.copyFileSync(fresh.ca, caCopy);
  const t1 = performance.now();
  await waitFor('recovered with the new CA', (s) => /GREEN|YELLOW/.test(s) && !NOT_SIGNED.test(s) && !/STALE/.test(s));
  console.log(
    `FAULTS | certificate files replaced in place: recovered after the CA file was updated | ${Math.round(performance.now() - t1)} ms`,
  );
  tmux('send-keys', '-t', session, 'q');
  await waitFor('the exit', (s) => s.includes('EXIT=0'));
}, 420_000);
