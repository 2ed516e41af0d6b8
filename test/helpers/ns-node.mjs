// A test node that runs "on another host": started by `unshare --pid --fork --mount-proc --mount
// --kill-child` (see nsNode in other-host.ts), so its pids are those of its own PID namespace and
// its path.data is a bind mount of a hidden folder, private to its mount namespace. Seen from
// the test (and from shardeck), the pid it reports is not its process and its path.data is
// whatever this host has at that path. The end of its stdin stops it.
// argv[2]: JSON { hidden, dataDir, startOptions } (startOptions go to startNode).
import { execFileSync } from 'node:child_process';
import { startNode } from '../../dev/lib/es-node.mjs';

const { hidden, dataDir, startOptions } = JSON.parse(process.argv[2]);
execFileSync('mount', ['--bind', hidden, dataDir]);
const node = await startNode({ ...startOptions, dataDir });
process.stdout.write(`started ${JSON.stringify({ url: node.url, baseDir: node.baseDir, pid: node.pid })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  node.stop().then(() => process.exit(0));
});
