// A file written where the operator said (--out), often as root in a folder others can write: a
// new file created exclusively, or an existing one only when it is a regular file of the running
// user with one name. Another user's file is never written into: they could read what root wrote.
import fs from 'node:fs';
import { ownerName } from './users';

/** The file at the operator's path may not be written: nothing was written. */
export class OperatorFileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorFileRefused';
  }
}

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

function kindOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a folder';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Why an existing file may not be rewritten by this user, or null. */
function refusalOf(file: string, st: fs.Stats, uid: number): string | null {
  if (!st.isFile()) return `${file} is ${kindOf(st)}: nothing was written; give the path of a regular file or a new one`;
  if (st.uid !== uid)
    return `${file} belongs to ${ownerName(st.uid)}, not to you: nothing was written (its owner could read it); remove it (as its owner or root) or give a new path`;
  if (st.nlink > 1) return `${file} has ${st.nlink} names (a hard link): nothing was written; remove it or give another path`;
  return null;
}

/** Creates `file` 0600 (O_EXCL), or returns null when something is there already. */
function createNew(file: string): number | null {
  try {
    const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o600);
    fs.fchmodSync(fd, 0o600); // the umask only narrows; explicit all the same
    return fd;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw e;
  }
}

/**
 * Opens the file already at `file` for rewriting: judged by lstat before it is opened (a FIFO or a
 * device is never opened), then the descriptor checked to be that same file. Null when it vanished.
 */
function openOwn(file: string, uid: number): number | null {
  let before: fs.Stats;
  try {
    before = fs.lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const why = refusalOf(file, before, uid);
  if (why) throw new OperatorFileRefused(why);
  let fd: number;
  try {
    fd = fs.openSync(file, O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP' || code === 'ENXIO')
      throw new OperatorFileRefused(`${file} was replaced while it was opened: nothing was written; try again`);
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    const again = refusalOf(file, st, uid);
    if (again) throw new OperatorFileRefused(again);
    if (st.ino !== before.ino || st.dev !== before.dev)
      throw new OperatorFileRefused(`${file} was replaced while it was opened: nothing was written; try again`);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Writes `content` to `file`, 0600: a new file (O_CREAT|O_EXCL|O_NOFOLLOW), or an existing regular
 * file of the running user with one name, truncated and rewritten. Anything else is refused with
 * OperatorFileRefused (its owner named), and nothing is written.
 */
export function writeOperatorFileExclusive(file: string, content: string): void {
  const uid = process.geteuid?.() ?? process.getuid?.() ?? 0;
  let fd: number | null = null;
  // A file removed between the two opens is created on the next round; a few rounds at most.
  for (let round = 0; fd === null && round < 3; round++) fd = createNew(file) ?? openOwn(file, uid);
  if (fd === null) throw new OperatorFileRefused(`${file} keeps appearing and disappearing: nothing was written; give another path`);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.ftruncateSync(fd, 0);
    fs.writeFileSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}
