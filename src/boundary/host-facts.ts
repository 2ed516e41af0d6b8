// The host's kernel settings the doctor judges (issue 41): the swap areas (/proc/swaps), vm.swappiness
// and vm.max_map_count. Read as text, capped and without blocking; parsed in domain/doctor/host.ts.
// /proc reports a size of 0, so readCapped (which reads up to the file's size) would read nothing:
// these are read through a descriptor up to a cap, as host-reads.ts reads a process's /proc files.
import fs from 'node:fs';

/** What one of these files may hold at the most (a swaps table of a few lines). */
const CAP = 64 * 1024;

/** The text of one kernel file, or null when it is not there or cannot be read. */
function kernelText(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < CAP) {
      const buf = Buffer.alloc(Math.min(16 * 1024, CAP - total));
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

export interface HostFactsText {
  /** /proc/swaps. */
  swaps: string | null;
  /** /proc/sys/vm/swappiness. */
  swappiness: string | null;
  /** /proc/sys/vm/max_map_count. */
  maxMapCount: string | null;
}

/** This host's swap areas, swappiness and max_map_count, as the kernel says them (null: not readable here). */
export function hostFacts(): HostFactsText {
  return {
    swaps: kernelText('/proc/swaps'),
    swappiness: kernelText('/proc/sys/vm/swappiness'),
    maxMapCount: kernelText('/proc/sys/vm/max_map_count'),
  };
}
