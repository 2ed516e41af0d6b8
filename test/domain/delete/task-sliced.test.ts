// A sliced delete-by-query's parent as GET _tasks/<id> answers it, recorded from a real 8.19 node
// (test/fixtures/tasks/sliced: a delete-by-query of 300 documents in 2 slices at 1 document a
// second; parent.json its GET _tasks/<id>, children.json GET _tasks?parent_task_id=<id>&detailed).
// The parent counts 0 of 0 until its slices end (status.slices [null, null]): the wizard's and
// `shardeck tasks ID`'s line sums the slices. A finished slice is the recorded child's status put
// in its place in status.slices (no test node was kept until a slice ended).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTask, progressLine, slicesRunning } from '../../../src/domain/delete/task';
import { FIXTURES } from '../../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'tasks', 'sliced', `${name}.json`), 'utf8'));
const parent = raw('parent');
const children = raw('children').tasks as { status: Record<string, number> }[];
const id = `${parent.task.node}:${parent.task.id}`;

describe('a sliced parent', () => {
  it('as the node answers it alone: 0 / 0, and its slices still run', () => {
    expect(slicesRunning(parent)).toBe(true);
    expect(parent.task.status).toMatchObject({ total: 0, deleted: 0, slices: [null, null] });
  });

  it("summed from its running slices: total and deleted of both, each slice's rate added", () => {
    const p = parseTask(id, parent, children);
    expect(p.total).toBe(children[0].status.total + children[1].status.total);
    expect(p.total).toBe(300);
    expect(p.deleted).toBe(children[0].status.deleted + children[1].status.deleted);
    expect(p.deleted).toBeGreaterThan(0);
    expect(p.requestsPerSecond).toBe(1);
    expect(p.slices).toEqual({ count: 2, running: 2 });
    expect(progressLine(p)).toMatch(
      /^deleted \d+ \/ 300 \(\d+%\) · \d+ batches · 0 version conflicts · throttled [\d.]+s · 1\/s · sliced: 2 slices, 2 running$/,
    );
    expect(progressLine(p)).not.toMatch(/\/ 0 /);
  });

  it('a finished slice (in status.slices) and a running one (a child task) are both counted', () => {
    const [done, running] = children;
    const body = { ...parent, task: { ...parent.task, status: { ...parent.task.status, slices: [done.status, null] } } };
    const p = parseTask(id, body, [running]);
    expect(p.total).toBe(300);
    expect(p.deleted).toBe(done.status.deleted + running.status.deleted);
    expect(p.slices).toEqual({ count: 2, running: 1 });
  });

  it('a task that is not sliced, or a finished one, is read as before', () => {
    expect(slicesRunning({ ...parent, completed: true })).toBe(false);
    const child = parseTask('n:1', { completed: false, task: { ...parent.task, status: children[0].status } });
    expect(child.slices).toBeUndefined();
    expect(child.total).toBe(children[0].status.total);
  });
});

describe('the progress line at a width', () => {
  const p = parseTask(id, parent, children);

  it('keeps the sliced part at 80 columns: the batches, then the throttled time, go first', () => {
    const whole = progressLine(p);
    expect(whole.length).toBeGreaterThan(80);
    const line = progressLine(p, 80);
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^deleted \d+ \/ 300 \(\d+%\) · 0 version conflicts · 1\/s · sliced: 2 slices, 2 running$/);
  });

  it('narrower: the conflicts, then the rate go; the sliced part stays while it fits beside the counts', () => {
    expect(progressLine(p, 60)).toMatch(/^deleted \d+ \/ 300 \(\d+%\) · 1\/s · sliced: 2 slices, 2 running$/);
    expect(progressLine(p, 54)).toMatch(/^deleted \d+ \/ 300 \(\d+%\) · sliced: 2 slices, 2 running$/);
    // Too narrow for even that: cut at the end, within the width.
    expect(progressLine(p, 30).length).toBeLessThanOrEqual(30);
  });

  it('wide enough: every part, as without a width', () => {
    expect(progressLine(p, 200)).toBe(progressLine(p));
    const plain = { ...p, slices: undefined };
    // An unsliced task's whole line fits 80 columns: nothing goes.
    expect(progressLine(plain).length).toBeLessThanOrEqual(80);
    expect(progressLine(plain, 80)).toBe(progressLine(plain));
  });
});
