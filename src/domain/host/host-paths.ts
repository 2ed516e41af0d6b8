// Whether a path on this host can be trusted by a root shardeck: every folder on the way is
// judged from its lstat (never following a link), so a user who can write one of them cannot
// swap what root writes, reads or runs. Pure: the walk itself is services/host-files.ts.

/** What lstat says of one path component (the fields that matter here). */
export interface PathStat {
  isSymbolicLink: boolean;
  isDirectory: boolean;
  isFile: boolean;
  uid: number;
  /** st_mode & 0o7777 (type bits dropped or kept: only permission bits are read). */
  mode: number;
}

const octal = (m: number) => (m & 0o7777).toString(8).padStart(4, '0');

/**
 * Why a folder on the way to a trusted path cannot be trusted, or null. It must be a real folder
 * (not a link), owned by one of `owners` (root, and the running user), and no one else may
 * rename its entries: not writable by group or others, unless sticky (/tmp: others may add
 * their own entries but not replace root's).
 */
export function untrustedFolder(p: string, st: PathStat, owners: number[]): string | null {
  if (st.isSymbolicLink) return `${p} is a symbolic link`;
  if (!st.isDirectory) return `${p} is not a folder`;
  if (!owners.includes(st.uid)) return `${p} belongs to another user (uid ${st.uid})`;
  if (st.mode & 0o022 && !(st.mode & 0o1000)) return `${p} can be written by others (mode ${octal(st.mode)})`;
  return null;
}

/** Why the last folder of a private place (backups) is not private to `uid`, or null: its own, mode 0700. */
export function notPrivateFolder(p: string, st: PathStat, uid: number): string | null {
  const bad = untrustedFolder(p, st, [uid]);
  if (bad) return bad;
  if (st.mode & 0o077) return `${p} can be opened by others (mode ${octal(st.mode)}; chmod 700 it if it is yours alone)`;
  return null;
}

/** Why a program root would run cannot be trusted, or null: a real file of root's that no one else can change. */
export function untrustedProgram(p: string, st: PathStat): string | null {
  if (st.isSymbolicLink) return `${p} is a symbolic link`;
  if (!st.isFile) return `${p} is not a file`;
  if (st.uid !== 0) return `${p} belongs to uid ${st.uid}, not root`;
  if (st.mode & 0o022) return `${p} can be written by others (mode ${octal(st.mode)})`;
  return null;
}

/** The folders from / down to `p` (absolute, normalised): ['/', '/var', '/var/backups', ...]. */
export function pathPrefixes(p: string): string[] {
  const parts = p.split('/').filter((x) => x && x !== '.');
  const out = ['/'];
  for (let i = 1; i <= parts.length; i++) out.push('/' + parts.slice(0, i).join('/'));
  return out;
}

/**
 * Whether `p` (already resolved: no `..`) is `root` itself or lies under it. Used to keep every
 * path of the data folder inside it after links are resolved.
 */
export function isInside(root: string, p: string): boolean {
  const r = root.replace(/\/+$/, '') || '/';
  return p === r || p.startsWith(r === '/' ? '/' : `${r}/`);
}

/** Where root's backups go by default: a root-only folder outside anything the engine's user owns. */
export const ROOT_BACKUP_DIR = '/var/backups/shardeck';

/**
 * The uid a process runs as, from its /proc/<pid>/status text: real, effective, saved and fs
 * uids must agree (a process between two users is nobody to act as); null otherwise.
 */
export function processUidOf(statusText: string): number | null {
  const m = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/m.exec(statusText);
  if (!m) return null;
  const ids = m.slice(1, 5).map(Number);
  return ids.every((x) => x === ids[0]) ? ids[0] : null;
}
