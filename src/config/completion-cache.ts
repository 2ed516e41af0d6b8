// Words for the shell completions: profile names (from the config) and index names from the
// console's last poll, cached in a 0600 file of the config folder. Only names: never a URL, a
// user or a secret. Completion never connects to anything.
import fs from 'node:fs';
import path from 'node:path';
import { configDir, writePrivateFileAtomic } from './files';
import { listProfiles } from './profiles';

const MAX_INDICES = 5000;

export function indexCacheFile(): string {
  return path.join(configDir(), 'completion-indices');
}

/** Remembers the index names the console saw last (one per line). A name holding a line break
 *  cannot be one line: it is left out (offered as two words it would complete to names that do
 *  not exist). */
export function saveIndexNames(names: readonly string[]): void {
  writePrivateFileAtomic(indexCacheFile(), names.filter((n) => !/[\r\n]/.test(n)).sort().slice(0, MAX_INDICES).map((n) => `${n}\n`).join(''));
}

export function completionWords(kind: string): string[] {
  try {
    if (kind === 'profiles') return listProfiles().map((p) => p.name);
    if (kind === 'indices') return fs.readFileSync(indexCacheFile(), 'utf8').split('\n').filter(Boolean);
  } catch {
    // No config yet, or no poll yet: nothing to offer.
  }
  return [];
}
