// The task API: one task's status (finished ones from the node's task results), a wait for its
// end, and the running delete-by-query and force-merge tasks.
import { parseTask, slicesRunning, type TaskProgress } from '../domain/delete/task';
import { ConnError, getJson, type EsTransport } from './connection';

const taskPath = (id: string) => `/_tasks/${encodeURIComponent(id)}`;

export function tasksApi(es: EsTransport) {
  return {
    async task(id: string): Promise<TaskProgress> {
      const body = await getJson<any>(es, taskPath(id));
      if (!slicesRunning(body)) return parseTask(id, body);
      // A sliced parent counts nothing until its slices end: its running slices are its child tasks.
      const children = await getJson<any>(es, '/_tasks', {
        parent_task_id: id,
        detailed: 'true',
        group_by: 'none',
        filter_path: 'tasks.status',
      });
      return parseTask(id, body, children?.tasks ?? []);
    },

    /** Waits up to `ms` for the task to end: its final status, or null while it still runs. */
    async taskEnd(id: string, ms: number): Promise<TaskProgress | null> {
      try {
        return parseTask(id, await getJson(es, taskPath(id), { wait_for_completion: 'true', timeout: `${ms}ms` }));
      } catch (e) {
        // 8.19 answers a wait that ran out with a 500 timeout_exception: the task is still running.
        if (e instanceof ConnError && e.esType === 'timeout_exception') return null;
        throw e;
      }
    },

    /** Running delete-by-query and force-merge tasks, to re-attach to. */
    async runningTasks(): Promise<TaskProgress[]> {
      const body = await getJson<any>(es, '/_tasks', { actions: '*byquery,*forcemerge*', detailed: 'true', group_by: 'none' });
      return (body.tasks ?? []).map((t: any) => parseTask(`${t.node}:${t.id}`, { task: t, completed: false }));
    },
  };
}
