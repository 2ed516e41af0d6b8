// The copies of shard folders kept on this host (issue 48), as `status` and the console's status
// bar name them while they exist. Apart from red-copy.ts, which takes and counts them, so what only
// reads them loads none of the recovery's code.
import path from 'node:path';
import { configDir } from '../config/files';
import { copyKeptLine, parseCopyRecord, type CopyRecord } from '../domain/corruption/copy';
import { ROOT_BACKUP_DIR } from '../domain/host/host-paths';
import type { ConsoleStore } from '../store/console';
import { readCopyRecordFiles } from '../boundary/shard-copy';

/** Root's backups in /var/backups/shardeck; another user's beside its config (both private, checked when written). */
export function defaultBackupDir(): string {
  return process.getuid?.() === 0 ? ROOT_BACKUP_DIR : path.join(configDir(), 'backups');
}

/** The copies kept in `dir` (default: where this user's backups go), newest first. */
export function keptCopies(dir = defaultBackupDir()): CopyRecord[] {
  return readCopyRecordFiles(dir)
    .map((f) => parseCopyRecord(f.text))
    .filter((r): r is CopyRecord => r !== null)
    .sort((a, b) => Date.parse(b.takenAt) - Date.parse(a.takenAt));
}

/**
 * Keeps the console's `copiesKept` (the status bar names them) up to date while copies exist: read
 * from the backup folder now and every `everyMs`. Returns the stop.
 */
export function watchKeptCopies(store: ConsoleStore, everyMs = 10_000, dir?: string): () => void {
  let last = '';
  const read = () => {
    let lines: string[];
    try {
      lines = keptCopies(dir).map(copyKeptLine);
    } catch {
      lines = [];
    }
    if (lines.join('\n') === last) return;
    last = lines.join('\n');
    store.setState({ copiesKept: lines.length ? lines : undefined });
  };
  read();
  const timer = setInterval(read, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
