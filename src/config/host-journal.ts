// The host-wide change journal: every guarded change of every user's shardeck on this host, one
// file per cluster and user in the cluster locks' shared sticky folder, so one operator's timeline
// shows the other's changes without either loosening its own 0600 config folder. A file is
// <cluster>.changes.<uid>.jsonl, 0644, owned by its writer (the sticky folder keeps others from
// replacing it); it holds only what a timeline shows (who, what, target, method and path, result),
// never a request body. A reader trusts a file only when its owner is the uid in its name and
// nobody else can write it, and names the user from that owner, not from what the file says.
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

/** Appends one line to this user's journal of the cluster; refuses a file (or link) another user planted. */
export function appendHostJournal(url: string, line: string): void {
  const file = hostJournalFile(url);
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW, 0o644);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.uid !== uid()) throw new Error(`${file} is not this user's own file: not written`);
    // The umask may have narrowed it (others could not read it) or someone widened it.
    if ((st.mode & 0o777) !== 0o644) fs.fchmodSync(fd, 0o644);
    fs.writeSync(fd, line.endsWith('\n') ? line : line + '\n');
  } finally {
    fs.closeSync(fd);
  }
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

/** Every user's journal of the cluster that can be trusted (see above); the others are skipped. */
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
      out.push({ uid: owner, user: userNameOf(owner), text: fs.readFileSync(fd, 'utf8') });
    } catch {
      // unreadable or gone: that user's changes are missing, the rest still shows
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }
  return out;
}
