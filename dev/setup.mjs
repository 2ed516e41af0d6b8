#!/usr/bin/env node
// The one set-up step behind `npm test` and `npm run demo` (and .ci/run): installs the npm
// dependencies when they are missing or stale and downloads the Elasticsearch distribution once.
// Uses only Node's own modules, so it runs on a fresh clone before `npm install`.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');

function stale() {
  if (!fs.existsSync(installed)) return true;
  return fs.statSync(lock).mtimeMs > fs.statSync(installed).mtimeMs;
}

function have(cmd) {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// System tools the harness and the end-to-end tests use. Debian package names.
const tools = { java: 'openjdk-17-jre-headless', javac: 'openjdk-17-jdk-headless', patch: 'patch', mvn: 'maven', unzip: 'unzip', curl: 'curl', openssl: 'openssl', tmux: 'tmux' };
const missing = Object.entries(tools).filter(([cmd]) => !have(cmd)).map(([, pkg]) => pkg);
if (missing.length) {
  const root_ = process.getuid?.() === 0;
  if (!root_) {
    console.error(`shardeck setup: missing system packages: ${missing.join(' ')}. Install them (sudo apt-get install ${missing.join(' ')}) and run again.`);
    process.exit(1);
  }
  console.error(`shardeck setup: installing ${missing.join(' ')}`);
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-q', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

if (stale()) {
  console.error('shardeck setup: npm ci');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

const { ensureDistribution } = await import('./lib/es-dist.mjs');
ensureDistribution();
