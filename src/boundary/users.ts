// Who a uid or a group is, as the system's user database says (getent: local files, LDAP alike).
// Names shown to the operator of files and records another user left come from here, never
// from the files' own text.
import { execFileSync } from 'node:child_process';

function getent(db: 'passwd' | 'group', key: string): string | null {
  try {
    // The system's own getent (a root-owned path, no input, no environment): it answers from the system's databases.
    return execFileSync('/usr/bin/getent', [db, key], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: {},
      timeout: 5000,
    }).trim();
  } catch {
    return null;
  }
}

/** The user name of a uid, or "uid N". */
export function userName(uid: number): string {
  return getent('passwd', String(uid))?.split(':')[0] || `uid ${uid}`;
}

/** "alice (uid 1000)", or "uid 1000" without a passwd entry: who owns a file, as the file system says. */
export function ownerName(uid: number): string {
  const name = userName(uid);
  return name === `uid ${uid}` ? name : `${name} (uid ${uid})`;
}

/** A group's id and member names; null when there is no such group. */
export function lookupGroup(name: string): { gid: number; members: string[] } | null {
  const line = getent('group', name);
  if (!line) return null;
  const [, , gid, members] = line.split(':');
  return { gid: Number(gid), members: (members ?? '').split(',').filter(Boolean) };
}

/** The primary group id of a uid, or null. */
export function primaryGid(uid: number): number | null {
  const line = getent('passwd', String(uid));
  const gid = Number(line?.split(':')[3]);
  return line !== null && Number.isFinite(gid) ? gid : null;
}
