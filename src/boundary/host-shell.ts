// Commands on the node's host (the corruption checklist's steps, the engine's service commands,
// its plugin tool): bash with pipefail, output streamed, an environment without secrets, started
// by the boundary (programs.ts): a session of its own, no terminal, stdin from /dev/null.
import { hostEnv, type HostSecrets } from '../domain/host/host-env';
import { hostTool, packageEsEnv } from './host-files';
import { runProgram, type ProgramResult } from './programs';

export type ShellResult = ProgramResult;

/**
 * Runs one command with bash (pipefail; root's own /usr/bin/bash, never one found through PATH),
 * streaming its output; keeps the last 4 MB for parsing. Its environment is an allow-list
 * (domain/host/host-env.ts hostEnv): runuser, java and the service commands inherit it from bash.
 * A `runuser -u` in the command gets no terminal of root's: the whole command has none.
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
  return runProgram(bash, ['-o', 'pipefail', '-c', command], { env, onOutput, timeoutMs: opts.timeoutMs });
}
