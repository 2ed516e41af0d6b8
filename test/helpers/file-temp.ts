// Temp folders a helper makes for the test file that called it, removed after that file by
// test/setup/nodes.ts. A helper cannot register an afterAll of its own, and an exit handler is
// skipped when the worker is killed: ~90 of these were left in /tmp over a day's runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/** A new folder under the temp folder (mkdtemp, 0700), removed after the test file. */
export function fileTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder fileTempDir made in this file (test/setup/nodes.ts, after the file). */
export function removeFileTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
