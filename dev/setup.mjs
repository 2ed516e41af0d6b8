#!/usr/bin/env node
// The one set-up step behind `npm test` and `npm run demo` (and .ci/run): installs the npm
// dependencies when they are missing or stale, then the machine's part (dev/lib/machine.mjs).
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

const modules = path.join(root, 'node_modules');
const linked = fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink();
if (linked && stale()) {
  // npm ci empties node_modules through the link: another checkout's install would go with it.
  console.error(
    `shardeck setup: node_modules is a link to ${fs.realpathSync(modules)}; not reinstalling through it (run npm ci where it points if it is stale)`,
  );
} else if (stale()) {
  console.error('shardeck setup: npm ci');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

// Packages, Java 17+, the Elasticsearch user, the cache and the distribution: the same code the
// integration suites' global set-up runs (test/setup/global.ts).
const { setUpMachine } = await import('./lib/machine.mjs');
try {
  setUpMachine();
} catch (e) {
  console.error(`shardeck setup: ${e.message}`);
  process.exit(1);
}
