// Where a shared console's socket lives: a runtime folder of this user (0700), or, to share with a
// group (--share-group), a folder of its own that the group may enter (0710, that group's). The
// socket itself is made 0600 or 0660 by the share server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lookupGroup as groupOf } from '../boundary/users';
import { UsageError } from './files';

function baseDir(): string {
  const xdg = process.env.XDG_RUNTIME_DIR;
  if (xdg) {
    try {
      const st = fs.statSync(xdg);
      if (st.isDirectory() && st.uid === process.getuid?.()) return xdg;
    } catch {
      // not there: the temp folder
    }
  }
  return os.tmpdir();
}

/** A group's id and member names (getent: local files, LDAP alike). */
export function lookupGroup(name: string): { gid: number; members: string[] } {
  const g = groupOf(name);
  if (!g)
    throw new UsageError(
      `--share-group "${name}" is not a group on this host: give a group the followers belong to (getent group NAME lists it)`,
    );
  return g;
}

export { userName, primaryGid } from '../boundary/users';

/**
 * The folder for this user's share sockets: <runtime>/shardeck-<uid> 0700, or with a group
 * <runtime>/shardeck-<uid>-g<gid>, 0710 and owned by that group (its members may reach the socket,
 * nobody may list or plant files). An existing folder with other modes or owner is refused.
 */
export function shareDir(group?: { gid: number }): string {
  const uid = process.getuid?.() ?? 0;
  // The user's runtime folder (/run/user/<uid>) is 0700: a group's members could not reach a socket
  // inside it, so a group share lives in the temp folder (sticky), in a folder only we own.
  const dir = group ? path.join(os.tmpdir(), `shardeck-${uid}-g${group.gid}`) : path.join(baseDir(), `shardeck-${uid}`);
  const mode = group ? 0o710 : 0o700;
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { mode });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid) throw new UsageError(`${dir} is not a folder of yours: remove it, then share again`);
  if (group && st.gid !== group.gid) fs.chownSync(dir, uid, group.gid);
  if ((st.mode & 0o777) !== mode) fs.chmodSync(dir, mode);
  return dir;
}

/** A share folder `follow` trusts: a real folder (not a link) owned by this user, mode 0700 or 0710 (nobody else may add a file). */
export function trustedShareDir(st: fs.Stats, uid: number): boolean {
  const mode = st.mode & 0o7777;
  return st.isDirectory() && st.uid === uid && (mode === 0o700 || mode === 0o710);
}

/** This user's share sockets, newest first (what `shardeck follow` without a path joins). */
export function listShareSockets(): string[] {
  const uid = process.getuid?.() ?? 0;
  const out: { file: string; mtime: number }[] = [];
  const dirs = [
    path.join(baseDir(), `shardeck-${uid}`),
    ...fs
      .readdirSync(os.tmpdir())
      .filter((d) => d.startsWith(`shardeck-${uid}-g`))
      .map((d) => path.join(os.tmpdir(), d)),
  ];
  for (const d of dirs) {
    try {
      // Only a folder this user made as the leader does (0700, or 0710 for a group): a folder
      // another user planted under our name would collect the join token a follower sends.
      if (!trustedShareDir(fs.lstatSync(d), uid)) continue;
      for (const f of fs.readdirSync(d)) {
        const file = path.join(d, f);
        const st = fs.lstatSync(file);
        if (st.isSocket() && st.uid === uid) out.push({ file, mtime: st.mtimeMs });
      }
    } catch {
      // unreadable: skipped
    }
  }
  return out.sort((a, b) => b.mtime - a.mtime).map((x) => x.file);
}
