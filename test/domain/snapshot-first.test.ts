// "Snapshot first" before a delete, a merge or a repair, as plain values: the name after the change,
// the request of exactly the change's indices, and how the snapshot's end decides whether the change
// may go on (the screens are in test/snapshots/wizards.test.tsx, the real node in delete-wizard-ui).
import { describe, expect, it } from 'vitest';
import type { MutationPlan } from '../../src/domain/mutation/plan';
import type { SnapshotInfo } from '../../src/domain/snapshots';
import {
  checkName,
  snapshotFirstName,
  snapshotFirstRequest,
  snapshotFirstVerdict,
  type SnapshotState,
} from '../../src/domain/wizards/snapshot';

const NOW = Date.UTC(2026, 10, 26, 4, 30, 5);
const repos = [
  { name: 'backups', type: 'fs', location: '/repo/b', settings: {} },
  { name: 'zz', type: 'fs', location: '/repo/z', settings: {} },
];
const info = (over: Partial<SnapshotInfo>): SnapshotInfo => ({
  repository: 'backups',
  name: 'before-delete-logs-a-20261126-043005',
  uuid: 'u',
  state: 'SUCCESS',
  indices: ['logs-a'],
  dataStreams: [],
  includeGlobalState: false,
  shards: { total: 2, ok: 2, failed: 0 },
  durationMs: 1200,
  startMs: NOW,
  failures: [],
  ...over,
});
const plan = { summary: 's' } as MutationPlan;
const result = { summary: 's', ok: true, message: 'applied' };

describe('snapshotFirstName', () => {
  it('names the change, the index and the time, and is a valid snapshot name', () => {
    expect(snapshotFirstName('delete', ['logs-a'], NOW)).toBe('before-delete-logs-a-20261126-043005');
    expect(snapshotFirstName('merge', ['a', 'b', 'c'], NOW)).toBe('before-merge-a-and-2-more-20261126-043005');
  });

  it('an index name that would make an invalid snapshot name is made valid (lower case, no refused character, cut)', () => {
    for (const index of ['Logs A', 'x:y', 'a#b,c', `${'l'.repeat(300)}`, 'ünï\u0007code']) {
      const name = snapshotFirstName('repair', [index], NOW);
      expect(checkName('snapshot', name), name).toBeUndefined();
      expect(name.startsWith('before-repair-')).toBe(true);
    }
  });
});

describe('snapshotFirstRequest', () => {
  it('exactly the change indices, in the first repository, followed to its end', () => {
    expect(snapshotFirstRequest('delete', ['logs-a', 'logs-b'], repos, NOW)).toEqual({
      kind: 'create',
      repository: 'backups',
      name: 'before-delete-logs-a-and-1-more-20261126-043005',
      indices: 'logs-a,logs-b',
      wait: true,
      partial: false,
    });
    expect(snapshotFirstRequest('repair', ['logs-a'], repos, NOW, true)?.partial).toBe(true);
  });

  it('no repository or no index: nothing offered', () => {
    expect(snapshotFirstRequest('delete', ['logs-a'], [], NOW)).toBeUndefined();
    expect(snapshotFirstRequest('delete', [], repos, NOW)).toBeUndefined();
  });
});

describe('snapshotFirstVerdict', () => {
  const req = snapshotFirstRequest('delete', ['logs-a'], repos, NOW)!;
  const done = (snapshot: SnapshotInfo): SnapshotState => ({ phase: 'done', facts: { repositories: repos }, plan, result, snapshot });

  it('every shard in: taken, with its line', () => {
    const v = snapshotFirstVerdict(done(info({})), req);
    expect(v).toEqual({ kind: 'taken', line: 'snapshot taken (2/2 shards): backups/before-delete-logs-a-20261126-043005' });
  });

  it('PARTIAL or FAILED: stopped, with each failed shard and its reason', () => {
    const failures = [{ index: 'logs-a', shard: 1, reason: 'primary shard is not allocated', status: 'INTERNAL_SERVER_ERROR' }];
    const partial = snapshotFirstVerdict(done(info({ state: 'PARTIAL', shards: { total: 2, ok: 1, failed: 1 }, failures })), req);
    expect(partial.kind).toBe('stopped');
    expect(partial.kind === 'stopped' && partial.lines).toEqual([
      'snapshot PARTIAL, 1/2 shards ok, 1 failed: backups/before-delete-logs-a-20261126-043005',
      'logs-a[1]: primary shard is not allocated (INTERNAL_SERVER_ERROR)',
    ]);
    const failed = snapshotFirstVerdict(done(info({ state: 'FAILED', shards: { total: 1, ok: 0, failed: 1 }, failures })), req);
    expect(failed.kind === 'stopped' && failed.lines[0]).toMatch(/^snapshot FAILED, 0\/1 shards ok, 1 failed: /);
  });

  it('refused, failed to send, or its end not read: stopped with the reason', () => {
    expect(snapshotFirstVerdict({ phase: 'refused', kind: 'input', message: 'no such index [x]' }, req)).toEqual({
      kind: 'stopped',
      lines: ['snapshot backups/before-delete-logs-a-20261126-043005 not taken: no such index [x]'],
    });
    expect(snapshotFirstVerdict({ phase: 'failed', message: 'HTTP 500' }, req).kind).toBe('stopped');
    expect(snapshotFirstVerdict({ phase: 'done', facts: { repositories: repos }, plan, result }, req).kind).toBe('stopped');
  });

  it('loading, sending and following: running (the change waits)', () => {
    expect(snapshotFirstVerdict({ phase: 'loading' }, req).kind).toBe('running');
    expect(snapshotFirstVerdict({ phase: 'applying', facts: { repositories: repos }, plan }, req).kind).toBe('running');
    expect(snapshotFirstVerdict({ phase: 'following', facts: { repositories: repos }, plan, result }, req)).toEqual({
      kind: 'running',
      lines: ['taking the snapshot backups/before-delete-logs-a-20261126-043005 first…', 'started: waiting for its first progress…'],
    });
  });
});
