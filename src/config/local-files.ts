// Reading shardeck's own files so that a broken one (empty, cut short, not JSON, of the wrong
// types, a folder in its place, unreadable) ends the command with one sentence that names the file
// and what to do (exit 64: bad input, a file), never exit 70 with the parser's words. Nothing is
// rewritten here: a broken file is only ever moved aside (setAside), never overwritten.
import fs from 'node:fs';
import { brokenAsideName, readProblem } from '../domain/host/local-files';
import { shellPath } from '../domain/mutation/preview';
import { NotRegularFileError, readCapped } from '../boundary/files';
import { UsageError } from './files';

export class BrokenFileError extends UsageError {
  constructor(
    readonly file: string,
    problem: string,
    remedy: string,
  ) {
    super(`${file} ${problem}: ${remedy}`);
    this.name = 'BrokenFileError';
  }
}

/** The words that tell the operator to move a broken file aside, with the command that does it. */
export function moveAsideRemedy(file: string, after: string, now = new Date()): string {
  return `nothing was changed; fix it by hand, or move it aside (mv ${shellPath(file)} ${shellPath(brokenAsideName(file, now))}) and ${after}`;
}

/**
 * The text of one of shardeck's files, or null when it is not there. Never blocks (a FIFO), never
 * reads more than maxBytes (a longer file is refused, or with tail, a log, its last whole lines are
 * read); anything else in its place is a BrokenFileError with `remedy`.
 */
export function readLocalText(file: string, maxBytes: number, remedy: string, opts: { tail?: boolean } = {}): string | null {
  try {
    const r = readCapped(file, maxBytes, { tail: opts.tail });
    if (r.truncated && !opts.tail) throw new BrokenFileError(file, readProblem('TOO_BIG', `${r.size} bytes`), remedy);
    return r.truncated ? r.text.slice(r.text.indexOf('\n') + 1) : r.text;
  } catch (e) {
    if (e instanceof BrokenFileError) throw e;
    if (e instanceof NotRegularFileError)
      throw new BrokenFileError(file, readProblem(e.what === 'a folder' ? 'EISDIR' : 'NOT_REGULAR', e.what), remedy);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new BrokenFileError(file, readProblem(code), remedy);
  }
}

/** Moves a broken file (or folder) aside as <file>.broken-<time>; returns where it went. */
export function setAside(file: string, now = new Date()): string {
  const aside = brokenAsideName(file, now);
  fs.renameSync(file, aside);
  return aside;
}
