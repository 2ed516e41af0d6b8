// Pending cluster tasks on answers recorded from a real 8.19 node (dev/record-pending.ts): quiet
// (the filtered answer is `{}`) and busy (200 index creations sent at once: 206 tasks queued, the
// oldest 1.8 s). No test node keeps a task a minute in its queue: the doctor's "older than a
// minute" case is the recorded busy answer with its times edited (said where it is done).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { oldestPending, parsePendingTasks, pendingLines, PENDING_OLD_MS, type PendingTask } from '../../src/domain/inspect/pending-tasks';
import { pendingFindings } from '../../src/domain/doctor/pending';
import { FIXTURES, parsedAsPolled } from '../helpers/recorded';

const busyBody = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'pending', 'pendingTasks.json'), 'utf8'));
const busy = parsePendingTasks(busyBody);

describe('pending tasks read', () => {
  it('quiet: the recorded `{}` is none pending; no section, the doctor ok', () => {
    const quiet = parsedAsPolled('yellow', 'pendingTasks');
    expect(quiet).toEqual([]);
    expect(pendingLines(quiet, 80, 3)).toEqual([]);
    const [f] = pendingFindings(quiet);
    expect(f).toMatchObject({ id: 'pending.queue', family: 'pending', severity: 'ok', finding: 'no pending cluster tasks' });
    expect(f.remedy).toBeUndefined();
  });

  it('busy: every task, oldest first, its fields as the node sent them', () => {
    expect(busy).toHaveLength(busyBody.tasks.length);
    expect(busy.length).toBeGreaterThan(100);
    for (let i = 1; i < busy.length; i++) expect(busy[i - 1].timeInQueueMs).toBeGreaterThanOrEqual(busy[i].timeInQueueMs);
    expect(oldestPending(busy)).toBe(Math.max(...busyBody.tasks.map((t: { time_in_queue_millis: number }) => t.time_in_queue_millis)));
    expect(busy[0]).toMatchObject({
      priority: 'URGENT',
      source: expect.stringMatching(/^create-index \[service_v9_pending_\d+\], cause \[api\]$/),
    });
    expect(busy.filter((t) => t.executing)).toHaveLength(1);
  });

  it('the section: heading with count and oldest, 2 tasks and how many more, within 80 columns', () => {
    const lines = pendingLines(busy, 80, 3);
    expect(lines).toHaveLength(4);
    expect(lines[0].text).toMatch(/^pending cluster tasks 206, oldest 1\.8s in queue/);
    expect(lines[0].tone).toBe('yellow');
    expect(lines[1].text).toMatch(/^ {2}URGENT {4}/);
    expect(lines[1].text).toContain('create-index [service_v9_pending_');
    expect(lines[3].text.trimEnd()).toBe(`  … ${busy.length - 2} more: shardeck pending`);
    for (const l of lines) expect(l.text.length).toBeLessThanOrEqual(80);
  });

  it('a source is escaped (the node words it from index names the client chose)', () => {
    const hostile: PendingTask = { ...busy[0], source: 'create-index [n\u001b[2Jx], cause [api]' };
    const [, line] = pendingLines([hostile], 80, 3);
    expect(line.text).toContain('n\\u001b[2Jx');
    expect(line.text).not.toContain('\u001b');
    expect(pendingFindings([hostile])[0].evidence.join(' ')).not.toContain('\u001b');
  });

  it('doctor: under a minute is ok with its evidence', () => {
    const [f] = pendingFindings(busy);
    expect(f.severity).toBe('ok');
    expect(f.finding).toBe('206 pending cluster tasks, none older than a minute');
    expect(f.evidence[1]).toMatch(/^by kind: create-index \d+, shard-started \d+/);
  });

  it('doctor: a task older than a minute warns with the remedy (the recorded answer, its oldest task made 75 s old)', () => {
    const edited = parsePendingTasks({
      tasks: busyBody.tasks.map((t: { insert_order: number }, i: number) => (i === 0 ? { ...t, time_in_queue_millis: 75_000 } : t)),
    });
    expect(oldestPending(edited)).toBeGreaterThanOrEqual(PENDING_OLD_MS);
    const [f] = pendingFindings(edited);
    expect(f).toMatchObject({ severity: 'warn', fix: { pane: 'health', command: 'shardeck pending' } });
    expect(f.finding).toMatch(/^a cluster task has waited 1\.3m in the master's queue \(206 pending\)/);
    expect(f.evidence[0]).toMatch(/the oldest 1\.3m: URGENT create-index/);
    expect(f.remedy).toMatch(/hot-threads/);
    expect(pendingLines(edited, 80, 3)[0].tone).toBe('red');
    expect(pendingLines(edited, 80, 3)[1].tone).toBe('red');
  });
});
