// The task a delete runs as, as GET _tasks/<id> answers.
import { describe, expect, it } from 'vitest';
import { parseTask, progressLine, taskIdOf } from '../../../src/domain/delete/task';
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
});
