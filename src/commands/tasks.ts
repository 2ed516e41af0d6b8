// shardeck tasks [TASK_ID] [--json] | tasks --all [--json] | tasks cancel ID | tasks rethrottle ID --rps N
// Re-attach to a delete-by-query or force merge after the TUI or the SSH session was closed:
// without an id, the running ones; with an id, its status (finished tasks are read from the
// node's task results). A delete whose task is gone is counted from its audit record, after a
// guarded refresh; in read-only mode without one (the output says the count may lag).
// --all: every task the nodes run (the Tasks pane's read), parents with their children folded.
// cancel / rethrottle: the Tasks pane's keys as commands, through the Guard (preview, audit,
// exactly that task id, never retried); a task that writes needs its id typed to be cancelled.
import { lostDeleteReport, recordedDelete } from '../domain/delete/report';
import { afterLine, isTaskId, progressLine, taskState, type TaskProgress } from '../domain/delete/task';
import { ConnError } from '../cluster/connection';
import { readAudit } from '../services/audit';
import { countLagNote, GONE_TASK, refreshIndex } from '../services/delete-by-query';
import { recordTaskEnd } from '../services/timeline';
import { taskEndResult } from '../domain/timeline';
import type { AuditRecord } from '../domain/mutation/audit';
import type { Confirmation } from '../domain/mutation/confirmation';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { err, out } from './support/output';
import { displayText } from '../domain/text/display-text';
import { taskLines, taskStatusLine, type TaskLine } from '../domain/panes/tasks';
import { parseRequestsPerSecond } from '../domain/wizards/delete';
import type { TaskControlState } from '../domain/wizards/task-control';
import { taskControlSession } from '../services/wizards/task-control';
import { formatMillis } from '../domain/panes/nodes';
import { confirmOnTerminal, MUTATION_OPTIONS, previews, printPreviews, warnAudit } from './support/guarded';
import type { CommandContext } from './support/common';

const NAME = 'tasks';

function describe(p: TaskProgress): string {
  const state = taskState(p);
  // The running time first, as --all and the Tasks pane say it (issue 47 item 10).
  const lines = [
    `${formatMillis(p.runningMillis).padStart(7)}  ${p.id} ${p.action} ${state}${p.description ? ` — ${displayText(p.description)}` : ''}`,
  ];
  if (/byquery/.test(p.action)) lines.push(`  ${progressLine(p)}`);
  for (const f of p.failures.slice(0, 3)) lines.push(`  failure: ${displayText(f)}`);
  return lines.join('\n') + '\n';
}

/** The refresh belongs to the delete the operator confirmed (typed its count, --yes, or a key): it carries that confirmation. */
function carriedConfirmation(by: AuditRecord['confirmedBy'], previewed: number): Confirmation {
  if (by === 'typed') return { by: 'typed', text: String(previewed) };
  return by === 'yes-flag' ? { by: 'yes-flag' } : { by: 'key' };
}

/** One task of --all: running time, node, action (+ folded children), cancellable, description, progress. */
function allLine(t: TaskLine): string {
  const kids = t.children.length ? ` (+${t.children.length})` : '';
  const head = `${formatMillis(t.runningMillis).padStart(7)}  ${displayText(t.id)}  ${displayText(t.nodeName)}  ${displayText(t.action)}${kids}`;
  const flags = [t.cancelled ? 'cancelling' : t.cancellable ? 'cancellable' : 'not cancellable'];
  const status = taskStatusLine(t);
  const desc = t.description ? `  ${displayText(t.description)}` : '';
  return `${head}  [${flags.join(', ')}]${desc}\n${status ? `         ${status}\n` : ''}`;
}

async function listAll(values: CommandContext['values']): Promise<number> {
  const json = Boolean(values.json);
  const { es, close } = await openGuard(values);
  try {
    const [list, nodes] = await Promise.all([es.data('tasks'), es.data('nodes')]);
    const lines = taskLines(list, nodes).sort((a, b) => b.runningMillis - a.runningMillis);
    if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, tasks: lines });
    else out(lines.length ? lines.map(allLine).join('') : 'no task is running\n');
    return EXIT.ok;
  } catch (e) {
    return reportFailure(NAME, e, json);
  } finally {
    await close();
  }
}

/** tasks cancel ID / tasks rethrottle ID --rps N: the task read first, refused when it cannot be, then one guarded request. */
async function control(verb: 'cancel' | 'rethrottle', args: string[], values: CommandContext['values']): Promise<number> {
  const json = Boolean(values.json);
  const [id, ...extra] = args;
  if (id === undefined || extra.length || !isTaskId(id))
    return usageError(NAME, `give one task id as node:number (shardeck tasks --all lists them): shardeck tasks ${verb} abc123:4567`, json);
  const rate = verb === 'rethrottle' ? parseRequestsPerSecond(String(values.rps ?? '')) : null;
  if (verb === 'rethrottle' && values.rps === undefined)
    return usageError(NAME, 'give the new rate: --rps N (documents per second, or -1 for no throttle)', json);
  if (rate && !rate.ok) return usageError(NAME, rate.error, json);
  if (verb === 'cancel' && values.rps !== undefined) return usageError(NAME, '--rps is for rethrottle', json);
  const { es, guard, close } = await openGuard(values);
  try {
    guard.assertWritable();
    // The Tasks pane's session: the task read, the refusal, the rate, the plan (one workflow).
    const session = taskControlSession(es, guard, verb, id, verb === 'rethrottle' ? String(values.rps) : '');
    let state: TaskControlState = await session.idle();
    if (state.phase === 'failed') {
      const e = session.failure(state.message);
      if (e instanceof ConnError && e.status === 404)
        return usageError(NAME, `the node knows no task ${id}: check the id (shardeck tasks --all)`, json);
      throw e;
    }
    if (state.phase === 'nothing') {
      if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: state.message, task: state.task });
      else err(`shardeck ${NAME}: ${displayText(state.message)}\n`);
      return EXIT.failed;
    }
    if (state.phase === 'review') {
      session.send({ type: 'submit' });
      state = session.getState();
    }
    if (state.phase !== 'confirming') throw new Error(`unexpected state ${state.phase}`);
    const { plan, task: p } = state;
    const requests = previews(guard, [plan]);
    const head = { schema: JSON_SCHEMA, command: NAME, action: verb, task: id, taskAction: p.action, requests };
    if (!json) printPreviews(requests);
    if (values['dry-run']) {
      if (json) printJson({ ...head, ok: true, dryRun: true, sent: false });
      else out('dry run: nothing was sent\n');
      return EXIT.ok;
    }
    // The id on the command line is what a writing task's cancel asks to be typed: --yes carries it.
    const confirmation = await confirmOnTerminal(NAME, [plan], values, plan.confirmText);
    if (!confirmation) return EXIT.failed;
    session.send({ type: 'confirm', confirmation });
    const end = await session.idle();
    if (end.phase !== 'done') throw end.phase === 'failed' ? session.failure(end.message) : new Error(`unexpected state ${end.phase}`);
    const r = end.result;
    if (r.applied === undefined) {
      // The Guard refused it: nothing was sent.
      if (json) printJson({ ...head, ok: false, error: r.message, sent: false });
      else err(`shardeck ${NAME}: ${displayText(r.message)}\n`);
      return EXIT.failed;
    }
    warnAudit(r.auditWarning);
    const ok = r.applied === 'yes';
    const after = end.after;
    if (json) printJson({ ...head, ok, ...(ok ? {} : { error: r.message }), sent: true, applied: r.applied, ...(after ? { after } : {}) });
    else {
      out(`${ok ? 'ok' : 'FAILED'}: ${plan.summary}: ${r.message}\n`);
      if (after) out(`  now: ${afterLine(verb, after)}\n`);
    }
    return ok ? EXIT.ok : EXIT.failed;
  } catch (e) {
    return reportFailure(NAME, e, json);
  } finally {
    await close();
  }
}

const tasks: CommandModule = {
  summary:
    'Show running delete-by-query and force-merge tasks, or the status of one (re-attach after the session was closed); --all: every task; cancel or rethrottle one.',
  usage:
    'usage: shardeck tasks [TASK_ID] [--json] | shardeck tasks --all [--json] | shardeck tasks cancel TASK_ID [--yes] [--dry-run] [--json] | shardeck tasks rethrottle TASK_ID --rps N [--yes] [--dry-run] [--json]   (TASK_ID as printed by delete-by-query or --all, e.g. abc123:4567)',
  options: { ...MUTATION_OPTIONS, all: { type: 'boolean' }, rps: { type: 'string' } },
  group: 'inspect',
  flagHelp: {
    all: 'every task the nodes run, not only deletes and merges (parents with their children folded)',
    rps: 'rethrottle: the new rate in documents per second (-1: no throttle)',
    yes: 'confirm without asking (a task that writes: the id given is its typed confirmation)',
    'dry-run': 'cancel / rethrottle: show the request and send nothing',
  },
  examples: ['shardeck tasks --all', 'shardeck tasks rethrottle abc123:4567 --rps 500', 'shardeck tasks cancel abc123:4567'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [id, ...extra] = positionals;
    if (id === 'cancel' || id === 'rethrottle') return control(id, extra, values);
    if (values.rps !== undefined || values.yes || values['dry-run'])
      return usageError(NAME, '--rps, --yes and --dry-run go with tasks cancel / tasks rethrottle', json);
    if (values.all) {
      if (positionals.length) return usageError(NAME, '--all lists every task: give no task id with it', json);
      return listAll(values);
    }
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
        recordTaskEnd(guard.previewConnection.url, id, `lost: ${GONE_TASK}`);
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
