// Where shardeck keeps its files, and the file modes that keep secrets private.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** SHARDECK_CONFIG_DIR wins (tests, several operators on one node); otherwise XDG like conf. */
export function configDir(): string {
  if (process.env.SHARDECK_CONFIG_DIR) return path.resolve(process.env.SHARDECK_CONFIG_DIR);
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'shardeck');
}

/** Creates the config directory 0700 (and tightens it if it exists wider). */
export function ensurePrivateDir(dir = configDir()): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode & 0o077) fs.chmodSync(dir, 0o700);
  return dir;
}

export class InsecureFileError extends Error {
  constructor(readonly file: string, readonly mode: number) {
    super(
      `${file} holds secrets but can be read by others (mode ${mode.toString(8).padStart(4, '0')}): run chmod 600 ${JSON.stringify(file)} (and chmod 700 on its directory), then try again`,
    );
    this.name = 'InsecureFileError';
  }
}

/** Refuses a secrets file that group or others can read or write. */
export function assertPrivateFile(file: string): void {
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) throw new InsecureFileError(file, mode);
}

/** Writes a secrets file atomically (temp file 0600 + rename), so a crash never leaves half a token. */
export function writePrivateFileAtomic(file: string, content: string): void {
  ensurePrivateDir(path.dirname(file));
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** Appends one line to a 0600 file (the audit log). */
export function appendPrivateLine(file: string, line: string): void {
  ensurePrivateDir(path.dirname(file));
  const fd = fs.openSync(file, 'a', 0o600);
  try {
    fs.writeSync(fd, line.endsWith('\n') ? line : line + '\n');
  } finally {
    fs.closeSync(fd);
  }
}

function holderAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock between processes once: a lock file created with O_EXCL that holds the
 * owner's pid. A lock whose owner is gone, or older than staleMs, is taken over. False when held.
 */
export function tryLock(lockFile: string, staleMs = Infinity): boolean {
  ensurePrivateDir(path.dirname(lockFile));
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    const age = Date.now() - fs.statSync(lockFile).mtimeMs;
    if (age > staleMs || (pid > 0 && !holderAlive(pid))) {
      fs.rmSync(lockFile, { force: true });
      return tryLock(lockFile, staleMs);
    }
  } catch {
    // released between our attempts: the caller tries again
  }
  return false;
}

/** The pid written in a lock file, when it can be read. */
export function lockHolder(lockFile: string): number | null {
  try {
    return Number(fs.readFileSync(lockFile, 'utf8')) || null;
  } catch {
    return null;
  }
}

/**
 * Runs fn while holding the lock (tryLock); after waitMs without it, fn runs anyway (a stuck lock
 * must not stop the console).
 */
export async function withFileLock<T>(lockFile: string, fn: () => Promise<T>, opts: { waitMs?: number; staleMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (opts.waitMs ?? 20_000);
  let held = tryLock(lockFile, opts.staleMs ?? 30_000);
  while (!held && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
    held = tryLock(lockFile, opts.staleMs ?? 30_000);
  }
  try {
    return await fn();
  } finally {
    if (held) fs.rmSync(lockFile, { force: true });
  }
}
