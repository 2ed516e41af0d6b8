// Runs the BUILT CLI (dist/cli.js, the bundle operators get) as a child process.
// SHARDECK_CLI points at another build; otherwise dist/ (or SHARDECK_DIST, a build folder of one's
// own) is rebuilt when a source is newer than it.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileTempDir } from './file-temp';

export const CLI = process.env.SHARDECK_CLI ?? path.resolve(process.env.SHARDECK_DIST ?? 'dist', 'cli.js');

export function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** `npm run build` unless dist/cli.js is newer than every file under src/. */
export function ensureBuilt(): void {
  if (process.env.SHARDECK_CLI) return;
  const built = fs.existsSync(CLI) ? fs.statSync(CLI).mtimeMs : 0;
  if (built > newestMtime(path.resolve('src'))) return;
  execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

let readableCopy: string | undefined;

/**
 * The built CLI for a test that runs it as ANOTHER OS user: a root-owned copy of dist/'s bundle in a
 * folder every user can read (0755, files 0644, modes set explicitly). A clone made under umask 077
 * is 0700, so that user could not read dist/cli.js itself and the test would fail for the wrong
 * reason. Made once per test file, removed after it (fileTempDir).
 */
export function cliForOtherUsers(): string {
  if (readableCopy) return readableCopy;
  ensureBuilt();
  const dir = fileTempDir('shardeck-cli-');
  fs.chmodSync(dir, 0o755);
  const put = (name: string, content: string | Buffer) => {
    fs.writeFileSync(path.join(dir, name), content, { mode: 0o644, flag: 'wx' });
    fs.chmodSync(path.join(dir, name), 0o644);
  };
  // The bundle is ESM in .js files: outside the repo it needs its own package.json to say so.
  put('package.json', '{"type":"module"}\n');
  const dist = path.dirname(CLI);
  for (const f of fs.readdirSync(dist)) if (f.endsWith('.js')) put(f, fs.readFileSync(path.join(dist, f)));
  readableCopy = path.join(dir, path.basename(CLI));
  return readableCopy;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return runProcess([process.execPath, CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...opts.env }, input: opts.input });
}

/** Runs argv to its end with exactly `env` (default: this process's), stdin from `input`. */
export function runProcess(argv: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
