// Runs before every integration test file: its nodes go in this run's folder (test/setup/global.ts),
// and after the file every node it started is stopped and its folders removed, even when the
// file's own beforeAll failed halfway (its afterAll may then have nothing to stop).
import { afterAll, inject } from 'vitest';
import { disposeStartedNodes } from '../../dev/lib/es-node.mjs';

process.env.SHARDECK_NODES_DIR = inject('nodesDir');

afterAll(() => disposeStartedNodes(), 120_000);
