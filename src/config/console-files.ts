// The console's own files for the operator: the text a copy could not give the terminal, and the
// screen dumps for a ticket. Both 0600 in the private config folder (0700): a curl line or an
// index name is not a secret, but another user has no business reading an incident's screens.
import os from 'node:os';
import path from 'node:path';
import { configDir, createPrivateFile, ensurePrivateDir, writePrivateFileAtomic } from './files';
import { screenFileName } from '../domain/console/screen-dump';

/** The path as the footer shows it: the home folder as ~ (80 columns are few). */
export function shortPath(file: string): string {
  const home = os.homedir();
  return home && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

/** The copied text, replacing the one before: <config>/copied.txt. */
export function saveCopied(text: string): string {
  const file = path.join(configDir(), 'copied.txt');
  writePrivateFileAtomic(file, text.endsWith('\n') ? text : text + '\n');
  return file;
}

/** A new file per dump under <config>/screens/, never over an earlier one. */
export function saveScreen(text: string, now = new Date()): string {
  const dir = ensurePrivateDir(path.join(configDir(), 'screens'));
  for (let n = 1; ; n++) {
    const file = path.join(dir, screenFileName(now, n));
    try {
      createPrivateFile(file, text);
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 99) throw e;
    }
  }
}
