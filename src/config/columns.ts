// The columns each profile chose per table pane (domain/console/columns.ts), in the private config folder:
// <config>/columns.json, 0600, written whole (temp file and rename).
import path from 'node:path';
import { parseColumnChoices, type ColumnChoice, type ColumnChoices } from '../domain/console/columns';
import { configDir, writePrivateFileAtomic } from './files';
import { BrokenFileError, moveAsideRemedy, readLocalText } from './local-files';

const MAX_BYTES = 1024 * 1024;

export function columnsFile(): string {
  return path.join(configDir(), 'columns.json');
}

function readAll(): ColumnChoices {
  const file = columnsFile();
  const remedy = moveAsideRemedy(file, 'every pane shows its default columns');
  const text = readLocalText(file, MAX_BYTES, remedy);
  if (text === null) return {};
  const parsed = parseColumnChoices(text);
  if (typeof parsed === 'string') throw new BrokenFileError(file, parsed, remedy);
  return parsed;
}

/** This profile's choices, pane by pane (none: every pane as declared). */
export function readColumnChoices(profile: string): Record<string, ColumnChoice> {
  return readAll()[profile] ?? {};
}

/** Keeps one pane's choice for the profile (the others' untouched). */
export function saveColumnChoice(profile: string, pane: string, choice: ColumnChoice): void {
  const all = readAll();
  all[profile] = { ...(all[profile] ?? {}), [pane]: choice };
  writePrivateFileAtomic(columnsFile(), JSON.stringify(all, null, 2) + '\n');
}
