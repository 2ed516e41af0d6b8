// Runs the BUILT CLI (dist/cli.js, the bundle operators get) as a child process.
// SHARDECK_CLI points at another build; otherwise dist/ is rebuilt when a source is newer than it.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const CLI = process.env.SHARDECK_CLI ?? path.resolve('dist/cli.js');

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
