// The copy of a red index's shard folders (issue 48), where root meets the engine's user: the
// folder's size walked with lstat (no link followed: a link is refused, like every data folder
// the checklist touches), the free space where root's archives go, the record kept beside each
// archive in root's private backup folder, and Lucene CheckIndex run by root on an unpacked copy
// in that folder, never on the engine's own files (the node keeps running). The archive itself is
// written by writeBackup (host-files.ts), the same step as the checklist's backup.
import fs from 'node:fs';
import path from 'node:path';
import { toolEnv } from '../domain/host/host-env';
import { pathPrefixes, untrustedFolder } from '../domain/host/host-paths';
import { readCapped } from './files';
import { createExclusive, ensurePrivateFolder, hostTool, lstatOf, programRefusal } from './host-files';
import { runProgram, type ProgramResult } from './programs';

const myUid = () => process.getuid?.() ?? 0;

export type FolderUsage = { ok: true; bytes: number; files: number; dirs: number } | { ok: false; error: string };

/** What a shard folder holds (bytes of its regular files, files, folders), walked with lstat; a link or a special file is refused. */
export function folderUsage(dir: string): FolderUsage {
  let bytes = 0;
  let files = 0;
  let dirs = 0;
  const walk = (d: string): string | null => {
    let names: string[];
    try {
      names = fs.readdirSync(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT'
        ? `${d} does not exist on this host`
        : code === 'EACCES'
          ? `${d} cannot be read by uid ${myUid()} (run shardeck as root)`
          : `${d} cannot be listed (${(e as Error).message})`;
    }
    dirs++;
    for (const n of names) {
      const p = path.join(d, n);
      const st = lstatOf(p);
      if (!st) continue; // gone meanwhile (a translog rolled): not copied, not counted
      if (st.isSymbolicLink) return `${p} is a symbolic link: shardeck does not follow links in the data folder`;
      if (st.isDirectory) {
        const why = walk(p);
        if (why) return why;
      } else if (st.isFile) {
        files++;
        bytes += fs.lstatSync(p).size;
      } else return `${p} is not a regular file or folder`;
    }
    return null;
  };
  const st = lstatOf(dir);
  if (!st) return { ok: false, error: `${dir} does not exist on this host` };
  if (st.isSymbolicLink || !st.isDirectory) return { ok: false, error: `${dir} is not a folder (a link or a file)` };
  const why = walk(dir);
  return why ? { ok: false, error: why } : { ok: true, bytes, files, dirs };
}

/** Free bytes (for the running user) on the file system `dir` would be on: its nearest existing folder's. */
export function freeBytes(dir: string): number | null {
  for (const p of pathPrefixes(path.normalize(dir)).reverse()) {
    if (!lstatOf(p)) continue;
    try {
      const s = fs.statfsSync(p);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      return null;
    }
  }
  return null;
}

/** The record beside an archive. */
export const recordFileOf = (archive: string) => `${archive}.json`;

/** Writes (or replaces) an archive's record: a new 0600 file in its private folder, renamed into place. */
export function writeCopyRecordFile(archive: string, text: string): void {
  const file = recordFileOf(archive);
  ensurePrivateFolder(path.dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = createExclusive(tmp);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/**
 * The records of the copies kept in `dir` whose archive is still there (the operator removes the
 * archive, and then its record means nothing): read only from a folder private to the running
 * user, each a regular file of its own, capped. Empty when the folder does not exist.
 */
export function readCopyRecordFiles(dir: string): { file: string; text: string }[] {
  const st = lstatOf(dir);
  if (!st || st.isSymbolicLink || !st.isDirectory || st.uid !== myUid() || st.mode & 0o077) return [];
  const out: { file: string; text: string }[] = [];
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.tar.json'))
    .sort()) {
    const file = path.join(dir, name);
    const archive = lstatOf(file.slice(0, -'.json'.length));
    if (!archive?.isFile) continue;
    try {
      const r = readCapped(file, 1024 * 1024, { noFollow: true });
      if (r.owner === myUid()) out.push({ file, text: r.text });
    } catch {
      /* not a regular file of ours: not a record */
    }
  }
  return out;
}

/** Why root may not run CheckIndex with these tools, or null: java, `<home>/lib` and every jar in it root's, no one else may change them. */
export function rootToolsRefusal(java: string | null, home: string): string | null {
  if (!java) return "the node's java is not known here (give --java)";
  const j = programRefusal(java, 0);
  if (j) return j;
  const lib = path.join(home, 'lib');
  for (const d of pathPrefixes(path.normalize(lib))) {
    const st = lstatOf(d);
    if (!st) return `${lib} does not exist`;
    const why = untrustedFolder(d, st, [0]);
    if (why)
      return `${why}: root runs CheckIndex only with a lib/ folder root owns (run it as the engine's user with the checklist instead)`;
  }
  for (const n of fs.readdirSync(lib)) {
    const st = lstatOf(path.join(lib, n));
    if (!st) continue;
    if (st.isSymbolicLink || st.uid !== 0 || st.mode & 0o022)
      return `${lib}/${n} is ${st.isSymbolicLink ? 'a symbolic link' : st.uid !== 0 ? `uid ${st.uid}'s` : 'writable by others'}: root runs CheckIndex only with a lib/ folder root owns`;
  }
  return null;
}

/**
 * Unpacks an archive of root's into `into` (a new private folder: refused if something is there),
 * after checking every entry is a regular file or a folder with a relative path (a link in the
 * archive could lead the unpacking out of the folder). Files become root's.
 */
export async function unpackCopy(archive: string, into: string): Promise<ProgramResult> {
  let tar: string;
  try {
    tar = hostTool('tar');
    if (lstatOf(into))
      return {
        ok: false,
        exitCode: null,
        output: '',
        error: `${into} already exists: remove it first (shardeck never unpacks over a folder)`,
      };
  } catch (e) {
    return { ok: false, exitCode: null, output: '', error: (e as Error).message };
  }
  const env = toolEnv(process.env);
  const list = await runProgram(tar, ['-tvf', archive], { env });
  if (!list.ok) return { ...list, error: `cannot list ${archive}: ${list.error}` };
  const bad = list.output
    .split('\n')
    .filter(Boolean)
    .find((l) => !/^[-d]/.test(l) || / (\/|\.\.\/)|\/\.\.(\/|$)/.test(l));
  if (bad)
    return {
      ok: false,
      exitCode: null,
      output: '',
      error: `${archive} holds an entry that is not a plain file or folder: ${bad.slice(0, 200)}`,
    };
  try {
    ensurePrivateFolder(into);
  } catch (e) {
    return { ok: false, exitCode: null, output: '', error: (e as Error).message };
  }
  const r = await runProgram(tar, ['-C', into, '-xf', archive, '--no-same-owner', '--no-same-permissions'], { env });
  if (!r.ok) removeUnpacked(into);
  return r;
}

/** Removes an archive of the running user's from a folder private to it (a copy that did not verify). */
export function removeArchive(file: string): void {
  const parent = lstatOf(path.dirname(file));
  const st = lstatOf(file);
  if (!parent || parent.isSymbolicLink || parent.uid !== myUid() || parent.mode & 0o077) return;
  if (st?.isFile && st.uid === myUid()) fs.rmSync(file, { force: true });
}

/** Removes a folder unpackCopy made (only one in a folder private to the running user). */
export function removeUnpacked(dir: string): void {
  const parent = lstatOf(path.dirname(dir));
  if (!parent || parent.isSymbolicLink || parent.uid !== myUid() || parent.mode & 0o077) return;
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Lucene CheckIndex run by root on a folder of its own (an unpacked copy); -exorcise only when asked. */
export function runRootCheckIndex(
  java: string,
  home: string,
  indexDir: string,
  opts: { exorcise?: boolean; onOutput?: (s: string) => void; timeoutMs?: number } = {},
): Promise<ProgramResult> {
  const why = rootToolsRefusal(java, home);
  if (why) return Promise.resolve({ ok: false, exitCode: null, output: '', error: why });
  return runProgram(
    java,
    ['-cp', `${home}/lib/*`, 'org.apache.lucene.index.CheckIndex', indexDir, ...(opts.exorcise ? ['-exorcise'] : [])],
    { env: toolEnv(process.env), onOutput: opts.onOutput, timeoutMs: opts.timeoutMs ?? 3_600_000 },
  );
}
