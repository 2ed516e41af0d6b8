// Tasks: every task the nodes run, longest first, a parent with its children folded (+N), and the
// highlighted task's details under the table (id, node, description escaped, a by-query's progress).
// Read (GET _tasks) only while this pane is shown; `c` shows that read as a curl line; Enter shows
// the highlighted task whole in place of the list; x and t (wizards) cancel or rethrottle it.
import React, { useMemo } from 'react';
import { Box } from 'ink';
import {
  taskDetails,
  taskFullDetail,
  taskLines,
  taskSearchText,
  TASK_COLUMNS,
  TASK_SORT_KEYS,
  type TaskLine,
} from '../../domain/panes/tasks';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useUi } from '../app/context';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { useCurlLines } from './curl';
import { FilterLine, filterLines, useSelected, useTableKeys, useTableModel, DetailLines, WrappedLines } from './table';

const taskKey = (r: TaskLine) => r.id;
/** The details: the id line, the description, the progress, the children, what cancel can do. */
const DETAIL_LINES = 4;

export function TasksPane({ width, height }: { width: number; height: number }) {
  const { tasks, nodes } = useConsole((s) => ({ tasks: s.snapshots.tasks, nodes: s.snapshots.nodes }));
  const lines = useMemo(() => (tasks.data ? taskLines(tasks.data, nodes.data ?? []) : undefined), [tasks.data, nodes.data]);
  const { showCurl, showTaskDetail, filtering, filter } = useUi((s) => ({
    showCurl: s.showCurl,
    showTaskDetail: s.showTaskDetail,
    filtering: s.filtering,
    filter: s.tables.tasks.filter,
  }));
  const curl = useCurlLines(['tasks']);
  const snaps = [tasks];
  const body = bodyHeight(height, snaps) - filterLines(filtering, filter);
  const room = Math.max(0, Math.min(DETAIL_LINES, body - 4));
  const rowsHigh = Math.max(1, body - 1 - (room ? room + 1 : 0));
  const model = useTableModel('tasks', lines, TASK_SORT_KEYS, taskSearchText, taskKey, rowsHigh);
  useTableKeys('tasks', 'tasks', model, TASK_SORT_KEYS.length, { 'tasks.curl': 'showCurl', 'tasks.detail': 'showTaskDetail' });
  const sel = model.rows[model.cursor];
  useSelected('tasks', sel ? { task: sel.id } : undefined);
  const children = lines?.reduce((n, r) => n + r.children.length, 0) ?? 0;
  const info = lines ? `${lines.length} tasks${children ? ` · ${children} folded` : ''}` : '';
  return (
    <PaneFrame title={PANE_SPECS.tasks.title} info={info} snaps={snaps} width={width} height={height}>
      {showTaskDetail && sel ? (
        <DetailLines lines={taskFullDetail(sel, width)} width={width} room={body - 1} />
      ) : (
        <Box flexDirection="column">
          <FilterLine pane="tasks" width={width} />
          <DataTable {...model} columns={TASK_COLUMNS} height={rowsHigh} width={width} empty={lines ? 'no task is running' : ''} />
          {showCurl && room ? (
            <WrappedLines lines={curl} room={room} width={width} />
          ) : sel ? (
            <DetailLines lines={taskDetails(sel)} width={width} room={room} />
          ) : null}
        </Box>
      )}
    </PaneFrame>
  );
}
