// Issue 41, long-running tasks and the task backlog: each rule where it fires and where it holds, on
// the doctor's two samples recorded from a real 8.19 node while a delete-by-query ran at one
// document a second (dev/record-doctor.ts), on recorded hot threads, and on plain values; and the
// thresholds from the flags and the profile.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctorSample, type DoctorSample } from '../../../src/domain/doctor/sample';
import {
  backlogFinding,
  DEFAULT_TASK_THRESHOLDS,
  longSearchFinding,
  longTaskFinding,
  parseDurationMs,
  stalledTaskFinding,
} from '../../../src/domain/doctor/tasks';
import { doctorSettings } from '../../../src/domain/doctor/settings';
import { parseHotThreads } from '../../../src/domain/nodes/hot-threads';
import type { ClusterTask } from '../../../src/domain/parse';
import { FIXTURES } from '../../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'doctor-ii', `${name}.json`), 'utf8'));
const sampleOf = (name: string, t: number): DoctorSample => {
  const r = raw(name);
  return doctorSample(t, r.stats, r.state, r.tasks);
};
const first = sampleOf('sample-first', 1_000_000);
const second = sampleOf('sample-second', 1_003_000);
const dbq = second.tasks.find((t) => t.action === 'indices:data/write/delete/byquery')!;
const TH = { ...DEFAULT_TASK_THRESHOLDS, source: { longSearch: 'default', longTask: '--long-task' } };

const task = (over: Partial<ClusterTask>): ClusterTask => ({
  id: 'n1:7',
  node: 'n1',
  action: 'indices:data/read/search',
  description: 'indices[service_v9_*], search_type[QUERY_THEN_FETCH]',
  runningMillis: 1000,
  cancellable: true,
  cancelled: false,
  parent: null,
  status: null,
  ...over,
});

describe('tasks.long-running', () => {
  it('the recorded delete-by-query (6 s) is long against a 5 s threshold, with the rethrottle wizard (it is throttled)', () => {
    const f = longTaskFinding(second.tasks, { ...TH, longTaskMs: 5000 });
    expect(f).toMatchObject({ id: 'tasks.long-running', family: 'tasks', severity: 'warn' });
    expect(f.finding).toBe(`1 task running longer than 5.0s: delete by query ${dbq.id} (6.2s)`);
    expect(f.evidence[0]).toBe('threshold 5.0s (--long-task)');
    expect(f.evidence[1]).toMatch(
      /delete\/byquery running 6\.2s, 6 of 300 done in 6 batches, throttled to 1\/s: delete-by-query \[service_v9_docs\]$/,
    );
    expect(f.fix).toEqual({
      commandId: 'wizard.taskRethrottle',
      key: 't',
      pane: 'tasks',
      command: `shardeck tasks rethrottle ${dbq.id} --rps -1`,
      target: { task: dbq.id },
    });
  });

  it("holds below the threshold; the node's own persistent tasks (health-node[c], 16 s) never count", () => {
    expect(longTaskFinding(second.tasks, TH)).toMatchObject({ severity: 'ok', finding: 'no other task running longer than 10.0m' });
    const persistent = second.tasks.filter((t) => t.action === 'health-node[c]');
    expect(persistent[0].runningMillis).toBeGreaterThan(10_000);
    expect(longTaskFinding(persistent, { ...TH, longTaskMs: 1000 }).severity).toBe('ok');
  });
});

describe('tasks.long-search', () => {
  it('a search over a minute warns, with the cancel wizard on it; a child shard request does not count twice', () => {
    const long = task({ runningMillis: 95_000 });
    const child = task({ id: 'n1:8', action: 'indices:data/read/search[phase/query]', parent: 'n1:7', runningMillis: 94_000 });
    const f = longSearchFinding([long, child, ...second.tasks], TH);
    expect(f).toMatchObject({
      severity: 'warn',
      finding: '1 search running longer than 1.0m, the longest 1.6m: it holds search threads and heap',
    });
    expect(f.fix).toMatchObject({
      commandId: 'wizard.taskCancel',
      key: 'x',
      command: 'shardeck tasks cancel n1:7',
      target: { task: 'n1:7' },
    });
  });

  it('holds for a search under the threshold and for one already cancelling', () => {
    expect(longSearchFinding([task({ runningMillis: 30_000 })], TH).severity).toBe('ok');
    expect(longSearchFinding([task({ runningMillis: 95_000, cancelled: true })], TH).severity).toBe('ok');
  });
});

describe('tasks.stalled', () => {
  it('the recorded delete-by-query moved between the two reads (3 then 6 deleted): ok', () => {
    expect(stalledTaskFinding(first, second)).toMatchObject({ severity: 'ok', finding: 'no by-query or reindex task stopped progressing' });
  });

  it('the same counters in both reads, unthrottled: warns with the cancel wizard', () => {
    const stuck = (s: DoctorSample) => ({
      ...s,
      tasks: s.tasks.map((t) => (t.status ? { ...t, status: { ...t.status, done: 6, batches: 6, requestsPerSecond: -1 } } : t)),
    });
    const f = stalledTaskFinding(stuck(first), stuck(second));
    expect(f).toMatchObject({ severity: 'warn', finding: `1 task made no progress in 3.0 s: delete by query ${dbq.id}` });
    expect(f.fix?.command).toBe(`shardeck tasks cancel ${dbq.id}`);
  });

  it('throttled so that a batch takes longer than the window: not stalled, said', () => {
    const slow = (s: DoctorSample) => ({
      ...s,
      tasks: s.tasks.map((t) => (t.status ? { ...t, status: { ...t.status, done: 6000, batches: 6 } } : t)),
    });
    const f = stalledTaskFinding(slow(first), slow(second));
    expect(f.severity).toBe('ok');
    expect(f.evidence[1]).toBe(`${dbq.id}: a batch of ~1000 every ~16.7m at 1/s: the window could not see progress`);
  });
});

describe('tasks.backlog', () => {
  const hot = parseHotThreads(fs.readFileSync(path.join(FIXTURES, 'hot-threads', 'cpu.txt'), 'utf8'), 'cpu');
  const queued = (s: DoctorSample, q: number) => ({ ...s, nodes: s.nodes.map((n) => ({ ...n, queues: { write: q, search: 0 } })) });

  it('a write queue holding work in both reads warns, with the hot threads of the nodes', () => {
    const f = backlogFinding({ pending: [], first: queued(first, 40), second: queued(second, 12), hotThreads: hot });
    expect(f).toMatchObject({ id: 'tasks.backlog', severity: 'warn', finding: "work is queuing: doctor-rec's write queue" });
    expect(f.evidence).toContain('doctor-rec: queue write 12, search 0');
    expect(f.evidence.some((e) => e.startsWith('hot thread on '))).toBe(true);
  });

  it("the master's queue long on its own counts; a queue seen in one read only does not", () => {
    const pending = Array.from({ length: 12 }, (_, i) => ({
      insertOrder: i,
      priority: 'URGENT',
      source: 'create-index [x]',
      executing: false,
      timeInQueueMs: 5000,
    }));
    expect(backlogFinding({ pending, first, second }).finding).toBe("work is queuing: 12 tasks in the master's queue (oldest 5.0s)");
    expect(backlogFinding({ pending: [], first: queued(first, 40), second }).severity).toBe('ok');
    // The statistics read beside the first sample counts as the early reading too.
    const pressure = [
      { id: first.nodes[0].id, name: 'doctor-rec', pools: [{ name: 'write', active: 1, queue: 7, rejected: 0, rejectedSince: null }] },
    ];
    expect(backlogFinding({ pending: [], first, second: queued(second, 3), pressure: pressure as never }).severity).toBe('warn');
    expect(backlogFinding({ pending: [], first, second }).finding).toBe(
      'no backlog: no pending cluster task, no write or search queue held work in both reads',
    );
  });
});

describe('the thresholds', () => {
  it('durations: s, m, h, d, ms, a bare number of seconds; nothing else', () => {
    expect(['60s', '10m', '1h', '2d', '500ms', '90', '1.5m'].map(parseDurationMs)).toEqual([
      60_000, 600_000, 3_600_000, 172_800_000, 500, 90_000, 90_000,
    ]);
    expect(['', 'soon', '-5s', '0s', '10 minutes'].map(parseDurationMs)).toEqual([null, null, null, null, null]);
  });

  it('a flag wins over the profile, the profile over the default; the snapshot period is off unless set', () => {
    const r = doctorSettings({ longTask: '30s' }, { doctorLongTask: '20m', doctorLongSearch: '2m', doctorSnapshotEvery: '24h' });
    expect(r).toEqual({
      ok: true,
      value: {
        thresholds: {
          longSearchMs: 120_000,
          longTaskMs: 30_000,
          source: { longSearch: 'profile doctorLongSearch', longTask: '--long-task' },
        },
        snapshotPeriod: { ms: 86_400_000, source: 'profile doctorSnapshotEvery' },
      },
    });
    const d = doctorSettings({});
    expect(d.ok && d.value.snapshotPeriod).toBeUndefined();
    expect(d.ok && d.value.thresholds.longSearchMs).toBe(60_000);
    expect(doctorSettings({ longSearch: 'soon' })).toEqual({
      ok: false,
      error: '--long-search "soon" is not a duration (e.g. 90s, 10m, 24h)',
    });
    expect(doctorSettings({}, { doctorLongTask: 'x' })).toEqual({
      ok: false,
      error: 'profile doctorLongTask "x" is not a duration (e.g. 90s, 10m, 24h)',
    });
  });
});
