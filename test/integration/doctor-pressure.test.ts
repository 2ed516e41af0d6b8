// Issue 41's pressure rules on a real 8.19 node of its own made sick on purpose (its write pool of
// one thread with a queue of one: node settings, so not a shared node): the doctor runs while bulk
// requests keep coming, and creates of a document that exists (version conflicts). The write queue, full
// in both reads, is pressure.queue and the backlog (with the hot threads read only then); the
// documents that fail to index between the two reads are pressure.index-failures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { SICK_WRITE_POOL } from '../../dev/lib/sick-node.mjs';
import { esCall } from '../helpers/real-node';
import { ensureBuilt, runCli } from '../helpers/run-cli';

let node: Awaited<ReturnType<typeof startNode>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-doctor-pressure-'));
const env = { SHARDECK_CONFIG_DIR: path.join(dir, 'config'), NO_COLOR: '1' };

interface Finding {
  id: string;
  severity: string;
  finding: string;
  evidence: string[];
}

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'doctor-pressure', settings: SICK_WRITE_POOL });
  await esCall(node.url, 'PUT', '/service_v9_flood', {
    settings: { number_of_shards: 2, number_of_replicas: 0 },
    mappings: { properties: { n: { type: 'long' } } },
  });
}, 300_000);

afterAll(async () => {
  await node?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Bulk requests, a few at once, and creates of one id that exists, until stopped. */
function flood(): { stop: () => Promise<void> } {
  let running = true;
  const good = Array.from({ length: 50 }, (_, i) => `{"index":{}}\n{"n":${i}}\n`).join('');
  const lane = async () => {
    while (running)
      await fetch(`${node.url}/service_v9_flood/_bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: good,
      }).then((r) => r.arrayBuffer());
  };
  // A create of an id that exists fails in the engine (a version conflict): counted in index_failed
  // (a document refused while parsed, a mapping conflict, is not: seen on 8.19).
  const conflicts = async () => {
    while (running)
      await fetch(`${node.url}/service_v9_flood/_create/dup`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"n":1}',
      }).then((r) => r.arrayBuffer());
  };
  const lanes = [...Array.from({ length: 10 }, lane), conflicts()];
  return {
    stop: async () => {
      running = false;
      await Promise.all(lanes);
    },
  };
}

it('while bulks keep coming: the write queue full in both reads (pressure.queue, tasks.backlog with hot threads) and indexing failures in the window', async () => {
  const f = flood();
  let byId: Record<string, Finding> = {};
  try {
    // The queue is full most of the time, not at every instant (less often on a loaded machine,
    // where the test's own lanes get less CPU: a fresh run saw three runs miss it), and the hot
    // threads are a sample that may catch no busy write thread (a fresh run's backlog had none): up to eight.
    for (let i = 0; i < 8; i++) {
      const r = await runCli(['doctor', '--json', '--url', node.url], { env });
      expect(r.stdout, r.stderr).not.toBe('');
      byId = Object.fromEntries((JSON.parse(r.stdout).findings as Finding[]).map((x) => [x.id, x]));
      const backlog = byId['tasks.backlog'];
      if (
        byId['pressure.queue.doctor-pressure'].severity === 'warn' &&
        backlog.severity === 'warn' &&
        backlog.evidence.some((e) => e.startsWith('hot thread on doctor-pressure: '))
      )
        break;
    }
  } finally {
    await f.stop();
  }
  // Full at least: the node may count one more in it than its size (a fresh run read "2 of 1").
  expect(byId['pressure.queue.doctor-pressure']).toMatchObject({
    severity: 'warn',
    finding: expect.stringMatching(/^the write queue holds [1-9]\d* of 1: requests are rejected \(429\) once it is full$/),
  });
  expect(byId['tasks.backlog']).toMatchObject({ severity: 'warn', finding: "work is queuing: doctor-pressure's write queue" });
  expect(byId['tasks.backlog'].evidence.some((e) => e.startsWith('hot thread on doctor-pressure: '))).toBe(true);
  const failures = byId['pressure.index-failures.doctor-pressure'];
  expect(failures.severity).toBe('warn');
  expect(failures.finding).toMatch(/^\d+ documents? failed to index in the last \d+\.\d s \(\d+\.\d a second\)$/);
  expect(failures.evidence[0]).toMatch(/^(\d+) failed of \d+ indexed in \d+\.\d s \(\1 of them version conflicts\)$/);
}, 180_000);

it('once the bulks stop: the queue empty, no failure in the window (the lifetime count stays as evidence)', async () => {
  const r = await runCli(['doctor', '--json', '--url', node.url], { env });
  const byId = Object.fromEntries((JSON.parse(r.stdout).findings as Finding[]).map((x) => [x.id, x]));
  expect(byId['pressure.queue.doctor-pressure'].severity).toBe('ok');
  expect(byId['tasks.backlog'].severity).toBe('ok');
  expect(byId['pressure.index-failures.doctor-pressure'].severity).toBe('ok');
  expect(byId['pressure.index-failures.doctor-pressure'].evidence[1]).toMatch(/^since the node started: [\d,]+ failed of [\d,]+$/);
}, 60_000);
