// The snapshot parsers and lines, on answers recorded from a real 8.19 node (test/fixtures/snapshots/:
// an fs repository r1 holding s1, SUCCESS, of logs-a, and s2-partial of logs-a and logs-b whose only
// shard could not be allocated; the restore of s1 as logs-a-restored; GET _slm/policy on the test
// distribution, which has no SLM).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { aliasesByIndex } from '../../src/domain/maintenance/aliases';
import {
  checkLocation,
  failureLines,
  holdingIndex,
  parseNodesPathRepo,
  parseRecovery,
  parseRepositories,
  parseSlmPolicies,
  parseSnapshotStatus,
  parseSnapshots,
  progressLine,
  recoveryLine,
  repositoryLine,
  resolveLocation,
  restoreRecoveries,
  slmLine,
  slmMissing,
  snapshotLine,
  snapshotOutcome,
} from '../../src/domain/snapshots';

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'snapshots', `${name}.json`), 'utf8'));

describe('repositories', () => {
  it('reads type and location of each', () => {
    const repos = parseRepositories(fixture('repositories'));
    expect(repos).toHaveLength(1);
    expect(repos[0]).toMatchObject({ name: 'r1', type: 'fs' });
    expect(repos[0].location).toMatch(/\/repo\/r1$/);
    expect(repositoryLine(repos[0])).toMatch(/^r1 \(fs \/.*\/repo\/r1\)$/);
  });
});

describe('snapshots of a repository', () => {
  const snaps = parseSnapshots(fixture('snapshots-r1'), 'r1');
  it('newest first, with state, shards ok/failed and the failure with its reason', () => {
    expect(snaps.map((s) => s.name)).toEqual(['s2-partial', 's1']);
    expect(parseSnapshots({ snapshots: [...fixture('snapshots-r1').snapshots].reverse() }, 'r1').map((s) => s.name)).toEqual([
      's2-partial',
      's1',
    ]);
    const [partial, ok] = snaps;
    expect(partial).toMatchObject({ state: 'PARTIAL', shards: { total: 2, ok: 1, failed: 1 }, includeGlobalState: false });
    expect(partial.failures).toEqual([
      { index: 'logs-b', shard: 0, reason: 'primary shard is not allocated', status: 'INTERNAL_SERVER_ERROR' },
    ]);
    expect(ok).toMatchObject({ state: 'SUCCESS', indices: ['logs-a'], shards: { total: 1, ok: 1, failed: 0 }, durationMs: 200 });
    expect(ok.startMs).toBe(1795654851398);
  });
  it('lines: state, indices, shards, size when read, start, duration; failures one line each', () => {
    expect(snapshotLine(snaps[1], 16800)).toEqual({
      text: 's1  SUCCESS  1 index  shards 1/1 ok  16.4kb  2026-11-26 01:00:51 UTC  200ms',
      tone: 'green',
    });
    expect(snapshotLine(snaps[0]).text).toBe('s2-partial  PARTIAL  2 indices  shards 1/2 ok, 1 failed  2026-11-26 01:01:27 UTC  0ms');
    expect(snapshotLine(snaps[0]).tone).toBe('yellow');
    expect(failureLines(snaps[0])).toEqual([{ text: 'logs-b[0]: primary shard is not allocated (INTERNAL_SERVER_ERROR)', tone: 'red' }]);
  });
  it('which snapshots hold a whole copy of an index: a partial one whose shard of it failed does not', () => {
    expect(holdingIndex(snaps, 'logs-a').map((s) => s.name)).toEqual(['s2-partial', 's1']);
    expect(holdingIndex(snaps, 'logs-b')).toEqual([]);
    expect(holdingIndex(snaps, 'other')).toEqual([]);
  });
  it('outcome of a snapshot for the exit code', () => {
    expect(snapshotOutcome(snaps[1])).toBe('ok');
    expect(snapshotOutcome(snaps[0])).toBe('partial');
    expect(snapshotOutcome({ state: 'FAILED', shards: { total: 1, ok: 0, failed: 1 } })).toBe('failed');
  });
});

describe('before a restore', () => {
  it("a snapshot's index details (shards, size) and an index's aliases now, a write alias marked", () => {
    expect(parseSnapshots(fixture('snapshot-index-details'), 'r')[0].indexDetails).toEqual({ 'logs-a': { shards: 1, bytes: 227 } });
    expect(snaps0().indexDetails).toBeUndefined();
    expect(aliasesByIndex(fixture('index-aliases'))).toEqual({
      'logs-a': [
        { name: 'extra', write: false },
        { name: 'logs', write: false },
        { name: 'logs-write', write: true },
      ],
    });
    expect(aliasesByIndex({})).toEqual({});
    // A malformed answer is read as no aliases, never as its characters or its array positions.
    expect(aliasesByIndex(['x'])).toEqual({});
    expect(aliasesByIndex({ 'logs-a': { aliases: 'logs' }, 'logs-b': { aliases: { w: 'yes' } } })).toEqual({
      'logs-a': [],
      'logs-b': [{ name: 'w', write: false }],
    });
  });
});
const snaps0 = () => parseSnapshots(fixture('snapshots-r1'), 'r1')[0];

describe('status and recovery', () => {
  it("a finished snapshot's size and progress", () => {
    const [s] = parseSnapshotStatus(fixture('status-s1'));
    expect(s).toMatchObject({ name: 's1', state: 'SUCCESS', incrementalBytes: 16800, processedBytes: 16800, totalBytes: 16800 });
    expect(s.shards).toMatchObject({ done: 1, total: 1, failed: 0 });
    expect(s.indices).toEqual([{ index: 'logs-a', done: 1, failed: 0, total: 1 }]);
    expect(progressLine(s).text).toBe('s1 SUCCESS: shards 1/1 done, 16.4kb of 16.4kb copied (100%), 200ms');
  });
  it('a restore is the SNAPSHOT recovery, with its source and bytes', () => {
    const all = parseRecovery(fixture('recovery-after-restore'));
    const restores = restoreRecoveries(all);
    expect(restores).toHaveLength(1);
    expect(restores[0]).toMatchObject({
      index: 'logs-a-restored',
      shard: 0,
      stage: 'DONE',
      bytesTotal: 16800,
      bytesRecovered: 16800,
      filesTotal: 16,
      source: { repository: 'r1', snapshot: 's1', index: 'logs-a' },
    });
    expect(restoreRecoveries(all, ['logs-a'])).toEqual([]);
    expect(recoveryLine(restores[0]).text).toBe('logs-a-restored[0] DONE 16.4kb/16.4kb (100%) 16/16 files');
    // Half way: rate and time left from what was recovered in the time so far.
    expect(recoveryLine({ ...restores[0], stage: 'INDEX', bytesRecovered: 8400, filesRecovered: 8, timeMs: 1000 }).text).toBe(
      'logs-a-restored[0] INDEX 8.20kb/16.4kb (50%) 8/16 files 8.20kb/s eta 1.0s',
    );
  });

  it('fitted to a width (the wizard beside a bar at 80 columns, the pane after a prefix): rate and time left stay', () => {
    const [done] = restoreRecoveries(parseRecovery(fixture('recovery-after-restore')));
    const half = { ...done, stage: 'INDEX', bytesRecovered: 8400, filesRecovered: 8, timeMs: 120 };
    const full = 'logs-a-restored[0] INDEX 8.20kb/16.4kb (50%) 8/16 files 68.4kb/s eta 120ms';
    expect(recoveryLine(half, 200).text).toBe(full);
    // First the percent goes (the bar beside it shows it), then the files, then the stage; then
    // the name is cut in the middle, but not below 12 columns: the bytes go instead.
    expect(recoveryLine(half, full.length - 1).text).toBe('logs-a-restored[0] INDEX 8.20kb/16.4kb 8/16 files 68.4kb/s eta 120ms');
    expect(recoveryLine(half, 61).text).toBe('logs-a-restored[0] INDEX 8.20kb/16.4kb 68.4kb/s eta 120ms');
    expect(recoveryLine(half, 55).text).toBe('logs-a-restored[0] 8.20kb/16.4kb 68.4kb/s eta 120ms');
    expect(recoveryLine(half, 50).text).toBe('logs-a…estored[0] 8.20kb/16.4kb 68.4kb/s eta 120ms');
    expect(recoveryLine(half, 45).text).toBe('logs-a-restored[0] 68.4kb/s eta 120ms');
    expect(recoveryLine(half, 34).text).toBe('logs-…stored[0] 68.4kb/s eta 120ms');
    for (const w of [80, 61, 50, 45, 40, 34]) {
      const t = recoveryLine(half, w).text;
      expect(t.length).toBeLessThanOrEqual(w);
      expect(t).toMatch(/68\.4kb\/s eta 120ms$/);
    }
    // Narrower still: cut at the end, like any text.
    expect(recoveryLine(half, 20).text).toBe('logs-a-restored[0] …');
    // The pane's prefix counts in the width and is kept whole.
    expect(recoveryLine(half, 60, 'restore nightly-1: ').text).toBe('restore nightly-1: logs-a-restored[0] 68.4kb/s eta 120ms');
    // A finished shard has no rate: nothing to keep but what fits.
    expect(recoveryLine(done, 40).text).toBe('logs-a-restored[0] DONE 16.4kb/16.4kb');
  });
});

describe('SLM', () => {
  it('the test node has none: its 405 means "no SLM", said in the line', () => {
    expect(fixture('slm-405').status).toBe(405);
    expect(slmMissing(405)).toBe(true);
    expect(slmMissing(500)).toBe(false);
    expect(slmLine({ available: false, reason: 'this node has no snapshot lifecycle management' }).text).toBe(
      'SLM: this node has no snapshot lifecycle management',
    );
  });
  it('policies with their last success and failure', () => {
    const slm = parseSlmPolicies({
      nightly: {
        policy: { name: '<nightly-{now/d}>', schedule: '0 30 1 * * ?', repository: 'r1' },
        last_success: { time: 1795654851398 },
        last_failure: { time: 1795654887044, details: 'boom' },
        next_execution_millis: 1795700000000,
      },
    });
    expect(slm).toMatchObject({ available: true, policies: [{ id: 'nightly', repository: 'r1', lastSuccessMs: 1795654851398 }] });
    expect(slmLine(slm)).toEqual({
      text: 'SLM: nightly (0 30 1 * * ? -> r1; last ok 2026-11-26 01:00:51 UTC; last failure 2026-11-26 01:01:27 UTC: boom)',
      tone: 'red',
    });
    expect(slmLine(parseSlmPolicies({})).text).toBe('SLM: no policy: snapshots are taken only by hand');
  });
});

describe('path.repo', () => {
  const nodes = parseNodesPathRepo(fixture('nodes-path-repo'));
  const root = nodes[0]?.paths[0];
  it("reads each node's path.repo", () => {
    expect(nodes).toHaveLength(1);
    expect(root).toMatch(/\/repo$/);
  });
  it('accepts a folder under it, absolute or relative; refuses one outside or climbing out', () => {
    expect(checkLocation(`${root}/r2`, nodes)).toBeUndefined();
    expect(checkLocation('r2', nodes)).toBeUndefined();
    expect(resolveLocation('r2/./x', nodes[0].paths)).toBe(`${root}/r2/x`);
    expect(checkLocation('/tmp/elsewhere', nodes)).toMatch(/^\/tmp\/elsewhere is not under path\.repo \(snapdev: .*\/repo\)/);
    expect(checkLocation(`${root}/../escape`, nodes)).toMatch(/not under path\.repo/);
    expect(checkLocation('../escape', nodes)).toMatch(/not under path\.repo/);
    expect(checkLocation(`${root}-sibling`, nodes)).toMatch(/not under path\.repo/);
    // Above the root there is nothing to climb to: refused, not read as the root.
    expect(resolveLocation('/../etc', ['/'])).toBeNull();
    expect(resolveLocation('/x/../y', ['/'])).toBe('/y');
  });
  it('a node without path.repo is named', () => {
    expect(checkLocation('/x', [{ node: 'n1', paths: [] }])).toMatch(/^n1 has no path\.repo/);
    expect(checkLocation('', nodes)).toMatch(/--location/);
  });
});
