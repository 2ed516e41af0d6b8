// shardeck tasks [TASK_ID] [--json]
// Re-attach to a delete-by-query or force merge after the TUI or the SSH session was closed:
// without an id, the running ones; with an id, its status (finished tasks are read from the
// node's task results). A delete whose task is gone is counted from its audit record, after a
// guarded refresh; in read-only mode without one (the output says the count may lag).
import { lostDeleteReport, recordedDelete } from '../domain/delete/report';
import { isTaskId, progressLine, type TaskProgress } from '../domain/delete/task';
import { ConnError } from '../cluster/connection';
import { readAudit } from '../services/audit';
import { countLagNote, refreshIndex } from '../services/delete-by-query';
import { recordTaskEnd } from '../services/timeline';
import { taskEndResult } from '../domain/timeline';
import type { AuditRecord } from '../domain/mutation/audit';
import type { Confirmation } from '../domain/mutation/confirmation';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { out } from './support/output';
import { displayText } from '../domain/display-text';

const NAME = 'tasks';

function describe(p: TaskProgress): string {
  const state = p.completed
    ? p.failures.length || p.cancelled
      ? 'finished with problems'
      : 'finished'
    : p.cancelled
      ? 'cancelling'
      : 'running';
  const lines = [`${p.id} ${p.action} ${state}${p.description ? ` — ${displayText(p.description)}` : ''}`];
  if (/byquery/.test(p.action)) lines.push(`  ${progressLine(p)}`);
  for (const f of p.failures.slice(0, 3)) lines.push(`  failure: ${displayText(f)}`);
  return lines.join('\n') + '\n';
}

/** The refresh belongs to the delete the operator confirmed (typed its count, --yes, or a key): it carries that confirmation. */
function carriedConfirmation(by: AuditRecord['confirmedBy'], previewed: number): Confirmation {
  if (by === 'typed') return { by: 'typed', text: String(previewed) };
  return by === 'yes-flag' ? { by: 'yes-flag' } : { by: 'key' };
}

const tasks: CommandModule = {
  summary: 'Show running delete-by-query and force-merge tasks, or the status of one (re-attach after the session was closed).',
  usage: 'usage: shardeck tasks [TASK_ID] [--json]   (TASK_ID as printed by delete-by-query, e.g. abc123:4567)',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck tasks', 'shardeck tasks abc123:4567', 'shardeck tasks abc123:4567 --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [id, ...extra] = positionals;
    if (extra.length || (id !== undefined && !isTaskId(id)))
      return usageError(
        NAME,
        `"${positionals.join(' ')}" is not a task id: give it as node:number, as delete-by-query printed it (or none to list running tasks)`,
        json,
      );
    const { es, guard, close } = await openGuard(values);
    try {
      if (id === undefined) {
        const running = await es.runningTasks();
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, tasks: running });
        else out(running.length ? running.map(describe).join('') : 'no delete-by-query or force-merge task is running\n');
        return EXIT.ok;
      }
      try {
        const p = await es.task(id);
        // Re-attached after the session that started it was gone: its end still reaches the timeline (once).
        if (p.completed) recordTaskEnd(guard.previewConnection.url, id, taskEndResult(p), p.runningMillis);
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, task: p });
        else out(describe(p));
        return EXIT.ok;
      } catch (e) {
        if (!(e instanceof ConnError && e.status === 404)) throw e;
        // The task died with its node: the audit record of the delete still has the query.
        const record = readAudit().records.find((r) => r.outcome?.task === id);
        const sent = record ? recordedDelete(record) : null;
        if (!sent) {
          const message = `the node knows no task ${id} and the audit log has no delete with that task: check the id (shardeck audit)`;
          return usageError(NAME, message, json);
        }
        // The refresh is a write: through the guard, carrying the delete's confirmation; in
        // read-only mode nothing is sent and the count is read as the index shows it now.
        recordTaskEnd(guard.previewConnection.url, id, 'lost: the node knows the task no more (it died with its node)');
        const notRefreshed = guard.readOnly
          ? 'read-only mode: not refreshed'
          : await refreshIndex(
              guard,
              sent.index,
              `after the lost delete task ${id}`,
              carriedConfirmation(record!.confirmedBy, sent.previewed),
              { includeSystem: true },
            );
        const lag = notRefreshed ? await countLagNote(es, sent.index, notRefreshed) : null;
        const report = lostDeleteReport(sent, await es.count(sent.index, sent.query));
        const lines = lag ? [...report.lines, lag] : report.lines;
        if (json)
          printJson({
            schema: JSON_SCHEMA,
            command: NAME,
            ok: true,
            task: null,
            lost: true,
            index: sent.index,
            query: sent.query,
            ...report,
            lines,
            refreshed: !notRefreshed,
            ...(lag ? { countMayLag: lag } : {}),
          });
        else out(`${id} is gone\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
        return EXIT.ok;
      }
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default tasks;
