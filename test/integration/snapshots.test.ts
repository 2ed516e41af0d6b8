// Snapshots on a real node through the built CLI: the harness's path.repo, the snapshots listing,
// repositories added (a good and a bad location), verified and removed, a snapshot taken and
// followed, documents deleted, restored beside and in place with the counts verified.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ES_USER } from '../../dev/lib/es-node.mjs';
import { isRoot } from '../../dev/lib/paths.mjs';
import { ensureBuilt } from '../helpers/run-cli';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

let node: SharedNode;
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
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-snapshots-'));
  await indexWith('logs-a', 20);
}, 180_000);

afterAll(() => {
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
    expect(
      (await es('PUT', '/_snapshot/listing/first?wait_for_completion=true', { indices: 'logs-a', include_global_state: false })).status,
    ).toBe(200);
    // A shard that cannot be allocated: the second snapshot is PARTIAL with that shard's failure.
    await es('PUT', '/unplaced?wait_for_active_shards=0', {
      settings: { number_of_replicas: 0, 'index.routing.allocation.require._name': 'nowhere' },
    });
    const partial = await es('PUT', '/_snapshot/listing/second?wait_for_completion=true', {
      indices: 'logs-a,unplaced',
      partial: true,
      // No feature states: a node that ran other files holds system indices (.tasks) they would add.
      include_global_state: false,
    });
    expect(partial.body.snapshot.state).toBe('PARTIAL');
    const r = await cli(['snapshots', 'listing']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`listing (fs ${loc}): 2 snapshots`);
    expect(lines[1]).toMatch(
      /^ {2}second {2}PARTIAL {2}2 indices {2}shards 1\/2 ok, 1 failed {2}\S+ {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
    );
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

describe('shardeck snapshot repo', () => {
  it('add: a location outside path.repo is refused before anything is sent, naming path.repo (exit 64)', async () => {
    const r = await cli(['snapshot', 'repo', 'add', 'outside', '--location', '/tmp/not-under-path-repo', '--yes']);
    expect(r.code, r.stderr).toBe(64);
    expect(r.stderr).toContain(`/tmp/not-under-path-repo is not under path.repo (${node.name}: ${node.repoDir})`);
    expect((await es('GET', '/_snapshot/outside')).status).toBe(404);
    expect(auditLinesIn(cfg).filter((l) => l.includes('outside'))).toEqual([]);
  });

  it('add, verify and remove: previewed, audited, read back', async () => {
    const loc = path.join(node.repoDir, 'backups');
    const add = await cli(['snapshot', 'repo', 'add', 'backups', '--location', loc, '--yes']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('PUT /_snapshot/backups');
    expect(add.stdout).toContain(`ok: repository backups is registered at ${loc}`);
    expect((await es('GET', '/_snapshot/backups')).body.backups.settings.location).toBe(loc);
    const again = await cli(['snapshot', 'repo', 'add', 'backups', '--location', loc, '--yes']);
    expect(again.code).toBe(64);
    expect(again.stderr).toMatch(/already registered/);
    const verify = JSON.parse((await cli(['snapshot', 'repo', 'verify', 'backups', '--yes', '--json'])).stdout);
    expect(verify).toMatchObject({ ok: true, action: 'repo-verify', verifiedBy: [node.name] });
    await es('PUT', '/_snapshot/doomed', { type: 'fs', settings: { location: path.join(node.repoDir, 'doomed') } });
    const rm = await cli(['snapshot', 'repo', 'remove', 'doomed', '--yes']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toContain('ok: repository doomed is no longer registered');
    expect((await es('GET', '/_snapshot/doomed')).status).toBe(404);
    const missing = await cli(['snapshot', 'repo', 'remove', 'doomed', '--yes']);
    expect(missing.code).toBe(5);
    const audited = auditLinesIn(cfg).map((l) => JSON.parse(l) as { target?: string; request?: { method: string; path: string } });
    expect(audited.filter((a) => a.request).map((a) => `${a.request!.method} ${a.request!.path}`)).toEqual([
      'PUT /_snapshot/backups',
      'POST /_snapshot/backups/_verify',
      'DELETE /_snapshot/doomed',
    ]);
  });
});

describe('shardeck snapshot create', () => {
  it('takes exactly the indices the pattern names, follows it to its end (progress on stderr), exit 0', async () => {
    await indexWith('logs-b', 5);
    await indexWith('other', 3);
    const r = await cli(['snapshot', 'create', 'backups', '--indices', 'logs-*', '--name', 'before', '--wait', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"indices":"logs-a,logs-b"');
    expect(r.stderr).toContain('started; following it to its end...');
    expect(r.stdout).toMatch(/^before {2}SUCCESS {2}2 indices {2}shards 2\/2 ok/m);
    const got = (await es('GET', '/_snapshot/backups/before')).body.snapshots[0];
    expect([...got.indices].sort()).toEqual(['logs-a', 'logs-b']);
    expect(got.include_global_state).toBe(false);
  });

  it('a primary that cannot be allocated: refused whole without --partial (exit 5); with it PARTIAL, its failure shown, exit 1', async () => {
    await es('PUT', '/unplaced-2?wait_for_active_shards=0', {
      settings: { number_of_replicas: 0, 'index.routing.allocation.require._name': 'nowhere' },
    });
    const whole = await cli(['snapshot', 'create', 'backups', '--indices', 'logs-a,unplaced-2', '--name', 'whole', '--wait', '--yes']);
    expect(whole.code).toBe(5);
    expect(whole.stderr).toMatch(/unassigned primary shards/);
    const r = await cli([
      'snapshot',
      'create',
      'backups',
      '--indices',
      'logs-a,unplaced-2',
      '--name',
      'part',
      '--partial',
      '--wait',
      '--yes',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^part {2}PARTIAL/m);
    expect(r.stdout).toContain('unplaced-2[0]: primary shard is not allocated');
    expect(r.stdout).toContain('partial: 1 of 2 shards failed');
    await es('DELETE', '/unplaced-2');
  });

  it('an index name holding ESC is escaped in the preview and the listing, exact in --json', async () => {
    const hostile = 'esc-\u001b[2j-idx';
    await indexWith(hostile, 1);
    const r = await cli(['snapshot', 'create', 'backups', '--indices', 'esc-*', '--name', 'hostile', '--wait', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('\u001b');
    expect(r.stdout).toContain('esc-\\u001b[2j-idx');
    const j = JSON.parse((await cli(['snapshots', 'backups', '--json'])).stdout);
    expect(j.repositories[0].snapshots.find((s: { name: string }) => s.name === 'hostile').indices).toEqual([hostile]);
  });
});

describe('shardeck restore', () => {
  // logs-a held 20 documents when "before" was taken (above); 5 are deleted since.
  const deleteSome = async () => {
    const r = await es('POST', '/logs-a/_delete_by_query?refresh=true', { query: { range: { n: { gte: 15 } } } });
    expect(r.body.deleted).toBe(5);
  };

  it('beside: the pattern resolved to the exact list, restored under the suffix, the original untouched, counts shown', async () => {
    await deleteSome();
    expect(await count('logs-a')).toBe(15);
    const r = await cli(['restore', 'backups', 'before', '--indices', 'logs-a*', '--rename-suffix=-back', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}logs-a -> logs-a-back \(1 shard, \S+ in the snapshot\) \(the original holds 15 documents now\)$/m);
    expect(r.stdout).toContain('"indices":"logs-a","include_global_state":false,"rename_pattern":"(.+)","rename_replacement":"$1-back"');
    expect(r.stderr).toMatch(/logs-a-back\[0\] DONE \S+ \(100%\)/);
    expect(r.stdout).toContain('health of the restored indices: green');
    expect(r.stdout).toContain('logs-a-back: 20 documents restored (the original held 15 before; +5)');
    expect(await count('logs-a-back')).toBe(20);
    expect(await count('logs-a')).toBe(15);
    // A second restore under the same suffix would collide: refused before sending.
    const again = await cli(['restore', 'backups', 'before', '--indices', 'logs-a', '--rename-suffix=-back', '--yes']);
    expect(again.code).toBe(64);
    expect(again.stderr).toContain('logs-a-back already exists');
  });

  it('a dot index the snapshot holds: refused by name without --include-system (the refusal names the flag and the form field), restored with it', async () => {
    await indexWith('.ops-notes', 3);
    expect(
      (await es('PUT', '/_snapshot/backups/with-dot?wait_for_completion=true', { indices: '.ops-notes', include_global_state: false }))
        .status,
    ).toBe(200);
    const bare = await cli(['restore', 'backups', 'with-dot', '--indices', '.ops-notes', '--yes']);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toContain(
      '".ops-notes" names system (dot) indices: add --include-system (in the console: "system indices" included)',
    );
    const r = await cli(['restore', 'backups', 'with-dot', '--indices', '.ops-notes', '--include-system', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(await count('.ops-notes-restored')).toBe(3);
  });

  it('beside with a suffix holding $0: restored under exactly the previewed name, not a group reference (issue 40 N6)', async () => {
    // rename_replacement is a Java replacement string: sent raw, "$0" is the whole match and the node makes logs-a-rlogs-a.
    const r = await cli(['restore', 'backups', 'before', '--indices', 'logs-a', '--rename-suffix=-r$0', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}logs-a -> logs-a-r\$0 \(1 shard/m);
    expect(r.stdout).toContain('"rename_replacement":"$1-r\\\\$0"');
    expect(await count('logs-a-r$0')).toBe(20);
    expect((await es('GET', '/_cat/indices/logs-a-r*?h=index&format=json')).body).toEqual([{ index: 'logs-a-r$0' }]);
    // The "already exists" check looks at the name the node made.
    const again = await cli(['restore', 'backups', 'before', '--indices', 'logs-a', '--rename-suffix=-r$0', '--yes']);
    expect(again.code).toBe(64);
    expect(again.stderr).toContain('logs-a-r$0 already exists');
  });

  it('in place: --yes alone sends nothing (exit 5); with the typed names it closes, restores, verifies the counts', async () => {
    const before = auditLinesIn(cfg).length;
    const bare = await cli(['restore', 'backups', 'before', '--indices', 'logs-a', '--replace', '--yes']);
    expect(bare.code).toBe(5);
    expect(bare.stderr).toContain('add --accept-data-loss logs-a to --yes; nothing was sent');
    const wrong = await cli(['restore', 'backups', 'before', '--indices', 'logs-a', '--replace', '--yes', '--accept-data-loss', 'logs-b']);
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toMatch(/type "logs-a" to confirm/);
    expect(auditLinesIn(cfg).length).toBe(before);
    expect(await count('logs-a')).toBe(15);
    const r = await cli([
      'restore',
      'backups',
      'before',
      '--indices',
      'logs-a',
      '--replace',
      '--yes',
      '--accept-data-loss',
      'logs-a',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ok: true, mode: 'replace', includeGlobalState: false, report: { green: true } });
    expect(j.requests.map((q: { method: string; path: string }) => `${q.method} ${q.path}`)).toEqual([
      'POST /logs-a/_close',
      'POST /_snapshot/backups/before/_restore?wait_for_completion=false',
    ]);
    expect(j.report.counts).toEqual([{ index: 'logs-a', target: 'logs-a', before: 15, after: 20 }]);
    expect(await count('logs-a')).toBe(20);
  });

  it('a snapshot or index it does not hold: exit 5 / 64, nothing sent', async () => {
    expect((await cli(['restore', 'backups', 'nope', '--indices', 'logs-a'])).code).toBe(5);
    const r = await cli(['restore', 'backups', 'before', '--indices', 'other', '--yes']);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain('the snapshot holds no index matching "other" (it holds: logs-a, logs-b)');
    expect((await cli(['restore', 'backups', 'before', '--indices', '*', '--yes'])).code).toBe(64);
  });
});

describe('shardeck restore: aliases', () => {
  // Which indices each alias of these names is on, as the cluster has it.
  const aliasMap = async (...names: string[]) => {
    const rows = (await es('GET', `/_cat/aliases/${names.join(',')}?format=json&h=alias,index`)).body as { alias: string; index: string }[];
    const out: Record<string, string[]> = {};
    for (const r of rows) (out[r.alias] ??= []).push(r.index);
    for (const k of Object.keys(out)) out[k].sort();
    return out;
  };

  beforeAll(async () => {
    await indexWith('al-a', 4);
    expect((await es('POST', '/_aliases', { actions: [{ add: { index: 'al-a', alias: 'al' } }] })).status).toBe(200);
    expect((await es('PUT', '/_snapshot/aliased', { type: 'fs', settings: { location: path.join(node.repoDir, 'aliased') } })).status).toBe(
      200,
    );
    const snap = await es('PUT', '/_snapshot/aliased/with-al?wait_for_completion=true', { indices: 'al-a', include_global_state: false });
    expect(snap.body.snapshot.state).toBe('SUCCESS');
  }, 120_000);

  it('beside leaves the aliases out by default and says why; --include-aliases puts the alias on the original AND the copy', async () => {
    const dry = await cli(['restore', 'aliased', 'with-al', '--indices', 'al-a', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const j = JSON.parse(dry.stdout);
    expect(j).toMatchObject({ includeAliases: false, indices: [{ index: 'al-a', aliasesNow: [{ name: 'al', write: false }], shards: 1 }] });
    expect(j.notes[0]).toBe(
      'aliases: left out (now al-a: al): on the copies they would point at both and searches see both; --include-aliases adds them',
    );
    expect(j.requests[0].body).toMatchObject({ include_aliases: false });

    const plain = await cli(['restore', 'aliased', 'with-al', '--indices', 'al-a', '--rename-suffix=-plain', '--yes']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('aliases: left out (now al-a: al)');
    expect(await aliasMap('al')).toEqual({ al: ['al-a'] });

    const withAl = await cli(['restore', 'aliased', 'with-al', '--indices', 'al-a', '--rename-suffix=-with', '--include-aliases', '--yes']);
    expect(withAl.code, withAl.stderr).toBe(0);
    expect(withAl.stdout).toContain(
      'aliases: put on the copies too: one an original still holds (now al-a: al) points at both, and searches see both',
    );
    expect(withAl.stdout).toContain('"include_aliases":true');
    // What the preview warned: the alias is on both, and a search through it counts both.
    expect(await aliasMap('al')).toEqual({ al: ['al-a', 'al-a-with'] });
    expect(await count('al')).toBe(8);
    expect(await aliasMap('al-a-plain')).toEqual({});

    const both = await cli(['restore', 'aliased', 'with-al', '--indices', 'al-a', '--replace', '--include-aliases']);
    expect(both.code).toBe(64);
  });

  it("in place: the snapshot's aliases replace the current ones (one added since dropped, one removed since back), as the preview says", async () => {
    await es('POST', '/_aliases', {
      actions: [{ remove: { index: 'al-a', alias: 'al' } }, { add: { index: 'al-a', alias: 'since' } }],
    });
    const r = await cli(['restore', 'aliased', 'with-al', '--indices', 'al-a', '--replace', '--yes', '--accept-data-loss', 'al-a']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "aliases: the snapshot's replace the current ones (now al-a: since): added since are dropped, removed since return",
    );
    expect(r.stdout).toContain('"include_aliases":true');
    const all = (await es('GET', '/al-a/_alias')).body['al-a'].aliases;
    expect(Object.keys(all)).toEqual(['al']);
    expect(await aliasMap('since')).toEqual({});
  });
});

describe('shardeck restore cancel', () => {
  it('a throttled restore: refused for an index not restoring or a pattern; the typed names delete exactly the restoring index', async () => {
    // 300 documents of ~1 KB: restored at 2 KB/s it runs for minutes, long enough to cancel.
    await es('PUT', '/slow-a', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    const lines = Array.from({ length: 300 }, (_, i) => `{"index":{"_id":"${i}"}}\n{"text":"${`word${i} `.repeat(120)}"}\n`).join('');
    const bulk = await fetch(`${node.url}/slow-a/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines,
    });
    expect(bulk.status).toBe(200);
    const loc = path.join(node.repoDir, 'slow');
    expect((await es('PUT', '/_snapshot/slow', { type: 'fs', settings: { location: loc, max_restore_bytes_per_sec: '2kb' } })).status).toBe(
      200,
    );
    expect(
      (await es('PUT', '/_snapshot/slow/s?wait_for_completion=true', { indices: 'slow-a', include_global_state: false })).body.snapshot
        .state,
    ).toBe('SUCCESS');
    const started = await es('POST', '/_snapshot/slow/s/_restore', {
      indices: 'slow-a',
      rename_pattern: '(.+)',
      rename_replacement: '$1-copy',
      include_aliases: false,
    });
    expect(started.status).toBe(200);
    await waitUntil(
      'the throttled restore to start',
      async () => (await es('GET', '/slow-a-copy/_recovery?active_only=true')).body,
      (b) => b?.['slow-a-copy']?.shards?.[0]?.type === 'SNAPSHOT',
      { timeoutMs: 60_000 },
    );
    const before = auditLinesIn(cfg).length;

    const notRestoring = await cli(['restore', 'cancel', 'slow-a', '--yes']);
    expect(notRestoring.code).toBe(5);
    expect(notRestoring.stderr).toContain(
      'slow-a is not being restored (no running restore of it); restoring now: slow-a-copy; nothing was sent',
    );
    expect((await cli(['restore', 'cancel', 'slow-*', '--yes'])).code).toBe(64);
    const dry = await cli(['restore', 'cancel', 'slow-a-copy', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('DELETE /slow-a-copy');
    expect(dry.stdout).toContain(
      'cancel the restore from slow/s: delete slow-a-copy while it is restored (the originals are untouched; the snapshot stays)',
    );
    expect(auditLinesIn(cfg).length).toBe(before);

    const r = await cli(['restore', 'cancel', 'slow-a-copy', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      sent: true,
      repository: 'slow',
      snapshot: 's',
      indices: ['slow-a-copy'],
      requests: [{ method: 'DELETE', path: '/slow-a-copy' }],
      results: [{ ok: true, verified: { ok: true, message: 'deleted: slow-a-copy' } }],
    });
    const audited = auditLinesIn(cfg)
      .slice(before)
      .map((l) => JSON.parse(l) as { request?: { method: string; path: string } })
      .filter((a) => a.request);
    expect(audited.map((a) => `${a.request!.method} ${a.request!.path}`)).toEqual(['DELETE /slow-a-copy']);
    expect((await es('GET', '/slow-a-copy')).status).toBe(404);
    expect(await count('slow-a')).toBe(300);
    expect((await es('GET', '/_recovery?active_only=true')).body).toEqual({});
  }, 240_000);
});

describe('shardeck restore: not green in time', () => {
  it('the restore applied but still running at --timeout: exit 5, the applied restore in the results, the copy not counted (503)', async () => {
    // The throttled repository of the cancel test above (2 KB/s): this restore runs for minutes.
    const r = await cli(['restore', 'slow', 's', '--indices', 'slow-a', '--rename-suffix=-late', '--yes', '--json', '--timeout', '2']);
    expect(r.code, r.stderr).toBe(5);
    const j = JSON.parse(r.stdout);
    // A primary restored as a new index is yellow while it is copied (Elasticsearch's health rule
    // for a restore), yet it cannot be counted (503): the count was the failure before.
    expect(j).toMatchObject({
      ok: false,
      error: 'the restored indices are yellow, not green, after 2s',
      results: [{ ok: true, verified: { ok: true, message: 'restoring or restored: slow-a-late' } }],
      report: { green: false, health: 'yellow', counts: [{ index: 'slow-a', target: 'slow-a-late', before: 300, after: null }] },
    });
    // Then the restore is cancelled (its index deleted), as the operator would.
    expect((await es('DELETE', '/slow-a-late')).status).toBe(200);
  }, 120_000);
});

describe('forcemerge --snapshot-first', () => {
  it('a snapshot of exactly the matched index, previewed first, taken whole before the merge; audited in that order', async () => {
    await indexWith('merge-a', 40);
    await es('POST', '/merge-a/_delete_by_query?refresh=true', { query: { range: { n: { lt: 10 } } } });
    const repo = path.join(node.repoDir, 'before-changes');
    expect((await es('PUT', '/_snapshot/before-changes', { type: 'fs', settings: { location: repo } })).status).toBe(200);
    // A repository that is not registered: nothing sent, exit 5.
    const before = auditLinesIn(cfg).length;
    const missing = await cli(['forcemerge', 'merge-a', '--expunge-deletes', '--snapshot-repo', 'nope', '--yes']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/no snapshot repository nope \(registered: .*before-changes.*\); nothing was sent/);
    expect(auditLinesIn(cfg).length).toBe(before);

    const dry = await cli(['forcemerge', 'merge-a', '--expunge-deletes', '--snapshot-repo', 'before-changes', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const d = JSON.parse(dry.stdout);
    expect(d.requests.map((q: { method: string; path: string }) => `${q.method} ${q.path.replace(/\d{8}-\d{6}/, 'T')}`)).toEqual([
      'PUT /_snapshot/before-changes/before-merge-merge-a-T?wait_for_completion=false',
      'POST /merge-a/_flush',
      'POST /merge-a/_forcemerge?only_expunge_deletes=true&wait_for_completion=false',
    ]);

    const r = await cli(['forcemerge', 'merge-a', '--expunge-deletes', '--snapshot-repo', 'before-changes', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.snapshotFirst).toMatchObject({
      repository: 'before-changes',
      name: expect.stringMatching(/^before-merge-merge-a-\d{8}-\d{6}$/),
      taken: true,
      snapshot: { state: 'SUCCESS', indices: ['merge-a'], shards: { ok: 1, failed: 0 } },
    });
    // The snapshot holds the 30 documents as they were before the merge.
    const held = await es('GET', `/_snapshot/before-changes/${j.snapshotFirst.name}`);
    expect(held.body.snapshots[0].indices).toEqual(['merge-a']);
    const audited = auditLinesIn(cfg)
      .slice(before)
      .map((l) => JSON.parse(l) as { request?: { method: string; path: string } })
      .filter((a) => a.request)
      .map((a) => `${a.request!.method} ${a.request!.path.split('?')[0]}`);
    expect(audited).toEqual([`PUT /_snapshot/before-changes/${j.snapshotFirst.name}`, 'POST /merge-a/_flush', 'POST /merge-a/_forcemerge']);
    expect(await count('merge-a')).toBe(30);
  }, 180_000);
});
