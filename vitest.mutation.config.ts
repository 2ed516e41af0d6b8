import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config';

// Stryker (npm run test:mutation) runs the unit and snapshot projects: pure, fast, no Elasticsearch
// node (the panes' and wizards' text is killed by the screens). Taken from vitest.config.ts, not
// copied, so both runs see the same includes and env. The snapshot project runs without its
// orphan-screen bookkeeping (test/setup/screens.ts): a mutant run compares only the related files'
// screens, and a changed screen already fails (UPDATE_SNAPSHOT=none). Stryker runs
// vitest in worker threads, where process.umask() cannot be set: private-files.test.ts (file modes,
// nothing of src/domain) stays in the ordinary unit run; so does completion-shell.test.ts (real bash
// and zsh running the CLI as a child: in Stryker's sandbox that child offered no names and failed
// the dry run; a child process cannot kill a domain mutant anyway). Under load a long UI test can
// pass 10 s; windowing.test.tsx counts the sorts through a vi.mock of domain/table, which Stryker's
// shared module cache (no isolation between files) bypasses: it counted none and failed the dry run.
// A mutant that hangs is Stryker's to judge (timeoutMS), so the per-test limit is looser here.
type Project = { test?: { name?: string; exclude?: string[] } };
const projects = (base.test?.projects ?? []) as Project[];
const unit = projects.find((p) => p.test?.name === 'unit')!;
const snapshots = projects.find((p) => p.test?.name === 'snapshots')!;

export default defineConfig({
  test: {
    projects: [
      {
        ...unit,
        test: {
          ...unit.test,
          testTimeout: 60_000,
          exclude: [
            ...configDefaults.exclude,
            'test/unit/private-files.test.ts',
            'test/unit/completion-shell.test.ts',
            'test/ui/windowing.test.tsx',
          ],
        },
      },
      { ...snapshots, test: { ...snapshots.test, globalSetup: [], setupFiles: [], testTimeout: 60_000 } },
    ] as never,
  },
});
