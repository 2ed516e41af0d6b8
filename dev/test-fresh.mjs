#!/usr/bin/env node
// npm run test:fresh [-- --umask 077] [-- --keep]
// The README's test command on a machine as fresh as this one can be made: the Elasticsearch user
// removed (its JVMs stopped first), an EMPTY cache (SHARDECK_DEV_CACHE: the distribution is
// downloaded and the reindex module built again), HEAD cloned into a temp folder (no node_modules,
// no dist; uncommitted changes are not part of it), then `npm test` there. Prints the duration and
// the tests run/passed/failed/skipped; fails when any failed or was skipped, or none ran, or a JVM
// of the run outlived it. Removes its temp folders (--keep leaves them for a look).
// SHARDECK_ES_USER=another-name exercises the first-run path without touching the user other
// runs on this machine use.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopPid } from './lib/es-node.mjs';
import { cacheRoot, ES_USER, isRoot } from './lib/paths.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const umaskAt = args.indexOf('--umask');
const umask = umaskAt >= 0 ? args[umaskAt + 1] : undefined;
if (umask !== undefined && !/^0?[0-7]{3}$/.test(umask)) {
  console.error('--umask takes an octal mask such as 077, e.g. npm run test:fresh -- --umask 077');
  process.exit(64);
}
const keep = args.includes('--keep');
const log = (m) => process.stderr.write(`[test:fresh] ${m}\n`);

/** Pids of every process of `user` (none when the user does not exist). */
function processesOfUser(user) {
  try {
    return execFileSync('ps', ['-u', user, '-o', 'pid='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .map(Number)
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** Pids of processes whose command line mentions `marker` (a temp folder of this run). */
function processesMentioning(marker) {
  const out = [];
  for (const d of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker) && Number(d) !== process.pid) out.push(Number(d));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

async function removeEsUser() {
  if (!isRoot) {
    log(`not root: nodes run as ${os.userInfo().username}; no user to remove`);
    return;
  }
  const pids = processesOfUser(ES_USER);
  if (pids.length) log(`stopping ${pids.length} process(es) of ${ES_USER}`);
  await Promise.all(pids.map((p) => stopPid(p)));
  try {
    execFileSync('id', ['-u', ES_USER], { stdio: 'ignore' });
  } catch {
    return; // no such user: already fresh
  }
  log(`removing the user ${ES_USER}`);
  execFileSync('userdel', [ES_USER], { stdio: 'inherit' });
}

/** vitest's JSON report -> counts. */
function countsFrom(file) {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  return {
    run: r.numTotalTests,
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
  };
}

const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-fresh-'));
fs.chmodSync(work, 0o711); // the node's user goes through it to the cache (mkdtemp made it 0700)
const cache = path.join(work, 'cache');
const clone = path.join(work, 'shardeck');
const report = path.join(work, 'vitest.json');
let failed = [];
try {
  await removeEsUser();
  // The default cache's node folders belong to the user just removed (their JVMs were stopped).
  if (isRoot && ES_USER === 'shardeck-es') fs.rmSync(path.join(cacheRoot, 'nodes'), { recursive: true, force: true });
  fs.mkdirSync(cache);
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  log(`cloning ${head.slice(0, 12)} into ${clone}`);
  execFileSync('git', ['clone', '-q', '--no-checkout', root, clone], { stdio: 'inherit' });
  execFileSync('git', ['checkout', '-q', head], { cwd: clone, stdio: 'inherit' });
  // CI runs its clone with a copy of shared/ beside it (read-only); so does this one (the doctor's
  // rule table is checked against ../shared/DOCTOR-CATALOGUE.md).
  const shared = path.join(path.dirname(root), 'shared');
  if (fs.existsSync(shared)) fs.cpSync(shared, path.join(work, 'shared'), { recursive: true });
  // Fresh means no installed packages, even if a link to some were ever committed.
  // (A link is unlinked, never followed: what it points to belongs to another checkout.)
  const cloned = path.join(clone, 'node_modules');
  const st = fs.lstatSync(cloned, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) fs.unlinkSync(cloned);
  else if (st) fs.rmSync(cloned, { recursive: true, force: true });

  // The README's command; the JSON reporter beside the default one gives the counts.
  const testCmd = `npm test -- --reporter=default --reporter=json --outputFile.json=${report}`;
  const env = { ...process.env, SHARDECK_DEV_CACHE: cache, SHARDECK_ES_USER: ES_USER };
  for (const k of ['SHARDECK_NODES_DIR', 'SHARDECK_CLI', 'VITEST', 'NODE_OPTIONS']) delete env[k];
  log(
    `running \`${testCmd.split(' --')[0]}\` with an empty cache (${cache})${umask ? ` under umask ${umask}` : ''}, nodes as ${isRoot ? ES_USER : 'this user'}`,
  );
  const code = await new Promise((resolve) => {
    const child = spawn('sh', ['-c', `${umask ? `umask ${umask} && ` : ''}${testCmd}`], { cwd: clone, env, stdio: 'inherit' });
    child.on('close', (c) => resolve(c ?? 1));
  });

  const seconds = Math.round((Date.now() - started) / 1000);
  const counts = fs.existsSync(report) ? countsFrom(report) : undefined;
  console.log(`test:fresh: ${Math.floor(seconds / 60)} min ${seconds % 60} s; npm test exited ${code}`);
  if (counts)
    console.log(`test:fresh: ${counts.run} tests run, ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  if (code !== 0) failed.push(`npm test exited ${code}`);
  if (!counts) failed.push('no vitest report (the suites did not run)');
  else {
    if (counts.run === 0) failed.push('no test ran');
    if (counts.failed) failed.push(`${counts.failed} failed`);
    if (counts.skipped) failed.push(`${counts.skipped} skipped (a skipped test is a defect)`);
  }
  const leftovers = processesMentioning(work);
  if (leftovers.length) {
    failed.push(`${leftovers.length} process(es) of the run outlived it (pids ${leftovers.join(' ')}; stopped now)`);
    await Promise.all(leftovers.map((p) => stopPid(p)));
  }
} catch (e) {
  failed.push(e.message);
} finally {
  if (keep) log(`kept ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
  // A user made only for this check goes too; the default one stays for the runs that follow.
  if (isRoot && ES_USER !== 'shardeck-es') await removeEsUser().catch((e) => failed.push(e.message));
}
if (failed.length) {
  console.error(`test:fresh FAILED: ${failed.join('; ')}`);
  process.exit(1);
}
console.log('test:fresh: ok');
