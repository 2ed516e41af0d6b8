// Where the dev harness keeps what it downloads and what it runs. Outside git, shared by the
// demo, `npm run es:start` and the test suite, so the distribution is downloaded once per machine.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The system user the nodes run as under root (Elasticsearch refuses root). Overridable for test:fresh. */
export const ES_USER = process.env.SHARDECK_ES_USER || 'shardeck-es';

/** Root's home is 0700, so the unprivileged Elasticsearch user could not read a cache there. */
export const cacheRoot =
  process.env.SHARDECK_DEV_CACHE ||
  (isRoot ? '/var/cache/shardeck-dev' : path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'shardeck-dev'));

export const runDir = path.join(cacheRoot, 'run');

/**
 * Where test nodes get their folders. The test run's global set-up points SHARDECK_NODES_DIR at a
 * folder of its own, so its teardown removes exactly this run's nodes (others may run beside it).
 */
export const nodesRoot = () => process.env.SHARDECK_NODES_DIR || path.join(cacheRoot, 'nodes');

/**
 * mkdir -p whose modes survive the umask (under `umask 077` mkdir's mode alone would give 0700 and
 * lock the Elasticsearch user out): folders it creates get `mode`, missing parents 0755.
 */
export function ensureDir(dir, mode = 0o755) {
  dir = path.resolve(dir);
  if (fs.existsSync(dir)) return dir;
  const parent = path.dirname(dir);
  if (parent !== dir) ensureDir(parent, 0o755);
  try {
    fs.mkdirSync(dir, { mode });
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    return dir; // made meanwhile by someone else: theirs to mode
  }
  fs.chmodSync(dir, mode);
  return dir;
}

/** Lets others traverse (not list) `dir`, e.g. a 0700 folder made by mkdtemp or an old umask. */
export function makeTraversable(dir) {
  const mode = fs.statSync(dir).mode & 0o7777;
  if ((mode & 0o011) !== 0o011) fs.chmodSync(dir, mode | 0o011);
}
