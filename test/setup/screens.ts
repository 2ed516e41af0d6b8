// Global set-up of the snapshots project: after the run, a screen file in __screens__/ that no
// test compared is an orphan and fails the run (a missing or changed one already fails: Vitest
// runs with UPDATE_SNAPSHOT=none, vitest.config.ts). Only judged when every snapshot test file ran
// (a run filtered to one file compares only its own screens).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const SCREENS = path.resolve('test/snapshots/__screens__');
const TESTS = path.resolve('test/snapshots');

declare module 'vitest' {
  export interface ProvidedContext {
    screensRecordDir: string;
  }
}

/** The screens no test compared, when every test file compared at least one; else []. */
export function orphanScreens(records: string[], testFiles: string[], screens: string[]): string[] {
  const ran = new Set(records.map((r) => r.split('\t')[0]));
  if (!testFiles.every((f) => ran.has(f))) return [];
  const compared = new Set(records.map((r) => r.split('\t')[1]));
  return screens.filter((s) => !compared.has(s));
}

export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-screens-'));
  project.provide('screensRecordDir', dir);
  return () => {
    const records = fs.readdirSync(dir).flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean));
    fs.rmSync(dir, { recursive: true, force: true });
    const testFiles = fs
      .readdirSync(TESTS)
      .filter((f) => /\.test\.tsx?$/.test(f))
      .map((f) => path.join(TESTS, f));
    const screens = fs.readdirSync(SCREENS).map((f) => path.join(SCREENS, f));
    const orphans = orphanScreens(records, testFiles, screens);
    if (!orphans.length) return;
    // A teardown's throw is only logged by Vitest ("error during close"): set the exit code too.
    process.stderr.write(
      `\n${orphans.length} screen(s) in test/snapshots/__screens__ that no test compares: delete them (or restore their test):\n${orphans.map((o) => `  ${path.basename(o)}`).join('\n')}\n`,
    );
    process.exitCode = 1;
  };
}
