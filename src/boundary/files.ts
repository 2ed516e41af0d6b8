// Reading what another user owns or could replace: never following a link at the last step,
// never blocking (a FIFO, a device), a regular file only, capped, its owner from the same open
// descriptor. The one way shardeck reads a file of the engine's user, a record another operator
// left, the node's log or a CA file (test/unit/boundary.test.ts).
import fs from 'node:fs';

/** Something other than a regular file where one was expected (a FIFO, a device, a folder). */
export class NotRegularFileError extends Error {
  constructor(
    readonly file: string,
    readonly what: string,
    readonly owner: number,
  ) {
    super(`${file} is not a regular file (${what})`);
    this.name = 'NotRegularFileError';
  }
}

function kindOf(st: fs.Stats): string {
  return st.isFIFO()
    ? 'a FIFO'
    : st.isDirectory()
      ? 'a folder'
      : st.isSocket()
        ? 'a socket'
        : st.isCharacterDevice() || st.isBlockDevice()
          ? 'a device'
          : 'not a regular file';
}

/**
 * Reads a file that someone else may have replaced, without ever blocking: O_NONBLOCK (a FIFO
 * does not wait for a writer), a regular file only (NotRegularFileError, with its owner), at most
 * maxBytes: its first, or with tail its last (truncated says so). noFollow: a symbolic link is
 * refused (ELOOP) instead of followed. Other errors (ENOENT, EACCES) are thrown as they are.
 */
export function readCapped(
  file: string,
  maxBytes: number,
  opts: { tail?: boolean; noFollow?: boolean; encoding?: BufferEncoding } = {},
): { text: string; size: number; truncated: boolean; owner: number } {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (opts.noFollow ? fs.constants.O_NOFOLLOW : 0));
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(file, kindOf(st), st.uid);
    const len = Math.min(st.size, maxBytes);
    const buf = Buffer.alloc(len);
    const n = len ? fs.readSync(fd, buf, 0, len, opts.tail ? st.size - len : 0) : 0;
    return { text: buf.subarray(0, n).toString(opts.encoding ?? 'utf8'), size: st.size, truncated: st.size > maxBytes, owner: st.uid };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A file the operator named (--query-file): read as one another user could have replaced (in
 * /tmp: non-blocking, a regular file only, at most maxBytes); '-' is standard input where `dashIsStdin`. Throws with
 * the errno `code`, or NotRegularFileError, or an Error whose `code` says it is too large.
 */
export function readNamedFile(file: string, opts: { dashIsStdin?: boolean } = {}, maxBytes = 64 * 1024 * 1024): string {
  if (file === '-' && opts.dashIsStdin) return fs.readFileSync(0, 'utf8');
  const r = readCapped(file, maxBytes);
  if (r.truncated) throw Object.assign(new Error(`larger than ${maxBytes} bytes`), { code: `larger than ${maxBytes >> 20} MB` });
  return r.text;
}
