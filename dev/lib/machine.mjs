// Everything the real-node suites need on this machine, made once before any of them runs:
// Debian packages, a Java 17+ (checked by running it), the Elasticsearch user, the cache folders
// and the distribution. Shared by dev/setup.mjs (npm test, npm run demo) and the integration
// project's global set-up (test/setup/global.ts), so a bare `npx vitest run` gets the same.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ensureDistribution, findJava, MIN_JAVA } from './es-dist.mjs';
import { ensureEsUser, isProcessOf, stopNodeIn } from './es-node.mjs';
import { cacheRoot, ensureDir, isRoot, makeTraversable } from './paths.mjs';

function have(cmd) {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Tools the harness and the end-to-end tests run, by Debian package. Java is checked apart, by version. */
// man, zsh and dpkg-deb: the package tests (the .deb's man page, the completion scripts).
const TOOLS = {
  patch: 'patch',
  mvn: 'maven',
  unzip: 'unzip',
  curl: 'curl',
  openssl: 'openssl',
  tmux: 'tmux',
  man: 'man-db',
  zsh: 'zsh',
  'dpkg-deb': 'dpkg',
};
const JDK_PACKAGE = `openjdk-${MIN_JAVA}-jdk-headless`;

function missingPackages() {
  const missing = Object.entries(TOOLS)
    .filter(([cmd]) => !have(cmd))
    .map(([, pkg]) => pkg);
  // javac too: the reindex module is built on this machine.
  if (!findJava({ jdk: true })) missing.push(JDK_PACKAGE);
  return missing;
}

function installPackages(log) {
  const missing = missingPackages();
  if (!missing.length) return;
  if (!isRoot)
    throw new Error(
      `missing system packages: ${missing.join(' ')}. Install them (sudo apt-get install ${missing.join(' ')}) and run again.`,
    );
  log(`installing ${missing.join(' ')}`);
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-q', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!findJava({ jdk: true })) throw new Error(`no JDK ${MIN_JAVA} or newer after installing ${JDK_PACKAGE}: set ES_JAVA_HOME to one`);
}

/** Idempotent; cheap when everything is there already. */
export function setUpMachine({ log = (m) => process.stderr.write(`shardeck setup: ${m}\n`) } = {}) {
  installPackages(log);
  ensureEsUser();
  ensureDir(cacheRoot);
  if (isRoot) makeTraversable(cacheRoot);
  ensureDir(path.join(cacheRoot, 'nodes'));
  return ensureDistribution();
}

/**
 * A folder for the nodes of one test run (`owner` is the run's pid). Runs that died without their
 * teardown (killed) are cleaned up first: their nodes stopped, their folders removed.
 */
export async function makeRunNodesDir(owner = process.pid) {
  const parent = ensureDir(path.join(cacheRoot, 'nodes'));
  for (const d of fs.readdirSync(parent).filter((n) => n.startsWith('run-'))) {
    const dir = path.join(parent, d);
    let pid = 0;
    try {
      pid = Number(fs.readFileSync(path.join(dir, 'owner.pid'), 'utf8').trim()) || 0;
    } catch {
      /* no owner recorded: a run that died while starting */
    }
    if (pid && isProcessOf(pid, 'node')) continue; // another run, still going
    await removeRunNodesDir(dir);
  }
  const dir = fs.mkdtempSync(path.join(parent, 'run-'));
  makeTraversable(dir); // mkdtemp makes it 0700; the node's user must get through to its folder
  fs.writeFileSync(path.join(dir, 'owner.pid'), `${owner}\n`);
  return dir;
}

/** Stops every node still running from `dir` (pid checked against its folder) and removes it. */
export async function removeRunNodesDir(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  } catch {
    return;
  }
  await Promise.all(entries.map((e) => stopNodeIn(path.join(dir, e.name))));
  fs.rmSync(dir, { recursive: true, force: true });
}
