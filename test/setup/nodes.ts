// Runs before every integration test file: its nodes go in this run's folder (test/setup/global.ts),
// and after the file every node it started is stopped and its folders removed, even when the
// file's own beforeAll failed halfway (its afterAll may then have nothing to stop).
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { disposeStartedNodes } from '../../dev/lib/es-node.mjs';
import { removeFileTempDirs } from '../helpers/file-temp';
import { releaseSharedNode } from '../helpers/shared-node';

process.env.SHARDECK_NODES_DIR = inject('nodesDir');
// The shared folder (change locks, the host journal of changes) of this file, not the machine's nor
// another file's: a journal left for the same port (a shared node, an earlier run) would show in
// this file's timelines, and two files run at once.
process.env.SHARDECK_LOCK_DIR ??= path.join(inject('nodesDir'), `locks-${process.pid}`);

afterAll(async () => {
  releaseSharedNode();
  await disposeStartedNodes();
  removeFileTempDirs();
}, 120_000);
