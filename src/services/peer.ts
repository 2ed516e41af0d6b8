// Who is on the other end of a Unix socket. Node's net module does not expose SO_PEERCRED, so on
// Linux the peer is found the way `ss -xp` does it: the socket's inode (/proc/self/fd/N ->
// socket:[inode]), its peer's inode from the kernel's socket diagnostics (`ss -x`, netlink
// UNIX_DIAG_PEER), and the process holding that inode (/proc/<pid>/fd), whose owner is the uid.
// A process of another user whose fds we may not read (we are not root) stays unknown: then the
// one-time join token decides.
import fs from 'node:fs';
import type net from 'node:net';
import { runProgram } from '../boundary/programs';

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

function processHolding(inode: number): PeerIdentity | null {
  // This process too: a follower may live in the leader's own process (tests, the benchmark).
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${d}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      if (inodeOfFd(Number(d), fd) === inode) {
        try {
          return { uid: fs.statSync(`/proc/${d}`).uid, pid: Number(d) };
        } catch {
          return null;
        }
      }
    }
  }
  return null;
}

/** The uid and pid of the process at the other end of an accepted socket; null when it cannot be read. */
export async function peerOf(socket: net.Socket): Promise<PeerIdentity | null> {
  if (process.platform !== 'linux') return null;
  const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return null;
  const local = inodeOfFd('self', fd);
  if (local === null) return null;
  const peer = await peerInode(local);
  return peer === null ? null : processHolding(peer);
}
