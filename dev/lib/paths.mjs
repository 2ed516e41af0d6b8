// Where the dev harness keeps what it downloads and what it runs. Outside git, shared by the
// demo, `npm run es:start` and the test suite, so the distribution is downloaded once per machine.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Root's home is 0700, so the unprivileged Elasticsearch user could not read a cache there. */
export const cacheRoot =
  process.env.SHARDECK_DEV_CACHE ||
  (isRoot ? '/var/cache/shardeck-dev' : path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'shardeck-dev'));

export const runDir = path.join(cacheRoot, 'run');

export function ensureDir(dir, mode = 0o755) {
  fs.mkdirSync(dir, { recursive: true, mode });
  return dir;
}
