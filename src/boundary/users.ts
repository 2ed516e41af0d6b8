// Who a uid or a group is, as the system's user database says (getent: local files, LDAP alike).
// Names shown to the operator of files and records another user left come from here, never
// from the files' own text.
import { execFileSync } from 'node:child_process';
import { readCapped } from './files';

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

/** The system's own user list (/etc/passwd: root's, world-readable), capped; "" when unreadable. */
function passwd(): string {
  try {
    return readCapped('/etc/passwd', 16 * 1024 * 1024).text;
  } catch {
    return '';
  }
}

/** The name of a uid from /etc/passwd (no getent needed), or null. */
export function passwdName(uid: number): string | null {
  const line = passwd()
    .split('\n')
    .find((l) => l.split(':')[2] === String(uid));
  return line ? line.split(':')[0] : null;
}

/** The uid of a user name from /etc/passwd, or null. */
export function passwdUid(name: string): number | null {
  const line = passwd()
    .split('\n')
    .find((l) => l.split(':')[0] === name);
  return line ? Number(line.split(':')[2]) : null;
}

/** The name of a gid from /etc/group, or null. */
export function groupName(gid: number): string | null {
  let text: string;
  try {
    text = readCapped('/etc/group', 16 * 1024 * 1024).text;
  } catch {
    return null;
  }
  const line = text.split('\n').find((l) => l.split(':')[2] === String(gid));
  return line ? line.split(':')[0] : null;
}
