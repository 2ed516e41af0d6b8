// Words for the shell completions: profile names (from the config) and index names from the
// console's last poll, cached in a 0600 file of the config folder. Only names: never a URL, a
// user or a secret. Completion never connects to anything.
import fs from 'node:fs';
import path from 'node:path';
import { configDir, writePrivateFileAtomic } from './files';
import { readLocalText, setAside } from './local-files';
import { listProfiles } from './profiles';

const MAX_INDICES = 5000;
/** MAX_INDICES names of at most 255 bytes, and their line breaks. */
const MAX_CACHE_BYTES = MAX_INDICES * 256;

export function indexCacheFile(): string {
  return path.join(configDir(), 'completion-indices');
}

/** Remembers the index names the console saw last (one per line). A name holding a line break
 *  cannot be one line: it is left out (offered as two words it would complete to names that do
 *  not exist). */
export function saveIndexNames(names: readonly string[]): void {
  const file = indexCacheFile();
  // Something else in its place (a folder, a FIFO) is kept beside as .broken-<time>, never removed;
  // a regular file is only ever this cache, rewritten whole.
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (st && !st.isFile()) setAside(file);
  writePrivateFileAtomic(
    indexCacheFile(),
    names
      .filter((n) => !/[\r\n]/.test(n))
      .sort()
      .slice(0, MAX_INDICES)
      .map((n) => `${n}\n`)
      .join(''),
  );
}

export function completionWords(kind: string): string[] {
  try {
    if (kind === 'profiles') return listProfiles().map((p) => p.name);
    // Any name Elasticsearch allows is offered as it is: the completion scripts quote it (test/unit/completion-shell.test.ts).
    if (kind === 'indices') return (readLocalText(indexCacheFile(), MAX_CACHE_BYTES, '') ?? '').split('\n').filter(Boolean);
  } catch {
    // No config yet, no poll yet, or a broken cache: nothing to offer (completion never fails a shell).
  }
  return [];
}
