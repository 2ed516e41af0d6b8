// The task a delete runs as, as GET _tasks/<id> answers.
import { describe, expect, it } from 'vitest';
import { isTaskId, parseTask, progressLine, taskIdOf } from '../../../src/domain/delete/task';
import { finished } from './fixtures';

describe('tasks', () => {
  it('task ids', () => {
    expect(taskIdOf({ task: 'Q-oVXtTHTbq4TGwRzcGSfw:42' })).toBe('Q-oVXtTHTbq4TGwRzcGSfw:42');
    expect(taskIdOf({ acknowledged: true })).toBeNull();
  });
  it('parses a finished task and prints one line', () => {
    const p = parseTask('n:42', finished);
    expect(p).toMatchObject({ completed: true, total: 10, deleted: 10, batches: 1, versionConflicts: 0, runningMillis: 465, failures: [] });
    expect(progressLine(p)).toBe('deleted 10 / 10 (100%) · 1 batches · 0 version conflicts · throttled 0.0s');
  });

  it('a task id is node:number, whole: nothing before, after or in between', () => {
    for (const bad of ['x Q-o:42', 'Q-o:42 x', 'Q-o:', ':42', 'Q o:42', 'Q-o:4a', 'Q-o:42\n'])
      expect([bad, isTaskId(bad), taskIdOf({ task: bad })]).toEqual([bad, false, null]);
    expect(isTaskId('Q-oV_x:7')).toBe(true);
    expect(taskIdOf({ task: 42 })).toBeNull();
    expect(taskIdOf(null)).toBeNull();
  });

  it('a running task: its status, its throttle, and how far it is', () => {
    const running = {
      completed: false,
      task: {
        node: 'n',
        id: 43,
        action: 'indices:data/write/delete/byquery',
        description: 'delete-by-query [v]',
        running_time_in_nanos: 2_500_000_000,
        cancellable: true,
        cancelled: false,
        status: { total: 400, deleted: 150, batches: 2, version_conflicts: 3, throttled_millis: 1500, requests_per_second: 100 },
      },
    };
    const p = parseTask('n:43', running);
    expect(p).toEqual({
      id: 'n:43',
      action: 'indices:data/write/delete/byquery',
      description: 'delete-by-query [v]',
      completed: false,
      cancelled: false,
      cancellable: true,
      total: 400,
      deleted: 150,
      batches: 2,
      versionConflicts: 3,
      throttledMillis: 1500,
      requestsPerSecond: 100,
      runningMillis: 2500,
      failures: [],
    });
    expect(progressLine(p)).toBe('deleted 150 / 400 (37%) · 2 batches · 3 version conflicts · throttled 1.5s · 100/s');
    // Unthrottled (-1, or Infinity as some versions print it) shows no rate; no total yet shows 0%, done 100%.
    expect(progressLine({ ...p, requestsPerSecond: -1 })).not.toContain('/s');
    expect(progressLine({ ...p, requestsPerSecond: Number.POSITIVE_INFINITY })).not.toContain('/s');
    expect(progressLine({ ...p, requestsPerSecond: 0 })).not.toContain('/s');
    expect(progressLine({ ...p, total: 0, deleted: 0 })).toContain('(0%)');
    expect(progressLine({ ...p, total: 0, deleted: 0, completed: true })).toContain('(100%)');
    // An empty answer: nothing known, no throttle.
    expect(parseTask('n:1', {})).toMatchObject({
      action: '',
      description: '',
      completed: false,
      cancelled: false,
      total: 0,
      versionConflicts: 0,
      throttledMillis: 0,
      requestsPerSecond: -1,
      failures: [],
    });
  });

  it('cancelled: said by the stored response, by the running task, or by the error; failures named', () => {
    const byResponse = { ...finished, response: { ...finished.response, canceled: 'by user request' } };
    expect(parseTask('n:42', byResponse).cancelled).toBe(true);
    expect(parseTask('n:42', { completed: false, task: { ...finished.task, cancelled: true } }).cancelled).toBe(true);
    expect(
      parseTask('n:42', { completed: false, task: { ...finished.task, status: { ...finished.task.status, canceled: 'by user request' } } })
        .cancelled,
    ).toBe(true);
    const errored = {
      completed: true,
      task: finished.task,
      error: { type: 'task_cancelled_exception', reason: 'task cancelled [by user request]' },
    };
    expect(parseTask('n:42', errored)).toMatchObject({
      cancelled: true,
      completed: true,
      failures: ['task_cancelled_exception: task cancelled [by user request]'],
    });
    expect(parseTask('n:42', { completed: true, error: { reason: 'boom' } }).failures).toEqual(['error: boom']);
    expect(parseTask('n:42', { completed: true, error: { type: 'x' } }).failures).toEqual(['x: {"type":"x"}']);
    expect(parseTask('n:42', finished).cancelled).toBe(false);
    const failed = {
      ...finished,
      response: {
        ...finished.response,
        failures: [
          { index: 'v', id: '1', cause: { type: 'version_conflict_engine_exception', reason: '[1]: version conflict' }, status: 409 },
          { reason: 'shard failed' },
          { status: 500 },
        ],
      },
    };
    expect(parseTask('n:42', failed).failures).toEqual(['[1]: version conflict', 'shard failed', '{"status":500}']);
    // The stored response wins over the task's last status.
    expect(parseTask('n:42', { ...finished, task: { ...finished.task, status: { ...finished.task.status, deleted: 3 } } }).deleted).toBe(
      10,
    );
  });
});
