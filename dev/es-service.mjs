#!/usr/bin/env node
// node dev/es-service.mjs stop|start|status BASEDIR
// A test node as a system service: what `systemctl stop|start elasticsearch` does on a storage
// node, for the corruption checklist's --stop-cmd/--start-cmd in tests and demos. `stop` waits
// until the process is gone; `start` returns once the process runs (like a service manager, it
// does not wait for HTTP: the checklist's own wait step does). Both are idempotent. Plain
// (unsecured) nodes only: a secured node's password is not kept on disk.
import fs from 'node:fs';
import path from 'node:path';
import { nodePid, startNode, stopPid } from './lib/es-node.mjs';
import { waitUntil } from './lib/wait.mjs';

const [cmd, baseDir] = process.argv.slice(2);
if (!['stop', 'start', 'status'].includes(cmd) || !baseDir) {
  console.error('usage: node dev/es-service.mjs stop|start|status BASEDIR');
  process.exit(64);
}
// The pid file's pid counts only while it is this node's JVM (checked against its folder).
const pid = nodePid(baseDir);
if (cmd === 'status') {
  console.log(pid ? `running (pid ${pid})` : 'stopped');
  process.exit(pid ? 0 : 3);
}
if (cmd === 'stop') {
  await stopPid(pid);
  console.log('stopped');
} else if (pid) {
  console.log(`already running (pid ${pid})`);
} else {
  const saved = JSON.parse(fs.readFileSync(path.join(baseDir, 'node.json'), 'utf8'));
  const node = await startNode({ ...saved, baseDir, noWait: true });
  // The pid file appears once the JVM is up; a service manager reports the process it started.
  const started = await waitUntil('the node to write its pid file', () => nodePid(baseDir), Boolean, {
    timeoutMs: 60_000,
    intervalMs: 100,
  }).catch(() => node.pid);
  console.log(`started (pid ${started})`);
}
