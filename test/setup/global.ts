// The integration project's one global set-up: everything the real-node suites need exists before
// any of them starts (the same dev/lib/machine.mjs as `npm run setup`, so a bare `npx vitest run`
// works too), and this run gets its own folder for node folders, which the teardown empties
// whatever the suites did: every JVM still running from it is stopped, the folder removed.
import type { TestProject } from 'vitest/node';
import { makeRunNodesDir, removeRunNodesDir, setUpMachine } from '../../dev/lib/machine.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    nodesDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  setUpMachine();
  const nodesDir = await makeRunNodesDir();
  project.provide('nodesDir', nodesDir);
  return () => removeRunNodesDir(nodesDir);
}
