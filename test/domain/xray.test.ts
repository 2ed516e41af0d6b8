// The x-ray's matching rules: which tasks and which audit records are about the index.
import { describe, expect, it } from 'vitest';
import { auditOfIndex, taskOnIndex, xrayLines } from '../../src/domain/inspect/xray';
import type { ClusterTask } from '../../src/domain/parse';
import type { AuditRecord } from '../../src/domain/mutation/audit';

const task = (description: string) => ({ description }) as ClusterTask;
const record = (target: string, path?: string) =>
  ({
    target,
    time: '2026-11-28T10:00:00Z',
    summary: 's',
    ...(path ? { request: { method: 'PUT', path, querystring: {} } } : {}),
  }) as AuditRecord;

describe('xray matching', () => {
  it('a task is on the index when its description names it whole, not a longer name that starts with it', () => {
    expect(taskOnIndex(task('delete-by-query [logs-1]'), 'logs-1')).toBe(true);
    expect(taskOnIndex(task('Force-merge indices [a, logs-1], maxSegments[-1]'), 'logs-1')).toBe(true);
    expect(taskOnIndex(task('indices[logs-1,b]'), 'logs-1')).toBe(true);
    expect(taskOnIndex(task('delete-by-query [logs-10]'), 'logs-1')).toBe(false);
    expect(taskOnIndex(task('delete-by-query [xlogs-1]'), 'logs-1')).toBe(false);
    // A name with regex characters is matched as text.
    expect(taskOnIndex(task('delete-by-query [a+b]'), 'a+b')).toBe(true);
    expect(taskOnIndex(task('delete-by-query [aab]'), 'a+b')).toBe(false);
  });

  it("the audit records of changes to it: its name among the targets or its path's first part", () => {
    const records = [
      record('logs-1'),
      record('logs-1,logs-2'),
      record('logs-10'),
      record('logs-*', '/logs-1/_settings'),
      record('x', '/logs-10/_x'),
    ];
    expect(auditOfIndex(records, 'logs-1')).toEqual([records[0], records[1], records[3]]);
  });

  it('draws branches and escapes what the node said', () => {
    const lines = xrayLines({
      text: 'i\u001b[31m',
      children: [
        { text: 'a', children: [{ text: 'a1' }] },
        { text: 'b', tone: 'red' },
      ],
    });
    expect(lines.map((l) => l.text)).toEqual(['i\\u001b[31m', '├ a', '│ └ a1', '└ b']);
    expect(lines[3].tone).toBe('red');
  });
});
