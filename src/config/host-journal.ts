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
import { appendOwnRecordLine, readRecordFiles } from '../boundary/records';
import { passwdName } from '../boundary/users';
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

/** Appends one line to this user's journal of the cluster, rotating it (to <file>.1) past the cap. */
export function appendHostJournal(url: string, line: string): void {
  appendOwnRecordLine(hostJournalFile(url), line, JOURNAL_MAX_BYTES);
}

/** The user name of a uid from /etc/passwd (no libc call in node); the uid itself when none. */
export function userNameOf(owner: number): string {
  return passwdName(owner) || `uid ${owner}`;
}

export interface HostJournal {
  uid: number;
  user: string;
  text: string;
}

/** Every user's journal of the cluster this user may read and trust (see above: root all, others their own); the rest are skipped. */
export function readHostJournals(url: string): HostJournal[] {
  let dir: string;
  try {
    dir = clusterLockDir();
  } catch {
    return [];
  }
  const p = prefix(url);
  const nameOwner = (name: string): number | null => {
    const m = name.startsWith(p) ? /^(\d+)\.jsonl$/.exec(name.slice(p.length)) : null;
    return m ? Number(m[1]) : null;
  };
  // Unreadable (another user's, for a non-root reader), untrusted or gone: that user's changes are missing, the rest still shows.
  return readRecordFiles(dir, nameOwner, JOURNAL_MAX_BYTES, { tail: true }).flatMap((f) =>
    f.text === null ? [] : [{ uid: f.owner, user: userNameOf(f.owner), text: f.text }],
  );
}
