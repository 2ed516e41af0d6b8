// Files root writes and programs root runs on the node's host, next to files the engine's user
// owns: every folder on the way checked with lstat (services never follow a link there), files
// created exclusively (O_EXCL|O_NOFOLLOW, 0600), host tools by absolute root-owned paths.
import fs from 'node:fs';
import path from 'node:path';
import { isInside, notPrivateFolder, pathPrefixes, untrustedFolder, untrustedProgram, type PathStat } from '../domain/host/host-paths';
import { parseEnvFile, toolEnv } from '../domain/host/host-env';
import { startProgram } from './programs';

/** A path root must not trust (a link, another user's folder): one sentence naming it. */
export class HostPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostPathError';
  }
}

/** lstat as plain values; null when the path does not exist. */
export function lstatOf(p: string): PathStat | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return { isSymbolicLink: st.isSymbolicLink(), isDirectory: st.isDirectory(), isFile: st.isFile(), uid: st.uid, mode: st.mode & 0o7777 };
}

const myUid = () => process.getuid?.() ?? 0;

/**
 * Makes `dir` (absolute) a folder only the running user can open, creating what is missing 0700:
 * every folder above it a real folder of root's (or the user's) that no one else can write,
 * `dir` itself the user's, 0700. Refused, never chmod-ed or followed.
 */
export function ensurePrivateFolder(dir: string): string {
  if (!path.isAbsolute(dir)) throw new HostPathError(`${dir} is not an absolute path`);
  const uid = myUid();
  const prefixes = pathPrefixes(path.normalize(dir));
  for (const [i, p] of prefixes.entries()) {
    let st = lstatOf(p);
    if (!st) {
      // mkdir never follows a link at p (EEXIST): a planted one is then judged below.
      try {
        fs.mkdirSync(p, { mode: 0o700 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new HostPathError(`cannot create ${p}: ${(e as Error).message}`);
      }
      st = lstatOf(p)!;
    }
    const why = i === prefixes.length - 1 ? notPrivateFolder(p, st, uid) : untrustedFolder(p, st, [0, uid]);
    if (why)
      throw new HostPathError(
        `${why}: shardeck will not keep ${uid === 0 ? "root's" : 'its'} files under it; choose a folder only ${uid === 0 ? 'root' : 'you'} can write`,
      );
  }
  return dir;
}

/** A new file, 0600, opened for writing: refused if anything (a file, a link) is already at `file`. */
export function createExclusive(file: string): number {
  try {
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    fs.fchmodSync(fd, 0o600);
    return fd;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP')
      throw new HostPathError(`${file} already exists: shardeck never writes over a file (remove it, or choose another folder)`);
    throw e;
  }
}

const TOOL_DIRS = ['/usr/bin', '/usr/sbin', '/bin', '/sbin'];

/** The absolute path of a system tool (tar, bash, runuser, find) owned by root, never one found through PATH. */
export function hostTool(name: string): string {
  const reasons: string[] = [];
  for (const dir of TOOL_DIRS) {
    const p = `${dir}/${name}`;
    const st = lstatOf(p);
    if (!st) continue;
    const why =
      untrustedProgram(p, st) ??
      pathPrefixes(dir)
        .map((d) => untrustedFolder(d, lstatOf(d) ?? { isSymbolicLink: false, isDirectory: false, isFile: false, uid: -1, mode: 0 }, [0]))
        .find(Boolean);
    if (!why) return p;
    reasons.push(why);
  }
  throw new HostPathError(
    `no root-owned ${name} in ${TOOL_DIRS.join(', ')}${reasons.length ? ` (${reasons.join('; ')})` : ''}: install it from the system's packages`,
  );
}

export interface BackupResult {
  ok: boolean;
  exitCode: number | null;
  error?: string;
}

/**
 * Archives `<indexDir>/<shardDir>` into `archive`: its folder made private first, the archive a
 * new 0600 file this process opened (tar writes to that descriptor, never to a path), removed
 * again when tar fails.
 */
export async function writeBackup(
  indexDir: string,
  shardDir: string,
  archive: string,
  onOutput: (s: string) => void,
): Promise<BackupResult> {
  let fd: number;
  let tar: string;
  try {
    ensurePrivateFolder(path.dirname(archive));
    tar = hostTool('tar');
    fd = createExclusive(archive);
  } catch (e) {
    return { ok: false, exitCode: null, error: (e as Error).message };
  }
  const r = await new Promise<BackupResult>((resolve) => {
    const child = startProgram(tar, ['-C', indexDir, '-cf', '-', '--', shardDir], { stdoutFd: fd, env: toolEnv(process.env) });
    child.stderr?.on('data', (b: Buffer) => onOutput(b.toString('utf8')));
    child.on('error', (e) => resolve({ ok: false, exitCode: null, error: e.message }));
    child.on('close', (code, signal) =>
      resolve({
        ok: code === 0,
        exitCode: code,
        ...(code === 0 ? {} : { error: signal ? `killed by ${signal}` : `tar exit status ${code}` }),
      }),
    );
  });
  try {
    if (r.ok) fs.fsyncSync(fd);
  } catch (e) {
    Object.assign(r, { ok: false, error: `cannot write ${archive} to disk: ${(e as Error).message}` });
  } finally {
    fs.closeSync(fd);
  }
  if (!r.ok) fs.rmSync(archive, { force: true });
  return r;
}

/**
 * Why the folders from `dataPath` (exclusive) down to `folder` cannot be acted on as the engine's
 * user `uid`, or null: each a real folder (no link: a link could lead root's tar or the user's
 * tools anywhere) owned by that user, and the whole path resolving inside the data path.
 */
export function dataFolderRefusal(dataPath: string, folder: string, uid: number): string | null {
  if (!isInside(dataPath, folder)) return `${folder} is not under the data path ${dataPath}`;
  const below = pathPrefixes(folder).filter((p) => p.length > dataPath.replace(/\/+$/, '').length);
  for (const p of below) {
    const st = lstatOf(p);
    if (!st) return null; // not there (yet): the step itself says so
    if (st.isSymbolicLink)
      return `${p} is a symbolic link: shardeck does not follow links in the data folder; look at who made it before anything else`;
    if (!st.isDirectory) return `${p} is not a folder`;
    if (st.uid !== uid)
      return `${p} belongs to uid ${st.uid}, not the engine's user (uid ${uid}): shardeck acts there only as the engine's user`;
  }
  try {
    if (!isInside(fs.realpathSync(dataPath), fs.realpathSync(folder))) return `${folder} resolves outside the data path ${dataPath}`;
  } catch {
    /* gone meanwhile: the step says so */
  }
  return null;
}

/**
 * Why a program (java, elasticsearch-shard) may not be run as user `uid`, or null: the file it
 * resolves to and every folder above it belong to root or to that user (running the user's own
 * program as that user gives it nothing), and no one else can write them.
 */
export function programRefusal(program: string, uid: number): string | null {
  let real: string;
  try {
    real = fs.realpathSync(program);
  } catch {
    return null; // missing: the step itself fails with the tool's own message
  }
  const st = lstatOf(real)!;
  const owners = [0, uid];
  const why =
    (st.isFile ? null : `${real} is not a file`) ??
    (owners.includes(st.uid) ? null : `${real} belongs to uid ${st.uid}`) ??
    (st.mode & 0o022 ? `${real} can be written by others` : null) ??
    pathPrefixes(path.dirname(real))
      .map((d) => untrustedFolder(d, lstatOf(d)!, owners))
      .find(Boolean) ??
    null;
  return why ? `${program}: ${why}, so another user could change what runs: give a program root owns` : null;
}

/** Where the Elasticsearch packages keep the engine's environment (Debian, then RPM). */
const PACKAGE_ENV_FILES = ['/etc/default/elasticsearch', '/etc/sysconfig/elasticsearch'];

/**
 * The engine's ES_* settings from its package configuration, read only from a root-owned file no
 * one else can write (the running engine's own environment is its user's to set: never read).
 * Empty on a tarball install.
 */
export function packageEsEnv(): Record<string, string> {
  for (const file of PACKAGE_ENV_FILES) {
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch {
      continue;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.uid !== 0 || st.mode & 0o022 || st.size > 1_000_000) continue;
      return Object.fromEntries(Object.entries(parseEnvFile(fs.readFileSync(fd, 'utf8'))).filter(([k]) => /^ES_[A-Z_]+$/.test(k)));
    } finally {
      fs.closeSync(fd);
    }
  }
  return {};
}

/** Why a folder that root's tool works in (plugins/) cannot be trusted, or null: a link, or an entry in it that is one. */
export function linkedFolderRefusal(dir: string): string | null {
  const st = lstatOf(dir);
  if (!st) return null;
  if (st.isSymbolicLink) return `${dir} is a symbolic link: shardeck does not follow it (it could lead the tool anywhere)`;
  for (const name of fs.readdirSync(dir)) {
    const e = lstatOf(path.join(dir, name));
    if (e?.isSymbolicLink) return `${dir}/${name} is a symbolic link: shardeck does not follow it (it could lead the tool anywhere)`;
  }
  return null;
}
