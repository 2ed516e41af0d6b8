// The integration projects' global set-up: everything the real-node suites need exists before
// any of them starts (the same dev/lib/machine.mjs as `npm run setup`, so a bare `npx vitest run`
// works too), and this run gets its own folder for node folders, which the teardown empties
// whatever the suites did: every JVM still running from it is stopped, the folder removed.
// With `sharedNodes` (the parallel project), it also starts one long-lived node per worker and one
// secured node (test/helpers/shared-node.ts): files that need such a node take it instead of starting one.
import type { TestProject } from 'vitest/node';
import { startNode } from '../../dev/lib/es-node.mjs';
import { makeRunNodesDir, removeRunNodesDir, setUpMachine } from '../../dev/lib/machine.mjs';
import type { SharedNode } from '../helpers/shared-node';

declare module 'vitest' {
  export interface ProvidedContext {
    nodesDir: string;
    /** How many shared nodes to start (the project's worker count); none when absent. */
    sharedNodeCount?: number;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  setUpMachine();
  const nodesDir = await makeRunNodesDir();
  project.provide('nodesDir', nodesDir);
  const count = Number(project.config.provide?.sharedNodeCount ?? 0);
  if (count > 0) {
    // Nodes of this process: the teardown's removal of the run folder stops them.
    const previous = process.env.SHARDECK_NODES_DIR;
    process.env.SHARDECK_NODES_DIR = nodesDir;
    try {
      const [nodes, secure] = await Promise.all([
        Promise.all(Array.from({ length: count }, (_, i) => startNode({ name: `shared-${i + 1}` }))),
        // One for the few files that need TLS and a password, read or make indices (each ~30 s).
        startNode({ name: 'shared-secure-1', secure: true }),
      ]);
      const handed = (n: Awaited<ReturnType<typeof startNode>>): SharedNode => ({
        url: n.url,
        name: n.name,
        version: n.version,
        baseDir: n.baseDir,
        dataDir: n.dataDir,
        repoDir: n.repoDir,
        logFile: n.logFile,
        httpPort: n.httpPort,
        transportPort: n.transportPort,
        clusterName: n.clusterName,
        ...(n.ca ? { ca: n.ca, user: n.user, password: n.password } : {}),
      });
      project.provide('sharedNodes', nodes.map(handed));
      project.provide('sharedSecureNodes', [handed(secure)]);
    } finally {
      if (previous === undefined) delete process.env.SHARDECK_NODES_DIR;
      else process.env.SHARDECK_NODES_DIR = previous;
    }
  }
  return () => removeRunNodesDir(nodesDir);
}
