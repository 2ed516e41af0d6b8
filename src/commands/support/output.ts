// The one door from a command to the terminal. Every text a command prints (its output, its
// errors, previews, --json) goes through out()/err(), which pass it through the display
// sanitiser (domain/text/display-text.ts): a control character that came from the cluster, a file or a
// peer is shown as a visible \uXXXX escape, never written raw. JSON stays JSON with the same values.
//
// Our own colours (paint.ts) must survive that step while a name holding the same bytes must not:
// paint marks its colour changes with a tag random to this process (data cannot contain it), and
// only tagged marks become escape sequences here, after the text around them was sanitised.
import { randomBytes } from 'node:crypto';
import { displayBlock } from '../../domain/text/display-text';
import { inProcessRun } from './in-process';

const TAG = randomBytes(8).toString('hex');
const MARK = new RegExp(`\u0000${TAG}(\\d{1,3})\u0000`);

/** The mark paint() puts where the colour changes to SGR `code`. */
export function colourMark(code: number): string {
  return `\u0000${TAG}${code}\u0000`;
}

/** The text as the terminal gets it: sanitised, with paint's marks turned into colour. */
export function forTerminal(text: string): string {
  const parts = text.split(MARK);
  // split with one capture group: text, code, text, code, ...
  return parts.map((p, i) => (i % 2 ? `\u001b[${p}m` : displayBlock(p))).join('');
}

/** Set when the reader went away (`shardeck search ... | head`): the rest of the output has no
 *  one to go to. The command still runs to its end (a change half-done because its reader left
 *  would be worse), so its audit and exit code are its own. */
let readerGone = false;

export function out(text: string): void {
  const run = inProcessRun();
  if (run) run.write(forTerminal(text));
  else if (!readerGone) process.stdout.write(forTerminal(text));
}

export function err(text: string): void {
  const run = inProcessRun();
  if (run) run.write(forTerminal(text));
  else process.stderr.write(forTerminal(text));
}

/** Words read by a program, not a person: the completion scripts' `help --complete` lists, whose
 *  names must arrive exact to be completed (the scripts quote them: test/unit/completion-shell). */
export function outWords(words: readonly string[]): void {
  const text = words.map((w) => `${w}\n`).join('');
  const run = inProcessRun();
  if (run) run.write(displayBlock(text));
  else if (!readerGone) process.stdout.write(text);
}

/** Set when this run's connection does not verify TLS (common.ts announceInsecure): every --json
 *  object then carries `insecureTls: true`, so a script cannot miss it. */
let insecureTls = false;

export function markInsecureTls(): void {
  insecureTls = true;
}

function withTlsWarning(value: unknown): unknown {
  if (!insecureTls || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return { ...value, insecureTls: true };
}

/** A failure's JSON document, held until the exit code is known (flushJsonFailure). */
let pendingFailure: Record<string, unknown> | undefined;

/** One JSON document on stdout. A failure ({ ok: false }) is written when the command ends, with
 *  its exit code added, so every failure under --json is one object of one shape:
 *  { ok: false, error, code } (and whatever the command adds). */
export function outJson(value: unknown): void {
  if (value && typeof value === 'object' && (value as { ok?: unknown }).ok === false) pendingFailure = value as Record<string, unknown>;
  else out(JSON.stringify(withTlsWarning(value), null, 2) + '\n');
}

/** Called once by the entry point with the exit code: writes the failure held by outJson, or,
 *  when the command failed before printing one (a usage error, a crash) and --json was asked
 *  for, one of the same shape from `error`. */
export function flushJsonFailure(code: number, json: boolean, error?: string): void {
  const failure = pendingFailure ?? (json && code !== 0 && error !== undefined ? { ok: false, error } : undefined);
  pendingFailure = undefined;
  if (failure)
    out(
      JSON.stringify(withTlsWarning({ ...failure, ok: false, error: jsonErrorText(failure.error ?? error ?? 'failed'), code }), null, 2) +
        '\n',
    );
}

/** A closed pipe is not an error: no `write EPIPE` stack trace. Installed once by the entry point. */
export function quietOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    readerGone = true;
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

/** A failure's `error` as text: an Error as String() gives it, any other object (never expected) as its JSON, not "[object Object]". */
function jsonErrorText(e: unknown): string {
  if (typeof e === 'string') return e;
  if (e instanceof Error) return String(e);
  return JSON.stringify(e);
}
