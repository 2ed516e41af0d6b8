// Where shardeck keeps its files, and the file modes that keep secrets private.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NotRegularFileError, readCapped } from '../boundary/files';
import { procOwner } from '../boundary/host-reads';
import { ownerName } from '../boundary/users';

/** SHARDECK_CONFIG_DIR wins (tests, several operators on one node); otherwise XDG like conf. */
export function configDir(): string {
  if (process.env.SHARDECK_CONFIG_DIR) return path.resolve(process.env.SHARDECK_CONFIG_DIR);
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'shardeck');
}

/** Bad input (flags, environment, files the operator points at): one sentence, exit 64. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export class InsecureDirError extends UsageError {
  constructor(
    readonly dir: string,
    why: string,
  ) {
    super(
      `${dir} ${why}, so shardeck will not keep its audit log and secrets there: point SHARDECK_CONFIG_DIR at a folder of your own that only you can open (a new path is created with mode 0700)`,
    );
    this.name = 'InsecureDirError';
  }
}

/**
 * Creates the config directory 0700. An existing one that group or others can open, or that
 * another user owns, is refused rather than chmod-ed: it may be a shared folder such as /tmp
 * (chmod would break it for everyone, and files already in it may have been read or planted).
 */
export function ensurePrivateDir(dir = configDir()): string {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (!st) {
    // mkdir's mode is masked by the umask, never widened by it: 0700 under umask 022 and 000 alike.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    st = fs.statSync(dir);
  }
  if (!st.isDirectory()) throw new InsecureDirError(dir, 'is not a folder');
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new InsecureDirError(dir, `belongs to another user (uid ${st.uid})`);
  const mode = st.mode & 0o777;
  if (mode & 0o077)
    throw new InsecureDirError(
      dir,
      `can be opened by others (mode ${mode.toString(8).padStart(4, '0')}; run chmod 700 on it if it is yours alone)`,
    );
  return dir;
}

export class InsecureFileError extends Error {
  constructor(
    readonly file: string,
    readonly mode: number,
  ) {
    super(
      `${file} holds secrets but can be read by others (mode ${mode.toString(8).padStart(4, '0')}): run chmod 600 ${JSON.stringify(file)} (and chmod 700 on its directory), then try again`,
    );
    this.name = 'InsecureFileError';
  }
}

/**
 * Refuses a secrets file that group or others can read or write. Refused, not tightened: a
 * token that was readable may already have been copied, and the operator has to know that.
 */
export function assertPrivateFile(file: string): void {
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) throw new InsecureFileError(file, mode);
}

/**
 * Makes an open file 0600 whatever mode it had (one left 0644 by an older version or by hand).
 * For files that are private but not secret (audit log, config.json): tightening loses nothing.
 */
function tightenOpenFile(fd: number): void {
  if ((fs.fstatSync(fd).mode & 0o777) !== 0o600) fs.fchmodSync(fd, 0o600);
}

/** Tightens an existing private (not secret) file to 0600; a missing file is fine. */
export function tightenPrivateFile(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    tightenOpenFile(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function uniqueSuffix(): string {
  return `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
}

/** Writes a secrets file atomically (temp file 0600 + rename), so a crash never leaves half a token. */
export function writePrivateFileAtomic(file: string, content: string): void {
  ensurePrivateDir(path.dirname(file));
  const tmp = `${file}.${uniqueSuffix()}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    tightenOpenFile(fd);
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** Creates a new 0600 file (never over one that exists: EEXIST) holding `content`. */
export function createPrivateFile(file: string, content: string): void {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    tightenOpenFile(fd);
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Appends one line to a 0600 file (the audit log, the timeline), tightening it if it was left
 * wider. `durable`: on the disk before this returns (fsync), for a record that must survive a
 * crash of the host between it and the request it announces (the audit record).
 */
export function appendPrivateLine(file: string, line: string, { durable = false }: { durable?: boolean } = {}): void {
  ensurePrivateDir(path.dirname(file));
  // a+: appends, and reads the last byte: a line left torn by a crash (no line break) would
  // otherwise be glued to this one, and both lost to the reader.
  const fd = fs.openSync(file, 'a+', 0o600);
  try {
    tightenOpenFile(fd);
    const size = fs.fstatSync(fd).size;
    const last = Buffer.alloc(1);
    const torn = size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    // One write: concurrent appenders (O_APPEND) never interleave inside a line.
    fs.writeSync(fd, (torn ? '\n' : '') + (line.endsWith('\n') ? line : line + '\n'));
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether the process a lock names is alive AND belongs to the lock file's owner: a pid written by
 * someone else (pid 1, another user's process: EPERM) does not keep a lock alive.
 */
export function holderAlive(pid: number, owner?: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner === undefined) return true;
  const running = procOwner(pid);
  // No /proc (not Linux): the signal's answer stands.
  return running === null ? process.platform !== 'linux' : running === owner;
}

/** The most a lock file may hold (pid, nonce, a line of info): more is not a lock of ours. */
const MAX_LOCK_BYTES = 4096;

/** A lock path that holds something other than a lock file (a FIFO, a link, a folder, a huge file). */
export class NotALockError extends Error {
  constructor(
    readonly lockFile: string,
    readonly what: string,
    readonly owner: number | null,
  ) {
    super(
      `${lockFile} is not a lock file (${what}${owner !== null ? `, owned by ${ownerName(owner)}` : ''}): nothing was sent; remove it${owner !== null && owner !== process.getuid?.() ? ' (as its owner or root)' : ''}, or point SHARDECK_LOCK_DIR at a folder of your own`,
    );
    this.name = 'NotALockError';
  }
}

export { ownerName, userName } from '../boundary/users';

// ---- Locks between processes ----------------------------------------------------------------
//
// A lock is a file created with O_EXCL holding "<pid> <nonce>". Taking over a dead (or, with
// staleMs, stuck) holder's lock must have ONE winner. rm-then-create does not: two contenders both
// judge it stale, A removes and creates its own, B then removes A's new lock and creates another.
// proper-lockfile (npm, 4.1.2) reclaims stale locks the same way (rmdir then mkdir, its issue
// #121), so it is not used. Here the stale lock is never removed: it is REPLACED by rename(2), and
// only the contender that created, with O_EXCL, the claim file named after that exact lock content
// (its generation) may do so. Everyone else fails the claim and loses. A claim whose creator died
// before the rename is itself a stale lock and is taken over the same way (recursively).

interface LockContent {
  pid: number;
  text: string;
  /** The file's owner, from the file system (not from its text). */
  owner: number;
}

/**
 * Reads a lock without ever blocking: O_NONBLOCK (a FIFO does not wait for a writer), O_NOFOLLOW
 * (a link is not followed), a regular file only, at most MAX_LOCK_BYTES. Null when it is gone;
 * NotALockError for anything else in its place; EACCES and the like are thrown as they are.
 */
function readLock(file: string): LockContent | null {
  let r: ReturnType<typeof readCapped>;
  try {
    r = readCapped(file, MAX_LOCK_BYTES + 1, { noFollow: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new NotALockError(file, 'a symbolic link', lstatOwner(file));
    if (e instanceof NotRegularFileError) throw new NotALockError(file, e.what, e.owner);
    throw e;
  }
  if (r.size > MAX_LOCK_BYTES) throw new NotALockError(file, `${r.size} bytes`, r.owner);
  return { pid: Number(r.text.split(/\s+/)[0]) || 0, text: r.text, owner: r.owner };
}

function lstatOwner(file: string): number | null {
  try {
    return fs.lstatSync(file).uid;
  } catch {
    return null;
  }
}

function isStale(file: string, held: LockContent, staleMs: number): boolean {
  if (held.pid > 0 && !holderAlive(held.pid, held.owner)) return true;
  // A half-written or foreign lock (no pid) and a live but stuck holder are judged by age.
  try {
    return Date.now() - fs.statSync(file).mtimeMs > (held.pid > 0 ? staleMs : Math.min(staleMs, 10_000));
  } catch {
    return false;
  }
}

function claimFileFor(file: string, held: LockContent): string {
  return `${file}.claim-${crypto.createHash('sha256').update(held.text).digest('hex').slice(0, 16)}`;
}

/** The lock text each process writes; the nonce tells two locks of one pid apart. */
const myLockText = (): string => `${process.pid} ${crypto.randomBytes(8).toString('hex')}\n`;

/** Replaces `file` (holding `stale`) with `mine`, if this process wins the claim on that generation. */
function takeOver(file: string, stale: LockContent, mine: string, staleMs: number, depth = 0, shared = false): boolean {
  if (depth > 8) return false;
  const claim = claimFileFor(file, stale);
  const claimText = myLockText();
  let claimed = false;
  try {
    fs.writeFileSync(claim, claimText, { flag: 'wx', mode: 0o600 });
    claimed = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const other = readLock(claim);
    // Another contender is taking over right now (it wins); or it died mid-takeover: take its claim over.
    if (other && isStale(claim, other, staleMs) && takeOver(claim, other, claimText, staleMs, depth + 1, shared)) claimed = true;
  }
  if (!claimed) return false;
  try {
    // Only the generation we claimed may be replaced; a slow contender finds a newer one and stops.
    if (readLock(file)?.text !== stale.text) return false;
    const tmp = `${file}.${uniqueSuffix()}.tmp`;
    fs.writeFileSync(tmp, mine, { flag: 'wx', mode: shared ? 0o644 : 0o600 });
    try {
      fs.renameSync(tmp, file);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      // A sticky folder: another user's stale lock may be replaced only by its owner or root.
      if ((e as NodeJS.ErrnoException).code === 'EPERM' || (e as NodeJS.ErrnoException).code === 'EACCES')
        throw new ForeignLockError(file, stale, true);
      throw e;
    }
    return true;
  } finally {
    // After the rename the old generation is gone for good, so its claim can go too.
    fs.rmSync(claim, { force: true });
  }
}

export interface LockOptions {
  /** A line written after the pid (who holds it and what for), shown to whoever waits. */
  info?: string;
  /** The lock lives in a folder shared by every user (sticky, 1777): not checked as private, readable by all. */
  shared?: boolean;
}

/** The text of a lock file after its first line (the holder's info), when it can be read; control characters shown as spaces, at most 200. */
// eslint-disable-next-line no-control-regex -- untrusted text: control characters replaced on purpose
const LOCK_TEXT_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

export function lockInfo(lockFile: string): string | null {
  try {
    return readLock(lockFile)?.text.split('\n')[1]?.replace(LOCK_TEXT_CONTROLS, ' ').trim().slice(0, 200) || null;
  } catch {
    return null;
  }
}

/** The owner (uid, from the file system) of a lock file, when it is there. */
export function lockOwner(lockFile: string): number | null {
  return lstatOwner(lockFile);
}

/** A stale lock of another user that this process may not replace (a sticky folder): its owner or root removes it. */
export class ForeignLockError extends Error {
  constructor(
    readonly lockFile: string,
    held: { pid: number; owner: number },
    stale: boolean,
  ) {
    super(
      `${lockFile} is held by ${ownerName(held.owner)}${held.pid ? ` for pid ${held.pid}` : ''}${stale ? ', which is no longer running' : ''}; only its owner or root may remove it: nothing was sent; ask them (or root) to run rm ${lockFile}, or point SHARDECK_LOCK_DIR at a folder of your own`,
    );
    this.name = 'ForeignLockError';
  }
}

/** What this process wrote in each lock it holds, so release removes only its own. */
const heldLocks = new Map<string, string>();

/**
 * Takes an exclusive lock between processes once. A lock whose owner is gone, or (with staleMs)
 * older than staleMs, is taken over by exactly one contender. False when held by someone else.
 */
export function tryLock(lockFile: string, staleMs = Infinity, opts: LockOptions = {}): boolean {
  if (!opts.shared) ensurePrivateDir(path.dirname(lockFile));
  // A shared lock (one cluster, every user on the host) is readable by all, so others see who holds it.
  const mine = myLockText() + (opts.info ? opts.info.replace(/\n/g, ' ') + '\n' : '');
  try {
    fs.writeFileSync(lockFile, mine, { flag: 'wx', mode: opts.shared ? 0o644 : 0o600 });
    heldLocks.set(lockFile, mine);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const held = readLock(lockFile);
  if (held === null) return tryLock(lockFile, staleMs, opts); // released meanwhile
  if (!isStale(lockFile, held, staleMs)) return false;
  if (!takeOver(lockFile, held, mine, staleMs, 0, opts.shared)) return false;
  heldLocks.set(lockFile, mine);
  return true;
}

/** Releases a lock this process holds; one taken over by another process is left alone. */
export function releaseLock(lockFile: string): void {
  const mine = heldLocks.get(lockFile);
  heldLocks.delete(lockFile);
  try {
    if (mine !== undefined && readLock(lockFile)?.text === mine) fs.rmSync(lockFile, { force: true });
  } catch {
    // replaced by something that is not our lock: not ours to remove
  }
}

/** Marks a held lock as alive (its mtime), so an age-based staleMs only catches stuck holders. */
function touchLock(lockFile: string): void {
  try {
    const now = new Date();
    fs.utimesSync(lockFile, now, now);
  } catch {
    // gone: release or takeover decides, not the heartbeat
  }
}

/** The pid written in a lock file, when it can be read. */
export function lockHolder(lockFile: string): number | null {
  try {
    return readLock(lockFile)?.pid || null;
  } catch {
    return null;
  }
}

export class LockBusyError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number | null,
    waitedMs: number,
  ) {
    super(
      `another shardeck${pid ? ` (pid ${pid})` : ''} has held ${lockFile} for over ${Math.round(waitedMs / 1000)}s: try again when it has finished` +
        (pid ? `, or stop it; a lock whose process is gone is taken over by itself` : ''),
    );
    this.name = 'LockBusyError';
  }
}

/**
 * Runs fn while holding the lock (tryLock). Never runs fn without it: after waitMs it fails with
 * LockBusyError. While fn runs the lock's mtime is refreshed, so staleMs catches only a stuck holder.
 */
export async function withFileLock<T>(
  lockFile: string,
  fn: () => Promise<T>,
  opts: { waitMs?: number; staleMs?: number; onWait?: (holderPid: number | null, holderInfo: string | null) => void } & LockOptions = {},
): Promise<T> {
  const waitMs = opts.waitMs ?? 20_000;
  const staleMs = opts.staleMs ?? 30_000;
  const deadline = Date.now() + waitMs;
  let told = false;
  while (!tryLock(lockFile, staleMs, opts)) {
    if (!told) {
      told = true;
      opts.onWait?.(lockHolder(lockFile), lockInfo(lockFile));
    }
    if (Date.now() >= deadline) throw new LockBusyError(lockFile, lockHolder(lockFile), waitMs);
    await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
  }
  const heartbeat = Number.isFinite(staleMs) ? setInterval(() => touchLock(lockFile), Math.max(50, staleMs / 3)) : undefined;
  heartbeat?.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    releaseLock(lockFile);
  }
}

/** The files of one of shardeck's own folders whose names `test` accepts, newest change first; [] when it cannot be listed. */
export function privateFolderFiles(dir: string, test: (name: string) => boolean): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter(test)
      .map((n) => ({ file: path.join(dir, n), at: fs.lstatSync(path.join(dir, n)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .map((x) => x.file);
  } catch {
    return [];
  }
}

/** Removes one of shardeck's own files (its private folder); a missing one is fine. */
export function removePrivateFile(file: string): void {
  fs.rmSync(file, { force: true });
}
