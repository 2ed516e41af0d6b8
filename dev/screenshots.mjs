// npm run screenshots: runs the built console in tmux on a real node with the demo data and turns
// each captured screen (with its colours) into a PNG in screenshots/ (ANSI -> SVG by dev/ansi-svg.mjs,
// SVG -> PNG by rsvg-convert from Debian's librsvg2-bin, installed by apt when missing).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { loadDemoData } from './demo-data.mjs';
import { corruptShard } from './corrupt.mjs';
import { captureToSvg } from './ansi-svg.mjs';
import { platformSignIn, platformStop } from './platform.mjs';
import { runDir } from './lib/paths.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outDir = path.join(root, 'screenshots');
const SOCKET = `shardeck-shots-${process.pid}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function ensureRsvg() {
  try {
    execFileSync('rsvg-convert', ['--version'], { stdio: 'ignore' });
  } catch {
    process.stderr.write('installing librsvg2-bin (rsvg-convert) with apt-get\n');
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'librsvg2-bin'], { stdio: 'inherit' });
  }
}

const tmux = (...args) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

async function waitFor(session, re, what) {
  for (let i = 0; i < 100; i++) {
    const s = tmux('capture-pane', '-p', '-t', session);
    if (re.test(s)) return;
    await sleep(200);
  }
  throw new Error(`screenshots: timed out waiting for ${what}:\n${tmux('capture-pane', '-p', '-t', session)}`);
}

function shoot(session, name, columns, rows) {
  const ansi = tmux('capture-pane', '-e', '-p', '-t', session);
  const svg = path.join(outDir, `${name}.svg`);
  fs.writeFileSync(svg, captureToSvg(ansi, { columns, rows }));
  execFileSync('rsvg-convert', ['-o', path.join(outDir, `${name}.png`), svg]);
  fs.rmSync(svg);
  process.stderr.write(`screenshots/${name}.png\n`);
}

async function putBlock(url) {
  // Elasticsearch 8 lifts this block by itself once disk use is below the high watermark, so it is
  // set again right before the panes that show it.
  await fetch(`${url}/service_v9_bravo/_settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ 'index.blocks.read_only_allow_delete': true }),
  });
}

ensureRsvg();
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
fs.mkdirSync(outDir, { recursive: true });
// anyStatus: the recovery shots restart it red.
let node = await startNode({ name: 'screenshots', anyStatus: true });
// Signed in to the reference platform like the demo, so the header and the Indices pane show the
// user and the projects; in a private config dir, and the server stopped after unless it was running.
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-shots-'));
const platformWasRunning = fs.existsSync(path.join(runDir, 'platform.json'));
try {
  // A session that outlives the others: the tmux server exits with its last session, and a new
  // session started while it exits fails ("server exited unexpectedly").
  tmux('new-session', '-d', '-s', 'keep', 'sleep 3600');
  await loadDemoData(node.url, { docsPerIndex: 2000 });
  await platformSignIn({ cli: path.join(root, 'dist/cli.js'), configDir, profile: 'demo' });
  for (const [columns, rows, suffix] of [
    [80, 24, ''],
    [100, 30, '-100x30'],
  ]) {
    const s = `shots${columns}`;
    tmux('new-session', '-d', '-s', s, '-x', String(columns), '-y', String(rows), `env -u CI -u NO_COLOR TERM=xterm-256color SHARDECK_CONFIG_DIR=${configDir} node ${root}/dist/cli.js --profile demo --url ${node.url} --interval 1; sleep 60`);
    await waitFor(s, /YELLOW/, 'the console');
    await waitFor(s, /\w@\w/, 'the platform sign-in in the header');
    // Visit Shards first so Health can name the reason of the unassigned shards.
    tmux('send-keys', '-t', s, '3');
    await waitFor(s, /[1-9]\d* unassigned/, 'shards');
    tmux('send-keys', '-t', s, '1');
    await putBlock(node.url);
    await waitFor(s, /unassigned shards: \d+ replica/, 'the health reason');
    await sleep(2500);
    shoot(s, `health${suffix}`, columns, rows);
    if (suffix) {
      tmux('kill-session', '-t', s);
      continue;
    }
    await putBlock(node.url);
    tmux('send-keys', '-t', s, '2');
    await waitFor(s, /ro\/del/, 'the indices with the block');
    shoot(s, 'indices', columns, rows);
    tmux('send-keys', '-t', s, '3', 'u');
    await waitFor(s, /problems only/, 'problem shards');
    shoot(s, 'shards', columns, rows);
    await putBlock(node.url);
    tmux('send-keys', '-t', s, '4');
    await waitFor(s, /read_only_allow_delete/, 'the disk pane with the block');
    shoot(s, 'disk', columns, rows);
    tmux('send-keys', '-t', s, '5');
    await waitFor(s, /max_open_scroll_context/, 'nodes');
    shoot(s, 'nodes', columns, rows);
    tmux('send-keys', '-t', s, '6');
    await waitFor(s, /index template service_v9\b.*patterns/, 'templates');
    shoot(s, 'templates', columns, rows);
    tmux('send-keys', '-t', s, '?');
    await waitFor(s, /Esc or \? closes/, 'help');
    shoot(s, 'help', columns, rows);
    tmux('kill-session', '-t', s);
  }
  await recoveryShots();
} finally {
  try {
    execFileSync('tmux', ['-L', SOCKET, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // already gone with its last session
  }
  await node.stop();
  if (!platformWasRunning) await platformStop();
  fs.rmSync(configDir, { recursive: true, force: true });
}

/**
 * The corruption recovery wizard: a corrupt primary (dev/corrupt.mjs), C on the Shards pane, its
 * options, the typed confirmation of the step that loses documents, and the verdict. The profile
 * stops and starts the node with dev/es-service.mjs in place of systemctl.
 */
async function recoveryShots() {
  const index = 'service_v9_damaged';
  node = (await corruptShard(node, index)).node;
  const service = (verb) => `${process.execPath} ${path.join(root, 'dev/es-service.mjs')} ${verb} ${node.baseDir}`;
  const file = path.join(configDir, 'config.json');
  const config = JSON.parse(fs.readFileSync(file, 'utf8'));
  Object.assign(config.profiles.demo, { serviceStop: service('stop'), serviceStart: service('start') });
  fs.writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  const s = 'recover';
  tmux('new-session', '-d', '-s', s, '-x', '80', '-y', '24', `env -u CI -u NO_COLOR TERM=xterm-256color SHARDECK_CONFIG_DIR=${configDir} node ${root}/dist/cli.js --profile demo --url ${node.url} --interval 1; sleep 60`);
  await waitFor(s, /RED/, 'the red console');
  tmux('send-keys', '-t', s, '3', 'u');
  await waitFor(s, new RegExp(index), 'the corrupt primary');
  tmux('send-keys', '-t', s, 'C');
  await waitFor(s, /first, what loses nothing/, 'the recovery options');
  shoot(s, 'recover-options', 80, 24);
  tmux('send-keys', '-t', s, 'c');
  let answered = 0;
  let typedShot = false;
  for (let i = 0; i < 600; i++) {
    const screen = tmux('capture-pane', '-p', '-t', s);
    if (/recovered: |failed: /.test(screen)) break;
    const n = Number(/step (\d+)\/11/.exec(screen)?.[1] ?? 0);
    if (n > answered && /y run this step/.test(screen)) {
      answered = n;
      tmux('send-keys', '-t', s, 'y');
    } else if (n > answered && /and Enter:/.test(screen)) {
      answered = n;
      if (!typedShot) {
        shoot(s, 'recover-step', 80, 24);
        typedShot = true;
      }
      tmux('send-keys', '-t', s, '-l', index);
      tmux('send-keys', '-t', s, 'Enter');
    }
    await sleep(200);
  }
  await waitFor(s, /recovered: /, 'the recovery verdict');
  await waitFor(s, /GREEN|YELLOW/, 'the console seeing the node back');
  shoot(s, 'recover-done', 80, 24);
  tmux('kill-session', '-t', s);
}
