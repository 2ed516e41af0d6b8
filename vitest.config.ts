import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// A screen that is missing, changed or obsolete fails every run, not only where CI is set (Vitest
// otherwise writes a missing snapshot and passes). `vitest -u` still rewrites them on purpose.
process.env.UPDATE_SNAPSHOT ??= 'none';

// Projects: fast pure tests (domain, UI frames from recorded fixtures) and suites against
// real Elasticsearch nodes started by dev/lib/es-node.mjs. The real-node files run three at a time
// (most on a long-lived node of their worker), then the ones that change the machine, alone.
// test/unit/vitest-projects.test.ts checks that every file calling vi.mock is listed here.
export const MODULE_MOCKS = ['test/ui/windowing.test.tsx'];

// Three, not two: the files mostly wait on their nodes. The same six files (issue 28, load 14-20
// from other sessions): 251 s and 254 s with two, 178 s and 328 s (at the higher load) with three.
// SHARDECK_TEST_WORKERS: another count for one run (to measure, or on a smaller machine).
const INTEGRATION_WORKERS = Number(process.env.SHARDECK_TEST_WORKERS) || 3;
export const INTEGRATION_ALONE = [
  'test/integration/package.test.ts',
  'test/integration/root-safe.test.ts',
  'test/integration/host-journal.test.ts',
  'test/integration/journal-trust.test.ts',
  'test/integration/share.test.ts',
  'test/integration/share-server.test.ts',
  'test/integration/operator-file.test.ts',
];
const integration = {
  include: ['test/integration/**/*.test.{ts,tsx}', 'test/e2e/**/*.test.{ts,tsx}'],
  // Users, packages, the distribution: made once, before any file (not by whichever runs first).
  globalSetup: ['test/setup/global.ts'],
  setupFiles: ['test/setup/nodes.ts'],
  testTimeout: 120_000,
  hookTimeout: 240_000,
};

export default defineConfig({
  test: {
    // A skip without a reason the README lists fails the run (test/setup/skip-check.ts).
    reporters: ['default', './test/setup/skip-check.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers: 2,
          // One module graph per worker, not per file (Ink and React imported once): 135 s -> 60 s
          // for the unit and snapshot projects on this machine. A file that changes process state restores it.
          isolate: false,
          include: ['test/domain/**/*.test.ts', 'test/ui/**/*.test.{ts,tsx}', 'test/unit/**/*.test.{ts,tsx}'],
          exclude: MODULE_MOCKS,
          // A guarded change in a unit test (to a closed port) still writes the host journal: not the machine's.
          env: { FORCE_COLOR: '0', NO_COLOR: '1', SHARDECK_LOCK_DIR: path.join(os.tmpdir(), 'shardeck-unit-locks') },
          testTimeout: 10_000,
        },
      },
      {
        // A file that replaces a module (vi.mock) needs its own module graph: shared, the module is
        // already loaded by another file and the mock never applies.
        test: {
          name: 'unit-mocks',
          maxWorkers: 2,
          include: MODULE_MOCKS,
          env: { FORCE_COLOR: '0', NO_COLOR: '1', SHARDECK_LOCK_DIR: path.join(os.tmpdir(), 'shardeck-unit-locks') },
          testTimeout: 10_000,
        },
      },
      {
        // Whole screens at 80x24 and a wider size, colour kept and turned into visible markers
        // (test/ui/markers.ts), so a change in what the operator sees is a readable diff.
        test: {
          name: 'snapshots',
          maxWorkers: 2,
          isolate: false,
          include: ['test/snapshots/**/*.test.{ts,tsx}'],
          // Orphaned screens (a file no test compares) fail the run too: test/setup/screens.ts.
          globalSetup: ['test/setup/screens.ts'],
          setupFiles: ['test/setup/screens-record.ts'],
          env: { FORCE_COLOR: '1', NO_COLOR: '' },
          testTimeout: 10_000,
        },
      },
      {
        // Real-node files, three at a time (each worker has its own shared node: test/helpers/shared-node.ts).
        test: {
          ...integration,
          name: 'integration',
          exclude: INTEGRATION_ALONE,
          maxWorkers: INTEGRATION_WORKERS,
          provide: { sharedNodeCount: INTEGRATION_WORKERS },
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Files that change the machine itself (OS users and groups, the package and dist/, files
        // under /etc and /var, the change-lock folder's owners): one at a time, after the others.
        test: {
          ...integration,
          name: 'integration-alone',
          include: INTEGRATION_ALONE,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
