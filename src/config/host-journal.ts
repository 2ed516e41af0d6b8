// The host-wide change journal: every guarded change of every user's shardeck on this host, one
// file per cluster and user in the cluster locks' shared sticky folder. A file is
// <cluster>.changes.<uid>.jsonl, owned by its writer, 0600 (the sticky folder keeps others from
// replacing it); it holds only what a timeline shows (who, what, target, method and path, result),
// never a request body. Who reads whom (docs/THREATS.md): root reads every user's journal, so a
// root operator's timeline shows every change on the host; another user reads only its own (its
// changes are not shown to other users: what a user changed is not everyone's to read). A reader
// trusts a file only when its owner is the uid in its name and nobody else can write it, names the
// user from that owner, reads at most its last JOURNAL_MAX_BYTES, and treats every field in it as
// that user's claim (services/audit.ts). A writer rotates its journal past JOURNAL_MAX_BYTES.
import fs from 'node:fs';
import path from 'node:path';
import { clusterKey } from '../domain/timeline';
import { clusterLockDir } from './cluster-lock';

const uid = (): number => process.getuid?.() ?? -1;

function prefix(url: string): string {
  return `${clusterKey(url)}.changes.`;
}

export function hostJournalFile(url: string, owner = uid()): string {
  return path.join(clusterLockDir(), `${prefix(url)}${owner}.jsonl`);
}

/** A journal is read up to its last this many bytes, and its writer starts a new one past it. */
export const JOURNAL_MAX_BYTES = 4 * 1024 * 1024;

/** This user's own journal, open for appending; refuses a file (or link) another user planted. */
function openOwnJournal(file: string): { fd: number; size: number } {
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    0o600,
  );
  const st = fs.fstatSync(fd);
  if (!st.isFile() || st.uid !== uid()) {
    fs.closeSync(fd);
    throw new Error(`${file} is not this user's own file: not written`);
  }
  // Written by an older version (0644) or widened by someone: only its writer reads it.
  if ((st.mode & 0o777) !== 0o600) fs.fchmodSync(fd, 0o600);
  return { fd, size: st.size };
}

/** Appends one line to this user's journal of the cluster, rotating it (to <file>.1) past the cap. */
export function appendHostJournal(url: string, line: string): void {
  const file = hostJournalFile(url);
  const opened = openOwnJournal(file);
  let fd = opened.fd;
  try {
    if (opened.size >= JOURNAL_MAX_BYTES) {
      fs.closeSync(fd);
      fd = -1;
      // rename keeps the old part for a reader by hand; a .1 another user planted cannot be replaced (sticky): then it starts over.
      try {
        fs.renameSync(file, `${file}.1`);
      } catch {
        fs.truncateSync(file, 0);
      }
      fd = openOwnJournal(file).fd;
    }
    fs.writeSync(fd, line.endsWith('\n') ? line : line + '\n');
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}

/** The last `max` bytes of an open file, from the first whole line in them. */
function readTail(fd: number, size: number, max: number): string {
  const start = Math.max(0, size - max);
  const buf = Buffer.alloc(size - start);
  const n = fs.readSync(fd, buf, 0, buf.length, start);
  const text = buf.subarray(0, n).toString('utf8');
  return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
}

/** The user name of a uid from /etc/passwd (no libc call in node); the uid itself when none. */
export function userNameOf(owner: number): string {
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length > 2 && Number(f[2]) === owner && f[0]) return f[0];
    }
  } catch {
    // no passwd file: the uid says it
  }
  return `uid ${owner}`;
}

export interface HostJournal {
  uid: number;
  user: string;
  text: string;
}

/** Every user's journal of the cluster this user may read and trust (see above: root all, others their own); the rest are skipped. */
export function readHostJournals(url: string): HostJournal[] {
  let dir: string;
  let names: string[];
  try {
    dir = clusterLockDir();
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const p = prefix(url);
  const out: HostJournal[] = [];
  for (const name of names) {
    if (!name.startsWith(p)) continue;
    const m = /^(\d+)\.jsonl$/.exec(name.slice(p.length));
    if (!m) continue;
    const owner = Number(m[1]);
    let fd: number | undefined;
    try {
      fd = fs.openSync(path.join(dir, name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.uid !== owner || st.mode & 0o022) continue;
      out.push({ uid: owner, user: userNameOf(owner), text: readTail(fd, st.size, JOURNAL_MAX_BYTES) });
    } catch {
      // unreadable or gone: that user's changes are missing, the rest still shows
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }
  return out;
}
