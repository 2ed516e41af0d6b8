// The Tasks read and pane rows, on GET _tasks recorded from a real 8.19 node (dev/record-tasks.ts):
// quiet (test/fixtures/yellow: only the task list's own request) and with a delete-by-query in 2
// slices and an unsliced one, both throttled to 1 document a second (test/fixtures/tasks).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNodesInfo, parseTasks, type ClusterTask } from '../../../src/domain/parse';
import {
  taskControlRefusal,
  taskDetails,
  taskLines,
  taskRethrottles,
  taskStatusLine,
  taskWrites,
  TASK_COLUMNS,
  TASK_SORT_KEYS,
} from '../../../src/domain/panes/tasks';
import { cancelTaskPlan, rethrottlePlan } from '../../../src/domain/wizards/delete';
import { confirmationSatisfies } from '../../../src/domain/mutation/confirmation';
import { sortRows } from '../../../src/domain/text/table';
import { isDisplaySafe } from '../../../src/domain/text/display-text';

const fx = (scenario: string, name: string) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '../../fixtures', scenario, `${name}.json`), 'utf8'));

const busy = parseTasks(fx('tasks', 'tasks'));
const nodes = parseNodesInfo(fx('tasks', 'nodes'), undefined, fx('tasks', 'nodes.alongside'));

describe('parseTasks', () => {
  it('reads every task with its id, parent and a by-query status; other tasks have none', () => {
    const byQuery = busy.filter((t) => t.action === 'indices:data/write/delete/byquery');
    expect(byQuery).toHaveLength(4); // the sliced parent, its 2 slices, the unsliced one
    const slices = byQuery.filter((t) => t.parent);
    expect(slices).toHaveLength(2);
    expect(new Set(slices.map((s) => s.parent)).size).toBe(1);
    for (const t of byQuery) {
      expect(t.id).toMatch(/^[\w-]+:\d+$/);
      expect(t.cancellable).toBe(true);
      expect(t.status).not.toBeNull();
      expect(t.description).toBe('delete-by-query [service_v9_slow]');
      expect(t.runningMillis).toBeGreaterThan(1000);
    }
    const list = busy.find((t) => t.action === 'cluster:monitor/tasks/lists')!;
    expect(list.status).toBeNull();
    expect(list.parent).toBeNull();
  });

  it('reads the quiet answer and an empty or odd one without throwing', () => {
    expect(parseTasks(fx('yellow', 'tasks')).map((t) => t.action)).toContain('cluster:monitor/tasks/lists');
    expect(parseTasks({})).toEqual([]);
    expect(parseTasks({ tasks: 'no' })).toEqual([]);
  });
});

describe('tasks pane rows', () => {
  const lines = taskLines(busy, nodes);
  const sorted = sortRows(lines, TASK_SORT_KEYS, 0, false);

  it('folds children into their parent, names the node, and sorts longest first', () => {
    const parent = lines.find((l) => l.children.length === 2 && l.action.endsWith('byquery'))!;
    expect(parent).toBeDefined();
    expect(parent.nodeName).toBe(nodes[0].name);
    expect(lines.some((l) => l.id === parent.children[0].id)).toBe(false); // folded, not its own row
    // The task list's per-node part is folded under the list request.
    expect(lines.find((l) => l.action === 'cluster:monitor/tasks/lists')!.children.map((c) => c.action)).toEqual([
      'cluster:monitor/tasks/lists[n]',
    ]);
    const running = sorted.map((l) => l.runningMillis);
    expect(running).toEqual([...running].sort((a, b) => b - a));
    // A parent that is not in the list (health-node's "cluster:1") leaves the task a row of its own.
    expect(lines.some((l) => l.parent === 'cluster:1')).toBe(true);
  });

  it("sums a sliced parent's progress from its slices (its own counts stay 0 until they end)", () => {
    const parent = lines.find((l) => l.children.length === 2 && l.action.endsWith('byquery'))!;
    const kids = parent.children.map((c) => c.status!);
    expect(parent.status!.total).toBe(0);
    expect(parent.progress).toMatchObject({ total: kids[0].total + kids[1].total, done: kids[0].done + kids[1].done });
    expect(taskStatusLine(parent)).toMatch(/^deleted \d+ \/ 200 \(\d+%\) · \d+ batches · \d+ conflicts · 1\/s$/);
  });

  it('shows the columns and the details, escaping what the node sent', () => {
    const plain = lines.find((l) => l.action.endsWith('byquery') && !l.children.length)!;
    const cells = TASK_COLUMNS.map((c) => c.text(plain));
    expect(cells.slice(1)).toEqual([nodes[0].name, 'yes', 'indices:data/write/delete/byquery', 'delete-by-query [service_v9_slow]']);
    const hostile: ClusterTask = { ...plain, description: 'q\x1b[2J\nx', action: 'a\x07' };
    const [row] = taskLines([hostile]);
    for (const text of [...TASK_COLUMNS.map((c) => c.text(row)), ...taskDetails(row).map((l) => l.text)])
      expect(isDisplaySafe(text)).toBe(true);
    const details = taskDetails(plain).map((l) => l.text);
    expect(details[0]).toContain(`${plain.id} on ${nodes[0].name}`);
    expect(details).toContain('description: delete-by-query [service_v9_slow]');
    const uncancellable = taskDetails({ ...row, cancellable: false }).map((l) => l.text);
    expect(uncancellable.at(-1)).toMatch(/^not cancellable/);
  });

  it('knows which tasks write and which take a new rate', () => {
    expect(taskWrites('indices:data/write/delete/byquery')).toBe(true);
    expect(taskWrites('indices:data/write/reindex')).toBe(true);
    expect(taskWrites('indices:data/write/update/byquery')).toBe(true);
    expect(taskWrites('indices:data/write/update')).toBe(true);
    expect(taskWrites('cluster:monitor/tasks/lists')).toBe(false);
    expect(taskRethrottles('indices:data/write/reindex')).toBe(true);
    expect(taskRethrottles('indices:data/write/update')).toBe(false);
  });
});

describe('cancel and rethrottle of a task', () => {
  it("a writing task's cancel needs its number typed: --yes alone or a key does not confirm it", () => {
    const writes = cancelTaskPlan('n1:7', { action: 'indices:data/write/update/byquery', writes: true });
    expect(writes).toMatchObject({ method: 'POST', path: '/_tasks/n1%3A7/_cancel', risk: 'destructive', target: 'n1:7' });
    expect(confirmationSatisfies(writes, { by: 'yes-flag' })).toBe(false);
    expect(confirmationSatisfies(writes, { by: 'key' })).toBe(false);
    expect(confirmationSatisfies(writes, { by: 'typed', text: '8' })).toBe(false);
    expect(confirmationSatisfies(writes, { by: 'typed', text: '7' })).toBe(true);
    expect(confirmationSatisfies(writes, { by: 'yes-flag', text: '7' })).toBe(true);
    const reads = cancelTaskPlan('n1:9', { action: 'indices:data/read/search', writes: false });
    expect(reads.risk).toBe('reversible');
    expect(confirmationSatisfies(reads, { by: 'key' })).toBe(true);
  });

  it('rethrottles through the API of the task: delete, update-by-query, reindex', () => {
    expect(rethrottlePlan('n:1', 5).path).toBe('/_delete_by_query/n%3A1/_rethrottle');
    expect(rethrottlePlan('n:1', 5, 'indices:data/write/update/byquery').path).toBe('/_update_by_query/n%3A1/_rethrottle');
    expect(rethrottlePlan('n:1', -1, 'indices:data/write/reindex')).toMatchObject({
      path: '/_reindex/n%3A1/_rethrottle',
      querystring: { requests_per_second: '-1' },
      summary: 'rethrottle reindex task n:1 to no throttle',
    });
  });

  it('says why a task cannot be cancelled or rethrottled', () => {
    const t = { id: 'n:1', action: 'indices:data/write/delete/byquery', cancellable: true, cancelled: false };
    expect(taskControlRefusal(t, 'cancel')).toBeNull();
    expect(taskControlRefusal(t, 'rethrottle')).toBeNull();
    expect(taskControlRefusal({ ...t, cancellable: false }, 'cancel')).toMatch(/not cancellable/);
    expect(taskControlRefusal({ ...t, cancelled: true }, 'cancel')).toMatch(/being cancelled already/);
    expect(taskControlRefusal({ ...t, completed: true }, 'cancel')).toMatch(/has finished/);
    expect(taskControlRefusal({ ...t, action: 'health-node[c]' }, 'rethrottle')).toMatch(/takes no rate/);
    expect(taskControlRefusal({ ...t, action: 'x\x1b[2Jy', cancellable: false }, 'cancel')).not.toContain('\x1b');
  });
});
