// What shardeck reads on the node's host that the engine's user (or anyone but root) controls:
// its process's files under /proc, its data folders, its log, its options files. Every read is
// capped and never blocks (readCapped: O_NONBLOCK, a regular file only) and never follows a link
// at the last step where a link could be planted (the data folder, the log); folder listings are
// names only. None of it is run or trusted for identity: the callers parse it as data.
import fs from 'node:fs';
import { readCapped } from './files';

/** What /proc files of one process may hold at the most (an environment, a mount table). */
const PROC_CAP = 4 * 1024 * 1024;

/** One /proc/<pid>/<name> file (cmdline, status, environ, mountinfo), or null when gone or unreadable. */
export function procText(
  pid: number,
  name: 'cmdline' | 'status' | 'environ' | 'mountinfo',
  encoding: BufferEncoding = 'utf8',
): string | null {
  try {
    // /proc reports a size of 0: read through a descriptor up to the cap.
    const fd = fs.openSync(`/proc/${pid}/${name}`, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    try {
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const buf = Buffer.alloc(64 * 1024);
        const n = fs.readSync(fd, buf, 0, buf.length, null);
        if (n <= 0 || total >= PROC_CAP) break;
        chunks.push(buf.subarray(0, n));
        total += n;
      }
      return Buffer.concat(chunks).subarray(0, PROC_CAP).toString(encoding);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The files process `pid` has open (/proc/<pid>/fd links, read as text, never followed), or null when they cannot be read. */
export function procOpenFiles(pid: number): Set<string> | null {
  const dir = `/proc/${pid}/fd`;
  let fds: string[];
  try {
    fds = fs.readdirSync(dir);
  } catch {
    return null;
  }
  const out = new Set<string>();
  for (const fd of fds) {
    try {
      out.add(fs.readlinkSync(`${dir}/${fd}`));
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}

/** The program process `pid` executes (/proc/<pid>/exe, as the kernel says), or null. */
export function procExe(pid: number): string | null {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** The names in a folder (nothing opened but the folder), or null when it cannot be listed. */
export function folderNames(dir: string): string[] | null {
  try {
    return fs.readdirSync(dir);
  } catch {
    return null;
  }
}

/** Whether systemd runs this host (its sd_booted test): else no systemctl command can stop or start a service. */
export function systemdRunning(): boolean {
  return folderFacts('/run/systemd/system')?.isDirectory === true;
}

/** Whether something is at `p` itself (a link counts as itself, never followed). */
export function existsHere(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** A file's first `maxBytes` as text (no link followed, never blocking), or null. */
export function readHead(file: string, maxBytes: number, encoding: BufferEncoding = 'utf8'): string | null {
  try {
    return readCapped(file, maxBytes, { noFollow: true, encoding }).text;
  } catch {
    return null;
  }
}

/** A file's last `maxBytes` as text (a log: no link followed, never blocking), or null. */
export function readTail(file: string, maxBytes: number): string | null {
  try {
    return readCapped(file, maxBytes, { tail: true, noFollow: true }).text;
  } catch {
    return null;
  }
}

/** A folder's owner, group and mode after links (what the engine sees), or null; and the real path. */
export function folderFacts(dir: string): { real: string; uid: number; gid: number; mode: number; isDirectory: boolean } | null {
  try {
    const real = fs.realpathSync(dir);
    const st = fs.statSync(real);
    return { real, uid: st.uid, gid: st.gid, mode: st.mode, isDirectory: st.isDirectory() };
  } catch {
    return null;
  }
}

/** The uid a process runs as (the owner of /proc/<pid>), or null when it is gone or /proc is missing. */
export function procOwner(pid: number): number | null {
  try {
    return fs.statSync(`/proc/${pid}`).uid;
  } catch {
    return null;
  }
}
