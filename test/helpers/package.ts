// The packaged shardeck (npm run package): built when missing or older than a source, and run the
// way a storage node would run it: in a mount namespace where every node/npm of this machine is
// hidden (an empty file or folder bind-mounted over it), the executable's folder read-only, and an
// empty environment (env -i). Needs root (unshare -m, mount).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { newestMtime, runProcess } from './run-cli';
import { fileTempDir } from './file-temp';

export const EXE = path.resolve('dist/shardeck-linux-x64');
const VERSION = JSON.parse(fs.readFileSync('package.json', 'utf8')).version as string;
export const DEB = path.resolve(`dist/shardeck_${VERSION}_amd64.deb`);
export const isRoot = process.getuid?.() === 0;

/** `npm run package` unless both files are newer than every source (src/, the package script). */
export function ensurePackaged(): void {
  const sources = Math.max(newestMtime(path.resolve('src')), newestMtime(path.resolve('dev/sea')), fs.statSync('dev/package.mjs').mtimeMs);
  const built = Math.min(...[EXE, DEB].map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)));
  if (built > sources) return;
  execFileSync('npm', ['run', '-s', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

const NODE_NAMES = ['node', 'nodejs', 'npm', 'npx', 'corepack', 'bun', 'deno'];
const NODE_HOMES = [
  '/usr/lib/node_modules',
  '/usr/local/lib/node_modules',
  '/usr/share/nodejs',
  '/root/.nvm',
  '/usr/local/nvm',
  '/root/.volta',
  '/opt/node',
  '/opt/nodejs',
];

/** Every node/npm executable this machine has (on PATH, in the usual folders, nvm's), by real path. */
export function nodesOnMachine(): { files: string[]; dirs: string[] } {
  const where = [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/bin',
    '/usr/local/bin',
    '/bin',
    '/usr/sbin',
    '/usr/local/sbin',
    '/opt',
    '/root/.nvm',
    '/root/.local/bin',
    '/home',
  ];
  const dirs = [...new Set(where.filter((d) => d && fs.existsSync(d)).map((d) => fs.realpathSync(d)))];
  const found = execFileSync(
    'find',
    [
      ...dirs,
      '-maxdepth',
      '7',
      '(',
      ...NODE_NAMES.flatMap((n, i) => (i ? ['-o', '-name', n] : ['-name', n])),
      ')',
      '(',
      '-type',
      'f',
      '-o',
      '-type',
      'l',
      ')',
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
    .split('\n')
    .filter(Boolean);
  const files = [...new Set(found.filter((f) => fs.existsSync(f)).map((f) => fs.realpathSync(f)))].filter((f) => fs.statSync(f).isFile());
  return { files, dirs: NODE_HOMES.filter((d) => fs.existsSync(d)).map((d) => fs.realpathSync(d)) };
}

/**
 * argv that runs `command` (with exactly `env`) in a new mount namespace where every node is hidden
 * and `readOnly` folders cannot be written.
 */
export function hiddenNodeArgv(command: string[], env: Record<string, string>, readOnly: string[] = [path.dirname(EXE)]): string[] {
  const { files, dirs } = nodesOnMachine();
  const scratch = fileTempDir('shardeck-nonode-');
  const emptyFile = path.join(scratch, 'empty');
  const emptyDir = path.join(scratch, 'empty.d');
  fs.writeFileSync(emptyFile, '');
  fs.mkdirSync(emptyDir);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script = [
    'set -e',
    ...files.map((f) => `mount --bind ${q(emptyFile)} ${q(f)}`),
    ...dirs.map((d) => `mount --bind ${q(emptyDir)} ${q(d)}`),
    ...readOnly.flatMap((d) => [`mount --bind ${q(d)} ${q(d)}`, `mount -o remount,bind,ro ${q(d)}`]),
    'exec env -i "$@"',
  ].join('\n');
  return [
    'unshare',
    '--mount',
    '--propagation',
    'private',
    'sh',
    '-c',
    script,
    'sh',
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    ...command,
  ];
}

export const run = (argv: string[], input = '') => runProcess(argv, { input });
