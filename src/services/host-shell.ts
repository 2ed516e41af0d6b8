// Commands on the node's host (the corruption checklist's steps, the engine's service commands,
// its plugin tool): bash with pipefail, output streamed, an environment without secrets.
import { spawn } from 'node:child_process';
import { hostEnv, type HostSecrets } from '../domain/host-env';
import { hostTool, packageEsEnv } from './host-files';

export interface ShellResult {
  ok: boolean;
  exitCode: number | null;
  output: string;
  error?: string;
  /** It ran past its timeout and was stopped. */
  timedOut?: true;
}

/**
 * Runs one command with bash (pipefail; root's own /usr/bin/bash, never one found through PATH),
 * streaming its output; keeps the last 4 MB for parsing. Its environment is an allow-list
 * (domain/host-env.ts hostEnv): runuser, java and the service commands inherit it from bash.
 */
export function runShell(
  command: string,
  onOutput: (s: string) => void,
  secrets: HostSecrets,
  /** timeoutMs: past it the command's whole process group is stopped (SIGTERM, SIGKILL 5 s later) and it fails as `timedOut`. */
  opts: { timeoutMs?: number } = {},
): Promise<ShellResult> {
  let bash: string;
  let env: Record<string, string>;
  try {
    bash = hostTool('bash');
    env = hostEnv(process.env, packageEsEnv(), secrets);
  } catch (e) {
    return Promise.resolve({ ok: false, exitCode: null, output: '', error: (e as Error).message });
  }
  return new Promise((resolve) => {
    // With a timeout it leads a process group of its own, so what it started is stopped with it
    // (a hung service script's children would hold its output open, and run on, otherwise).
    const timed = opts.timeoutMs !== undefined;
    const child = spawn(bash, ['-o', 'pipefail', '-c', command], { stdio: ['ignore', 'pipe', 'pipe'], env, detached: timed });
    let timedOut = false;
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        // the group is gone already
      }
    };
    let hardKill: NodeJS.Timeout | undefined;
    const timer = timed
      ? setTimeout(() => {
          timedOut = true;
          signal('SIGTERM');
          hardKill = setTimeout(() => signal('SIGKILL'), 5000);
        }, opts.timeoutMs)
      : undefined;
    let output = '';
    const take = (b: Buffer) => {
      const s = b.toString('utf8');
      output = (output + s).slice(-4_000_000);
      onOutput(s);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => resolve({ ok: false, exitCode: null, output, error: e.message }));
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      clearTimeout(hardKill);
      if (timedOut)
        return resolve({
          ok: false,
          exitCode: null,
          output,
          timedOut: true,
          error: `did not end within ${Math.round(opts.timeoutMs! / 1000)} s and was stopped (SIGTERM to its process group)`,
        });
      resolve({
        ok: code === 0,
        exitCode: code,
        output,
        ...(code === 0 ? {} : { error: sig ? `killed by ${sig}` : `exit status ${code}` }),
      });
    });
  });
}
