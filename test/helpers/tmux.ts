// Real terminals for the end-to-end tests: a tmux server of the test's own, sessions of a given size
// running one command each, their screens and the keys typed into them.
//
// One trap is closed here rather than in each test: Escape and the key typed after it, when the
// console reads them together (a loaded machine), arrive as one Alt-key and neither does what the
// test meant (seen in CI twice: Escape then q quit nothing; Escape then ':' never opened the line).
// So a key after Escape is refused until the test has waited for the screen in between.
import { execFileSync } from 'node:child_process';
import { CLI } from './run-cli';
import { waitUntil } from './wait-until';

/** The built CLI with `args`, as an operator's terminal runs it: colour decided by the terminal alone; `env` (NAME=value ...) added. */
export const shardeckCommand = (args: string, env = ''): string => `env -u CI -u NO_COLOR -u FORCE_COLOR ${env} node ${CLI} ${args}`;

export class Terminals {
  private readonly socket: string;
  /** Sessions whose last key was Escape and whose screen has not been waited for since. */
  private readonly escapePending = new Set<string>();

  /** `waitMs` is waitFor's default patience. */
  constructor(
    name: string,
    private readonly waitMs = 20_000,
  ) {
    this.socket = `${name}-${process.pid}`;
  }

  tmux = (...args: string[]): string => execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });

  /** Runs `command` in a new session of cols x rows; the shell prints EXIT=code after it and keeps the pane. */
  start = (session: string, command: string, [cols, rows]: [number, number] = [80, 23]): void => {
    this.tmux('new-session', '-d', '-s', session, '-x', String(cols), '-y', String(rows), `${command}; echo EXIT=$?; sleep 600`);
  };

  /** What the session shows; with ansi, its colours as SGR sequences. */
  screen = (session: string, ansi = false): string => this.tmux('capture-pane', '-p', ...(ansi ? ['-e'] : []), '-t', session);

  /** The screen once `test` holds on it (polled every 200 ms), or an error naming `what` and the last screen. */
  waitFor = async (session: string, test: (s: string) => boolean, what: string, timeoutMs = this.waitMs): Promise<string> => {
    const seen = await waitUntil(what, () => this.screen(session), test, { timeoutMs, intervalMs: 200 });
    this.escapePending.delete(session);
    return seen;
  };

  /** Types keys: tmux key names, or text after '-l'. */
  keys = (session: string, ...k: string[]): void => {
    const escapeAt = k[0] === '-l' ? -1 : k.indexOf('Escape');
    if (this.escapePending.has(session) || (escapeAt >= 0 && escapeAt < k.length - 1))
      throw new Error(
        `a key right after Escape in session ${session}: read together they are one Alt-key; wait for the screen after Escape first`,
      );
    this.tmux('send-keys', '-t', session, ...k);
    if (escapeAt >= 0) this.escapePending.add(session);
  };

  close = (): void => {
    try {
      this.tmux('kill-server');
    } catch {
      // no session left
    }
  };
}
