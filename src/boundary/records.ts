// Records in the shared change-lock folder (sticky, every user may add a file): what shardeck
// writes there and what it reads back that another operator, or anyone, left. A record is
// written exclusively (a new temp file, O_EXCL|O_NOFOLLOW, 0600, its owner checked on the open
// descriptor) and renamed into place, so no planted link or file is ever written through. What
// is read is named by its owner from the file system; the caller shows another user's record
// with that owner and acts on it only when the operator chooses it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readCapped } from './files';
import { ownerName } from './users';

const myUid = (): number => process.getuid?.() ?? 0;

/** Writes `file` (in a folder others can write) as a new 0600 file of this user, atomically. Throws when it cannot. */
export function writeRecordFile(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.uid !== myUid()) throw new Error(`${tmp} is not a new file of this user: nothing written`);
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  } finally {
    fs.closeSync(fd);
  }
  try {
    // rename replaces a link at `file` itself, never follows it; in a sticky folder another user's file there is refused (EPERM).
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** A record file as found: whose it is (the file system's owner), and its text when it could be trusted. */
export interface FoundRecord {
  name: string;
  file: string;
  /** The owner's uid, from the file system (name it with users.ts ownerName). */
  owner: number;
  mine: boolean;
  /** Its text: a regular file (no link, no FIFO), owned by the uid its name claims, not writable by others, within the cap. */
  text: string | null;
  /** Why the text is null ("not readable by you", "owned by uid 0, not 1001"). */
  why?: string;
}

/** The names in a shared folder that `test` accepts (nothing opened): whether there is anything to read at all. */
export function recordNames(dir: string, test: (name: string) => boolean): string[] {
  try {
    return fs.readdirSync(dir).filter(test);
  } catch {
    return [];
  }
}

/**
 * The records of a shared folder whose names match `nameOwner` (which returns the uid the name
 * claims, or null for other files). Never follows a link, never blocks, reads at most `maxBytes`:
 * a longer record is not trusted, or with `tail` (a journal) its last whole lines are read.
 */
export function readRecordFiles(
  dir: string,
  nameOwner: (name: string) => number | null,
  maxBytes: number,
  opts: { tail?: boolean } = {},
): FoundRecord[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: FoundRecord[] = [];
  for (const name of names) {
    const claimed = nameOwner(name);
    if (claimed === null) continue;
    const file = path.join(dir, name);
    let owner: number;
    try {
      owner = fs.lstatSync(file).uid;
    } catch {
      continue; // gone meanwhile
    }
    const found: FoundRecord = { name, file, owner, mine: owner === myUid(), text: null };
    try {
      const r = readCapped(file, maxBytes, { noFollow: true, tail: opts.tail });
      const mode = fs.lstatSync(file).mode & 0o777;
      if (r.owner !== claimed) found.why = `owned by ${ownerName(r.owner)}, not by the uid ${claimed} its name claims`;
      else if (r.truncated && !opts.tail) found.why = `over ${maxBytes} bytes`;
      else if (mode & 0o022) found.why = 'writable by others';
      else found.text = r.truncated ? r.text.slice(r.text.indexOf('\n') + 1) : r.text;
      found.owner = r.owner;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      found.why = code === 'EACCES' ? 'not readable by you' : code === 'ELOOP' ? 'a symbolic link' : (e as Error).message;
    }
    out.push(found);
  }
  return out;
}

/** Removes a record of this user's own (or any, as root); false when it is not this user's to remove. */
export function removeRecordFile(file: string, owner: number): boolean {
  const uid = myUid();
  if (uid !== 0 && owner !== uid) return false;
  try {
    const st = fs.lstatSync(file);
    // What is there now must still be the record judged (its owner), not something put in its place.
    if (st.uid !== owner) return false;
    fs.rmSync(file, { force: true });
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return true;
    if (code === 'EPERM' || code === 'EACCES') return false;
    throw e;
  }
}

/** This user's own file in a shared folder, opened to append: refused when a file or link of another user is in its place. */
function openOwnAppend(file: string): { fd: number; size: number } {
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    0o600,
  );
  const st = fs.fstatSync(fd);
  if (!st.isFile() || st.uid !== myUid()) {
    fs.closeSync(fd);
    throw new Error(`${file} is not this user's own file: not written`);
  }
  // Written by an older version (0644) or widened by someone: only its writer reads it.
  if ((st.mode & 0o777) !== 0o600) fs.fchmodSync(fd, 0o600);
  return { fd, size: st.size };
}

/** Appends one line to this user's own file in a shared folder (a journal), starting it over (the old part as <file>.1) past `maxBytes`. */
export function appendOwnRecordLine(file: string, line: string, maxBytes: number): void {
  const opened = openOwnAppend(file);
  let fd = opened.fd;
  try {
    if (opened.size >= maxBytes) {
      fs.closeSync(fd);
      fd = -1;
      // rename keeps the old part for a reader by hand; a .1 another user planted cannot be replaced (sticky): then it starts over.
      try {
        fs.renameSync(file, `${file}.1`);
      } catch {
        fs.truncateSync(file, 0);
      }
      fd = openOwnAppend(file).fd;
    }
    fs.writeSync(fd, line.endsWith('\n') ? line : line + '\n');
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}
