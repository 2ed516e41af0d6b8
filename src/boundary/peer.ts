// Who is on the other end of a Unix socket. Node's net module does not expose SO_PEERCRED, so on
// Linux the peer is found the way `ss -xp` does it: the socket's inode (/proc/self/fd/N ->
// socket:[inode]), its peer's inode from the kernel's socket diagnostics (`ss -x`, netlink
// UNIX_DIAG_PEER), and the process holding that inode (/proc/<pid>/fd), whose owner is the uid.
// A process of another user whose fds we may not read (we are not root) stays unknown: then the
// one-time join token decides. The walk is asynchronous and capped in time (PEER_SEARCH_MS): a host
// with many open files, or a follower that reconnects in a loop, never holds the leader's loop.
import fs from 'node:fs';
import type net from 'node:net';
import { runProgram } from './programs';

/** The longest the search for a peer's process may take; past it the peer is unknown (the token decides). */
export const PEER_SEARCH_MS = 2000;
/** Links read between two returns to the event loop (a readlink takes a few microseconds). */
const LINK_BATCH = 256;

export interface PeerIdentity {
  uid: number;
  pid: number;
}

function inodeOfFd(pid: number | 'self', fd: number | string): number | null {
  try {
    const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The peer inode of a local unix socket inode, from `ss -xH` ("u_str ESTAB 0 0 PATH LOCAL * PEER"). */
async function peerInode(local: number): Promise<number | null> {
  const r = await runProgram('/usr/bin/ss', ['-xH'], { env: {}, timeoutMs: 3000, keepBytes: 16 * 1024 * 1024 });
  if (!r.ok) return null;
  for (const line of r.output.split('\n')) {
    const f = line.trim().split(/\s+/);
    // ... LOCAL_ADDR LOCAL_INODE PEER_ADDR PEER_INODE: the last four fields.
    if (f.length >= 4 && Number(f[f.length - 3]) === local) return Number(f[f.length - 1]) || null;
  }
  return null;
}

async function processHolding(inode: number, deadline: number): Promise<PeerIdentity | null> {
  const self = String(process.pid);
  let all: string[];
  try {
    all = await fs.promises.readdir('/proc');
  } catch {
    return null;
  }
  // This process first: a follower may live in the leader's own process (tests, the benchmark).
  const pids = [self, ...all.filter((d) => /^\d+$/.test(d) && d !== self)];
  for (const d of pids) {
    if (performance.now() > deadline) return null;
    let fds: string[];
    try {
      fds = await fs.promises.readdir(`/proc/${d}/fd`);
    } catch {
      continue;
    }
    for (let i = 0; i < fds.length; i += LINK_BATCH) {
      if (performance.now() > deadline) return null;
      // Synchronous reads in short slices (the readdir above yielded too): far cheaper than a thread-pool call per link.
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      if (!fds.slice(i, i + LINK_BATCH).some((fd) => inodeOfFd(Number(d), fd) === inode)) continue;
      try {
        return { uid: (await fs.promises.stat(`/proc/${d}`)).uid, pid: Number(d) };
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The uid and pid of the process at the other end of an accepted socket; null when it cannot be read. */
export async function peerOf(socket: net.Socket, searchMs = PEER_SEARCH_MS): Promise<PeerIdentity | null> {
  if (process.platform !== 'linux') return null;
  const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return null;
  const local = inodeOfFd('self', fd);
  if (local === null) return null;
  const deadline = performance.now() + searchMs;
  const peer = await peerInode(local);
  return peer === null ? null : processHolding(peer, deadline);
}
