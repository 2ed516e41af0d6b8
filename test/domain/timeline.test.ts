import { describe, expect, it } from 'vitest';
import {
  changesFromAudit,
  clusterKey,
  entryText,
  entryTone,
  healthTransition,
  lastHealth,
  mergeTimeline,
  parseSince,
  parseTimeline,
  taskEndResult,
  timelineMarkdown,
  type TimelineEntry,
} from '../../src/domain/timeline';
import type { AuditRecord } from '../../src/domain/mutation/audit';
import type { ClusterHealth, ShardRow } from '../../src/domain/types';

const health = (status: ClusterHealth['status'], unassigned = 0): ClusterHealth => ({
  clusterName: 'c',
  status,
  numberOfNodes: 1,
  numberOfDataNodes: 1,
  activePrimaryShards: 1,
  activeShards: 1,
  relocatingShards: 0,
  initializingShards: 0,
  unassignedShards: unassigned,
  unassignedPrimaryShards: 0,
  delayedUnassignedShards: 0,
  pendingTasks: 0,
  activeShardsPercent: 50,
});
const shard = (state: string, reason: string | null = null): ShardRow => ({
  index: 'logs',
  shard: 0,
  primary: false,
  state,
  node: null,
  docs: null,
  storeBytes: null,
  unassignedReason: reason,
  unassignedDetails: null,
});

describe('incident timeline', () => {
  it('records a transition with the shards that caused it, and nothing while the status holds', () => {
    const at = new Date('2026-11-24T01:00:00Z');
    expect(healthTransition('green', health('green'), [], at)).toBeNull();
    const t = healthTransition('green', health('yellow', 1), [shard('STARTED'), shard('UNASSIGNED', 'NODE_LEFT')], at)!;
    expect(t).toMatchObject({ from: 'green', to: 'yellow', unassigned: 1, shards: ['logs[0] r UNASSIGNED NODE_LEFT'] });
    expect(lastHealth([t])).toBe('yellow');
    expect(healthTransition(null, health('green'), undefined, at)).toMatchObject({ from: null, to: 'green', shards: [] });
  });

  it('merges audit changes of this cluster only, in time order, and keeps a transition two consoles both saw once', () => {
    const rec = (url: string, time: string): AuditRecord => ({
      time,
      profile: 'p',
      url,
      osUser: 'alice',
      approvedBy: 'bob',
      proposedBy: 'alice',
      risk: 'reversible',
      target: 'logs',
      summary: 'set replicas',
      confirmedBy: 'key',
      request: { method: 'PUT', path: '/logs/_settings', querystring: {}, body: { index: { number_of_replicas: 0 } } },
      outcome: { ok: true, status: 200, durationMs: 3 },
    });
    const changes = changesFromAudit(
      [rec('http://a:9200', '2026-11-24T01:00:05Z'), rec('http://b:9200', '2026-11-24T01:00:06Z')],
      'http://a:9200',
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: 'change',
      who: 'alice',
      approvedBy: 'bob',
      result: 'ok (200)',
      request: 'PUT /logs/_settings {"index":{"number_of_replicas":0}}',
    });
    const y1: TimelineEntry = {
      kind: 'health',
      time: '2026-11-24T01:00:00Z',
      from: 'green',
      to: 'yellow',
      unassigned: 1,
      unassignedPrimaries: 0,
      shards: [],
    };
    const y2: TimelineEntry = { ...y1, time: '2026-11-24T01:00:02Z' };
    const merged = mergeTimeline([y2, y1], changes);
    expect(merged.map((e) => e.kind)).toEqual(['health', 'change']);
    expect(mergeTimeline([y1, y2], changes, Date.parse('2026-11-24T01:00:03Z')).map((e) => e.kind)).toEqual(['change']);
  });

  it('exports Markdown with UTC and local times, durations between transitions, and each request', () => {
    const entries: TimelineEntry[] = [
      {
        kind: 'health',
        time: '2026-11-24T01:00:00Z',
        from: 'green',
        to: 'red',
        unassigned: 1,
        unassignedPrimaries: 1,
        shards: ['logs[0] p UNASSIGNED ALLOCATION_FAILED'],
      },
      { kind: 'note', time: '2026-11-24T01:01:00Z', author: 'bob', text: 'corrupt | primary' },
      {
        kind: 'change',
        time: '2026-11-24T01:02:00Z',
        who: 'alice',
        summary: 'retry',
        target: 'cluster',
        request: 'POST /_cluster/reroute?retry_failed=true',
        result: 'ok (200)',
      },
      { kind: 'health', time: '2026-11-24T01:05:30Z', from: 'red', to: 'green', unassigned: 0, unassignedPrimaries: 0, shards: [] },
    ];
    const md = timelineMarkdown('http://a:9200', entries, new Date('2026-11-24T01:10:00Z'), -60);
    expect(md).toContain('| green | red | 2026-11-24 01:00:00 UTC (02:00:00 local) | 5m 30s |');
    expect(md).toContain('| red | green | 2026-11-24 01:05:30 UTC (02:05:30 local) | 4m 30s (so far) |');
    expect(md).toContain('  - logs[0] p UNASSIGNED ALLOCATION_FAILED');
    expect(md).toContain('  - request: `POST /_cluster/reroute?retry_failed=true`');
    expect(md).toContain('note by bob: corrupt \\| primary');
  });

  it('parses --since, skips a torn last line, and names the file after the cluster', () => {
    expect(parseSince('2h')).toBe(7_200_000);
    expect(parseSince('30m')).toBe(1_800_000);
    expect(parseSince('soon')).toBeNull();
    expect(parseTimeline('{"kind":"note","time":"2026-11-24T01:00:00Z","author":"a","text":"x"}\n{"kind":"no')).toHaveLength(1);
    expect(clusterKey('https://10.0.0.5:9200')).toBe('10.0.0.5_9200');
  });

  it('says how a task ended: its result and how long it ran; a failure is red', () => {
    const dbq = { action: 'indices:data/write/delete/byquery', cancelled: false, failures: [] as string[], deleted: 500 };
    expect(taskEndResult(dbq)).toBe('ok, 500 deleted');
    expect(taskEndResult({ ...dbq, cancelled: true, deleted: 20 })).toBe('cancelled, 20 deleted');
    expect(
      taskEndResult({ action: 'indices:admin/forcemerge', cancelled: false, failures: ['shard 0: disk', 'shard 1: disk'], deleted: 0 }),
    ).toBe('failed: shard 0: disk (+1 more)');
    const end: TimelineEntry = {
      kind: 'task',
      time: '2026-11-24T01:00:00Z',
      phase: 'end',
      task: 'n:1',
      summary: 'delete from logs',
      result: 'failed: x',
      durationMs: 75_000,
    };
    expect(entryText(end)).toBe('task ended n:1: delete from logs -> failed: x after 1m 15s');
    expect(entryTone(end)).toBe('red');
    expect(entryText({ ...end, phase: 'start', result: undefined, durationMs: undefined })).toBe('task started n:1: delete from logs');
  });
});
