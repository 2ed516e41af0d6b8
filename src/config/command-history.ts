// The console's command-line history (`:`), per profile, in the private config folder:
// <config>/history.json, 0600, written whole. Lines with a password are never given to it
// (domain/console/command-line.ts addToHistory), and one found in the file is dropped when it is read.
import path from 'node:path';
import { secretOnLine } from '../domain/console/command-line';
import { configDir, writePrivateFileAtomic } from './files';
import { BrokenFileError, moveAsideRemedy, readLocalText } from './local-files';

const MAX_BYTES = 1024 * 1024;

export function historyFile(): string {
  return path.join(configDir(), 'history.json');
}

function readAll(): Record<string, string[]> {
  const file = historyFile();
  const remedy = moveAsideRemedy(file, 'the command line starts with no history');
  const text = readLocalText(file, MAX_BYTES, remedy);
  if (text === null) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new BrokenFileError(file, 'is not JSON', remedy);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BrokenFileError(file, 'is not a JSON object', remedy);
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).map(([p, lines]) => [
      p,
      Array.isArray(lines) ? lines.filter((l): l is string => typeof l === 'string' && !secretOnLine(l)) : [],
    ]),
  );
}

export function readHistory(profile: string): string[] {
  return readAll()[profile] ?? [];
}

export function saveHistory(profile: string, lines: readonly string[]): void {
  const all = readAll();
  all[profile] = lines.filter((l) => !secretOnLine(l));
  writePrivateFileAtomic(historyFile(), JSON.stringify(all, null, 2) + '\n');
}
