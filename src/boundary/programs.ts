// The one place shardeck starts a program (test/unit/boundary.test.ts fails on a spawn anywhere
// else). Whatever it runs, as root or through runuser as the engine's user, starts in a session of
// its own (setsid: Node's `detached`) with no controlling terminal, stdin from /dev/null unless
// the caller feeds it, only the environment the caller built (nothing inherited), in its own
// process group that a timeout, an abort or shardeck's exit stops whole. Without a terminal, a
// program of another user cannot push input into root's (TIOCSTI on /dev/tty: ENXIO), which
// `runuser -u` alone allows (it keeps the caller's session; util-linux's runuser(1) says so).
import { spawn, type ChildProcess } from 'node:child_process';

export interface StartOptions {
  /** The whole environment of the program: nothing of shardeck's own is inherited. */
  env: Record<string, string>;
  /** 'pipe' when the caller writes the program's input (search_curl's body); /dev/null otherwise. */
  stdin?: 'null' | 'pipe';
  /** A descriptor the program writes its standard output to (tar into the archive shardeck opened); a pipe otherwise. */
  stdoutFd?: number;
  cwd?: string;
}

/** Every program started and not yet ended: its group is stopped when shardeck exits. */
const live = new Set<ChildProcess>();
let exitHook = false;

/** Signals the program's whole process group (what it started too); false when it is gone. */
export function signalGroup(child: ChildProcess, sig: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Starts a program under the rules above; the caller reads its streams and waits for `close`. */
export function startProgram(file: string, argv: string[], opts: StartOptions): ChildProcess {
  const child = spawn(file, argv, {
    stdio: [opts.stdin === 'pipe' ? 'pipe' : 'ignore', opts.stdoutFd ?? 'pipe', 'pipe'],
    env: opts.env,
    cwd: opts.cwd,
    detached: true,
  });
  live.add(child);
  child.on('close', () => live.delete(child));
  child.on('error', () => live.delete(child));
  if (!exitHook) {
    exitHook = true;
    // A detached group no longer gets the terminal's Ctrl-C: what shardeck started ends with it, as before.
    process.on('exit', () => {
      for (const c of live) signalGroup(c, 'SIGTERM');
    });
  }
  return child;
}

export interface ProgramResult {
  ok: boolean;
  exitCode: number | null;
  /** Its standard output and error as they came, the last `keepBytes` of it. */
  output: string;
  error?: string;
  /** It ran past its timeout and was stopped. */
  timedOut?: true;
}

export interface RunOptions extends StartOptions {
  onOutput?: (s: string) => void;
  /** Past it the program's whole group is stopped (SIGTERM, SIGKILL 5 s later) and it fails as `timedOut`. */
  timeoutMs?: number;
  /** How much output is kept for the caller to parse (4 MB). */
  keepBytes?: number;
}

/** Runs a program to its end (startProgram), streaming its output and keeping the last part of it. */
export function runProgram(file: string, argv: string[], opts: RunOptions): Promise<ProgramResult> {
  const keep = opts.keepBytes ?? 4_000_000;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = startProgram(file, argv, opts);
    } catch (e) {
      return resolve({ ok: false, exitCode: null, output: '', error: (e as Error).message });
    }
    let timedOut = false;
    let hardKill: NodeJS.Timeout | undefined;
    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            signalGroup(child, 'SIGTERM');
            hardKill = setTimeout(() => signalGroup(child, 'SIGKILL'), 5000);
          }, opts.timeoutMs)
        : undefined;
    let output = '';
    const take = (b: Buffer) => {
      const s = b.toString('utf8');
      output = (output + s).slice(-keep);
      opts.onOutput?.(s);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, exitCode: null, output, error: e.message });
    });
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
