// npm run screenshots: runs the built console in tmux on a real node with the demo data and turns
// each captured screen (with its colours) into a PNG in screenshots/ (ANSI -> SVG by dev/ansi-svg.mjs,
// SVG -> PNG by rsvg-convert from Debian's librsvg2-bin, installed by apt when missing).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster, startNode } from './lib/es-node.mjs';
import { DEMO_YELLOW_INDEX, es, loadDemoData } from './demo-data.mjs';
import { corruptShard } from './corrupt.mjs';
import { captureToSvg } from './ansi-svg.mjs';
import { platformSignIn, platformStop } from './platform.mjs';
import { runDir } from './lib/paths.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outDir = path.join(root, 'screenshots');
// SHARDECK_DIST: built elsewhere than dist/, which other runs on this machine may be using.
const cli = path.join(process.env.SHARDECK_DIST ? path.resolve(process.env.SHARDECK_DIST) : path.join(root, 'dist'), 'cli.js');
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

/** The built console on the demo profile in a new tmux session of columns x rows (extra: more env; url: another node's). */
function openConsole(session, { columns = 80, rows = 24, env = '', url = node.url } = {}) {
  tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(columns),
    '-y',
    String(rows),
    `env -u CI -u NO_COLOR TERM=xterm-256color ${env}SHARDECK_CONFIG_DIR=${configDir} SHARDECK_LOCK_DIR=${lockDir} node ${cli} --profile demo --url ${url} --interval 1; sleep 60`,
  );
}

async function waitFor(session, re, what, seconds = 20) {
  for (let i = 0; i < seconds * 5; i++) {
    const s = tmux('capture-pane', '-p', '-t', session);
    if (re.test(s)) return;
    await sleep(200);
  }
  throw new Error(`screenshots: timed out waiting for ${what}:\n${tmux('capture-pane', '-p', '-t', session)}`);
}

function writePng(name, svgText) {
  const svg = path.join(outDir, `${name}.svg`);
  fs.writeFileSync(svg, svgText);
  execFileSync('rsvg-convert', ['-o', path.join(outDir, `${name}.png`), svg]);
  fs.rmSync(svg);
  process.stderr.write(`screenshots/${name}.png\n`);
}

function shoot(session, name, columns, rows) {
  writePng(name, captureToSvg(tmux('capture-pane', '-e', '-p', '-t', session), { columns, rows }));
}

/** Two terminals of the same size side by side in one PNG: each captured as its own SVG, nested in one. */
function shootSideBySide(left, right, name, columns, rows) {
  const gap = 16;
  const [a, b] = [left, right].map((session) => captureToSvg(tmux('capture-pane', '-e', '-p', '-t', session), { columns, rows }));
  const width = Number(/width="(\d+)"/.exec(a)[1]);
  const height = Number(/height="(\d+)"/.exec(a)[1]);
  const place = (svg, x) => svg.replace('<svg ', `<svg x="${x}" y="0" `);
  writePng(
    name,
    [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * width + gap}" height="${height}">`,
      place(a, 0),
      place(b, width + gap),
      '</svg>',
    ].join('\n'),
  );
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

// --only NAME[,NAME...]: run only these groups of shots (in the order of SHOTS), to redo one
// wizard without the whole run; a group that needs another's state says so in its comment.
const SHOTS = {
  panes: paneShots,
  'shards-recovery': shardsRecoveryShot,
  tasks: tasksShots,
  allocation: allocationShots,
  share: shareShots,
  delete: deleteShots,
  unblock: unblockShots,
  scroll: scrollShots,
  unfinished: unfinishedShots,
  'component-template': componentTemplateShots,
  shrink: shrinkShots,
  snapshots: snapshotShots,
  'allocation-restore': allocationRestoreShots,
  recover: recoveryShots,
  engine: engineShots,
  restart: restartShots,
  drain: drainShots,
};
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? Object.keys(SHOTS) : (process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean);
const unknown = only.filter((name) => !(name in SHOTS));
if (unknown.length > 0 || only.length === 0) {
  process.stderr.write(
    `usage: npm run screenshots [-- --only ${Object.keys(SHOTS).join(',')}] (unknown: ${unknown.join(', ') || 'none given'})\n`,
  );
  process.exit(64);
}

ensureRsvg();
// The private build when SHARDECK_DIST names one (dev/build.mjs honours it), so dist/ is never emptied under other runs.
execFileSync(process.execPath, [path.join(root, 'dev/build.mjs')], { cwd: root, stdio: 'ignore' });
fs.mkdirSync(outDir, { recursive: true });
// anyStatus: the recovery shots restart it red.
// Xms != Xmx: a finding on the Doctor pane (the heap check), besides the demo's replicas on one node.
let node = await startNode({ name: 'screenshots', anyStatus: true, javaOpts: '-Xms256m -Xmx512m' });
// Signed in to the reference platform like the demo, so the header and the Indices pane show the
// user and the projects; in a private config dir, and the server stopped after unless it was running.
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-shots-'));
// Its own lock folder: the allocation record of one run is seen by that run only.
const lockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-shots-locks-'));
const platformWasRunning = fs.existsSync(path.join(runDir, 'platform.json'));
const started = Date.now();
try {
  // A session that outlives the others: the tmux server exits with its last session, and a new
  // session started while it exits fails ("server exited unexpectedly").
  tmux('new-session', '-d', '-s', 'keep', 'sleep 3600');
  await loadDemoData(node.url, { docsPerIndex: 2000 });
  await platformSignIn({ cli, configDir, profile: 'demo' });
  for (const name of Object.keys(SHOTS)) if (only.includes(name)) await SHOTS[name]();
  process.stderr.write(`screenshots: ${only.join(', ')} in ${Math.round((Date.now() - started) / 1000)} s\n`);
} finally {
  try {
    execFileSync('tmux', ['-L', SOCKET, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // already gone with its last session
  }
  await node.stop();
  if (!platformWasRunning) await platformStop();
  fs.rmSync(configDir, { recursive: true, force: true });
  fs.rmSync(lockDir, { recursive: true, force: true });
}

/** Every pane at 80x24 (Health at 100x30 too), the index detail, the Documents view and the Doctor. */
async function paneShots() {
  for (const [columns, rows, suffix] of [
    [80, 24, ''],
    [100, 30, '-100x30'],
  ]) {
    const s = `shots${columns}`;
    openConsole(s, { columns, rows });
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
    tmux('send-keys', '-t', s, 'Escape');
    await inspectShots(s);
    tmux('kill-session', '-t', s);
  }
}

/**
 * The Shards pane's recovery section (shards-recovery.png): a snapshot of service_v9_alpha restored
 * beside it under a throttle of 20kb/s (the repository's and indices.recovery's), so its recovery
 * is on screen for a while; the copy, the repository and the throttle are removed afterwards.
 */
async function shardsRecoveryShot() {
  const repo = 'shots_repo';
  await es(node.url, 'PUT', `/_snapshot/${repo}`, { type: 'fs', settings: { location: path.join(node.repoDir, repo) } });
  await es(node.url, 'PUT', `/_snapshot/${repo}/alpha?wait_for_completion=true`, {
    indices: 'service_v9_alpha',
    include_global_state: false,
  });
  await es(node.url, 'PUT', `/_snapshot/${repo}`, {
    type: 'fs',
    settings: { location: path.join(node.repoDir, repo), max_restore_bytes_per_sec: '20kb' },
  });
  await es(node.url, 'PUT', '/_cluster/settings', { persistent: { 'indices.recovery.max_bytes_per_sec': '20kb' } });
  const s = 'recovering';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    tmux('send-keys', '-t', s, '3');
    await es(node.url, 'POST', `/_snapshot/${repo}/alpha/_restore`, {
      indices: 'service_v9_alpha',
      rename_pattern: '(.+)',
      rename_replacement: '$1_restored',
      include_global_state: false,
    });
    await waitFor(s, /recoveries: \d+ active[\s\S]*snapshot\/index/, 'the recovery section', 60);
    shoot(s, 'shards-recovery', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
    await es(node.url, 'DELETE', '/service_v9_alpha_restored').catch(() => undefined);
    await es(node.url, 'PUT', '/_cluster/settings', { persistent: { 'indices.recovery.max_bytes_per_sec': null } });
    await es(node.url, 'DELETE', `/_snapshot/${repo}/alpha`).catch(() => undefined);
    await es(node.url, 'DELETE', `/_snapshot/${repo}`).catch(() => undefined);
  }
}

/**
 * The Tasks pane (0) with a delete-by-query throttled to a document a second on an index of its own,
 * filtered to it, then its cancel wizard (x) asking for the task's number typed; typed, the cancel
 * goes through the Guard like any change, and the index is deleted after.
 */
async function tasksShots() {
  const index = 'old_events';
  const lines = Array.from({ length: 300 }, (_, i) => `{"index":{}}\n{"n":${i}}`).join('\n');
  await es(node.url, 'POST', `/${index}/_bulk?refresh=true`, lines + '\n');
  await es(node.url, 'POST', `/${index}/_delete_by_query?requests_per_second=1&scroll_size=1&wait_for_completion=false`, {
    query: { match_all: {} },
  });
  const s = 'tasks';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    tmux('send-keys', '-t', s, '0');
    await waitFor(s, /delete\/byquery/, 'the delete-by-query on the Tasks pane');
    tmux('send-keys', '-t', s, '/');
    tmux('send-keys', '-t', s, '-l', 'byquery');
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /description: delete-by-query \[old_events\][\s\S]*deleted \d+/, 'the task highlighted with its progress');
    shoot(s, 'tasks', 80, 24);
    // Rethrottled first (1 -> 5 documents a second), then cancelled.
    tmux('send-keys', '-t', s, 't');
    await waitFor(s, /new rate \(documents per second/, 'the rethrottle form');
    tmux('send-keys', '-t', s, '5', 'Enter');
    await waitFor(s, /rethrottle delete task [\s\S]*equivalent: curl/, 'the rethrottle preview');
    shoot(s, 'task-rethrottle', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /^ok: [\s\S]*now: [\s\S]*any key closes/m, 'the new rate read back');
    shoot(s, 'task-rethrottle-done', 80, 24);
    tmux('send-keys', '-t', s, 'Escape');
    await waitFor(s, /description: delete-by-query \[old_events\]/, 'back on the Tasks pane');
    tmux('send-keys', '-t', s, 'x');
    await waitFor(s, /type its number \d+ to cancel it/, 'the cancel wizard asking for the number');
    shoot(s, 'task-cancel', 80, 24);
    const number = /type its number (\d+) to cancel it/.exec(tmux('capture-pane', '-p', '-t', s))[1];
    tmux('send-keys', '-t', s, '-l', number);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /^ok: [\s\S]*any key closes/m, 'the task cancelled');
    shoot(s, 'task-cancel-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
    await es(node.url, 'DELETE', `/${index}`).catch(() => undefined);
  }
}

/** The index detail (Enter on an Indices row), the Documents view (v) with a search and a hit as JSON, the Doctor pane (7). */
async function inspectShots(s) {
  tmux('send-keys', '-t', s, '2', 'g');
  await waitFor(s, /service_v9_alpha/, 'the indices');
  tmux('send-keys', '-t', s, 'Enter');
  await waitFor(s, /\[Stats\]/, 'the index detail');
  tmux('send-keys', '-t', s, 'Tab', 'Tab');
  await waitFor(s, /\[Mappings\][\s\S]*\d+ fields/, 'the mappings section');
  shoot(s, 'index-mappings', 80, 24);
  tmux('send-keys', '-t', s, 'Tab', 'Tab');
  await waitFor(s, /\[Template\][\s\S]*what it gives a new index/, 'the template section');
  shoot(s, 'index-template', 80, 24);
  tmux('send-keys', '-t', s, 'Escape');
  await waitFor(s, /Indices\s+\d+ of/, 'back on the indices');
  tmux('send-keys', '-t', s, 'v');
  await waitFor(s, /< document id >/, 'the documents view');
  // Tab from "document id" past older-than and up-to to "documents of source", the search by the platform's sources.
  tmux('send-keys', '-t', s, 'Tab', 'Tab', 'Tab');
  await waitFor(s, /< documents of source >/, 'the search by source');
  tmux('send-keys', '-t', s, '-l', 'src-crm');
  tmux('send-keys', '-t', s, 'Enter');
  await waitFor(s, /documents of source src-crm: 1-\d+ of \d+/, 'the hits');
  shoot(s, 'documents', 80, 24);
  // The second hit: the first with two sources.
  tmux('send-keys', '-t', s, 'Down', 'Enter');
  await waitFor(s, /"_source": \{/, 'a hit as JSON');
  shoot(s, 'documents-json', 80, 24);
  await escapeUntil(s, /Indices\s+\d+ of/, 'back on the indices');
  tmux('send-keys', '-t', s, '7');
  await waitFor(s, /checked \S+ ago[\s\S]*remedy:/, 'the doctor findings');
  shoot(s, 'doctor', 80, 24);
}

/** Why a replica of the yellow index is unassigned (e on the Shards pane): before share sets it to 0. */
async function allocationShots() {
  const s = 'explain';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW/, 'the console');
    tmux('send-keys', '-t', s, '3', 'u');
    await waitFor(s, /problems only[\s\S]*service_v9_orders/, 'the unassigned replicas');
    tmux('send-keys', '-t', s, 'e');
    await waitFor(s, /service_v9_orders shard \d+ replica: unassigned[\s\S]*nothing to retry/, 'the explanation');
    shoot(s, 'allocation-explain', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
  }
}

/**
 * Two operators: a leader shares its console (s), a follower (`shardeck follow SOCKET`, no
 * credentials) beside it; the leader sets the replicas of the yellow index to 0, the follower adds
 * a note, and both show it on the Timeline pane (8). The leader's share folder is a private
 * XDG_RUNTIME_DIR, so the socket is the only one in it.
 */
async function shareShots() {
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-shots-run-'));
  try {
    const lead = 'leader';
    openConsole(lead, { env: `XDG_RUNTIME_DIR=${runtime} ` });
    await waitFor(lead, /YELLOW/, 'the leader');
    tmux('send-keys', '-t', lead, 's');
    await waitFor(lead, /SHARED[\s\S]*shardeck follow /, 'the shared console');
    const dir = path.join(runtime, `shardeck-${process.getuid()}`);
    const sock = path.join(
      dir,
      fs.readdirSync(dir).find((f) => f.endsWith('.sock')),
    );
    const fol = 'follower';
    tmux(
      'new-session',
      '-d',
      '-s',
      fol,
      '-x',
      '80',
      '-y',
      '24',
      `env -i PATH=${JSON.stringify(process.env.PATH)} TERM=xterm-256color node ${cli} follow ${sock}; sleep 60`,
    );
    await waitFor(fol, /following/, 'the follower');
    tmux('send-keys', '-t', lead, '2');
    await waitFor(lead, /yellow\s+service_v9_orders/, 'the yellow index');
    tmux('send-keys', '-t', lead, 'G');
    await sleep(500);
    tmux('send-keys', '-t', lead, 'R');
    await waitFor(lead, /index or pattern\s+service_v9_orders[\s\S]*replicas\s+…/, 'the replicas wizard on the yellow index');
    tmux('send-keys', '-t', lead, '0');
    await waitFor(lead, /replicas\s+0/, 'the replicas typed');
    shoot(lead, 'replicas-form', 80, 24);
    tmux('send-keys', '-t', lead, 'Enter');
    // One index, its template untouched: the preview's curl line is whole already.
    await waitFor(lead, /equivalent: curl[\s\S]*y send/, 'the preview');
    shoot(lead, 'replicas-review', 80, 24);
    tmux('send-keys', '-t', lead, 'y');
    await waitFor(lead, /ok: every matched index now has 0 replicas[\s\S]*health yellow -> green/, 'the change verified');
    shoot(lead, 'replicas-done', 80, 24);
    tmux('send-keys', '-t', lead, 'Escape');
    await waitFor(lead, /Indices\s+\d+ of/, 'the wizard closed');
    tmux('send-keys', '-t', lead, '8');
    await waitFor(fol, /Timeline[\s\S]*: set number_of_replicas/, 'the timeline on the follower');
    tmux('send-keys', '-t', fol, 'n');
    await waitFor(fol, /note:/, 'the note prompt');
    tmux('send-keys', '-t', fol, '-l', 'orders had a replica on one node: set to 0');
    tmux('send-keys', '-t', fol, 'Enter');
    await waitFor(lead, /orders had a replica/, 'the note on the leader');
    await waitFor(fol, /Timeline[\s\S]*orders had a replica/, 'the note on the follower');
    shoot(lead, 'timeline', 80, 24);
    shootSideBySide(lead, fol, 'follow', 80, 24);
    tmux('kill-session', '-t', fol);
    tmux('kill-session', '-t', lead);
  } finally {
    fs.rmSync(runtime, { recursive: true, force: true });
  }
}

/**
 * The Snapshots pane (9) with a repository and a snapshot of two indices, then the restore wizard (R)
 * restoring them beside the originals, caught while its shards are copied: the repository throttles
 * restores (max_restore_bytes_per_sec) so each shard's bar, rate and time left are on the screen.
 * The restored copies are deleted after, so the recovery shots see the node as before.
 */
async function snapshotShots() {
  const call = async (method, p, body) => {
    const res = await fetch(node.url + p, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`screenshots: ${method} ${p}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  };
  const indices = ['service_v9_alpha', 'service_v9_bravo'];
  await call('PUT', '/_snapshot/nightly', {
    type: 'fs',
    settings: { location: path.join(node.repoDir, 'nightly'), max_restore_bytes_per_sec: '64kb' },
  });
  const s = 'snaps';
  openConsole(s);
  await waitFor(s, /YELLOW|GREEN/, 'the console');
  tmux('send-keys', '-t', s, '9');
  await waitFor(s, /nightly/, 'the repository in the Snapshots pane');
  // The snapshot taken with the wizard (S): the form (repository, then the name and indices typed), the request, the result.
  tmux('send-keys', '-t', s, 'S');
  await waitFor(s, /repository\s+nightly/, 'the snapshot form');
  tmux('send-keys', '-t', s, 'Tab');
  retype(s, 'nightly-1');
  tmux('send-keys', '-t', s, 'Tab');
  tmux('send-keys', '-t', s, '-l', indices.join(','));
  await waitFor(s, /name\s+nightly-1\s*\n[\s\S]*indices\s+service_v9_alpha,service_v9_bravo/, 'the form filled');
  shoot(s, 'snapshot-form', 80, 24);
  tmux('send-keys', '-t', s, 'Enter');
  await waitFor(s, /take the snapshot nightly\/nightly-1[\s\S]*y take it/, 'the snapshot preview');
  shoot(s, 'snapshot-review', 80, 24);
  tmux('send-keys', '-t', s, 'y');
  await waitFor(s, /nightly-1\s+SUCCESS[\s\S]*any key closes/, 'the snapshot done', 120);
  shoot(s, 'snapshot-done', 80, 24);
  tmux('send-keys', '-t', s, 'Escape');
  await waitFor(s, /nightly-1/, 'the snapshot in the Snapshots pane');
  shoot(s, 'snapshots', 80, 24);
  tmux('send-keys', '-t', s, 'R');
  await waitFor(s, /from nightly\/nightly-1/, 'the restore form');
  shoot(s, 'restore-form', 80, 24);
  tmux('send-keys', '-t', s, 'Enter');
  await waitFor(s, /y send/, 'the restore preview');
  shoot(s, 'restore-review', 80, 24);
  tmux('send-keys', '-t', s, 'y');
  await waitFor(s, /\/s eta [\s\S]*\/s eta /, 'both shards restoring with their rate and time left', 60);
  shoot(s, 'restore-progress', 80, 24);
  await waitFor(s, /restored indices green/, 'the restore done', 300);
  shoot(s, 'restore-done', 80, 24);
  tmux('send-keys', '-t', s, 'Escape');
  tmux('kill-session', '-t', s);
  await call('DELETE', `/${indices.map((i) => `${i}-restored`).join(',')}`);
  await call('DELETE', '/_snapshot/nightly');
}

/**
 * The corruption recovery wizard: a corrupt primary (dev/corrupt.mjs), C on the Shards pane, its
 * options, the typed confirmation of the step that loses documents, and the verdict. The profile
 * stops and starts the node with dev/es-service.mjs in place of systemctl.
 */
async function recoveryShots() {
  const index = 'service_v9_damaged';
  await corruptShard(node, index);
  serviceCommandsInProfile();
  const s = 'recover';
  openConsole(s);
  await waitFor(s, /RED/, 'the red console');
  tmux('send-keys', '-t', s, '3', 'u');
  await waitFor(s, new RegExp(index), 'the corrupt primary');
  // The retry of its failed allocation (e, then R): it fails again, corrupt. Its explanation is not
  // shot: the node's stack trace in it is taller than 24 rows.
  tmux('send-keys', '-t', s, 'e');
  await waitFor(s, /R retry the \d+ failed allocation/, 'the explanation with the retry offered');
  tmux('send-keys', '-t', s, 'R');
  await waitFor(s, /retry the allocation of shards that failed[\s\S]*y send/, 'the retry previewed');
  shoot(s, 'allocation-retry', 80, 24);
  tmux('send-keys', '-t', s, 'y');
  await waitFor(s, /still unassigned[\s\S]*any key closes/, 'the reroute sent and the shards read again');
  shoot(s, 'allocation-retry-done', 80, 24);
  tmux('send-keys', '-t', s, 'Escape');
  // The retried copy came and went: the cursor is put back on it, unassigned again.
  await waitFor(s, /service_v9_damaged\s+0 p\s+UNASSIGNED/, 'the primary unassigned again', 60);
  tmux('send-keys', '-t', s, 'g');
  await waitFor(s, /problems only(?![\s\S]*selection moved)/, 'the cursor on the primary');
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
  // The restarted node recovers every other index from disk too before health leaves red.
  await waitFor(s, /GREEN|YELLOW/, 'the console seeing the node back', 90);
  shoot(s, 'recover-done', 80, 24);
  tmux('kill-session', '-t', s);
}

/** A table pane (by its number key) filtered to the rows matching `text`, the first one highlighted. */
async function filterTo(s, paneKey, text, re) {
  tmux('send-keys', '-t', s, paneKey, '/');
  tmux('send-keys', '-t', s, '-l', text);
  tmux('send-keys', '-t', s, 'Enter');
  await waitFor(s, re, `the rows matching ${text}`);
}

/**
 * Esc, one at a time (two read together are Alt-Esc), until `re` is on the screen: the JSON, the
 * hits and the form of the Documents view each take one.
 */
async function escapeUntil(s, re, what, times = 4) {
  for (let i = 1; i <= times; i++) {
    tmux('send-keys', '-t', s, 'Escape');
    try {
      return await waitFor(s, re, what, i === times ? 20 : 2);
    } catch (e) {
      if (i === times) throw e;
    }
  }
}

/** Backspace enough times to empty a form's field (its default), then type `text`. */
function retype(s, text, erase = 40) {
  tmux('send-keys', '-t', s, ...Array(erase).fill('BSpace'));
  tmux('send-keys', '-t', s, '-l', text);
}

/**
 * Delete by query (D on the Indices pane) of service_v9_kb's documents modified before a fixed
 * date: the form, the count and samples with the curl line and the count typed, the result; then
 * the force merge (M) that frees their disk: its form, its review with the deleted documents, the
 * result before -> after.
 */
async function deleteShots() {
  const s = 'delete';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    await filterTo(s, '2', 'service_v9_kb', /service_v9_kb/);
    tmux('send-keys', '-t', s, 'D');
    await waitFor(s, /age or date/, 'the delete form');
    tmux('send-keys', '-t', s, '-l', '2025-03-01');
    await waitFor(s, /= modified_at before 2025-03-01/, 'the date understood');
    shoot(s, 'delete-form', 80, 24);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /type (\d+) to delete them/, 'the count, the samples and the curl line');
    shoot(s, 'delete-review', 80, 24);
    const count = /type (\d+) to delete them/.exec(tmux('capture-pane', '-p', '-t', s))[1];
    tmux('send-keys', '-t', s, '-l', count);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /ok: deleted \d+ of \d+ previewed[\s\S]*m force merge now/, 'the delete done', 120);
    shoot(s, 'delete-done', 80, 24);
    tmux('send-keys', '-t', s, 'Escape');
    await waitFor(s, /Indices\s+\d+ of/, 'the wizard closed');
    tmux('send-keys', '-t', s, 'M');
    await waitFor(s, /index or pattern\s+service_v9_kb/, 'the force merge form');
    shoot(s, 'forcemerge-form', 80, 24);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /service_v9_kb: [\d,]+ deleted docs[\s\S]*y merge/, 'the force merge review');
    shoot(s, 'forcemerge-review', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /ok: merge finished[\s\S]*any key closes/, 'the merge done', 120);
    shoot(s, 'forcemerge-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
  }
}

/** The flood-stage block (U on the Disk pane): the blocked indices and the request, then the result. */
async function unblockShots() {
  const s = 'unblock';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    await putBlock(node.url);
    tmux('send-keys', '-t', s, '4');
    await waitFor(s, /read_only_allow_delete/, 'the disk pane with the block');
    tmux('send-keys', '-t', s, 'U');
    await waitFor(s, /blocked: service_v9_bravo[\s\S]*y send/, 'the unblock review');
    shoot(s, 'unblock-review', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /ok: .*no longer carr/, 'the block lifted');
    shoot(s, 'unblock-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
  }
}

/** The scroll limit (L on the Nodes pane) raised from 500 to 1000, then put back by hand after. */
async function scrollShots() {
  const s = 'scroll';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    tmux('send-keys', '-t', s, '5');
    await waitFor(s, /max_open_scroll_context/, 'nodes');
    tmux('send-keys', '-t', s, 'L');
    await waitFor(s, /new limit:/, 'the scroll form');
    tmux('send-keys', '-t', s, '-l', '1000');
    await waitFor(s, /new limit: 1000/, 'the limit typed');
    shoot(s, 'scroll-form', 80, 24);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /from 500 to 1000[\s\S]*y send/, 'the scroll review');
    shoot(s, 'scroll-review', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /ok: search.max_open_scroll_context is 1000/, 'the limit read back');
    shoot(s, 'scroll-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
    await es(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'search.max_open_scroll_context': null },
      transient: { 'search.max_open_scroll_context': null },
    });
  }
}

/**
 * A component template that disables a field (X on the Templates pane): service_v9_no_raw keeps
 * `raw` in _source unindexed; the form, the two requests with their curl lines whole, the result.
 * The index template and the component are put back as the demo has them after.
 */
async function componentTemplateShots() {
  const s = 'component';
  const before = await es(node.url, 'GET', '/_index_template/service_v9');
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    tmux('send-keys', '-t', s, '6');
    await waitFor(s, /index template service_v9\b.*patterns/, 'templates');
    tmux('send-keys', '-t', s, 'X');
    await waitFor(s, /component name/, 'the component template form');
    tmux('send-keys', '-t', s, '-l', 'service_v9_no_raw');
    tmux('send-keys', '-t', s, 'Tab');
    tmux('send-keys', '-t', s, '-l', 'raw');
    await waitFor(s, /field to disable\s+raw/, 'the form filled');
    shoot(s, 'component-template-form', 80, 24);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /create component template service_v9_no_raw[\s\S]*y send/, 'the review');
    tmux('send-keys', '-t', s, 'c');
    await waitFor(s, /c review/, 'the curl lines whole');
    shoot(s, 'component-template-review', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /ok: a new index from service_v9 maps raw[\s\S]*any key closes/, 'the template checked');
    shoot(s, 'component-template-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
    const { index_template: template } = before.index_templates[0];
    await es(node.url, 'PUT', '/_index_template/service_v9', template);
    await es(node.url, 'DELETE', '/_component_template/service_v9_no_raw').catch(() => undefined);
  }
}

/**
 * Right-sizing service_v9_legacy (S on the Indices pane) from 6 shards to 1 under the same name:
 * the form, the plan with its steps and the name typed (a multi-step change: each step's request
 * is journaled and audited, none is one curl line), and the result.
 */
async function shrinkShots() {
  const s = 'shrink';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    await filterTo(s, '2', 'service_v9_legacy', /service_v9_legacy/);
    tmux('send-keys', '-t', s, 'S');
    await waitFor(s, /shards after\s+\d[\s\S]*service_v9_legacy: 6 shards/, 'the shrink form');
    shoot(s, 'shrink-form', 80, 24);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /type service_v9_legacy/, 'the plan');
    shoot(s, 'shrink-review', 80, 24);
    tmux('send-keys', '-t', s, '-l', 'service_v9_legacy');
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /ok: 1 index right-sized[\s\S]*any key closes/, 'the index right-sized', 180);
    shoot(s, 'shrink-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
  }
}

/**
 * Allocation left changed: `shardeck allocation enable primaries` (as an operator does before a
 * restart) records what it changed; A on the Health pane puts it back: the review, the result.
 */
async function allocationRestoreShots() {
  execFileSync(process.execPath, [cli, 'allocation', 'enable', 'primaries', '--yes', '--profile', 'demo', '--url', node.url], {
    env: { ...process.env, SHARDECK_CONFIG_DIR: configDir, SHARDECK_LOCK_DIR: lockDir, NO_COLOR: '1' },
    stdio: 'ignore',
  });
  const s = 'allocation';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    tmux('send-keys', '-t', s, '1', 'A');
    await waitFor(s, /equivalent: curl[\s\S]*y /, 'the allocation put back, previewed');
    shoot(s, 'allocation-restore-review', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /^ok: [\s\S]*any key closes/m, 'the allocation put back');
    shoot(s, 'allocation-restore-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
    await es(node.url, 'PUT', '/_cluster/settings', { persistent: { 'cluster.routing.allocation.enable': null } });
  }
}

/** The profile stops and starts the node with dev/es-service.mjs in place of systemctl. */
function serviceCommandsInProfile() {
  const service = (verb) => `${process.execPath} ${path.join(root, 'dev/es-service.mjs')} ${verb} ${node.baseDir}`;
  const file = path.join(configDir, 'config.json');
  const config = JSON.parse(fs.readFileSync(file, 'utf8'));
  Object.assign(config.profiles.demo, { serviceStop: service('stop'), serviceStart: service('start') });
  fs.writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
}

/**
 * This host's engine (E on the Nodes pane): its service and plugins, then a start of the running
 * node asked (the command shown) and run: the service says it is already running, nothing changes.
 */
async function engineShots() {
  serviceCommandsInProfile();
  const s = 'engine';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    tmux('send-keys', '-t', s, '5');
    await waitFor(s, /max_open_scroll_context/, 'nodes');
    tmux('send-keys', '-t', s, 'E');
    await waitFor(s, /r restart/, 'the engine menu');
    shoot(s, 'engine-menu', 80, 24);
    tmux('send-keys', '-t', s, 's');
    await waitFor(s, /\$ .*es-service\.mjs start[\s\S]*y run it/, 'the start asked');
    shoot(s, 'engine-start', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /verified: node \S+ answers[\s\S]*any key closes/, 'the start run and verified');
    shoot(s, 'engine-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
  }
}

/**
 * The rolling restart of this host's node (R on the Nodes pane): the plan with its steps and the
 * node's name typed, then the steps done and verified. Last: it stops the node.
 */
async function restartShots() {
  // Its green step needs the demo's yellow index without its replica (share sets it so in a whole run).
  await es(node.url, 'PUT', `/${DEMO_YELLOW_INDEX}/_settings`, { index: { number_of_replicas: 0 } });
  serviceCommandsInProfile();
  const s = 'restart';
  openConsole(s);
  try {
    await waitFor(s, /YELLOW|GREEN/, 'the console');
    tmux('send-keys', '-t', s, '5');
    await waitFor(s, /max_open_scroll_context/, 'nodes');
    tmux('send-keys', '-t', s, 'R');
    await waitFor(s, /type (\S+) to restart it/, 'the restart plan');
    shoot(s, 'restart-review', 80, 24);
    const name = /type (\S+) to restart it/.exec(tmux('capture-pane', '-p', '-t', s))[1];
    tmux('send-keys', '-t', s, '-l', name);
    tmux('send-keys', '-t', s, 'Enter');
    await waitFor(s, /ok: restarted [\s\S]*any key closes/, 'the node restarted', 300);
    shoot(s, 'restart-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
  }
}

/**
 * Draining a node (D on the Nodes pane) needs another data node to take its shards: a cluster of
 * two of its own (startCluster, as changes-two-nodes.test.ts), two demo indices spread over both;
 * node-1 (the first row) drained: the request, then its shards moved to node-2. The cluster is stopped after.
 */
async function drainShots() {
  const cluster = await startCluster({ count: 2, heap: '256m' });
  const s = 'drain';
  try {
    await loadDemoData(cluster.url, { docsPerIndex: 200, indices: ['service_v9_alpha', 'service_v9_bravo'] });
    openConsole(s, { url: cluster.url });
    await waitFor(s, /GREEN/, 'the console on the two nodes');
    tmux('send-keys', '-t', s, '5');
    await waitFor(s, /node-1[\s\S]*node-2/, 'the two nodes');
    tmux('send-keys', '-t', s, 'D');
    await waitFor(s, /drain node node-1[\s\S]*equivalent: curl[\s\S]*y drain/, 'the drain of the first node previewed');
    shoot(s, 'drain-review', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /undo: D on the node again/, 'the shards moved off node-1', 180);
    shoot(s, 'drain-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
    await cluster.stop();
  }
}

/**
 * Changes left without an answer (the console opens the dialog at start; U on Health):
 * `shardeck scroll-limit 900 --yes` through a proxy that forwards its PUT to the node but holds the
 * answer, and the command killed (SIGKILL) once the node took it, as a dropped SSH session leaves
 * it; the console, on the same address, reads it back. The limit is put back after.
 */
async function unfinishedShots() {
  let hold = true;
  let tookIt;
  const took = new Promise((resolve) => (tookIt = resolve));
  const proxy = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const upstream = await fetch(node.url + req.url, {
        method: req.method,
        // As sent (a compressed body keeps its content-encoding), but for what fetch sets itself.
        headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))),
        body: ['GET', 'HEAD'].includes(req.method) ? undefined : Buffer.concat(chunks),
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      // Applied by the node, its answer never given.
      if (hold && req.method === 'PUT' && req.url.startsWith('/_cluster/settings')) return tookIt(upstream.status);
      const headers = { 'content-type': upstream.headers.get('content-type') ?? 'application/json' };
      const product = upstream.headers.get('x-elastic-product');
      if (product) headers['x-elastic-product'] = product;
      res.writeHead(upstream.status, headers);
      res.end(body);
    });
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${proxy.address().port}`;
  const s = 'unfinished';
  try {
    const child = spawn(process.execPath, [cli, 'scroll-limit', '900', '--yes', '--profile', 'demo', '--url', url], {
      env: { ...process.env, SHARDECK_CONFIG_DIR: configDir, SHARDECK_LOCK_DIR: lockDir, NO_COLOR: '1' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const status = await took;
    if (status !== 200) throw new Error(`screenshots: the node refused the scroll limit (HTTP ${status})`);
    child.kill('SIGKILL');
    await exited;
    hold = false;
    openConsole(s, { url });
    await waitFor(s, /stopped before their\s+answer[\s\S]*y read them back/, 'the unfinished change');
    shoot(s, 'unfinished-review', 80, 24);
    tmux('send-keys', '-t', s, 'y');
    await waitFor(s, /read back: [\s\S]*any key closes/, 'the change read back');
    shoot(s, 'unfinished-done', 80, 24);
  } finally {
    tmux('kill-session', '-t', s);
    proxy.closeAllConnections();
    proxy.close();
    await es(node.url, 'PUT', '/_cluster/settings', {
      persistent: { 'search.max_open_scroll_context': null },
      transient: { 'search.max_open_scroll_context': null },
    });
  }
}
