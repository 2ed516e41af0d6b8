// Snapshots on a real node through the built CLI: the harness's path.repo, the snapshots listing,
// repositories added (a good and a bad location), verified and removed, a snapshot taken and
// followed, documents deleted, restored beside and in place with the counts verified.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ES_USER, startNode } from '../../dev/lib/es-node.mjs';
import { isRoot } from '../../dev/lib/paths.mjs';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';

let node: Awaited<ReturnType<typeof startNode>>;
let cfg: string;

const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);
const count = async (index: string) => (await es('GET', `/${encodeURIComponent(index)}/_count`)).body.count as number;
/** An index of `n` documents, searchable at once. */
async function indexWith(index: string, n: number): Promise<void> {
  await es('PUT', `/${encodeURIComponent(index)}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const lines = Array.from({ length: n }, (_, i) => `{"index":{"_id":"${i}"}}\n{"n":${i}}\n`).join('');
  const res = await fetch(`${node.url}/${encodeURIComponent(index)}/_bulk?refresh=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: lines,
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'snapshots' });
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-snapshots-'));
  await indexWith('logs-a', 20);
}, 180_000);

afterAll(async () => {
  await node?.stop();
  fs.rmSync(cfg, { recursive: true, force: true });
});

describe('the harness', () => {
  it("gives the node a path.repo in its own folder, owned by the node's user", async () => {
    expect(node.repoDir).toBe(path.join(node.baseDir, 'repo'));
    const settings = (await es('GET', '/_nodes/settings?filter_path=nodes.*.settings.path.repo')).body;
    expect(Object.values(settings.nodes).map((n: any) => n.settings.path.repo)).toEqual([[node.repoDir]]);
    if (isRoot) {
      const { execFileSync } = await import('node:child_process');
      expect(execFileSync('stat', ['-c', '%U', node.repoDir], { encoding: 'utf8' }).trim()).toBe(ES_USER);
    }
  });
});

describe('shardeck snapshots', () => {
  it('with no repository says how to add one, and the node has no SLM', async () => {
    const r = await cli(['snapshots']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/no snapshot repository is registered: shardeck snapshot repo add NAME --location PATH/);
    expect(r.stdout).toMatch(/^SLM: this node has no snapshot lifecycle management \(GET _slm\/policy: HTTP 405\)$/m);
  });

  it('lists a repository and its snapshots newest first, a partial one with its failure; --json the same', async () => {
    const loc = path.join(node.repoDir, 'listing');
    expect((await es('PUT', '/_snapshot/listing', { type: 'fs', settings: { location: loc } })).status).toBe(200);
    expect((await es('PUT', '/_snapshot/listing/first?wait_for_completion=true', { indices: 'logs-a' })).status).toBe(200);
    // A shard that cannot be allocated: the second snapshot is PARTIAL with that shard's failure.
    await es('PUT', '/unplaced?wait_for_active_shards=0', { settings: { number_of_replicas: 0, 'index.routing.allocation.require._name': 'nowhere' } });
    const partial = await es('PUT', '/_snapshot/listing/second?wait_for_completion=true', { indices: 'logs-a,unplaced', partial: true });
    expect(partial.body.snapshot.state).toBe('PARTIAL');
    const r = await cli(['snapshots', 'listing']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`listing (fs ${loc}): 2 snapshots`);
    expect(lines[1]).toMatch(/^ {2}second {2}PARTIAL {2}2 indices {2}shards 1\/2 ok, 1 failed {2}\S+ {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(lines[2]).toBe('    unplaced[0]: primary shard is not allocated (INTERNAL_SERVER_ERROR)');
    expect(lines[3]).toMatch(/^ {2}first {2}SUCCESS {2}1 index {2}shards 1\/1 ok {2}\d/);
    const j = JSON.parse((await cli(['snapshots', '--json'])).stdout);
    expect(j).toMatchObject({ ok: true, command: 'snapshots', slm: { available: false } });
    expect(j.repositories[0].snapshots.map((s: { name: string }) => s.name)).toEqual(['second', 'first']);
    expect(j.repositories[0].snapshots[0].sizeBytes).toBeGreaterThan(0);
    expect(j.repositories[0].snapshots[0].failures[0]).toMatchObject({ index: 'unplaced', reason: 'primary shard is not allocated' });
    await es('DELETE', '/unplaced');
  });

  it('an unknown repository: exit 5, the error names the ones there are; --json its error shape', async () => {
    const r = await cli(['snapshots', 'nope']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/no snapshot repository named nope \(there are: listing\)/);
    const j = JSON.parse((await cli(['snapshots', 'nope', '--json'])).stdout);
    expect(j).toMatchObject({ ok: false, code: 5, command: 'snapshots' });
  });
});
